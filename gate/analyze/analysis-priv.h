/* Shared by the analyzer's files: one rank's profile in the shape the formulas need (a rank view),
 * built in analysis.c and read by analysis-point.c. */
#ifndef SG_ANALYSIS_PRIV_H
#define SG_ANALYSIS_PRIV_H

#include <math.h>
#include <stddef.h>

#include "analyze/analysis.h"
#include "format/rank-share.h"

/* Per node and thread of one rank, inclusive over the node's subtree: RV_* of
 * format/rank-share.h, the per-rank formulas the tracer's reduction shares. The collective kinds
 * the views keep apart: collective_kinds in analysis.c. */
#define NR_COLL ((size_t)SG_NR_COLL)

/* One rank's profile in the shape the formulas need. */
struct rank_view {
	const struct profile *p;
	int threads;     /* main + distinct workers seen */
	int *slot;       /* profile thread slot -> thread index (main = 0) */
	double *v;       /* [node][thread][RV_NR] */
	double *coll;    /* [node][kind][2]: time, wait (NAN while unmeasured) */
	int *interval;   /* node -> interval id */
	int omp, mpi;    /* captured */
	int sched;       /* run-queue delay captured and the CPUs the process was given known */
	int team_delay;  /* the teams' run-queue delay on their critical paths captured (rq_sync) */
	int mpi_delay;   /* the waiting other ranks' run-queue delay caused captured (mpi_sync) */
	double self_rate; /* share of a thread's time its program's threads may keep it waiting */
};

/* What one interval holds on one rank: node index per rank, -1 where the rank never entered it. */
struct interval_ranks {
	struct rank_view *rv;
	const int *node;
	size_t nr;
	int threads;
};

/* A value, 0 where it is absent (NAN). */
static inline double z(double v)
{
	return isnan(v) ? 0 : v;
}

/* The RV_NR values of a node and thread of the view. */
static inline double *cell(const struct rank_view *rv, size_t node, int thread)
{
	return &rv->v[(node * (size_t)rv->threads + (size_t)thread) * RV_NR];
}

/* The figures of one interval in one run from its ranks' views (analysis-point.c). */
void analysis_point_compute(const struct interval_ranks *ir, struct analysis_point *pt);
/* The same from one interval of a reduced profile: the ranks' shares, summed in the job. */
void analysis_point_reduced(const struct profile_reduced *r, int ranks, int threads,
			    struct analysis_point *pt);

#endif
