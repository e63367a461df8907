# Shared helpers for the command-line tests (sourced). SG_TOP, SG_BUILD and SCALEGATE come from tests/run.sh.
set -euo pipefail
: "${SG_TOP:?run through tests/run.sh}"
T=$(mktemp -d)
# SG_KEEP=1 keeps the test's scratch directory for a post-mortem.
trap '[ -n "${SG_KEEP:-}" ] && echo "kept $T" >&2 || rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_match TEXT REGEX WHAT: TEXT must contain a line matching the extended REGEX.
expect_match() {
	grep -Eq -- "$2" <<<"$1" || { printf '%s\n' "$1" >&2; fail "$3: no line matches /$2/"; }
}

expect_no_match() {
	! grep -Eq -- "$2" <<<"$1" || { printf '%s\n' "$1" >&2; fail "$3: a line matches /$2/"; }
}

# expect_exit CODE CMD...: runs CMD, which must exit with CODE; its output is in $out.
expect_exit() {
	local want=$1 got=0
	shift
	out=$("$@" 2>&1) || got=$?
	[ "$got" -eq "$want" ] || { printf '%s\n' "$out" >&2; fail "'$*' exited $got, expected $want"; }
}

# traced DIR PROGRAM ARGS...: runs a test program from the build with SCALEGATE_OUT=DIR.
traced() {
	local dir=$1 prog=$2
	shift 2
	SCALEGATE_OUT=$dir "$SG_BUILD/tests/tracer/$prog" "$@"
}

# the single profile in DIR
one_profile() {
	local files=("$1"/*.sgprof)
	[ ${#files[@]} -eq 1 ] && [ -f "${files[0]}" ] || fail "expected one profile in $1, found: ${files[*]}"
	echo "${files[0]}"
}

# tsv DIR: every profile in DIR as 'scalegate profile --tsv' lines (header lines dropped).
tsv() {
	"$SCALEGATE" profile --tsv "$1"/*.sgprof | grep -v '^file	'
}

# col TSV PATH THREAD COLUMN: one value from tsv output (columns named as in PROFILE.md).
col() {
	awk -F'\t' -v path="$2" -v thread="$3" -v name="$4" '
		BEGIN { n = split("file path thread omp_thread count time min max sumsq par omp_barrier omp_idle omp_lock omp_regions", h, " ")
			for (i = 1; i <= n; i++) idx[h[i]] = i }
		$2 == path && $3 == thread { print $idx[name]; found = 1; exit }
		END { if (!found) print "missing" }' <<<"$1"
}

# approx VALUE LOW HIGH WHAT: LOW <= VALUE <= HIGH (decimals).
approx() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "missing" && v >= lo && v <= hi) }' ||
		fail "$4: $1 is not within [$2, $3]"
}

# retry N FUNCTION ARGS...: runs FUNCTION up to N times, until one run passes (each in a subshell,
# where 'fail' ends only that attempt). For timings a busy machine can spoil; a real fault fails N times.
retry() {
	local n=$1 i rc
	shift
	for ((i = 1; i <= n; i++)); do
		set +e
		(
			set -e
			"$@"
		)
		rc=$?
		set -e
		[ $rc -eq 0 ] && return 0
		echo "(attempt $i of $n failed)" >&2
		[ $i -eq $n ] || sleep $i # let a burst of load pass
	done
	fail "$1: failed $n times"
}
