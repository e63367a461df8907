/*
 * MPI programs of the shapes users have, for judging them beside CPU hogs (tests/cli/mpi-busy.sh):
 * a halo exchange (compute, MPI_Sendrecv with both neighbours, MPI_Allreduce of the residual; or
 * with MPI_Irecv, MPI_Isend and MPI_Waitall: 'nonblocking') and an allreduce-bound solver (three
 * dot products a step, little work between). The work is a fixed number of operations, so a rank
 * the machine holds up takes longer, as real work does.
 *
 *   usage: busy halo|nonblocking|solver STEPS [imbalance]
 *   imbalance: rank 0 does three times the work of the others (a 3:1 imbalance)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalegate.h"

#define CELLS 4096

static double u[CELLS + 2], v[CELLS + 2];

/* 'sweeps' Jacobi sweeps over this rank's cells: about 3 µs each. */
static double relax(int sweeps)
{
	double change = 0;

	for (int s = 0; s < sweeps; s++) {
		for (int i = 1; i <= CELLS; i++)
			v[i] = 0.5 * (u[i - 1] + u[i + 1]);
		for (int i = 1; i <= CELLS; i++) {
			double d = v[i] > u[i] ? v[i] - u[i] : u[i] - v[i];
			change = d > change ? d : change;
			u[i] = v[i];
		}
	}
	return change;
}

static double allreduce(double x)
{
	double sum;

	MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return sum;
}

/* One step of the halo exchange: ghost cells from both neighbours, the sweeps, the residual. */
static double halo_step(int rank, int ranks, int sweeps)
{
	int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int right = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;

	SG_BEGIN("exchange");
	MPI_Sendrecv(&u[CELLS], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[CELLS + 1], 1, MPI_DOUBLE, right, 1,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	SG_END("exchange");
	return allreduce(relax(sweeps));
}

/* The same step, the ghost cells exchanged with non-blocking calls. */
static double nonblocking_step(int rank, int ranks, int sweeps)
{
	int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int right = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;
	MPI_Request req[4];

	SG_BEGIN("exchange");
	MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
	MPI_Irecv(&u[CELLS + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
	MPI_Isend(&u[CELLS], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[2]);
	MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[3]);
	MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
	SG_END("exchange");
	return allreduce(relax(sweeps));
}

/* One step of the solver: three dot products (a CG step's), a little work before each. */
static double solver_step(int sweeps)
{
	double x = 0;

	for (int k = 0; k < 3; k++)
		x += allreduce(relax(sweeps > 2 ? sweeps / 3 : 1));
	return x;
}

int main(int argc, char **argv)
{
	int rank, ranks, steps = argc > 2 ? atoi(argv[2]) : 100;
	int solver = argc > 1 && !strcmp(argv[1], "solver");
	int nonblocking = argc > 1 && !strcmp(argv[1], "nonblocking");
	int imbalance = argc > 3 && !strcmp(argv[3], "imbalance");
	double sink = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	if (argc < 3 || steps < 1 || (!solver && !nonblocking && strcmp(argv[1], "halo"))) {
		if (!rank)
			fprintf(stderr, "usage: busy halo|nonblocking|solver STEPS [imbalance]\n");
		MPI_Finalize();
		return 2;
	}
	u[0] = rank == 0 ? 100.0 : 0.0;
	for (int s = 0; s < steps; s++) {
		int sweeps = imbalance && rank == 0 ? 300 : 100;
		SG_BEGIN("step");
		sink += solver        ? solver_step(sweeps)
			: nonblocking ? nonblocking_step(rank, ranks, sweeps)
				      : halo_step(rank, ranks, sweeps);
		SG_END("step");
	}
	if (!rank)
		printf("busy: %s, %d ranks, %d steps%s\n", argv[1], ranks, steps,
		       sink < 0 ? "!" : "");
	MPI_Finalize();
	return 0;
}
