/*
 * The in-job reduction's subject for make bench (tests/bench/reduce_bench.sh): 100 intervals on
 * every rank (10 phases of 9 steps, one with an allreduce), then, as a yardstick for the
 * reduction's cost at this rank count on this machine, the median of 9 MPI_Allreduce of one
 * double (PMPI, after a barrier), printed by rank 0 in microseconds. MPI_Finalize then reduces
 * the ranks' profiles into one.
 */
#include <mpi.h>
#include <stdio.h>

#include "bench.h"
#include "scalegate.h"

#define PHASES 10
#define STEPS 9
#define RUNS 9

static volatile double sink;

int main(int argc, char **argv)
{
	double x = 1, y, t[RUNS];
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int p = 0; p < PHASES; p++) {
		SG_BEGIN_TAG("phase", p);
		for (int s = 0; s < STEPS; s++) {
			SG_BEGIN_TAG("step", s);
			for (int i = 0; i < 2000; i++)
				sink += i * 0.5;
			if (!s)
				MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			SG_END("step");
		}
		SG_END("phase");
	}
	for (int r = 0; r < RUNS; r++) {
		PMPI_Barrier(MPI_COMM_WORLD);
		t[r] = bench_now();
		PMPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		t[r] = bench_now() - t[r];
	}
	if (!rank)
		printf("allreduce_us %.1f\n", bench_median(t, RUNS) * 1e6);
	MPI_Finalize();
	return 0;
}
