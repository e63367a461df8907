/* The checker's tests: one-sided Mann-Whitney past a tolerance, and bootstrap intervals of derived ratios. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/check-priv.h"
#include "stats/stats.h"

/* p-values are exact fractions computed in floating point: 1/20 must count as 0.05. */
#define ALPHA_SLACK (1 + 1e-9)

static void test_init(struct check_test *t)
{
	memset(t, 0, sizeof(*t));
	t->base = t->cur = t->lo = t->hi = t->change = t->bound = t->p = NAN;
}

static double change_of(double cur, double base, int relative)
{
	if (!relative)
		return cur - base;
	if (base == 0)
		return cur == 0 ? 0 : NAN;
	return cur / fabs(base) - (base > 0 ? 1 : -1);
}

static int is_past(double change, int worse, double tol)
{
	return worse > 0 ? change > tol : change < -tol;
}

int check_test_samples(const double *base, size_t nb, const double *cur, size_t nc, int worse,
		       const struct rules_value *tol, double alpha, struct check_test *t)
{
	struct stats_summary s;
	struct stats_mwu r;
	double *shifted;
	int ret;

	test_init(t);
	t->n_base = nb;
	t->n_cur = nc;
	if (!nb || !nc)
		return error("check: no samples to compare");
	t->base = stats_median(base, nb);
	if (stats_summarize(cur, nc, MATRIX_LEVEL, &s))
		return -1;
	t->cur = s.median;
	t->lo = s.ci_lo;
	t->hi = s.ci_hi;
	t->change = change_of(t->cur, t->base, tol->relative);
	t->past = is_past(t->change, worse, tol->value);
	/* The baseline made worse by the tolerance: significant means "worse beyond the tolerance". */
	shifted = xmalloc(nb * sizeof(double));
	for (size_t i = 0; i < nb; i++)
		shifted[i] = tol->relative ? base[i] * (1 + worse * tol->value) : base[i] + worse * tol->value;
	if (worse > 0)
		ret = stats_mwu_greater(shifted, nb, cur, nc, &r);
	else
		ret = stats_mwu_greater(cur, nc, shifted, nb, &r);
	free(shifted);
	if (ret)
		return -1;
	t->p = r.p;
	t->significant = t->past && r.p <= alpha * ALPHA_SLACK;
	return 0;
}

double check_derived_value(enum rules_metric m, double t_ref, double t_p, double rp)
{
	double psi = t_p > 0 ? t_ref / t_p : NAN;

	switch (m) {
	case RULES_SPEEDUP:
	case RULES_WEAK_EFFICIENCY: /* T(ref, n_ref) / T(p, n_p): no p in it */
		return psi;
	case RULES_EFFICIENCY:
		return psi / rp;
	case RULES_KARP_FLATT:
		return matrix_karp_flatt(psi, rp);
	default:
		return NAN;
	}
}

struct derived_ctx {
	enum rules_metric m;
	double rp;
	int relative;
};

static double derived_value_fn(const double *med, size_t k, void *ctx)
{
	const struct derived_ctx *d = ctx;

	(void)k;
	return check_derived_value(d->m, med[0], med[1], d->rp);
}

static double derived_change_fn(const double *med, size_t k, void *ctx)
{
	const struct derived_ctx *d = ctx;
	double base = check_derived_value(d->m, med[0], med[1], d->rp);
	double cur = check_derived_value(d->m, med[2], med[3], d->rp);

	(void)k;
	return change_of(cur, base, d->relative);
}

/* The one-sided bound at 1 - alpha is an end of the two-sided interval at 1 - 2 alpha. */
static double two_sided_level(double alpha)
{
	return alpha > 0 && alpha < 0.5 ? 1 - 2 * alpha : 0.9;
}

static void judge_bound(struct check_test *t, int worse, double tol, const struct stats_bootstrap *bs, int ret)
{
	t->past = is_past(t->change, worse, tol);
	if (ret)
		return; /* undefined in most resamples: no interval, not significant */
	t->bound = worse > 0 ? bs->lo : bs->hi;
	t->significant = t->past && is_past(t->bound, worse, tol);
}

int check_test_derived(const struct check_groups *g, enum rules_metric m, const struct rules_value *tol,
		       double alpha, struct check_test *t)
{
	struct derived_ctx d = { m, g->rp, tol->relative };
	struct stats_group groups[4];
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT, cur = STATS_BOOTSTRAP_INIT;
	int ret;

	test_init(t);
	for (int i = 0; i < 4; i++) {
		groups[i] = (struct stats_group){ g->x[i], g->n[i] };
		if (!g->n[i])
			return 1;
	}
	t->n_base = g->n[0] < g->n[1] ? g->n[0] : g->n[1];
	t->n_cur = g->n[2] < g->n[3] ? g->n[2] : g->n[3];
	t->base = check_derived_value(m, stats_median(g->x[0], g->n[0]), stats_median(g->x[1], g->n[1]), g->rp);
	if (stats_bootstrap(groups + 2, 2, derived_value_fn, &d, MATRIX_LEVEL, &cur) < 0)
		return -1;
	t->cur = cur.estimate;
	t->lo = cur.lo;
	t->hi = cur.hi;
	if (isnan(t->cur) || isnan(t->base))
		return 1;
	ret = stats_bootstrap(groups, 4, derived_change_fn, &d, two_sided_level(alpha), &bs);
	if (ret < 0)
		return -1;
	t->change = bs.estimate;
	judge_bound(t, check_metrics[m].worse, tol->value, &bs, ret);
	return 0;
}

/* ---- Karp-Flatt slope ---- */

struct slope_ctx {
	const double *rp;
	size_t k;
	int relative;
};

/* Least-squares slope of e over rp, e from the medians med[0] (reference) and med[1..k]. */
static double slope_of(const double *rp, const double *med, size_t k)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, e[256];

	for (size_t i = 0; i < k; i++) {
		e[i] = matrix_karp_flatt(med[1 + i] > 0 ? med[0] / med[1 + i] : NAN, rp[i]);
		mx += rp[i] / k;
		my += e[i] / k;
	}
	for (size_t i = 0; i < k; i++) {
		sxx += (rp[i] - mx) * (rp[i] - mx);
		sxy += (rp[i] - mx) * (e[i] - my);
	}
	return sxx > 0 ? sxy / sxx : NAN;
}

static double slope_cur_fn(const double *med, size_t n, void *ctx)
{
	const struct slope_ctx *s = ctx;

	(void)n;
	return slope_of(s->rp, med, s->k);
}

static double slope_change_fn(const double *med, size_t n, void *ctx)
{
	const struct slope_ctx *s = ctx;

	(void)n;
	return change_of(slope_of(s->rp, med + s->k + 1, s->k), slope_of(s->rp, med, s->k), s->relative);
}

int check_test_slope(const struct check_slope_groups *g, const struct rules_value *tol, double alpha,
		     struct check_test *t)
{
	size_t ng = 2 * g->k + 2;
	struct stats_group *groups;
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT, cur = STATS_BOOTSTRAP_INIT;
	struct slope_ctx s = { g->rp, g->k, tol->relative };
	double med[2 * 256 + 2];
	int ret = 1;

	test_init(t);
	if (g->k < 2 || g->k > 256)
		return 1;
	groups = xcalloc(ng, sizeof(*groups));
	t->n_base = t->n_cur = (size_t)-1;
	for (size_t i = 0; i < ng; i++) {
		size_t *n = i <= g->k ? &t->n_base : &t->n_cur;
		groups[i] = (struct stats_group){ g->x[i], g->n[i] };
		med[i] = stats_median(g->x[i], g->n[i]);
		*n = g->n[i] < *n ? g->n[i] : *n;
	}
	if (!t->n_base || !t->n_cur)
		goto out;
	t->base = slope_of(g->rp, med, g->k);
	if (stats_bootstrap(groups + g->k + 1, g->k + 1, slope_cur_fn, &s, MATRIX_LEVEL, &cur) < 0 ||
	    (ret = stats_bootstrap(groups, ng, slope_change_fn, &s, two_sided_level(alpha), &bs)) < 0) {
		ret = -1;
		goto out;
	}
	t->cur = cur.estimate;
	t->lo = cur.lo;
	t->hi = cur.hi;
	t->change = bs.estimate;
	judge_bound(t, +1, tol->value, &bs, ret);
	ret = isnan(t->cur) || isnan(t->base) ? 1 : 0;
out:
	free(groups);
	return ret;
}
