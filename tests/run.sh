#!/usr/bin/env bash
# Runs every unit test binary and command-line test script; prints one line per test and a summary.
# usage: tests/run.sh BUILD_DIR [PATTERN...]   (a test runs when its name contains one of them)
# SG_HOGS=N runs N CPU-bound neighbour processes for the whole run (a busy shared CI machine): the
# tests must pass with them as without (make test-busy).
# A test that exits 77 (automake's convention) was skipped: its last output line says why. Skips are
# counted apart, never as passes nor failures. SG_JUNIT_XSD names the directory of the public JUnit
# schemas (default: ../shared/junit-xsd beside the repository); without them the schema checks skip.
set -u
B=${1:?usage: tests/run.sh BUILD_DIR [PATTERN...]}
shift
patterns=("$@")
top=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$B" && pwd)
export SG_TOP=$top SG_BUILD=$B SCALEGATE="$B/bin/scalegate"
if [ -z "${SG_JUNIT_XSD:-}" ] && [ -d "$top/../shared/junit-xsd" ]; then
	SG_JUNIT_XSD=$(cd "$top/../shared/junit-xsd" && pwd)
fi
export SG_JUNIT_XSD=${SG_JUNIT_XSD:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
unset SCALEGATE_OUT
logs=$(mktemp -d)
hogs=()
trap '[ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null; rm -rf "$logs"' EXIT
for ((h = 0; h < ${SG_HOGS:-0}; h++)); do
	(trap - EXIT; exec sh -c 'while :; do :; done') &
	hogs+=($!)
done
[ ${#hogs[@]} -eq 0 ] || echo "with ${#hogs[@]} CPU-bound neighbour processes (SG_HOGS)"
passed=0 failed=0 skipped=0 failures=()

run_one() {
	local name=$1; shift
	if [ ${#patterns[@]} -gt 0 ]; then
		local p hit=
		for p in "${patterns[@]}"; do [[ $name == *$p* ]] && hit=1; done
		[ -n "$hit" ] || return 0
	fi
	local log="$logs/${name//\//_}.log" start=$SECONDS
	local rc=0
	(cd "$top" && "$@") >"$log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		printf 'ok    %-48s %3ds\n' "$name" $((SECONDS - start))
	elif [ $rc -eq 77 ]; then
		skipped=$((skipped + 1))
		printf 'skip  %-48s %3ds  %s\n' "$name" $((SECONDS - start)) "$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)"
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
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
