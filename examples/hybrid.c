/*
 * hybrid: MPI + OpenMP. A 2-D heat equation on an N x N grid split into row
 * blocks across MPI ranks; each rank updates its rows with an OpenMP parallel
 * loop. Each iteration: exchange one boundary row with each neighbour (halo),
 * update (compute), agree on the largest change (allreduce). Only the master
 * thread calls MPI (MPI_THREAD_FUNNELED).
 *
 *   usage: mpirun -np RANKS hybrid THREADS N [ITERATIONS] [--serial-ms MS]
 *   knob:  --serial-ms MS (or SG_KNOB_SERIAL_MS=MS): every rank spends MS
 *          milliseconds per iteration in serial code while its other threads
 *          wait (the regression "the solver now has a serial section").
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scalegate.h"

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Serial busy work for 'ms' milliseconds of wall time. */
static double serial_work(double ms)
{
	double end = seconds() + ms * 1e-3, x = 1.0;

	while (seconds() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

int main(int argc, char **argv)
{
	int provided, rank, ranks, threads, n, iterations;
	const char *knob = getenv("SG_KNOB_SERIAL_MS");
	double serial_ms = knob ? atof(knob) : 0.0, sink = 0.0, change = 0.0;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	const char *pos[3];
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--serial-ms") && i + 1 < argc)
			serial_ms = atof(argv[++i]);
		else if (npos < 3)
			pos[npos++] = argv[i];
	}
	threads = npos > 0 ? atoi(pos[0]) : 0;
	n = npos > 1 ? atoi(pos[1]) : 0;
	iterations = npos > 2 ? atoi(pos[2]) : 50;
	if (provided < MPI_THREAD_FUNNELED || threads < 1 || n < ranks || iterations < 1 || serial_ms < 0) {
		if (rank == 0)
			fprintf(stderr, "usage: hybrid THREADS N [ITERATIONS] [--serial-ms MS]  (N >= ranks)\n");
		MPI_Finalize();
		return 2;
	}
	omp_set_num_threads(threads);

	/* This rank's rows are 1..rows; rows 0 and rows+1 are ghost rows. */
	int rows = n / ranks + (rank < n % ranks);
	size_t cells = (size_t)(rows + 2) * n;
	double *u = calloc(cells, sizeof(double)), *v = calloc(cells, sizeof(double));
	int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int down = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;

	if (!u || !v) {
		fprintf(stderr, "hybrid: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0)
		for (int j = 0; j < n; j++)
			u[j] = v[j] = 100.0; /* a hot top edge */

	for (int it = 0; it < iterations; it++) {
		SG_BEGIN("iteration");

		SG_BEGIN("halo");
		MPI_Sendrecv(&u[(size_t)rows * n], n, MPI_DOUBLE, down, 0, &u[0], n, MPI_DOUBLE, up, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&u[(size_t)n], n, MPI_DOUBLE, up, 1, &u[(size_t)(rows + 1) * n], n, MPI_DOUBLE, down, 1,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		SG_END("halo");

		SG_BEGIN("compute");
		double local_change = 0.0;
#pragma omp parallel for schedule(static) reduction(max : local_change)
		for (int i = 1; i <= rows; i++) {
			for (int j = 1; j < n - 1; j++) {
				size_t c = (size_t)i * n + j;
				v[c] = 0.25 * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1]);
				double d = v[c] > u[c] ? v[c] - u[c] : u[c] - v[c];
				local_change = d > local_change ? d : local_change;
			}
		}
		if (serial_ms > 0)
			sink += serial_work(serial_ms);
		double *t = u;
		u = v;
		v = t;
		SG_END("compute");

		SG_BEGIN("allreduce");
		MPI_Allreduce(&local_change, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		SG_END("allreduce");

		SG_END("iteration");
	}

	if (rank == 0)
		printf("hybrid: %d ranks x %d threads, %d x %d grid, %d iterations, last change %.3g%s\n", ranks,
		       threads, n, n, iterations, change, sink < 0 ? "!" : "");
	free(u);
	free(v);
	MPI_Finalize();
	return 0;
}
