# Every way a user links the tracer, with a pragma-only program and one that calls omp_*: none
# hangs, measuring or not, and each captures the parallel regions (issue 12: a wrapper that called
# itself).
. "$(dirname "$0")/lib.bash"
export OMP_NUM_THREADS=2 OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
unset OMP_TOOL OMP_TOOL_LIBRARIES LD_PRELOAD

make -s -C "$SG_TOP" --no-print-directory install PREFIX="$T/p" >/dev/null
export PKG_CONFIG_PATH="$T/p/lib/pkgconfig"
pc=$(pkg-config --cflags --libs scalegate)
src=$SG_TOP/tests/link
# The user programs get the sanitizer of the run (its runtime first among preloads, and linked into
# clang programs), but ThreadSanitizer: the installed tracer is the default build, and libgomp's
# fork, join and barriers are invisible to TSan without the tracer's own TSan build (as in
# lang.bash).
san=${SG_SAN_FLAGS:-}
[[ $san == *thread* ]] && san=
san_rt=
case " $san " in
*-fsanitize=address*) san_rt=$(cc -print-file-name=libasan.so) ;;
*-fsanitize=undefined*) san_rt=$(cc -print-file-name=libubsan.so) ;;
esac
preload=${san_rt:+$san_rt:}$T/p/lib/libscalegate.so

# build FORM PROG: the program PROG.c built the way FORM says, as $T/FORM-PROG.
build() {
	local form=$1 prog=$2 exe=$T/$1-$2 c=$src/$2.c
	case $form in
	gcc) cc $san -fopenmp "$c" $pc -o "$exe" ;;
	gcc-O0) cc $san -O0 -fopenmp "$c" $pc -o "$exe" ;;
	# what the README said before: the library after the sources, Debian's --as-needed then
	# drops libgomp
	gcc-bare) cc $san -fopenmp -I"$T/p/include" "$c" -L"$T/p/lib" -Wl,-rpath,"$T/p/lib" \
		-lscalegate -o "$exe" ;;
	g++) g++ $san -x c++ -fopenmp "$c" -x none $pc -o "$exe" ;;
	clang) clang -fopenmp $san_rt "$c" $pc -o "$exe" ;;
	static) cc $san -fopenmp -I"$T/p/include" "$c" "$T/p/lib/libscalegate.a" -pthread -ldl -lm \
		-o "$exe" ;;
	preload) cc $san -fopenmp -DSCALEGATE_DISABLE -I"$T/p/include" "$c" -o "$exe" ;;
	esac && pass || fail "$form: cannot build $prog"
}

# run FORM PROG [OUT]: runs it under a timeout, measuring into OUT when given; $out is its stdout.
run() {
	local form=$1 prog=$2 dir=${3:-} got=0
	local -a env=()
	[ "$form" = preload ] && env+=(LD_PRELOAD="$preload")
	[ -n "$dir" ] && env+=(SCALEGATE_OUT="$dir")
	out=$(timeout 60 env "${env[@]}" "$T/$form-$prog" 2>"$T/err") || got=$?
	[ "$got" -ne 124 ] && pass || fail "$form $prog${dir:+ (measuring)}: hangs"
	[ "$got" -eq 0 ] && pass ||
		fail "$form $prog${dir:+ (measuring)}: exit $got: $(cat "$T/err")"
	[ "$out" = 6 ] && pass ||
		fail "$form $prog${dir:+ (measuring)}: 2 threads x 3 regions gave '$out', not 6"
	[ ! -s "$T/err" ] && pass ||
		fail "$form $prog${dir:+ (measuring)}: wrote to stderr: $(cat "$T/err")"
}

# captured FORM PROG: the three regions, forked from 'work' (or level 0 when preloaded), and the
# worker thread.
captured() {
	local form=$1 prog=$2 path=program/work mode=gomp p
	[ "$form" = preload ] && path=program
	[ "$form" = clang ] && mode=ompt
	p=$(one_profile "$T/out")
	grep -q $'^meta\tomp\t'$mode'$' "$p" && pass ||
		fail "$form $prog: $(grep $'^meta\tomp\t' "$p"), expected $mode"
	tsvout=$("$SCALEGATE" profile --tsv "$p")
	[ "$(col "$tsvout" $path 0 omp_regions)" = 3 ] && pass || { echo "$tsvout" >&2; fail \
		"$form $prog: regions of $path not captured"; }
	[ "$(col "$tsvout" $path 1 time)" != missing ] && pass || { echo "$tsvout" >&2; fail \
		"$form $prog: the worker thread not captured"; }
}

for form in gcc gcc-O0 gcc-bare g++ clang static preload; do
	for prog in pragma calls; do
		build $form $prog
		run $form $prog
		rm -rf "$T/out"
		run $form $prog "$T/out"
		captured $form $prog
	done
done

# No OpenMP runtime at all (here: a libgomp.so.1 that defines nothing): one line naming the fix, no
# hang, and the program runs its regions on one thread.
echo 'int sg_not_a_runtime;' >"$T/fake.c"
mkdir -p "$T/fake"
cc -shared -fPIC "$T/fake.c" -Wl,-soname,libgomp.so.1 -o "$T/fake/libgomp.so.1"
for dir in "" "$T/out2"; do
	got=0
	out=$(timeout 60 env LD_LIBRARY_PATH="$T/fake" ${dir:+SCALEGATE_OUT="$dir"} \
		"$T/gcc-bare-pragma" 2>"$T/err") || got=$?
	[ "$got" -eq 0 ] && pass || fail "without a runtime: exit $got"
	[ "$out" = 3 ] && pass ||
		fail "without a runtime the regions run on one thread: '$out', not 3"
	[ "$(wc -l <"$T/err")" -eq 1 ] && pass ||
		fail "without a runtime: not one line on stderr: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" \
		"^scalegate: error: no OpenMP runtime defines 'GOMP_parallel'.*-Wl,--no-as-needed" \
		"the missing runtime is named with its fix"
done
