#!/bin/bash
# The gate's own figures (make bench): on the Jacobi example, the whole-run false-alarm rate of A/A gate runs and
# the power for a 5, 10, 20 and 25 % slowdown injected into one interval (SCALEGATE_INJECT=solve:PCT%), in A/B mode
# (--against-dir) and against a stored baseline recorded before the sets, on the machine as it is and with one
# CPU-bound neighbour process: 'scalegate calibrate --inject' (docs/check.md), whole 'ci' runs with the shipped
# default rules, repeat 5 and adaptive repeats up to 20. Counts with 95 % Wilson intervals.
#   usage: tests/bench/gate_bench.sh BUILD_DIR     SG_BENCH_SETS=N independent sets per cell (default 3)
set -euo pipefail
B=$(cd "${1:?usage: gate_bench.sh BUILD_DIR}" && pwd)
SETS=${SG_BENCH_SETS:-3}
SG=$B/bin/scalegate
T=$(mktemp -d)
neighbour=
trap '[ -n "$neighbour" ] && kill "$neighbour" 2>/dev/null; rm -rf "$T"' EXIT

mkdir -p "$T/head"
cat >"$T/head/scalegate.yml" <<YML
results: results
baselines: baselines
defaults:
  warmup: 1
  max_contention: off             # the loaded half has a neighbour on purpose: no reruns
  repeat: 5
  max_repeat: 20
  adaptive_seconds: 120s
  env: {OMP_WAIT_POLICY: passive}
benchmarks:
  - name: jacobi
    command: $B/examples/jacobi {threads} 600 100
    threads: [1, 2]
YML
cfg=$T/head/scalegate.yml

measure() {
	echo "-- $1"
	# each gate run's exit line goes to a log; a failed calibration says so and the bench goes on
	"$SG" calibrate -c "$cfg" --inject solve:5,10,20,25 -n "$SETS" -o "$T/$1" 2>"$T/$1.err" ||
		{ echo "calibrate failed (exit $?):"; tail -n 5 "$T/$1.err"; }
}

echo "== the gate itself: jacobi 600x600 x 100 (solve ~0.1-0.2 s), p = 1, 2; repeat 5, adaptive up to 20;"
echo "   shipped defaults; $SETS independent sets per cell (SG_BENCH_SETS)"
measure as-is
sh -c 'while :; do :; done' &
neighbour=$!
measure +hog
kill "$neighbour"
neighbour=
