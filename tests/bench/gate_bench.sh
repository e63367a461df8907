#!/bin/bash
# The gate's own figures (make bench): whole 'scalegate ci' runs with the shipped default rules
# (repeat 5, adaptive repeats up to 20) on the Jacobi example, judging real code changes made by the
# example's knobs (examples/jacobi.c), not an injected spin:
#   A/A          nothing changed (the false-alarm rate of the whole gate run)
#   work +10%    every thread's parallel work in 'sweep' +10 % (uniform: time +10 %, speedup
# unchanged)   serial +10%  before each sweep one thread does 10 % of a sweep's work alone (serial
# code)   critical     a critical section around the sweep's rows
#   imbalance    3:1 between the two threads of the static schedule
#   threads x2   the head starts twice the threads on the same cores (oversubscription is the
# program's)   work +25%    as work +10 %, stored mode only (the size the stored mode is meant to
# see across loads)   prk single   a PRK Stencil-shaped program (tests/tracer/fused.c: one parallel
# region around the                iterations): its update loop's 'omp for' turned into an 'omp
# single'; A/B mode only
#   row_*        an assembly loop (tests/tracer/rowupdate.c) whose row add goes under a critical
#                section or eight block locks instead of a private copy (issue 33's shape)
# in A/B mode (--against-dir: base and head trees interleaved round by round)
# and against a stored baseline recorded once on the machine as it is, first on the machine as it
# is, then with two CPU-bound neighbour processes on its 2 cores. Prints per cell the gates that
# failed, with 95 % Wilson intervals, and the median wall time of a gate run; the imbalance cells
# also the median Load_balance of 'sweep' at p = 2 that the gates read (head side).
#   usage: tests/bench/gate_bench.sh BUILD_DIR
#   SG_BENCH_SETS=N gates per cell (default 3; the README's figures: 20), SG_BENCH_AA=N A/A gates
# per   mode and condition (default SG_BENCH_SETS; the README's: 25, i.e. 100 in all);
# SG_BENCH_ONLY=GLOB   runs only the cells whose "condition/mode/change" matches (e.g.
# '+2hogs/ab/*', or several:   '@(+2hogs/*|as-is/ab/A?A)'); SG_BENCH_KEEP=DIR
#   keeps each gate's log there
set -euo pipefail
B=$(cd "${1:?usage: gate_bench.sh BUILD_DIR}" && pwd)
SETS=${SG_BENCH_SETS:-3}
AA=${SG_BENCH_AA:-$SETS}
SG=$B/bin/scalegate
T=$(mktemp -d)
hogs=()
trap '[ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null; rm -rf "$T"' EXIT

# Two trees with the same layout: run.sh exports knob.env (the "revision") and runs the example.
for side in base head; do
	mkdir -p "$T/$side"
	printf '#!/bin/sh\nset -a\n. "$(dirname "$0")/knob.env"\nset +a\nexec "$@"\n' \
		>"$T/$side/run.sh"
	chmod +x "$T/$side/run.sh"
	: >"$T/$side/knob.env"
done
cat >"$T/head/scalegate.yml" <<YML
results: results
baselines: baselines
reports: {dir: reports}
defaults:
  env: {OMP_WAIT_POLICY: passive}
benchmarks:
  - name: jacobi
    command: ./run.sh $B/examples/jacobi {threads} 600 100
    threads: [1, 2]
YML
# its own results and reports: the two configurations' gates do not replace each other's
sed -e 's|command: .*|command: ./run.sh '"$B"'/tests/tracer/fused 40 400000|' \
	-e 's|name: jacobi|name: prk|' \
	-e 's|^results: results|results: results-prk|' -e 's|dir: reports|dir: reports-prk|' \
	"$T/head/scalegate.yml" >"$T/head/prk.yml"
# an assembly loop (tests/tracer/rowupdate.c): each thread adds its rows into one shared vector
sed -e 's|command: .*|command: ./run.sh '"$B"'/tests/tracer/rowupdate {threads} 600 20|' \
	-e 's|name: jacobi|name: rowupdate|' -e 's|^results: results|results: results-row|' \
	-e 's|dir: reports|dir: reports-row|' "$T/head/scalegate.yml" >"$T/head/row.yml"

declare -A changes=(
	[A/A]=""
	[work+10%]="SG_KNOB_WORK_PCT=10"
	[serial+10%]="SG_KNOB_SERIAL_PCT=10"
	[critical]="SG_KNOB_CRITICAL=1"
	[imbalance3:1]="SG_KNOB_IMBALANCE=3"
	[threads_x2]="SG_KNOB_THREADS_X=2"
	[work+25%]="SG_KNOB_WORK_PCT=25"
	[prk_single]="SG_KNOB_SINGLE=1"
	[row_A/A]=""
	[row_critical]="SG_KNOB_CRITICAL=1"
	[row_locks8]="SG_KNOB_LOCKS=8"
)
order=("A/A" "work+10%" "serial+10%" "critical" "imbalance3:1" "threads_x2" "work+25%" "prk_single"
	"row_A/A" "row_critical" "row_locks8")
# the cells a mode skips, and the changes judged on the PRK-shaped program's configuration
declare -A skip=([ab/work+25%]=1 [stored/prk_single]=1)
declare -A config=([prk_single]=prk.yml [row_A/A]=row.yml [row_critical]=row.yml
	[row_locks8]=row.yml)

# wilson K N: "K/N [lo, hi] %"
wilson() {
	awk -v k="$1" -v n="$2" 'BEGIN {
		if (n == 0) { print "-"; exit }
		z = 1.96; p = k / n; d = 1 + z * z / n; c = (p + z * z / (2 * n)) / d
		h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
		printf "%d/%d [%.0f, %.0f] %%", k, n, 100 * (c - h < 0 ? 0 : c - h),
			100 * (c + h > 1 ? 1 : c + h) }'
}

# median [FORMAT]: the median of the numbers on stdin (printf FORMAT, default %.1f)
median() {
	re='{ v[NR] = $1 } END { if (!NR) print "-"; else printf f, NR % 2 ? '
	re+='v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
	sort -g | awk -v f="${1:-%.1f}" "$re"
}

# gate MODE CONFIG: one whole gate run of the head as knob.env says; prints "EXIT SECONDS"
gate() {
	local start=$SECONDS code=0 args=()
	[ "$1" = ab ] && args=(--against-dir "$T/base")
	(cd "$T/head" && "$SG" ci -c "$2" --no-post --all "${args[@]}") >"$T/last.log" 2>&1 || \
		code=$?
	echo "$code $((SECONDS - start))"
}

# load_balance: the median Load_balance of 'sweep' at p = 2 in the last gate's head results
load_balance() {
	"$SG" analyze --json "$T/head/results" 2>/dev/null | python3 -c '
import json, sys
for i in json.load(sys.stdin)["intervals"]:
    for c in i["configurations"] if i["interval"].endswith("sweep") else []:
        if c["p"] == 2:
            print(c["characteristics"]["Load_balance"]["median"])' || true
}

# cell CONDITION MODE CHANGE N: N gates; prints the row
cell() {
	local caught=0 errors=0 n=0 times=() balance=() lb=""
	# shellcheck disable=SC2053
	[[ -z ${SG_BENCH_ONLY:-} || "$1/$2/$3" == $SG_BENCH_ONLY ]] || return 0
	[ -z "${skip[$2/$3]:-}" ] || return 0
	echo "${changes[$3]}" >"$T/head/knob.env"
	for ((i = 0; i < $4; i++)); do
		read -r code secs < <(gate "$2" "$T/head/${config[$3]:-scalegate.yml}")
		n=$((n + 1))
		times+=("$secs")
		[ -z "${SG_BENCH_KEEP:-}" ] || cp "$T/last.log" \
			"$SG_BENCH_KEEP/$1-$2-${3//\//_}-$i-exit$code.log"
		[ "$3" != imbalance3:1 ] || balance+=("$(load_balance)")
		case $code in
		0) ;;
		1) caught=$((caught + 1)) ;;
		*) errors=$((errors + 1)); tail -n 3 "$T/last.log" >&2 ;;
		esac
	done
	[ ${#balance[@]} -eq 0 ] || lb="; Load_balance $(printf '%s\n' "${balance[@]}" | median \
		%.2f)"
	printf '| %s | %s | %s | %s | %d | %s s%s |\n' "$1" "$2" "$3" "$(wilson "$caught" "$n")" \
		"$errors" \
		"$(printf '%s\n' "${times[@]}" | median)" "$lb"
}

msg="== the gate on real code changes: jacobi 600x600 x 100, p = 1, "
msg+="2; shipped defaults, repeat 5, adaptive"
echo "$msg"
echo "   up to 20; $SETS gates per cell, $AA per A/A cell (SG_BENCH_SETS, SG_BENCH_AA)"
echo "-- stored baseline recorded on the machine as it is"
: >"$T/head/knob.env"
for yml in scalegate.yml row.yml; do
	(cd "$T/head" && "$SG" run -c $yml >/dev/null 2>&1 &&
		"$SG" baseline update -c $yml >/dev/null 2>&1) ||
		echo "baseline update of $yml failed: its stored-mode cells judge without one"
done
echo "| machine | mode | change | gates that failed | errors | median gate run |"
echo "| --- | --- | --- | --- | --- | --- |"
for condition in as-is +2hogs; do
	if [ "$condition" = +2hogs ]; then
		for h in 1 2; do
			sh -c 'while :; do :; done' &
			hogs+=($!)
		done
	fi
	for mode in ab stored; do
		for change in "${order[@]}"; do
			cell "$condition" "$mode" "$change" "$([ "$change" = A/A ] && echo "$AA" \
				|| echo "$SETS")"
		done
	done
done
