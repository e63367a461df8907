#!/usr/bin/env bash
# make bench: prints the tracer's overhead figures (medians over repeated runs, side by side in one process).
set -euo pipefail
B=${1:?usage: tests/bench/run.sh BUILD_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMP_PROC_BIND=false
echo "== tracer overhead (targets: <= 25 ns per pair, flat from 1 to 2 threads, < 1 % kernel slowdown)"
SCALEGATE_OUT=$out "$B/tests/bench/overhead"
echo
echo "== tracer compiled in but not measuring (no SCALEGATE_OUT)"
env -u SCALEGATE_OUT "$B/tests/bench/overhead" pairs
env -u SCALEGATE_OUT "$B/tests/bench/overhead" omp

echo
echo "== scalegate analyze on a large synthetic results directory (target: well under 0.5 s)"
tests/bench/analyze_bench.sh "$B"
