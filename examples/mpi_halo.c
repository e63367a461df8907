/*
 * mpi_halo: a 1-D heat equation split across MPI ranks; each iteration
 * exchanges one ghost cell with each neighbour (halo), updates the local cells
 * (compute) and agrees on the largest change (allreduce).
 *
 *   usage: mpirun -np RANKS mpi_halo N [ITERATIONS] [--extra-rank1-ms MS]
 *   knob:  --extra-rank1-ms MS (or SG_KNOB_EXTRA_RANK1_MS=MS): rank 1 does MS
 *          milliseconds of extra work (on a CPU) in each iteration before the
 *          allreduce, so every other rank waits about that long inside
 *          MPI_Allreduce (the regression "one rank became slower").
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scalegate.h"

/* This thread's time on a CPU. */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Busy work for 'ms' milliseconds on a CPU: a known amount, whatever the machine; a rank that waits
 * for a CPU meanwhile takes longer, as with any work (not wall time: its delay is the machine's). */
static double extra_work(double ms)
{
	double end = cpu_seconds() + ms * 1e-3, x = 1.0;

	while (cpu_seconds() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

int main(int argc, char **argv)
{
	int rank, ranks, iterations;
	long n;
	const char *knob = getenv("SG_KNOB_EXTRA_RANK1_MS");
	/* SG_KNOB_EXTRA_RANK1_PCT=P: rank 1 computes P % more cells than it owns (tests/cli/gate-defaults.bash) */
	const char *pct_knob = getenv("SG_KNOB_EXTRA_RANK1_PCT");
	double extra_pct = pct_knob ? atof(pct_knob) : 0.0;
	double extra_ms = knob ? atof(knob) : 0.0, sink = 0.0, change = 0.0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	const char *pos[2];
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--extra-rank1-ms") && i + 1 < argc)
			extra_ms = atof(argv[++i]);
		else if (npos < 2)
			pos[npos++] = argv[i];
	}
	n = npos > 0 ? atol(pos[0]) : 0;
	iterations = npos > 1 ? atoi(pos[1]) : 100;
	if (n < ranks || iterations < 1 || extra_ms < 0) {
		if (rank == 0)
			fprintf(stderr, "usage: mpi_halo N [ITERATIONS] [--extra-rank1-ms MS]  (N >= ranks)\n");
		MPI_Finalize();
		return 2;
	}

	/* This rank's cells are u[1..local]; u[0] and u[local+1] are ghost cells. */
	long local = n / ranks + (rank < n % ranks);
	double *u = calloc((size_t)local + 2, sizeof(double));
	double *v = calloc((size_t)local + 2, sizeof(double));
	double *w = extra_pct > 0 ? calloc((size_t)local + 2, sizeof(double)) : NULL;
	int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int right = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;

	if (!u || !v || (extra_pct > 0 && !w)) {
		fprintf(stderr, "mpi_halo: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0)
		u[0] = v[0] = 100.0; /* a hot left end */

	for (int it = 0; it < iterations; it++) {
		SG_BEGIN("iteration");

		SG_BEGIN("halo");
		MPI_Sendrecv(&u[local], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[local + 1], 1, MPI_DOUBLE, right, 1,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		SG_END("halo");

		SG_BEGIN("compute");
		double local_change = 0.0;
		for (long i = 1; i <= local; i++) {
			v[i] = 0.5 * (u[i - 1] + u[i + 1]);
			double d = v[i] > u[i] ? v[i] - u[i] : u[i] - v[i];
			local_change = d > local_change ? d : local_change;
		}
		double *t = u;
		u = v;
		v = t;
		if (rank == 1 && extra_ms > 0)
			sink += extra_work(extra_ms);
		/* the same stencil again over P % of the cells, into a scratch row: the same work, results unchanged */
		for (long i = 1; rank == 1 && i <= (long)(local * extra_pct / 100) && i <= local; i++) {
			w[i] = 0.5 * (v[i - 1] + v[i + 1]);
			double d = w[i] > v[i] ? w[i] - v[i] : v[i] - w[i];
			sink = d > sink ? d : sink;
		}
		SG_END("compute");

		SG_BEGIN("allreduce");
		MPI_Allreduce(&local_change, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		SG_END("allreduce");

		SG_END("iteration");
	}

	if (rank == 0)
		printf("mpi_halo: %d ranks, %ld cells, %d iterations, last change %.3g%s\n", ranks, n, iterations,
		       change, sink < 0 ? "!" : "");
	free(u);
	free(v);
	free(w);
	MPI_Finalize();
	return 0;
}
