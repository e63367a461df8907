# Helpers for the OMPT tests (sourced after lib.bash): programs built by clang for LLVM's libomp
# (Makefile: OMPT).

# clang and libomp are test dependencies (ci/install-deps.sh): missing, the tests fail, they do not
# skip.
command -v "${CLANG:-clang}" >/dev/null && pass ||
	fail "clang is not installed (ci/install-deps.sh installs clang and libomp-dev)"
for v in static shared plain; do
	for p in omp_known imbalance; do
		msg="$SG_BUILD/ompt/$v/$p was not built: 'make all-tests' (needs clang, libomp-dev)"
		[ -x "$SG_BUILD/ompt/$v/$p" ] && pass ||
			fail "$msg"
	done
done
[[ $(ldd "$SG_BUILD/ompt/static/omp_known") == *libomp.so* ]] && pass ||
	fail "the OMPT test programs do not run on LLVM's libomp"

export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
# libomp is not built with ThreadSanitizer: its own pthread mutexes, seen half, are not ours to
# report. (Interceptors called from libomp are ignored; the tracer's callbacks are still checked.)
echo 'called_from_lib:libomp.so.5' >"$T/tsan-libomp.supp"
export TSAN_OPTIONS="suppressions=$T/tsan-libomp.supp ${TSAN_OPTIONS:-}"
unset OMP_TOOL OMP_TOOL_LIBRARIES

# The LD_PRELOAD value that loads libscalegate.so (after the sanitizer runtime in a sanitizer build:
# it must come first).
ompt_preload=$SG_BUILD/lib/libscalegate.so
case " ${SG_SAN_FLAGS:-} " in
*-fsanitize=address*) ompt_preload="$(cc -print-file-name=libasan.so):$ompt_preload" ;;
*-fsanitize=thread*) ompt_preload="$(cc -print-file-name=libtsan.so):$ompt_preload" ;;
esac

# ompt_run VARIANT PROGRAM ARGS...: runs build/ompt/VARIANT/PROGRAM with SCALEGATE_OUT (preloading
# the tracer into a plain one); its profile is in $out as tsv lines, and must say how OpenMP was
# captured ($OMPT_MODE, default ompt).
ompt_run() {
	local v=$1 prog=$2
	shift 2
	rm -rf "$T/out"
	if [ "$v" = plain ]; then
		LD_PRELOAD=$ompt_preload SCALEGATE_OUT="$T/out" "$SG_BUILD/ompt/$v/$prog" "$@" \
			>/dev/null
	else
		SCALEGATE_OUT="$T/out" "$SG_BUILD/ompt/$v/$prog" "$@" >/dev/null
	fi
	out=$(tsv "$T/out")
	grep -q $'^meta\tomp\t'"${OMPT_MODE:-ompt}"'$' "$T"/out/*.sgprof && pass ||
		fail "$v/$prog $*: the profile says $(grep $'^meta\tomp\t' \
			"$T"/out/*.sgprof), expected omp ${OMPT_MODE:-ompt}"
}

# ompt_cc SOURCE OUTPUT: builds an OpenMP program with clang for libomp, linked with the static
# tracer (as the Makefile's OMPT rules do, GCC's sanitizer runtime first in a sanitizer build).
ompt_cc() {
	local rt=()
	case " ${SG_SAN_FLAGS:-} " in
	*-fsanitize=address*) rt=("$(cc -print-file-name=libasan.so)") ;;
	*-fsanitize=thread*) rt=("$(cc -print-file-name=libtsan.so)") ;;
	*-fsanitize=undefined*) rt=("$(cc -print-file-name=libubsan.so)") ;;
	esac
	"${CLANG:-clang}" -std=c11 -O2 -g -fopenmp -I"$SG_TOP/tracer" "${rt[@]}" "$1" -o "$2" \
		"$SG_BUILD/lib/libscalegate.a" -pthread -ldl -lm
}
