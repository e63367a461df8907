#!/usr/bin/env bash
# make bench: prints the tracer's overhead figures (medians over repeated runs, side by side in one
# process).
set -euo pipefail
B=${1:?usage: tests/bench/run.sh BUILD_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMP_PROC_BIND=false
echo "== tracer overhead (targets: a short enter+exit pair <= 1.05 x a bare TSC pair, flat from"
echo "   1 to 2 threads, < 1 % kernel slowdown; the on-CPU and run-queue clocks are read only past"
echo "   250 us: their cost per long instance)"
SCALEGATE_OUT=$out "$B/tests/bench/overhead"
echo
echo "== tracer compiled in but not measuring (no SCALEGATE_OUT)"
env -u SCALEGATE_OUT "$B/tests/bench/overhead" pairs
env -u SCALEGATE_OUT "$B/tests/bench/overhead" omp

if [ -x "$B/tests/bench/overhead_f" ]; then
	echo
	msg="== Fortran 'use scalegate': a pair by name beside the C API's "
	msg+="pair by handle, interleaved in one process"
	echo "$msg"
	SCALEGATE_OUT=$out "$B/tests/bench/overhead_f"
	echo "== the same, compiled in but not measuring"
	env -u SCALEGATE_OUT "$B/tests/bench/overhead_f"
fi

echo
msg="== Caliper-annotated code (caliper/cali.h of scalegate-caliper) "
msg+="beside SG_BEGIN/SG_END, interleaved in one process"
echo "$msg"
SCALEGATE_OUT=$out "$B/tests/bench/overhead_cali"
echo "== the same, compiled in but not measuring"
env -u SCALEGATE_OUT "$B/tests/bench/overhead_cali"

if [ -x "$B/tests/bench/mpi_overhead" ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	mpi() { mpirun --oversubscribe --bind-to none "$@"; }
	echo
	echo "== cost per MPI call (1 rank: the wrapper's own cost = wrapped+measuring - direct)"
	SCALEGATE_OUT=$out mpi -np 1 "$B/tests/bench/mpi_overhead"
	mpi -np 1 env -u SCALEGATE_OUT "$B/tests/bench/mpi_overhead" | tail -n +2
	msg="== 2 ranks: exact collective waiting (its cost: one "
	msg+="barrier before each collective); calls that"
	echo "$msg"
	msg="   wait for nobody timed on rank 0 alone, with the node's "
	msg+="ranks sharing their arrivals (mpi_sync)"
	echo "$msg"
	SCALEGATE_OUT=$out mpi -np 2 "$B/tests/bench/mpi_overhead"
	SCALEGATE_OUT=$out SCALEGATE_MPI_WAIT=exact mpi -np 2 "$B/tests/bench/mpi_overhead"
fi

echo
tests/bench/reduce_bench.sh "$B"

echo
echo "== scalegate analyze on a large synthetic results directory (target: well under 0.5 s)"
tests/bench/analyze_bench.sh "$B"

echo
tests/bench/gate_bench.sh "$B"

echo
tests/bench/history_bench.sh "$B"
