#!/usr/bin/env bash
# Runs every unit test binary and command-line test script; prints one line per test and a summary.
# usage: tests/run.sh BUILD_DIR [PATTERN]
set -u
B=${1:?usage: tests/run.sh BUILD_DIR [PATTERN]}
pattern=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$B" && pwd)
export SG_TOP=$top SG_BUILD=$B SCALEGATE="$B/bin/scalegate"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
unset SCALEGATE_OUT
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
passed=0 failed=0 failures=()

run_one() {
	local name=$1; shift
	[ -n "$pattern" ] && [[ $name != *$pattern* ]] && return
	local log="$logs/${name//\//_}.log" start=$SECONDS
	if (cd "$top" && "$@") >"$log" 2>&1; then
		passed=$((passed + 1))
		printf 'ok    %-48s %3ds\n' "$name" $((SECONDS - start))
	else
		failed=$((failed + 1))
		failures+=("$name")
		printf 'FAIL  %-48s %3ds\n' "$name" $((SECONDS - start))
		sed 's/^/      | /' "$log" | tail -n 60
	fi
}

for t in "$B"/tests/unit/test-*; do
	[ -x "$t" ] && run_one "unit/$(basename "$t")" "$t"
done
for t in "$top"/tests/cli/*.sh; do
	[ -f "$t" ] && run_one "cli/$(basename "$t" .sh)" bash "$t"
done

echo
[ $failed -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
