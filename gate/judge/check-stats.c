/* The checker's tests: one-sided Mann-Whitney past a tolerance, and bootstrap intervals of derived
 * ratios. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/check-priv.h"
#include "stats/stats.h"

/* p-values are exact fractions computed in floating point: 1/20 must count as 0.05. */
#define ALPHA_SLACK (1 + 1e-9)

/* The power at which a minimum detectable change is stated. */
#define CHECK_POWER 0.8

static void test_init(struct check_test *t)
{
	memset(t, 0, sizeof(*t));
	t->base = t->cur = t->lo = t->hi = t->change = t->bound = t->p = NAN;
	t->excluded = t->mdc = NAN;
	t->se = t->df = t->dtol = t->extra = NAN;
	t->test = "bootstrap";
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

/* The tolerance in the test's domain, as a worsening (> 0): log(1 + tol) on logs, else tol. */
static double domain_tolerance(const struct check_test_opts *o, int logs)
{
	double tol = o->tol->value;

	if (!logs)
		return tol;
	return o->worse > 0 ? log1p(tol) : (tol < 1 ? -log1p(-tol) : INFINITY);
}

/* A worsening in the test's domain back to the metric's change units, as a magnitude. */
static double domain_change(double w, int worse, int logs)
{
	if (!logs)
		return w;
	return worse > 0 ? expm1(w) : -expm1(-w);
}

static int all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return 0;
	return 1;
}

static int constant_equal(const double *a, size_t na, const double *b, size_t nb)
{
	for (size_t i = 1; i < na; i++)
		if (a[i] != a[0])
			return 0;
	for (size_t i = 0; i < nb; i++)
		if (b[i] != a[0])
			return 0;
	return 1;
}

/* Fills the decision figures of t from a t-test of the worsening in the test's domain. */
static void judge_ttest(struct check_test *t, const struct stats_ttest *r,
			const struct check_test_opts *o, int logs, double extra)
{
	double tol = domain_tolerance(o, logs), w = o->worse * r->diff;

	t->change = logs ? expm1(r->diff) : r->diff;
	t->past = w > tol;
	/* 'test: margin' tests against the tolerance itself: significantly beyond it
	 * (docs/rules.md) */
	t->p = 1 - stats_t_cdf((w - (o->margin ? tol : 0)) / (r->se > 0 ? r->se : 1e-12), r->df);
	t->significant = t->past && t->p <= o->alpha * ALPHA_SLACK;
	t->excluded = domain_change(w + stats_t_quantile(1 - o->alpha, r->df) * r->se, o->worse,
				    logs);
	t->se = r->se;
	t->df = r->df;
	t->dtol = tol;
	t->extra = extra;
	t->logs = logs;
	t->n_pairs = r->n;
	check_test_power(t, o->alpha, o->worse, o->margin);
}

/* Repeats to add so that the standard error comes down to 'target'; the within-run variance
 * shrinks as 1/n, a stored baseline's shift between sittings does not. At least 1; -1 when no
 * number of repeats would do. */
static int repeats_to(const struct check_test *t, double target)
{
	double within = t->se * t->se - t->extra, room = target * target - t->extra, need;

	if (!(room > 0) || !(within > 0))
		return -1;
	need = ceil((double)t->n_pairs * within / room);
	if (need > 1e4)
		return 10000;
	return need > (double)t->n_pairs ? (int)need - (int)t->n_pairs : 1;
}

/*
 * Repeats to add so that the noise alone, (q_alpha + q_power) se, fits in the
 * tolerance: then no change passes with 80 % power. 0 when none are needed,
 * -1 when no number of repeats would do.
 */
static int more_repeats(const struct check_test *t, double q)
{
	if (!(q * t->se > t->dtol) || !(t->dtol > 0) || !isfinite(t->dtol) || !(t->se > 0))
		return 0;
	return repeats_to(t, t->dtol / q);
}

void check_test_more_past(struct check_test *t, double alpha, int worse, int margin)
{
	double qa, w;

	if (!t->past || !(t->se > 0) || !(t->dtol > 0) || !isfinite(t->dtol) ||
	    !(alpha > 0 && alpha < 1) || !(t->df > 0))
		return;
	qa = stats_t_quantile(1 - alpha, t->df);
	w = worse * (t->logs ? log1p(t->change) : t->change) - (margin ? t->dtol : 0);
	t->more = w > 0 ? repeats_to(t, w / qa) : -1;
}

/*
 * The true shift, in standard errors, that a one-sided t test at the quantile qa with df degrees
 * of freedom rejects with power CHECK_POWER: the noncentral t's, by its normal approximation
 * (Jennett and Welch 1939): P(T' <= x) ~ Phi((x (1 - 1/(4 df)) - d) / sqrt(1 + x^2 / (2 df))).
 * The central t's qa + q_power understated it: at 4 df and alpha 0.01, 4.69 se is caught 76.7 %
 * of the time, this 4.91 se 80.5 % (50,000 draws each; 3.85 and 80.3 % at 8 df).
 */
static double noncentral_shift(double qa, double df)
{
	return qa * (1 - 1 / (4 * df)) +
	       stats_normal_quantile(CHECK_POWER) * sqrt(1 + qa * qa / (2 * df));
}

/*
 * A FAIL needs the estimate past the tolerance and p <= alpha (margin: past tol + q_alpha se).
 * The true worsening caught with power 1 - beta: the tolerance plus q_power se, or the
 * noncentral shift, whichever is larger (margin: their sum).
 */
void check_test_power(struct check_test *t, double alpha, int worse, int margin)
{
	double qa, qp, nc, need;

	if (!(t->se >= 0) || !(alpha > 0 && alpha < 1) || !(t->df > 0))
		return;
	qa = stats_t_quantile(1 - alpha, t->df);
	qp = stats_t_quantile(CHECK_POWER, t->df);
	nc = noncentral_shift(qa, t->df);
	/* past the tolerance and significant, each with the power: the larger need */
	need = margin ? t->dtol + nc * t->se : fmax(t->dtol + qp * t->se, nc * t->se);
	t->mdc = domain_change(need, worse, t->logs);
	t->more = more_repeats(t, nc);
}

int check_test_samples(const double *base, size_t nb, const double *cur, size_t nc,
		       const struct check_test_opts *o, struct check_test *t)
{
	struct stats_summary s;
	struct stats_ttest r;
	int logs = o->tol->relative && all_positive(base, nb) && all_positive(cur, nc);
	int paired = o->paired && nb == nc;
	double *a, *b, extra = o->sitting_sd * o->sitting_sd;
	int ret;

	test_init(t);
	t->n_base = nb;
	t->n_cur = nc;
	if (!nb || !nc)
		return gate_error("check: no samples to compare");
	t->base = stats_median(base, nb);
	if (stats_summarize(cur, nc, MATRIX_LEVEL, &s))
		return -1;
	t->cur = s.median;
	t->lo = s.ci_lo;
	t->hi = s.ci_hi;
	if (nb < 2 || nc < 2 || constant_equal(base, nb, cur, nc)) {
		/* Nothing varies and nothing changed, or too little to test: judged on the medians
		 * alone. */
		t->change = change_of(t->cur, t->base, o->tol->relative);
		t->past = is_past(t->change, o->worse, o->tol->value);
		t->degenerate = 1;
		t->test = "no test";
		return 0;
	}
	a = xmalloc(nb * sizeof(*a));
	b = xmalloc(nc * sizeof(*b));
	for (size_t i = 0; i < nb; i++)
		a[i] = logs ? log(base[i]) : base[i];
	for (size_t i = 0; i < nc; i++)
		b[i] = logs ? log(cur[i]) : cur[i];
	ret = paired ? stats_ttest_paired(a, b, nb, extra, o->sitting_df, &r)
		     : stats_ttest_welch(a, nb, b, nc, extra, o->sitting_df, &r);
	free(a);
	free(b);
	if (ret)
		return -1;
	if (o->margin)
		t->test = paired ? (logs ? "paired t on logs beyond the tolerance"
					 : "paired t beyond the tolerance")
				 : (logs ? "Welch t on logs beyond the tolerance"
					 : "Welch t beyond the tolerance");
	else
		t->test = paired ? (logs ? "paired t on logs" : "paired t")
				 : (logs ? "Welch t on logs" : "Welch t");
	judge_ttest(t, &r, o, logs, extra);
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

/*
 * The bootstrap's p of "not worse than no change" (margin: than the
 * tolerance): the share of the resamples that are not worse, counting the
 * estimate itself ((1 + k) / (1 + B), never 0). With B = 10,000 it resolves p
 * down to 1e-4.
 */
static double bootstrap_p(const struct stats_bootstrap *bs, int worse)
{
	size_t valid = (bs->iterations ? bs->iterations : STATS_BOOTSTRAP_ITERATIONS) -
		       bs->nan_count;
	size_t not_worse = worse > 0 ? bs->at_or_below : bs->at_or_above;

	return valid ? (1.0 + (double)not_worse) / (1.0 + (double)valid) : NAN;
}

/* Up to this many values in a group, the bootstrap's p is replaced by a permutation test's. */
#define CHECK_PERMUTATION_MAX_N 6

/*
 * The p that joins the whole run's Holm family. Up to CHECK_PERMUTATION_MAX_N
 * values in a group, the permutation test's of no change: the bootstrap's is
 * not valid in the tail Holm uses there (when the groups' ranges separate,
 * every resample is worse and its p is 1/(1 + B) however close they are).
 * 'test: margin' asks for the tolerance itself: the bootstrap's p of it, never
 * below the permutation's of no change.
 */
static double change_p(const struct stats_group *groups, size_t pairs, stats_fn fn, void *ctx,
		       int worse, int margin, const struct stats_bootstrap *bs, const char **test)
{
	struct stats_permutation r = { .seed = bs->seed };
	size_t n = (size_t)-1;
	double p;

	for (size_t i = 0; i < 2 * pairs; i++)
		n = groups[i].n < n ? groups[i].n : n;
	if (n > CHECK_PERMUTATION_MAX_N)
		return bootstrap_p(bs, worse);
	*test = "permutation";
	if (stats_permutation(groups, pairs, fn, ctx, &r))
		return NAN;
	p = worse > 0 ? r.p_greater : r.p_less;
	return margin ? fmax(p, bootstrap_p(bs, worse)) : p;
}

/* Significant: p at the level; larger worsenings than the interval's other end are excluded. */
static void judge_bound(struct check_test *t, int worse, double tol, double alpha,
			const struct stats_bootstrap *bs, double p)
{
	t->past = is_past(t->change, worse, tol);
	if (isnan(bs->lo) || isnan(p))
		return; /* undefined in most resamples: no interval, no p (inconclusive) */
	t->bound = worse > 0 ? bs->lo : bs->hi;
	t->excluded = worse > 0 ? bs->hi : -bs->lo;
	t->p = p;
	t->significant = t->past && t->p <= alpha * ALPHA_SLACK;
}

int check_derived_figures(const struct check_groups *g, enum rules_metric m, struct check_test *t)
{
	struct derived_ctx d = { m, g->rp, 0 };
	struct stats_group groups[2] = { { g->x[2], g->n[2] }, { g->x[3], g->n[3] } };
	/* the analyzer's seed: the same interval as the scaling tables show */
	struct stats_bootstrap cur = STATS_BOOTSTRAP_INIT;

	t->base = t->cur = t->lo = t->hi = NAN;
	if (!g->n[0] || !g->n[1] || !g->n[2] || !g->n[3])
		return 0;
	t->base = check_derived_value(m, stats_median(g->x[0], g->n[0]),
				      stats_median(g->x[1], g->n[1]), g->rp);
	if (stats_bootstrap(groups, 2, derived_value_fn, &d, MATRIX_LEVEL, &cur) < 0)
		return -1;
	t->cur = cur.estimate;
	t->lo = cur.lo;
	t->hi = cur.hi;
	return 0;
}

int check_test_derived(const struct check_groups *g, enum rules_metric m,
		       const struct rules_value *tol, double alpha, struct check_test *t)
{
	struct derived_ctx d = { m, g->rp, tol->relative };
	struct stats_group groups[4];
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;
	int ret;

	bs.seed = g->seed ? g->seed : STATS_SEED;
	bs.threshold = g->margin ? check_metrics[m].worse * tol->value : 0;
	test_init(t);
	for (int i = 0; i < 4; i++) {
		groups[i] = (struct stats_group){ g->x[i], g->n[i] };
		if (!g->n[i])
			return 1;
	}
	t->n_base = g->n[0] < g->n[1] ? g->n[0] : g->n[1];
	t->n_cur = g->n[2] < g->n[3] ? g->n[2] : g->n[3];
	if (check_derived_figures(g, m, t) < 0)
		return -1;
	if (isnan(t->cur) || isnan(t->base))
		return 1;
	ret = stats_bootstrap(groups, 4, derived_change_fn, &d, two_sided_level(alpha), &bs);
	if (ret < 0)
		return -1;
	t->change = bs.estimate;
	judge_bound(t, check_metrics[m].worse, tol->value, alpha, &bs,
		    ret ? NAN
			: change_p(groups, 2, derived_change_fn, &d, check_metrics[m].worse,
				   g->margin, &bs, &t->test));
	return 0;
}

/* ---- Karp-Flatt slope ---- */

struct slope_ctx {
	const double *rp;
	size_t k;
	int relative;
};

/* The analyzer's slope (matrix.c): reports and verdicts compute e's trend one way. */
static double slope_of(const double *rp, const double *med, size_t k)
{
	return matrix_karp_flatt_slope(rp, med, k);
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
	return change_of(slope_of(s->rp, med + s->k + 1, s->k), slope_of(s->rp, med, s->k),
			 s->relative);
}

int check_test_slope(const struct check_slope_groups *g, const struct rules_value *tol,
		     double alpha, struct check_test *t)
{
	size_t ng = 2 * g->k + 2;
	struct stats_group *groups;
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT, cur = STATS_BOOTSTRAP_INIT;
	struct slope_ctx s = { g->rp, g->k, tol->relative };
	double med[2 * 256 + 2];
	int ret = 1;

	bs.seed = cur.seed = g->seed ? g->seed : STATS_SEED;
	bs.threshold = g->margin ? tol->value : 0;
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
	if (stats_bootstrap(groups + g->k + 1, g->k + 1, slope_cur_fn, &s, MATRIX_LEVEL, &cur) <
		    0 ||
	    (ret = stats_bootstrap(groups, ng, slope_change_fn, &s, two_sided_level(alpha), &bs)) <
		    0) {
		ret = -1;
		goto out;
	}
	t->cur = cur.estimate;
	t->lo = cur.lo;
	t->hi = cur.hi;
	t->change = bs.estimate;
	judge_bound(t, +1, tol->value, alpha, &bs,
		    ret ? NAN : change_p(groups, g->k + 1, slope_change_fn, &s, +1, g->margin, &bs,
				       &t->test));
	ret = isnan(t->cur) || isnan(t->base) ? 1 : 0;
out:
	free(groups);
	return ret;
}
