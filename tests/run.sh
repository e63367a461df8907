#!/usr/bin/env bash
# Runs every unit test binary and command-line test script; prints one line per test and a summary.
# usage: tests/run.sh BUILD_DIR [PATTERN...]   (a test runs when its name contains one of them)
# SG_TIER=fast|timing runs one tier of tests (see "Two tiers" below).
# SG_HOGS=N runs N CPU-bound neighbour processes for the whole run (a busy shared CI machine): the
# tests must pass with them as without (make test-busy).
# A test that exits 77 (automake's convention) was skipped: its last output line says why. Skips are
# counted apart, never as passes nor failures. SG_JUNIT_XSD names the directory of the public JUnit
# schemas (default: ../shared/junit-xsd beside the repository); without them the schema checks skip
# (SG_JUNIT_XSD= , set and empty, runs the tests as where the schemas are absent).
set -u
B=${1:?usage: tests/run.sh BUILD_DIR [PATTERN...]}
shift
patterns=("$@")
top=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$B" && pwd)
export SG_TOP=$top SG_BUILD=$B SCALEGATE="$B/bin/scalegate"
if [ -z "${SG_JUNIT_XSD+set}" ] && [ -d "$top/../shared/junit-xsd" ]; then
	SG_JUNIT_XSD=$(cd "$top/../shared/junit-xsd" && pwd)
fi
export SG_JUNIT_XSD=${SG_JUNIT_XSD:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# cmocka's unit tests print TAP lines too: one per test function, "ok N - test_name".
export CMOCKA_MESSAGE_OUTPUT=${CMOCKA_MESSAGE_OUTPUT:-TAP}
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

# Two tiers. The fast tier: tests that measure no time and judge nothing by it (unit tests,
# data-driven cases, static checks, a compiler, a schema validator, fuzzers with a per-input limit
# of seconds); they run first, two at a time on the machine's cores, each line printed when its test
# ends, in under two minutes. The timing tier: every other test, and so every one that judges
# measured time; they run alone, in order. A test declares its tier: a unit test is fast unless its
# source has a line '/* tier: timing */'; a command-line test is timing unless it has a line '#
# tier: fast' (a new test runs alone until it says otherwise). SG_TIER=fast or SG_TIER=timing runs
# one tier (make test-fast); unset, both (make test). SG_JOBS=1, or SG_HOGS, runs the fast tier one
# at a time too.
jobs=${SG_JOBS:-2}
[ ${#hogs[@]} -eq 0 ] || jobs=1
case ${SG_TIER:=all} in
fast | timing | all) ;;
*) echo "SG_TIER: fast, timing or unset, not '$SG_TIER'" >&2; exit 2 ;;
esac

# tier_of NAME FILE: the tier a test declares (see above).
tier_of() {
	case $1 in
	unit/*)
		grep -qx '/\* tier: timing \*/' "$top/tests/unit/${1#unit/}.c" 2>/dev/null &&
			echo timing || echo fast
		;;
	*) grep -qx '# tier: fast' "$2" && echo fast || echo timing ;;
	esac
}

selected() {
	local name=$1 p
	[ ${#patterns[@]} -gt 0 ] || return 0
	for p in "${patterns[@]}"; do [[ $name == *$p* ]] && return 0; done
	return 1
}

# run_test NAME CMD...: runs one test, its output into its log, its exit code and seconds into
# NAME's .rc file.
run_test() {
	local name=$1 start=$SECONDS rc=0
	shift
	(cd "$top" && "$@") >"$logs/${name//\//_}.log" 2>&1 || rc=$?
	echo "$rc $((SECONDS - start))" >"$logs/${name//\//_}.rc"
}

# skipped_parts LOG: the parts a test skipped, with their reasons, on one line: a shell test's
# "ok N - what # SKIP why", or cmocka's "not ok N # SKIP test_name" after its own "# what: skipped:
# why".
skipped_parts() {
	awk '/^# .*: skipped: / { why = substr($0, 3); next }
		/^(not )?ok [0-9]+ - .* # SKIP/ { sub(/^(not )?ok [0-9]+ - /, "")
			sub(/ # SKIP:? */, " skipped: "); print; why = ""; next }
		/^(not )?ok [0-9]+ # SKIP/ {
			print why != "" ? why : $NF " skipped"; why = ""; next }
		{ why = "" }' "$1" | paste -sd ';' -
}

# report NAME: its line, counted, with the number of its checks (their "ok N - what" lines) and the
# parts it skipped; a failure with the checks that failed, then the end of its output. SG_VERBOSE=1:
# every check line.
report() {
	local name=$1 log="$logs/${1//\//_}.log" rc secs checks parts
	read -r rc secs <"$logs/${name//\//_}.rc"
	checks=$(grep -Ec '^(not )?ok [0-9]+' "$log")
	parts=$(skipped_parts "$log")
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		printf 'ok    %-48s %3ds  %4d checks%s\n' "$name" "$secs" "$checks" \
			"${parts:+; $parts}"
	elif [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		printf 'skip  %-48s %3ds  %s\n' "$name" "$secs" \
			"$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)"
	else
		failed=$((failed + 1))
		failures+=("$name")
		printf 'FAIL  %-48s %3ds  %4d checks\n' "$name" "$secs" "$checks"
		if grep -E '^not ok' "$log" | grep -vq ' # SKIP'; then
			grep -E '^not ok' "$log" | grep -v ' # SKIP' | sed 's/^/      > /'
		else
			printf '      > not ok - exit %s after %s passing checks, %s\n' \
				"$rc" "$checks" 'none of them failed (a command did)'
		fi
		sed 's/^/      | /' "$log" | tail -n 60
	fi
	[ -z "${SG_VERBOSE:-}" ] || [ "$rc" -ne 0 ] ||
		grep -E '^(not )?ok [0-9]+|^# ' "$log" | sed 's/^/      /'
}

# Every test by name, with its program (a unit test binary, or a command-line script that bash runs)
# and tier.
names=() files=() tiers=()
for t in "$B"/tests/unit/test-*; do
	[ -x "$t" ] && names+=("unit/$(basename "$t")") && files+=("$t")
done
for t in "$top"/tests/cli/*.sh; do
	[ -f "$t" ] && names+=("cli/$(basename "$t" .sh)") && files+=("$t")
done
for i in "${!names[@]}"; do
	tiers[$i]=$(tier_of "${names[$i]}" "${files[$i]}")
done
# launch NAME FILE: runs the test (see run_test).
launch() {
	case $2 in
	*.sh) run_test "$1" bash "$2" ;;
	*) run_test "$1" "$2" ;;
	esac
}

# in_tier I TIER: test I is selected and of TIER, which this run runs.
in_tier() {
	selected "${names[$1]}" && [ "${tiers[$1]}" = "$2" ] &&
		{ [ "$SG_TIER" = all ] || [ "$SG_TIER" = "$2" ]; }
}

declare -A running=()
tier_start=$SECONDS
for i in "${!names[@]}"; do
	name=${names[$i]}
	in_tier "$i" fast || continue
	if [ ${#running[@]} -ge "$jobs" ]; then
		wait -n -p done_pid
		report "${running[$done_pid]}"
		unset "running[$done_pid]"
	fi
	(trap - EXIT; launch "$name" "${files[$i]}") &
	running[$!]=$name
done
for pid in "${!running[@]}"; do
	wait "$pid"
	report "${running[$pid]}"
done
fast_secs=$((SECONDS - tier_start)) fast_ran=$((passed + failed + skipped))
tier_start=$SECONDS
for i in "${!names[@]}"; do
	name=${names[$i]}
	in_tier "$i" timing || continue
	launch "$name" "${files[$i]}"
	report "$name"
done
timing_ran=$((passed + failed + skipped - fast_ran))

echo
[ $fast_ran -eq 0 ] || echo "fast tier: $fast_ran tests in ${fast_secs}s ($jobs at a time)"
[ $timing_ran -eq 0 ] ||
	echo "timing tier: $timing_ran tests in $((SECONDS - tier_start))s (one at a time)"
[ $failed -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
