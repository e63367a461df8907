/* Ranks with different interval trees, for the in-job reduction (tests/cli/mpi-reduce.sh):
 * intervals only some ranks open, the same interval nested differently, tags per rank, a
 * collective only some ranks call, OpenMP teams on some ranks only, and ranks that spin longer.
 * usage: trees ITERATIONS [noexit|early|kill]
 *   noexit: every rank returns without MPI_Finalize (the reduction runs at exit)
 *   early:  rank 1 exits without MPI_Finalize while the others work 3 s more
 *   kill:   rank 1 is killed (SIGKILL) before MPI_Finalize
 *   mistake: rank 2 leaves an interval open (an annotation mistake) */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scalegate.h"

static volatile double sink;

static void work(long n)
{
	double s = 0;

	for (long i = 0; i < n; i++)
		s += (double)i * 0.5;
	sink = s;
}

static void step(int rank, int size, MPI_Comm quarter)
{
	double x = rank, y;
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;

	SG_BEGIN("ring");
	work(20000L * (1 + rank % 3));
	MPI_Sendrecv(&x, 1, MPI_DOUBLE, next, 0, &y, 1, MPI_DOUBLE, prev, 0, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	SG_END("ring");
	if (rank % 2 == 0) {
		SG_BEGIN("even_only");
		work(30000);
		SG_END("even_only");
	}
	SG_BEGIN_TAG("part", rank % 3);
	work(10000);
	SG_END("part");
	if (rank % 4 == 0) {
		SG_BEGIN("bcast_some");
		MPI_Bcast(&x, 1, MPI_DOUBLE, 0, quarter);
		SG_END("bcast_some");
	}
	if (rank % 2 == 1) {
		SG_BEGIN("threads");
#pragma omp parallel num_threads(2)
		work(20000);
		SG_END("threads");
	}
	SG_BEGIN("reduce_all");
	MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	SG_END("reduce_all");
}

int main(int argc, char **argv)
{
	int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 10;
	const char *mode = argc > 2 ? argv[2] : "";
	MPI_Comm quarter;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 4 == 0, rank, &quarter);
	SG_BEGIN("solve");
	for (int i = 0; i < iterations; i++)
		step(rank, size, quarter);
	/* the same interval at another place of the tree on rank 1 */
	if (rank == 1) {
		SG_BEGIN("shared");
		work(50000);
		SG_END("shared");
	}
	SG_END("solve");
	if (rank != 1) {
		SG_BEGIN("shared");
		work(50000);
		SG_END("shared");
	}
	MPI_Comm_free(&quarter);
	if (rank == 0)
		printf("trees: %d ranks, %d iterations\n", size, iterations);
	if (rank == 2 && !strcmp(mode, "mistake"))
		SG_BEGIN("left_open");
	if (!strcmp(mode, "noexit") || (rank == 1 && !strcmp(mode, "early")))
		return 0;
	if (rank == 1 && !strcmp(mode, "kill"))
		raise(SIGKILL);
	if (!strcmp(mode, "early") || !strcmp(mode, "kill")) {
		struct timespec ts = { 3, 0 };
		while (nanosleep(&ts, &ts))
			;
	}
	MPI_Finalize();
	return 0;
}
