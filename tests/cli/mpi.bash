# Helpers for the MPI tests (sourced after lib.bash): launching ranks and reading the mpi/stat
# records of a profile.

[ -x "$SG_BUILD/lib/libscalegate-mpi.so" ] && pass ||
	fail "libscalegate-mpi was not built (is mpicc installed? see 'make' output)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI's own allocations, races and lock orders are not ours to report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
printf '%s\n' deadlock:libmpi.so deadlock:libopen-pal.so deadlock:mca_ race:libmpi.so \
	race:libopen-pal.so \
	race:libopen-rte.so race:mca_ >"$T/tsan-openmpi.supp"
export TSAN_OPTIONS="suppressions=$T/tsan-openmpi.supp ${TSAN_OPTIONS:-}"

# The LD_PRELOAD value that loads libscalegate-mpi.so (after the sanitizer runtime in a sanitizer
# build: it must come first).
preload=$SG_BUILD/lib/libscalegate-mpi.so
case " ${SG_SAN_FLAGS:-} " in
*-fsanitize=address*) preload="$(cc -print-file-name=libasan.so) $preload" ;;
*-fsanitize=thread*) preload="$(cc -print-file-name=libtsan.so) $preload" ;;
esac

# ranks N DIR PROGRAM ARGS...: runs PROGRAM on N ranks with SCALEGATE_OUT=DIR (2 cores:
# oversubscribed, unbound). The ranks write their own profiles (SCALEGATE_PER_RANK=1), which these
# tests read, unless the caller sets SCALEGATE_PER_RANK (empty: the job's one reduced profile).
ranks() {
	local n=$1 dir=$2
	shift 2
	SCALEGATE_PER_RANK=${SCALEGATE_PER_RANK-1} SCALEGATE_OUT=$dir timeout 300 mpirun \
		--oversubscribe --bind-to none -np "$n" "$@"
}

# rank_profile DIR R: the profile of rank R in DIR (exactly one).
rank_profile() {
	local files=("$1"/rank$(printf %05d "$2").*.sgprof)
	[ ${#files[@]} -eq 1 ] && [ -f "${files[0]}" ] && pass ||
		fail "expected one profile of rank $2 in $1, found: ${files[*]}"
	echo "${files[0]}"
}

# expect_profiles DIR N: one profile per rank, each with its rank, the size and mpi = pmpi.
expect_profiles() {
	local dir=$1 n=$2 got
	got=$(find "$dir" -name '*.sgprof' | wc -l)
	[ "$got" -eq "$n" ] && pass || fail "$n ranks wrote $got profiles into $dir"
	for ((r = 0; r < n; r++)); do
		local p
		p=$(rank_profile "$dir" $r)
		[ "$(meta "$p" rank)" = "$r" ] && pass ||
			fail "$p: meta rank is '$(meta "$p" rank)', expected $r"
		[ "$(meta "$p" ranks)" = "$n" ] && pass ||
			fail "$p: meta ranks is '$(meta "$p" ranks)', expected $n"
		[ "$(meta "$p" mpi)" = pmpi ] && pass ||
			fail "$p: meta mpi is '$(meta "$p" mpi)', expected pmpi"
	done
}

# meta PROFILE KEY
meta() {
	awk -F'\t' -v k="$2" '$1 == "meta" && $2 == k { print $3 }' "$1"
}

# The awk prelude that names nodes by path (program/iteration/allreduce) and maps the column names.
SG_AWK_PATHS='
	$1 == "region" { name[$2] = $3 }
	$1 == "node" {
		path[$2] = ($3 == "-" ? "" : path[$3] "/") name[$4] ($5 == "-" ? "" : "[" $5 "]") }
	$1 == "columns" { for (i = 3; i <= NF; i++) col[$2, $i] = i - 1 }
'

# mpi_value PROFILE PATH KIND COLUMN: COLUMN (count, time, wait, bytes_sent, bytes_recv) of the mpi
# records of KIND in the node PATH, summed over threads; 0 when there is none, '-' when not
# captured.
mpi_value() {
	awk -F'\t' -v want="$2" -v kind="$3" -v c="$4" "$SG_AWK_PATHS"'
		$1 == "mpi" && path[$2] == want && $4 == kind {
			v = $(col["mpi", c]); if (v == "-") dash = 1; else s += v; n++ }
		END { if (dash) print "-"; else printf "%.9g\n", s }' "$1"
}

# mpi_threads PROFILE PATH KIND: the number of threads with mpi records of KIND in PATH.
mpi_threads() {
	awk -F'\t' -v want="$2" -v kind="$3" "$SG_AWK_PATHS"'
		$1 == "mpi" && path[$2] == want && $4 == kind { t[$3] = 1 }
		END { n = 0; for (k in t) n++; print n }' "$1"
}

# stat_value PROFILE PATH COLUMN [main]: COLUMN (count, time, ...) of the stat records of PATH,
# summed over threads (with 'main': of the main thread only).
stat_value() {
	awk -F'\t' -v want="$2" -v c="$3" -v only="${4:-}" "$SG_AWK_PATHS"'
		$1 == "thread" { kind[$2] = $4 }
		$1 == "stat" && path[$2] == want && (only == "" || kind[$3] == only) {
			s += $(col["stat", c]) }
		END { printf "%.9g\n", s }' "$1"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] && pass || fail "$1: got $2, expected $3"
}

# expect_between WHAT VALUE LOW HIGH (numbers, inclusive)
expect_between() {
	awk -v v="$2" -v lo="$3" -v hi="$4" \
		'BEGIN { exit !(v != "-" && v + 0 >= lo && v + 0 <= hi) }' && pass ||
		fail "$1: got $2, expected between $3 and $4"
}
