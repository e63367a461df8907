/* The in-job reduction (tracer/MPI.md, "One profile per job"): each rank's share of the gate's
 * figures per interval, in a fixed-size record that sums, maxima, minima and (value, rank, thread)
 * extremes combine in any order, so the ranks reduce them in O(log P) steps. */
#ifndef SG_REDUCE_H
#define SG_REDUCE_H

#include <stddef.h>

#include "format/columns.h"
#include "format/rank-share.h"
#include "internal.h"

/* The record's fields are the reduced profile's columns (format/columns.h: SG_REDUCED_COLUMNS,
 * with how two records combine), then per quantity (SG_REDUCED_QUANTITIES) its extremes and sum
 * (SG_REDUCED_CMP_COLUMNS: ties go to the lowest rank, then thread). */
#define SG_RED_LEN (SG_RED_NR_FIELDS + SG_RED_NR_QUANTITIES * SG_CMP_NR)

/* One interval's record: the fields, then SG_CMP_NR values per quantity. */
struct sg_red {
	double v[SG_RED_LEN];
};

/* The collective kinds whose waiting the gate estimates from all ranks' times. */
#define SG_RED_NR_COLL SG_NR_COLL

/* What a rank needs from all the others before its share can be computed (one allreduce, MAX):
 * per interval its longest rank time, the least time in each collective kind (negated), whether
 * any rank measured the kind's waiting. */
enum { SG_CTX_EXEC, SG_CTX_TMIN, SG_CTX_MEASURED = SG_CTX_TMIN + SG_RED_NR_COLL,
       SG_CTX_LEN = SG_CTX_MEASURED + SG_RED_NR_COLL };

/* Per node and thread, the rank view's values: RV_* of format/rank-share.h. */

/* This rank's profile as the gate reads it, its nodes mapped onto the job's intervals. */
struct sg_rview {
	int threads;        /* main + distinct workers */
	size_t nodes;
	int *slot;          /* thread slot -> thread index (main = 0) */
	double *v;          /* [node][thread][RV_NR] */
	double *coll;       /* [node][kind][2]: time, wait (NAN while unmeasured) */
	char **path;        /* of each node: "program/solve/step[3]" */
	int *job_node;      /* job interval -> this rank's node, or -1 */
	size_t nr_job;
	int omp, mpi;       /* captured */
	int sched;          /* run-queue delay captured and the CPUs given known */
	int team_delay;     /* rq_sync captured */
	int mpi_delay;      /* mpi_sync captured */
	double threads_max; /* the most threads alive at once */
	double cpus;
};

static inline double *sg_rview_cell(const struct sg_rview *rv, size_t node, int thread)
{
	return &rv->v[(node * (size_t)rv->threads + (size_t)thread) * RV_NR];
}

/* Built with sg_lock held, from the statistics as the writer would write them. NULL: no memory. */
SG_HIDDEN struct sg_rview *sg_rview_new(void);
SG_HIDDEN void sg_rview_free(struct sg_rview *rv);
/* Maps the job's intervals (their paths, sorted by strcmp) onto this rank's nodes; 0 or -1. */
SG_HIDDEN int sg_rview_map(struct sg_rview *rv, char *const *job_paths, size_t nr_job);
/* The context record of job interval i (SG_CTX_LEN values). */
SG_HIDDEN void sg_rview_context(const struct sg_rview *rv, size_t i, double *ctx);

/* What the rank's share needs beyond its own data. */
struct sg_red_job {
	int rank;
	int threads;      /* processors per rank: the most threads of any rank */
	double self_rate; /* of this rank's host (the gate's self_rates) */
};

/* This rank's share of job interval i, given the interval's context from all ranks. */
SG_HIDDEN void sg_rview_share(const struct sg_rview *rv, size_t i, const double *ctx,
			      const struct sg_red_job *job, struct sg_red *out);
/* Combines 'in' into 'inout' (n records): the reduction's operator. */
SG_HIDDEN void sg_red_combine(const struct sg_red *in, struct sg_red *inout, size_t n);

#endif
