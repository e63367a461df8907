/* One rank's share of the gate's figures of one interval (docs/metrics.md), computed where the
 * rank's data is: the formulas are format/rank-share.c, the gate's own; here what they need of the
 * other ranks (the longest rank time, the least time per collective kind) and the reduction's
 * operator. The gate finishes the figures from the reduced sums; tests/cli/mpi-reduce.sh holds
 * them to the per-rank path's figures. */
#include "reduce.h"

#include <math.h>
#include <string.h>

/* The rank in job interval i, as the shared formulas read it (format/rank-share.h). */
static struct sg_rank_cells cells(const struct sg_rview *rv, size_t i, double self_rate)
{
	int node = rv->job_node[i];
	struct sg_rank_cells c = {
		node < 0 ? NULL : sg_rview_cell(rv, (size_t)node, 0),
		node < 0 ? NULL : &rv->coll[(size_t)node * SG_RED_NR_COLL * 2],
		rv->threads, rv->omp, rv->mpi, rv->sched, rv->team_delay, rv->mpi_delay, self_rate,
	};

	return c;
}

void sg_rview_context(const struct sg_rview *rv, size_t i, double *ctx)
{
	struct sg_rank_cells c = cells(rv, i, 0);

	ctx[SG_CTX_EXEC] = sg_rank_time(&c);
	for (size_t k = 0; k < SG_RED_NR_COLL; k++) {
		const double *cw = c.coll ? &c.coll[k * 2] : NULL;
		ctx[SG_CTX_TMIN + k] = cw ? -cw[0] : 0;
		ctx[SG_CTX_MEASURED + k] = cw && !isnan(cw[1]);
	}
}

/* The extremes of each processor's quantities in the rank's record. */
struct share {
	struct sg_red *out;
	int rank;
};

static void cmp_add(void *arg, int q, const double *v)
{
	struct share *s = arg;

	for (int k = 0; k < SG_RED_NR_QUANTITIES; k++) {
		double *c = &s->out->v[SG_RED_NR_FIELDS + (size_t)k * SG_CMP_NR];
		if (v[k] < c[SG_CMP_MIN]) {
			c[SG_CMP_MIN] = v[k];
			c[SG_CMP_MIN_RANK] = s->rank;
			c[SG_CMP_MIN_THREAD] = q;
		}
		if (v[k] > c[SG_CMP_MAX]) {
			c[SG_CMP_MAX] = v[k];
			c[SG_CMP_MAX_RANK] = s->rank;
			c[SG_CMP_MAX_THREAD] = q;
		}
		c[SG_CMP_SUM] += v[k];
	}
}

/* An empty record: nothing summed, extremes that any value replaces. */
static void red_empty(struct sg_red *out)
{
	memset(out, 0, sizeof(*out));
	sg_rank_share_init(out->v);
	for (int k = 0; k < SG_RED_NR_QUANTITIES; k++) {
		double *c = &out->v[SG_RED_NR_FIELDS + (size_t)k * SG_CMP_NR];
		c[SG_CMP_MIN] = INFINITY;
		c[SG_CMP_MAX] = -INFINITY;
	}
}

void sg_rview_share(const struct sg_rview *rv, size_t i, const double *ctx,
		    const struct sg_red_job *job, struct sg_red *out)
{
	struct sg_rank_cells c = cells(rv, i, job->self_rate);
	struct share s = { out, job->rank };
	double tmin[SG_RED_NR_COLL], wait;
	int measured[SG_RED_NR_COLL], estimated = 0;

	red_empty(out);
	for (size_t k = 0; k < SG_RED_NR_COLL; k++) {
		tmin[k] = -ctx[SG_CTX_TMIN + k];
		measured[k] = ctx[SG_CTX_MEASURED + k] > 0;
	}
	wait = sg_rank_wait(&c, tmin, measured, &estimated);
	if (estimated)
		out->v[SG_RED_ESTIMATED] = 1;
	sg_rank_share(&c, job->threads, ctx[SG_CTX_EXEC], wait, out->v, cmp_add, &s);
}

/* Whether (v, rank, thread) of b comes before that of a: a lower value for the minimum (a higher
 * for the maximum), then the lower rank, then the lower thread, as the gate's rank loop finds it.
 */
static int before(const double *a, const double *b, int max)
{
	if (b[0] != a[0])
		return max ? b[0] > a[0] : b[0] < a[0];
	if (b[1] != a[1])
		return b[1] < a[1];
	return b[2] < a[2];
}

enum { OP_SUM, OP_MAX, OP_MIN };

static const unsigned char red_ops[] = {
#define X(id, name, op) OP_##op,
	SG_REDUCED_COLUMNS(X)
#undef X
};

void sg_red_combine(const struct sg_red *in, struct sg_red *inout, size_t n)
{
	for (size_t r = 0; r < n; r++) {
		const double *a = in[r].v;
		double *b = inout[r].v;
		for (int f = 0; f < SG_RED_NR_FIELDS; f++) {
			if (red_ops[f] == OP_SUM)
				b[f] += a[f];
			else if (red_ops[f] == OP_MAX ? a[f] > b[f] : a[f] < b[f])
				b[f] = a[f];
		}
		for (int k = 0; k < SG_RED_NR_QUANTITIES; k++) {
			const double *x = &a[SG_RED_NR_FIELDS + k * SG_CMP_NR];
			double *y = &b[SG_RED_NR_FIELDS + k * SG_CMP_NR];
			if (before(&y[SG_CMP_MIN], &x[SG_CMP_MIN], 0))
				memcpy(&y[SG_CMP_MIN], &x[SG_CMP_MIN], 3 * sizeof(double));
			if (before(&y[SG_CMP_MAX], &x[SG_CMP_MAX], 1))
				memcpy(&y[SG_CMP_MAX], &x[SG_CMP_MAX], 3 * sizeof(double));
			y[SG_CMP_SUM] += x[SG_CMP_SUM];
		}
	}
}
