/* The checker's parts: the tests behind a verdict, unreachable levels, the order of verdicts (the
 * baseline file: test-baseline.c; the causes: test-check-cause.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/lost-terms.h"
#include "judge/baseline.h"
#include "judge/check-priv.h"
#include "stats/stats.h"
#include "base/util.h"
#include "check-testing.h"
#include "stats-testing.h"

static const struct rules_value relative10 = { .set = 1, .value = 0.10, .relative = 1 };

static void test_ttest_past_tolerance(void **state)
{
	double base[] = { 1.00, 1.02, 0.99, 1.01, 0.98 };
	double slower[] = { 1.20, 1.22, 1.19, 1.21, 1.18 };  /* +20 % */
	double little[] = { 1.05, 1.07, 1.04, 1.06, 1.03 };  /* +5 %: within */
	double spread[] = { 1.25, 0.97, 1.30, 1.00, 1.20 };  /* +14 % in the mean, overlapping */
	struct check_test_opts o = { +1, &relative10, 0.01, 0, 0, 0, 0 };
	struct check_test t;

	(void)state;
	assert_int_equal(check_test_samples(base, 5, slower, 5, &o, &t), 0);
	assert_true(t.past && t.significant);
	assert_true(t.p < 1e-6);
	assert_true(fabs(t.change - 0.2) < 0.002);
	assert_int_equal(check_test_samples(base, 5, little, 5, &o, &t), 0);
	assert_false(t.past);
	assert_false(t.significant);
	assert_true(t.excluded < 0.10); /* a pass: the data exclude the tolerance */
	assert_int_equal(check_test_samples(base, 5, spread, 5, &o, &t), 0);
	assert_true(t.past);
	assert_false(t.significant);
	assert_true(t.mdc > 0.10 && t.more > 0); /* too noisy to decide at 10 % */
	/* Significant means "worse than no change": 5 % slower is, without being past 10 %. */
	assert_int_equal(check_test_samples(base, 5, little, 5, &o, &t), 0);
	assert_true(t.p < 0.01);
	/* Paired by round: a drift shared by both sides cancels. */
	{
		double a[] = {1.00, 1.10, 1.20, 1.30, 1.40}, b[] = {1.02, 1.12, 1.23, 1.32, 1.43};
		struct check_test_opts op = { +1, &relative10, 0.01, 1, 0, 0, 0 };
		assert_int_equal(check_test_samples(a, 5, b, 5, &o, &t), 0);
		assert_true(t.p > 0.1);
		assert_int_equal(check_test_samples(a, 5, b, 5, &op, &t), 0);
		assert_true(t.p < 1e-3);
		assert_string_equal(t.test, "paired t on logs");
	}
}

static void test_ttest_smaller_is_worse(void **state)
{
	double base[] = {0.95, 0.96, 0.94, 0.95, 0.97}, worse[] = {0.80, 0.82, 0.81, 0.79, 0.80};
	struct rules_value abs05 = { .set = 1, .value = 0.05, .relative = 0 };
	struct check_test_opts o = { -1, &abs05, 0.05, 0, 0, 0, 0 };
	struct check_test t;

	(void)state;
	assert_int_equal(check_test_samples(base, 5, worse, 5, &o, &t), 0);
	assert_true(t.past && t.significant);
	assert_true(t.change < -0.1);
	/* Better is never a regression. */
	assert_int_equal(check_test_samples(worse, 5, base, 5, &o, &t), 0);
	assert_false(t.past);
	assert_false(t.significant);
}

static void test_unreachable(void **state)
{
	struct rules_policy pol = { RULES_LEVEL_ERROR, 0.01, 3, 0, 0 };
	char *why;

	(void)state;
	assert_null(check_unreachable(3, 3, &pol)); /* a t-test has no floor on its p-value */
	pol.min_samples = 5;
	why = check_unreachable(3, 3, &pol);
	assert_string_equal(why, "3 samples, below min_samples 5: this rule cannot fail");
	free(why);
	why = check_unreachable((size_t)-1, 4, &pol);
	assert_string_equal(why, "4 samples, below min_samples 5: this rule cannot fail");
	free(why);
}

static void test_derived(void **state)
{
	double t1[] = { 1.00, 1.01, 0.99, 1.02, 0.98 };
	double t2[] = { 0.52, 0.53, 0.51, 0.52, 0.53 };  /* efficiency ~0.96 */
	double t2slow[] = { 0.70, 0.71, 0.69, 0.72, 0.70 }; /* ~0.71 */
	struct check_groups g = { { t1, t2, t1, t2slow }, { 5, 5, 5, 5 }, 2, 0, 0 };
	struct rules_value abs05 = { .set = 1, .value = 0.05, .relative = 0 };
	struct check_test t;

	(void)state;
	assert_int_equal(check_test_derived(&g, RULES_EFFICIENCY, &abs05, 0.05, &t), 0);
	assert_true(t.past && t.significant);
	assert_true(t.bound < -0.05);
	/* a p-value for the whole run's Holm family: the permutation's, of 252^2 splits drawn */
	assert_true(t.p <= 0.01 && t.p >= 1.0 / (1 + STATS_BOOTSTRAP_ITERATIONS));
	assert_true(fabs(t.base - 1.0 / 0.52 / 2) < 1e-9);
	assert_int_equal(check_test_derived(&g, RULES_KARP_FLATT, &abs05, 0.05, &t), 0);
	assert_true(t.significant); /* e rises from ~0.04 to ~0.4 */
	g.x[3] = t2;
	assert_int_equal(check_test_derived(&g, RULES_EFFICIENCY, &abs05, 0.05, &t), 0);
	assert_false(t.past);
	assert_true(fabs(t.change) < 1e-12);
	assert_true(t.p > 0.2 && t.p <= 1); /* no change: many arrangements are as worse or worse */
	/* Deterministic: the same inputs, the same interval. */
	{
		struct check_test u;
		assert_int_equal(check_test_derived(&g, RULES_EFFICIENCY, &abs05, 0.05, &u), 0);
		assert_true(t.bound == u.bound && t.lo == u.lo && t.hi == u.hi);
	}
}

static void test_slope(void **state)
{
	/* 7 values: the bootstrap's p (at 6 and fewer a permutation's, test-check-small.c) */
	double t1[] = { 1.00, 1.01, 0.99, 1.02, 0.98, 1.00, 1.01 };
	double b2[] = { 0.52, 0.525, 0.515, 0.52, 0.522, 0.521, 0.519 };
	double b4[] = { 0.27, 0.272, 0.268, 0.27, 0.271, 0.269, 0.27 };
	double c2[] = { 0.55, 0.555, 0.545, 0.55, 0.552, 0.551, 0.549 };
	double c4[] = { 0.35, 0.352, 0.348, 0.35, 0.351, 0.349, 0.35 };
	const double *x[6] = { t1, b2, b4, t1, c2, c4 };
	size_t n[6] = { 7, 7, 7, 7, 7, 7 };
	double rp[2] = { 2, 4 };
	struct check_slope_groups g = { x, n, rp, 2, 0, 0 };
	struct rules_value tol = { .set = 1, .value = 0.005, .relative = 0 };
	struct check_test t;

	(void)state;
	assert_int_equal(check_test_slope(&g, &tol, 0.05, &t), 0);
	/* e: 0.04 -> 0.027 in the baseline (slope -0.0067), 0.10 -> 0.133 now (slope +0.0167). */
	assert_true(fabs(t.base + 0.02 / 3) < 1e-3);
	assert_true(fabs(t.cur - 0.05 / 3) < 1e-3);
	assert_true(t.past && t.significant);
	assert_true(t.p > 0 && t.p <= 0.05);
	x[4] = b2, x[5] = b4;
	assert_int_equal(check_test_slope(&g, &tol, 0.05, &t), 0);
	assert_false(t.past);
	g.k = 1; /* one processor count above the reference: no slope */
	assert_int_equal(check_test_slope(&g, &tol, 0.05, &t), 1);
}

/* ---- the whole-run decision (check_adjust) on hand-made tests ---- */

/* A t-test on logs of Execution_time as check_test_samples() leaves it: p, se, df in log units. */
static struct check_test ttest_result(double change, double p, double se, double df)
{
	struct check_test t = {.n_base = 5,
			       .n_cur = 5,
			       .base = 1,
			       .cur = 1 + change,
			       .lo = NAN,
			       .hi = NAN,
			       .change = change,
			       .bound = NAN,
			       .p = p,
			       .mdc = NAN,
			       .se = se,
			       .df = df,
			       .dtol = log1p(0.05),
			       .extra = 0,
			       .n_pairs = 5,
			       .logs = 1,
			       .test = "Welch t on logs"};

	t.past = log1p(change) > t.dtol;
	t.significant = t.past && p <= 0.01;
	t.excluded = expm1(log1p(change) + stats_t_quantile(0.99, df) * se);
	return t;
}

/* A bootstrap result of the speedup (smaller is worse): no se, a p from its resamples. */
static struct check_test bootstrap_result(double change, double p)
{
	struct check_test t = {.n_base = 5,
			       .n_cur = 5,
			       .base = 2,
			       .cur = 2 * (1 + change),
			       .lo = NAN,
			       .hi = NAN,
			       .change = change,
			       .bound = change / 2,
			       .p = p,
			       .excluded = -2 * change,
			       .mdc = NAN,
			       .se = NAN,
			       .df = NAN,
			       .dtol = NAN,
			       .extra = NAN,
			       .test = "bootstrap"};

	t.past = change < -0.05;
	t.significant = t.past && p <= 0.01;
	return t;
}

struct decision {
	struct fixture f;
	struct check c;
	struct verdict_set vs;
	struct rules_settings set;
};

static void decision_init(struct decision *d)
{
	fixture_init(&d->f, NULL);
	memset(&d->c, 0, sizeof(d->c));
	memset(&d->set, 0, sizeof(d->set));
	verdict_set_init(&d->vs);
	d->c.vs = &d->vs;
	d->f.cell.c = &d->c;
	d->f.cell.set = &d->set;
	for (int m = 0; m < RULES_NR_METRICS; m++) {
		d->set.tolerance[m] = (struct rules_value){.set = 1, .value = 0.05, .relative = 1};
		d->set.tolerance_policy[m] = (struct rules_policy){RULES_LEVEL_ERROR, 0.01, 3, 0,
								   0};
	}
}

static struct verdict *decision_add(struct decision *d, enum rules_metric id,
				     const struct check_test *t)
{
	const struct check_metric *m = &check_metrics[id];
	struct verdict *v = check_verdict(&d->f.cell, VERDICT_WARN, m->key, m, NULL);
	size_t i = (size_t)(v - d->vs.v);

	check_defer(&d->f.cell, i, m, t);
	return v;
}

static void decision_release(struct decision *d)
{
	verdict_set_release(&d->vs);
	fixture_release(&d->f);
}

/*
 * A bootstrap check is in the Holm family with its p: p = 0.004 among 5
 * error-level checks of a cell without a time check is 0.02 > 0.01 adjusted,
 * so it does not fail alone (it used to fail on its own bound, outside the
 * family). Beside a time check that does not reject, it is tested on the half
 * of the cell's level the time check leaves (CHECK_PRIMARY_WEIGHT): a serial
 * section that barely moves a short interval's time is still caught.
 */
static void test_bootstrap_in_the_family(void **state)
{
	struct decision d;
	struct check_test boot = bootstrap_result(-0.2, 0.004),
			  flat = ttest_result(0.0, 0.5, 0.02, 8);

	(void)state;
	decision_init(&d);
	decision_add(&d, RULES_SPEEDUP, &boot);
	for (int i = 0; i < 4; i++)
		decision_add(&d, RULES_LOAD_BALANCE, &flat);
	check_adjust(&d.c);
	assert_int_equal(d.c.family, 5);
	assert_int_equal(d.c.family_cells, 1);
	assert_near(d.vs.v[0].p_adjusted, 0.02, 1e-12);
	assert_int_not_equal(d.vs.v[0].status, VERDICT_FAIL);
	assert_non_null(strstr(d.vs.v[0].message, "significant alone but not over the whole run"));
	decision_release(&d);
	decision_init(&d);
	decision_add(&d, RULES_SPEEDUP, &boot);
	decision_add(&d, RULES_TIME, &flat);
	check_adjust(&d.c);
	assert_near(d.vs.v[0].p_adjusted, 0.004 / (1 - CHECK_PRIMARY_WEIGHT), 1e-12);
	assert_int_equal(d.vs.v[0].status, VERDICT_FAIL);
	decision_release(&d);
	/* alone, the same p fails */
	decision_init(&d);
	decision_add(&d, RULES_SPEEDUP, &boot);
	check_adjust(&d.c);
	assert_int_equal(d.vs.v[0].status, VERDICT_FAIL);
	decision_release(&d);
}

/* An undefined bound (or p) proves nothing: INCONCLUSIVE, never PASS. */
static void test_undefined_bound_is_inconclusive(void **state)
{
	struct decision d;
	struct check_test t = ttest_result(0.0, 0.5, 0.02, 8), boot = bootstrap_result(0.0, NAN);

	(void)state;
	decision_init(&d);
	t.excluded = NAN;
	decision_add(&d, RULES_TIME, &t);
	boot.bound = boot.excluded = NAN;
	decision_add(&d, RULES_SPEEDUP, &boot);
	check_adjust(&d.c);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(d.vs.v[i].status, VERDICT_WARN);
		assert_true(d.vs.v[i].inconclusive);
		assert_non_null(strstr(d.vs.v[i].message, "undefined"));
	}
	decision_release(&d);
}

/*
 * The minimum detectable change is the worsening a FAIL catches with 80 %
 * power at the Holm worst case alpha / m, the tolerance included: with the
 * noise small it is the tolerance plus the power's share, never below it.
 */
static void test_honest_mdc(void **state)
{
	struct decision d;
	struct check_test t = ttest_result(0.01, 0.3, 0.02, 8),
			  small = ttest_result(0.0, 0.5, 0.002, 8);
	double qa = stats_t_quantile(1 - 0.01 / 10, 8), qp = stats_t_quantile(0.8, 8);

	(void)state;
	decision_init(&d);
	decision_add(&d, RULES_TIME, &t);
	decision_add(&d, RULES_TIME, &small);
	for (int i = 0; i < 8; i++)
		decision_add(&d, RULES_TIME, &t);
	check_adjust(&d.c);
	assert_int_equal(d.c.family, 10);
	/* the noise dominates: the noncentral t's shift, above the central (q(1 - alpha/10) +
	 * q(0.8)) se that understated it */
	double nc = qa * (1 - 1 / 32.0) + stats_normal_quantile(0.8) * sqrt(1 + qa * qa / 16);
	assert_near(d.vs.v[0].mdc, expm1(nc * 0.02), 1e-9);
	assert_true(d.vs.v[0].mdc > expm1((qa + qp) * 0.02));
	/* the tolerance dominates: log(1.05) + q(0.8) se, above the tolerance */
	assert_near(d.vs.v[1].mdc, expm1(log1p(0.05) + qp * 0.002), 1e-9);
	assert_true(d.vs.v[1].mdc > 0.05);
	decision_release(&d);
}

/*
 * The minimum detectable change is caught as often as it says: 5 rounds paired (4 df) at 1 %,
 * 4 % noise a round; a true worsening at the MDC computed from the true noise fails at least 78 %
 * of 4,000 gates (the central t's MDC was caught 76.7 %, issue 32 saw 69.6 %; sd of the rate
 * 0.65 points).
 */
static void test_mdc_power(void **state)
{
	static const struct rules_value tol = { .set = 1, .value = 0.05, .relative = 1 };
	struct check_test_opts o = { +1, &tol, 0.01, 1, 0, 0, 0 };
	struct check_test truth = { .se = 0.04 / sqrt(5), .df = 4, .dtol = log1p(0.05), .logs = 1 };
	double base[5], cur[5], shift;
	int caught = 0;

	(void)state;
	check_test_power(&truth, 0.01, +1, 0);
	shift = log1p(truth.mdc);
	lcg_state = 32;
	for (int g = 0; g < 4000; g++) {
		struct check_test t;
		for (int i = 0; i < 5; i++) {
			base[i] = exp(0.5 * lcg_normal());   /* the rounds' level, shared */
			cur[i] = base[i] * exp(shift + 0.04 * lcg_normal());
		}
		assert_int_equal(check_test_samples(base, 5, cur, 5, &o, &t), 0);
		caught += t.past && t.significant;
	}
	assert_true(caught >= 0.78 * 4000);
}

/* Messages: "past the tolerance" only when the change is; the change named for what was tested. */
static void test_messages_agree(void **state)
{
	struct decision d;
	struct check_test flat = ttest_result(-0.01, 0.8, 0.05, 8);
	struct analysis_run runs[3] = { { .contention = 0.6 }, { .contention = 0.7 },
					{ .contention = 0.9 } };

	(void)state;
	decision_init(&d);
	d.f.cfg[2].runs = runs; /* a busy machine against a stored baseline */
	d.f.cfg[2].nr_runs = 3;
	decision_add(&d, RULES_TIME, &flat);
	check_adjust(&d.c);
	assert_true(d.vs.v[0].inconclusive);
	assert_null(strstr(d.vs.v[0].message, "past the tolerance"));
	assert_non_null(strstr(d.vs.v[0].message, "geometric-mean change -1.0 %"));
	assert_non_null(strstr(d.vs.v[0].message, "median"));
	decision_release(&d);
}

/*
 * "Cannot judge against this baseline" counts time checks that had a test without the loads
 * allowance (check_defer_loads()), nothing else: the demo's halo, judged on shares only, read
 * "cannot judge 1 of 0 time checks" with shares of 1e200 %, from a pending slot's unset memory.
 * Fresh memory is filled with 0xc1 bytes (glibc: negative doubles, nonzero ints), which made the
 * slots of these share checks look like time tests that would have failed without the allowance.
 */
static void test_loads_only_their_own(void **state)
{
	struct decision d;
	struct check_test past = ttest_result(0.10, 0.04, 0.05, 8),
			  flat = ttest_result(0.0, 0.5, 0.02, 8);
	enum rules_metric shares[] = { RULES_SYNCHRONIZATION, RULES_COMMUNICATION, RULES_IDLE };

	(void)state;
#ifdef __GLIBC__
	mallopt(M_PERTURB, 0x3e); /* fresh memory 0x3e ^ 0xff */
#endif
	decision_init(&d);
	d.c.bench = &d.f.bench;
	d.c.nr_bench = 1;
	for (size_t i = 0; i < sizeof(shares) / sizeof(*shares); i++)
		decision_add(&d, shares[i], &past);
	decision_add(&d, RULES_TIME, &flat);
	for (size_t i = 0; i < d.vs.nr; i++) { /* as check_cell() names them */
		free(d.vs.v[i].kind);
		d.vs.v[i].kind = xstrfmt("tolerance.%s", check_metrics[i < 3 ? shares[i]
									 : RULES_TIME].key);
	}
	check_adjust(&d.c);
	check_decided(&d.c, 0);
#ifdef __GLIBC__
	mallopt(M_PERTURB, 0);
#endif
	for (size_t i = 0; i < d.vs.nr; i++) {
		assert_false(d.vs.v[i].loads);
		assert_null(strstr(d.vs.v[i].message, "cannot judge"));
		assert_string_not_equal(d.vs.v[i].kind, "baseline.loads");
	}
	assert_int_equal(d.vs.v[0].status, VERDICT_WARN); /* a share past its tolerance alone */
	decision_release(&d);
}

/*
 * A/B pairs by round number: one failed run on each side, in different
 * rounds (base lost round 3, head round 2), drops those rounds and pairs
 * the rest; by position, every later pair would mix two rounds' machine.
 */
static void test_pairs_by_round(void **state)
{
	static const double drift[6] = { 1.0, 1.3, 0.8, 1.5, 0.9, 1.2 };
	double tb[5], th[5], xb[6], xc[6], pb[6], pc[6];
	int base_rounds[5] = {1, 2, 4, 5, 6}, head_rounds[5] = {1, 3, 4, 5, 6}, rb[6], rc[6], pr[6];
	struct baseline_cell base = { .n = 5, .round = base_rounds };
	struct baseline_cell head = { .n = 5, .round = head_rounds };
	struct rules_value tol = { .set = 1, .value = 0.01, .relative = 1 };
	struct check_test_opts o = { +1, &tol, 0.01, 1, 0, 0, 0 };
	const struct check_metric *time = &check_metrics[RULES_TIME];
	struct check_test t;
	size_t nb, nc, n;

	(void)state;
	for (int i = 0; i < 5; i++) {
		tb[i] = drift[base_rounds[i] - 1] * (1 + 0.001 * i);
		th[i] = drift[head_rounds[i] - 1] * 1.05 *
			(1 + 0.001 * i); /* 5 % slower, round by round */
	}
	base.fig[ANALYSIS_EXECUTION_TIME] = tb;
	head.fig[ANALYSIS_EXECUTION_TIME] = th;
	nb = check_samples_rounds(&base, time, xb, rb);
	nc = check_samples_rounds(&head, time, xc, rc);
	assert_int_equal(nb, 5);
	assert_int_equal(rb[2], 4);
	n = check_pair_rounds(xb, rb, nb, xc, rc, nc, pb, pc, pr);
	assert_int_equal(n, 4);
	assert_int_equal(pr[0], 1);
	assert_int_equal(pr[1], 4);
	assert_int_equal(pr[3], 6);
	assert_int_equal(check_test_samples(pb, n, pc, n, &o, &t), 0);
	assert_near(t.change, 0.05, 0.003);
	assert_true(t.significant);
	/* by position the same samples mix rounds: the machine's drift swamps the 5 % */
	assert_int_equal(check_test_samples(xb, 5, xc, 5, &o, &t), 0);
	assert_false(t.significant);
	/* a stored baseline's cell has no rounds: its samples are numbered by position */
	base.round = NULL;
	assert_int_equal(check_samples_rounds(&base, time, xb, rb), 5);
	assert_int_equal(rb[4], 5);
}


static void test_sort(void **state)
{
	struct verdict_set vs;

	(void)state;
	verdict_set_init(&vs);
	verdict_add(&vs, VERDICT_PASS, "b", "program/solve", "-", 1, 2, "x");
	verdict_add(&vs, VERDICT_PASS, "b", "program", "-", 1, 2, "y");
	verdict_add(&vs, VERDICT_PASS, "a", "program/solve", "-", 1, 1, "z");
	verdict_add(&vs, VERDICT_PASS, "b", "program/solve", "-", 1, 1, "w");
	verdict_add(&vs, VERDICT_PASS, "b", "program/solve", "-", 1, 1, "v");
	verdict_set_sort(&vs, 0);
	assert_string_equal(vs.v[0].kind, "z");
	assert_string_equal(vs.v[1].kind, "y");
	assert_string_equal(vs.v[2].kind, "w"); /* stable among equals */
	assert_string_equal(vs.v[3].kind, "v");
	assert_string_equal(vs.v[4].kind, "x");
	verdict_set_release(&vs);
}

static void test_format(void **state)
{
	char buf[64];

	(void)state;
	check_format_value(buf, sizeof(buf), &check_metrics[RULES_SYNCHRONIZATION], 0.142);
	assert_string_equal(buf, "14.2 %");
	check_format_change(buf, sizeof(buf), &check_metrics[RULES_TIME], 0.123, 1);
	assert_string_equal(buf, "+12.3 %");
	check_format_change(buf, sizeof(buf), &check_metrics[RULES_IDLE], 0.05, 0);
	assert_string_equal(buf, "+5.0 points");
	check_config_name(buf, sizeof(buf), "4000", 2, 4);
	assert_string_equal(buf, "2 ranks \xc3\x97 4 threads, size 4000");
	check_config_name(buf, sizeof(buf), "-", 1, 2);
	assert_string_equal(buf, "1 rank \xc3\x97 2 threads");
	check_config_name(buf, sizeof(buf), NULL, 0, 0);
	assert_string_equal(buf, "-");
	for (int m = 0; m < RULES_NR_METRICS; m++)
		assert_int_equal(check_metrics[m].id, m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ttest_past_tolerance),
		cmocka_unit_test(test_ttest_smaller_is_worse),
		cmocka_unit_test(test_unreachable),
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_slope),
		cmocka_unit_test(test_bootstrap_in_the_family),
		cmocka_unit_test(test_undefined_bound_is_inconclusive),
		cmocka_unit_test(test_honest_mdc),
		cmocka_unit_test(test_mdc_power),
		cmocka_unit_test(test_messages_agree),
		cmocka_unit_test(test_loads_only_their_own),
		cmocka_unit_test(test_pairs_by_round),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
