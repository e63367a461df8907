/* One rank's share of an interval's lost-time figures (docs/metrics.md): the per-rank half of the
 * formulas, one source compiled into the gate (gate/analyze/analysis-point.c, from the ranks'
 * profiles) and the tracer (tracer/reduce-terms.c, the in-job reduction), so that both compute it
 * alike. Plain doubles; includes nothing of tracer/ or gate/. */
#ifndef SG_FORMAT_RANK_SHARE_H
#define SG_FORMAT_RANK_SHARE_H

#include "format/columns.h"

/*
 * Per node and thread of one rank, inclusive over the node's subtree: what the formulas read of a
 * rank's profile (the gate's and the tracer's rank views hold them).
 * RV_PW: measured point-to-point waiting (recv, sendrecv, wait: tracer/MPI.md), part of RV_M;
 * RV_RQ, RV_CPU: run-queue delay and on-CPU time (inclusive like RV_TIME); RV_INHQ, RV_INHC:
 * their parts in inherited frames; RV_CPU_NAN: a record of the subtree lacked the on-CPU time;
 * RV_SQ: waiting the team's run-queue delay caused, less the thread's own delay there (rq_sync);
 * RV_CW: on-CPU time while waiting at barriers (a spin: cpu_wait), part of RV_CPU;
 * RV_MS: waiting in MPI that other ranks' run-queue delay caused (mpi_sync), part of RV_M;
 * RV_MQ, RV_MC: the thread's own run-queue delay and on-CPU time while it waited in MPI (mpi_rq,
 * mpi_cpu), parts of RV_RQ and RV_CPU;
 * RV_HELD: time holding a lock (omp_held), part of its work; RV_HELD_NAN: a record of the subtree
 * lacked it (an older tracer)
 */
enum {
	RV_TIME, RV_PAR, RV_COUNT, RV_B, RV_L, RV_D, RV_M, RV_PW, RV_INH,
	RV_RQ, RV_INHQ, RV_CPU, RV_INHC, RV_CPU_NAN, RV_SQ, RV_CW, RV_MS, RV_MQ, RV_MC,
	RV_HELD, RV_HELD_NAN, RV_NR
};

/* The collective kinds whose waiting is estimated from all ranks' times when no rank measured it:
 * barrier, bcast, reduce, allreduce, gather, allgather, scatter, alltoall, reduce_scatter, scan. */
#define SG_NR_COLL 10

/* One rank in one interval. */
struct sg_rank_cells {
	const double *v;    /* [thread][RV_NR] of the interval's node; NULL: never entered */
	const double *coll; /* [kind][2]: time, wait (NAN while unmeasured); NULL likewise */
	int threads;        /* the view's threads: main + distinct workers */
	int omp, mpi;       /* captured */
	int sched;          /* run-queue delay captured and the CPUs given known */
	int team_delay;     /* rq_sync captured */
	int mpi_delay;      /* mpi_sync captured */
	double self_rate;   /* share of a thread's time its program's threads may keep it waiting */
};

/*
 * Adds one stat record of a thread (its columns in format/columns.h's order, NAN where not
 * captured) into the thread's cell c of its node (exclusive: the views sum the subtrees after);
 * 'worker': not the main thread. Sets *team_delay (*mpi_delay) when rq_sync (mpi_sync) was
 * captured.
 */
void sg_rank_add_stat(double *c, const double *v, int worker, int *team_delay, int *mpi_delay);
/* Adds a node's cell c of one thread into its parent's u: the exclusive values (the views then
 * hold each node's subtree; the inclusive ones, as the time, are so already). */
void sg_rank_add_exclusive(double *u, const double *c);
/* Adds one mpi record (SG_MPI_COLUMNS) into the thread's cell c, and for a collective kind whose
 * waiting may be estimated into its node's cw[2] of that kind (else NULL). */
void sg_rank_add_mpi(double *c, double *cw, const double *v);

/* The rank's time in the interval: the longest presence of any of its threads. */
double sg_rank_time(const struct sg_rank_cells *r);

/*
 * The rank's MPI waiting: point-to-point as measured; collective kind k as measured when any rank
 * measured it (measured[k]), else its time less the least of any rank (tmin[k]), which sets
 * *estimated.
 */
double sg_rank_wait(const struct sg_rank_cells *r, const double *tmin, const int *measured,
		    int *estimated);

/* A reduced record with nothing in it: what sg_rank_share() adds the ranks into. */
void sg_rank_share_init(double *red);

/*
 * Adds the rank's share of the interval into red[SG_RED_NR_FIELDS], each column by its op
 * (format/columns.h): its lost-time terms and work on 'threads' processors, given the longest rank
 * time 'exec' and its MPI waiting 'wait'. Each processor's quantities (SG_REDUCED_QUANTITIES, work
 * first) go to each(arg, q, v), processor by processor.
 */
void sg_rank_share(const struct sg_rank_cells *r, int threads, double exec, double wait,
		   double *red, void (*each)(void *arg, int q, const double *v), void *arg);

#endif
