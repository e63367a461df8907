/*
 * The cost of the PMPI wrappers: ns per MPI_Barrier and per MPI_Allreduce (1 double) called through
 * the wrapper while measuring, while paused by MPI_Pcontrol(0), and straight to PMPI_* (no
 * wrapper), side by side in one process; medians over runs. Run on 1 rank for the wrapper's own
 * cost, on 2 for exact mode's. On 2 ranks, calls that wait for nobody (a barrier of MPI_COMM_SELF,
 * a send to MPI_PROC_NULL) give the wrapper's cost when the ranks of a node share their arrivals
 * (mpi_sync), without the partner's noise.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "scalegate.h"

#define RUNS 7
#define CALLS 200000

enum how { WRAPPED, DIRECT };

static double barriers(enum how how, int calls)
{
	double t0 = bench_now();

	for (int i = 0; i < calls; i++)
		if (how == DIRECT)
			PMPI_Barrier(MPI_COMM_WORLD);
		else
			MPI_Barrier(MPI_COMM_WORLD);
	return (bench_now() - t0) / calls * 1e9;
}

static double allreduces(enum how how, int calls)
{
	double x = 1, y, t0 = bench_now();

	for (int i = 0; i < calls; i++)
		if (how == DIRECT)
			PMPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		else
			MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return (bench_now() - t0) / calls * 1e9;
}

static double self_barriers(enum how how, int calls)
{
	double t0 = bench_now();

	for (int i = 0; i < calls; i++)
		if (how == DIRECT)
			PMPI_Barrier(MPI_COMM_SELF);
		else
			MPI_Barrier(MPI_COMM_SELF);
	return (bench_now() - t0) / calls * 1e9;
}

static double null_sends(enum how how, int calls)
{
	double x = 1, t0 = bench_now();

	for (int i = 0; i < calls; i++)
		if (how == DIRECT)
			PMPI_Send(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
		else
			MPI_Send(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
	return (bench_now() - t0) / calls * 1e9;
}

/* Runs 'fn' measured, paused and direct, alternating so that machine noise hits all three alike. */
static void compare(const char *what, double (*fn)(enum how, int), int calls, int rank)
{
	double on[RUNS], paused[RUNS], direct[RUNS];

	fn(DIRECT, calls / 10); /* warm-up */
	for (int r = 0; r < RUNS; r++) {
		on[r] = fn(WRAPPED, calls);
		MPI_Pcontrol(0);
		paused[r] = fn(WRAPPED, calls);
		MPI_Pcontrol(1);
		direct[r] = fn(DIRECT, calls);
	}
	if (rank)
		return;
	double m_on = bench_median(on, RUNS), m_paused = bench_median(paused, RUNS),
	       m_direct = bench_median(direct, RUNS);
	printf("%-14s direct %8.1f ns   wrapped+measuring %8.1f ns   wrapped+paused %8.1f ns   "
	       "cost %6.1f ns/call\n",
	       what, m_direct, m_on, m_paused, m_on - m_direct);
}

/* Rank 0 times the calls that wait for nobody while the others sleep (not spinning in MPI: the
 * machine's other core stays free). */
static void alone_on_rank0(void)
{
	MPI_Request req;
	int rank, done = 0;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!rank) {
		compare("Barrier(SELF)", self_barriers, CALLS, rank);
		compare("Send(PROC_NULL)", null_sends, CALLS, rank);
	}
	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	while (!done) {
		struct timespec ts = { 0, 1000000 };
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (!done)
			nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	int rank, ranks;
	const char *wait = getenv("SCALEGATE_MPI_WAIT");

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	if (!rank)
		printf("%d rank%s, tracer %s, SCALEGATE_MPI_WAIT=%s, %d calls per run, medians of "
		       "%d runs\n",
		       ranks, ranks > 1 ? "s" : "",
		       sg_enabled() ? "measuring" : "off (no SCALEGATE_OUT)", wait ? wait : "",
		       ranks > 1 ? CALLS / 10 : CALLS, RUNS);
	compare("MPI_Barrier", barriers, ranks > 1 ? CALLS / 10 : CALLS, rank);
	compare("MPI_Allreduce", allreduces, ranks > 1 ? CALLS / 10 : CALLS, rank);
	if (ranks > 1 && !wait)
		alone_on_rank0();
	MPI_Finalize();
	return 0;
}
