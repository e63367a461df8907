/* The decision's error rates on seeded synthetic data: t-tests and the bootstrap at the boundary,
 * Holm over a run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/check-priv.h"
#include "stats/stats.h"

/* Standard normal by Box-Muller from the project's seeded generator: the same draws on every
 * machine. */
static double normal(struct stats_rng *rng)
{
	double u = ((double)(stats_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(stats_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* n times of 0.2 s with a coefficient of variation cv, scaled by (1 + shift), each round with a
 * drift. */
static void times(struct stats_rng *rng, double *x, const double *drift, size_t n, double cv,
		  double shift)
{
	for (size_t i = 0; i < n; i++)
		x[i] = 0.2 * (1 + shift) * exp(cv * normal(rng) + (drift ? drift[i] : 0));
}

/* Binomial slack: the count may exceed its expectation by 4 standard deviations, no more. */
static double slack(double rate, int trials)
{
	return 4 * sqrt(rate * (1 - rate) / trials);
}

/* With no change, "significantly worse than no change" at alpha rejects at rate alpha (Welch on
 * logs). */
static void test_welch_error_rate_at_the_boundary(void **state)
{
	struct rules_value tol0 = { .set = 1, .value = 0, .relative = 1 };
	struct check_test_opts o = { +1, &tol0, 0.05, 0, 0, 0, 0 };
	struct stats_rng rng;
	double a[5], b[5];
	int trials = 20000, rejected = 0;
	double rate;

	(void)state;
	stats_rng_init(&rng, 11);
	for (int k = 0; k < trials; k++) {
		struct check_test t;
		times(&rng, a, NULL, 5, 0.03, 0);
		times(&rng, b, NULL, 5, 0.03, 0);
		assert_int_equal(check_test_samples(a, 5, b, 5, &o, &t), 0);
		rejected += t.p <= o.alpha;
	}
	rate = (double)rejected / trials;
	print_message("Welch t on logs, n=5 vs 5, no change: %d of %d rejected at 0.05 (%.4f)\n",
		      rejected, trials, rate);
	assert_true(rate <= 0.05 + slack(0.05, trials));
	assert_true(rate >= 0.05 - slack(0.05, trials)); /* not wastefully conservative either */
}

/* Paired by round: a drift shared by both sides does not inflate the error rate, and pairing
 * removes it. */
static void test_paired_error_rate_and_power(void **state)
{
	struct rules_value tol = { .set = 1, .value = 0.03, .relative = 1 };
	struct check_test_opts paired = {+1, &tol, 0.01, 1, 0, 0, 0},
			       welch = {+1, &tol, 0.01, 0, 0, 0, 0};
	struct stats_rng rng;
	double a[10], b[10], drift[10];
	int trials = 5000, false_alarm = 0, caught_paired = 0, caught_welch = 0;

	(void)state;
	stats_rng_init(&rng, 12);
	for (int k = 0; k < trials; k++) {
		struct check_test t;
		for (int i = 0; i < 10; i++)
			drift[i] = 0.05 * normal(&rng); /* the machine's mood, round by round */
		times(&rng, a, drift, 10, 0.01, 0);
		times(&rng, b, drift, 10, 0.01, 0);
		assert_int_equal(check_test_samples(a, 10, b, 10, &paired, &t), 0);
		false_alarm += t.past && t.significant;
		times(&rng, b, drift, 10, 0.01, 0.06); /* a 6 % slowdown */
		assert_int_equal(check_test_samples(a, 10, b, 10, &paired, &t), 0);
		caught_paired += t.past && t.significant;
		assert_int_equal(check_test_samples(a, 10, b, 10, &welch, &t), 0);
		caught_welch += t.past && t.significant;
	}
	print_message("paired, 10 rounds, drift sd 5 %%: false alarms %d of %d; a 6 %% slowdown "
		      "caught %d (paired) "
		      "vs %d (unpaired)\n",
		      false_alarm, trials, caught_paired, caught_welch);
	assert_true((double)false_alarm / trials <= 0.01 + slack(0.01, trials));
	assert_true(caught_paired > 0.95 * trials);
	assert_true(caught_welch < 0.8 * caught_paired);
}

/* Holm over 100 checks of which none changed: a clean run fails anywhere at most 1 % of the time.
 */
static void test_holm_whole_run(void **state)
{
	enum { M = 100 };
	struct stats_rng rng;
	double a[5], b[5], p[M], adj[M], bh[M];
	int runs = 2000, any_raw = 0, any_holm = 0;

	(void)state;
	stats_rng_init(&rng, 13);
	for (int r = 0; r < runs; r++) {
		int raw = 0, holm = 0;
		for (int i = 0; i < M; i++) {
			struct stats_ttest t;
			times(&rng, a, NULL, 5, 0.03, 0);
			times(&rng, b, NULL, 5, 0.03, 0);
			for (int j = 0; j < 5; j++)
				a[j] = log(a[j]), b[j] = log(b[j]);
			assert_int_equal(stats_ttest_welch(a, 5, b, 5, 0, 0, &t), 0);
			p[i] = t.p_greater;
		}
		stats_holm(p, M, adj);
		stats_bh(p, M, bh);
		for (int i = 0; i < M; i++) {
			raw |= p[i] <= 0.01;
			holm |= adj[i] <= 0.01;
			if (!(adj[i] >= p[i] - 1e-12 && bh[i] >= p[i] - 1e-12 &&
			      bh[i] <= adj[i] + 1e-12))
				fail_msg("p %g holm %g bh %g", p[i], adj[i], bh[i]);
		}
		any_raw += raw;
		any_holm += holm;
	}
	print_message("100 unchanged checks per run: a run fails anywhere %d of %d times "
		      "unadjusted, %d with Holm\n",
		      any_raw, runs, any_holm);
	assert_true(any_raw > runs / 2); /* 1 - 0.99^100 = 63 %: why the run needs control */
	assert_true((double)any_holm / runs <= 0.01 + slack(0.01, runs));
}

/*
 * One gate run of the adaptive design (docs/check.md, "Adaptive repeats") over M paired tests of a
 * 'shift' slowdown in test 0 (the others unchanged): look 1 on 5 rounds at CHECK_FIRST_LOOK x alpha
 * with Holm; every test it does not reject gets 15 more rounds (the worst case: all of them
 * inconclusive); look 2 on all 20 rounds at the rest of alpha, Holm over the same M tests with p =
 * 1 for those already decided.
 */
enum { LOOK_M = 5, LOOK_N1 = 5, LOOK_N = 20 };

/* What the checker says of each test at each look: its p and whether the change is past the
 * tolerance. */
struct looks {
	double p[2][LOOK_M];
	int past[2][LOOK_M];
};

/*
 * Draws one run's data and tests it at both looks. The level is the proper procedure's; p and
 * 'past' do not depend on it (check_test_samples()), so the naive procedure below decides on the
 * same figures, as if it had tested the same data again at the full level.
 */
static void looks_test(struct stats_rng *rng, double tol_value, double shift, struct looks *l)
{
	struct rules_value tol = { .set = 1, .value = tol_value, .relative = 1 };
	double alpha = 0.01, share[2] = { CHECK_FIRST_LOOK, 1 - CHECK_FIRST_LOOK };
	struct check_test_opts o = { +1, &tol, alpha, 1, 0, 0, 0 };
	double a[LOOK_M][LOOK_N], b[LOOK_M][LOOK_N];

	for (int i = 0; i < LOOK_M; i++) {
		times(rng, a[i], NULL, LOOK_N, 0.08, 0);
		times(rng, b[i], NULL, LOOK_N, 0.08, i == 0 ? shift : 0);
	}
	for (int look = 0; look < 2; look++) {
		o.alpha = alpha * share[look];
		for (int i = 0; i < LOOK_M; i++) {
			struct check_test t;
			assert_int_equal(check_test_samples(a[i], look ? LOOK_N : LOOK_N1, b[i],
							    look ? LOOK_N : LOOK_N1, &o, &t), 0);
			l->p[look][i] = t.p;
			l->past[look][i] = t.past;
		}
	}
}

/*
 * The two looks' decisions on l: a bit per outcome, 1 a false alarm, 2 test 0 caught ('shifted':
 * test 0 was slowed down). 'naive' re-tests at the full alpha in both looks (what must not be
 * done).
 */
static int looks_decide(const struct looks *l, int shifted, int naive)
{
	double alpha = 0.01, share[2] = { CHECK_FIRST_LOOK, 1 - CHECK_FIRST_LOOK };
	double p[LOOK_M], adj[LOOK_M];
	int decided[LOOK_M] = { 0 }, out = 0;

	for (int look = 0; look < 2; look++) {
		double look_alpha = naive ? alpha : alpha * share[look];
		for (int i = 0; i < LOOK_M; i++)
			p[i] = decided[i] ? 1 : l->p[look][i];
		stats_holm(p, LOOK_M, adj);
		for (int i = 0; i < LOOK_M; i++)
			if (!decided[i] && l->past[look][i] && adj[i] <= look_alpha) {
				decided[i] = 1;
				out |= i == 0 && shifted ? 2 : 1;
			}
	}
	return out;
}

/* Two looks keep the whole run's false-alarm rate at the level; re-testing at the full level would
 * not. */
static void test_two_looks_error_rate_and_power(void **state)
{
	struct stats_rng rng;
	struct looks l;
	int families = 20000, alarms = 0, naive = 0, caught = 0, caught_single = 0,
	    power_trials = 4000;

	(void)state;
	stats_rng_init(&rng, 21);
	for (int k = 0; k < families; k++) {
		looks_test(&rng, 0, 0, &l);
		alarms += looks_decide(&l, 0, 0) & 1;
		naive += looks_decide(&l, 0, 1) & 1; /* the same data, tested naively */
	}
	stats_rng_init(&rng, 22);
	for (int k = 0; k < power_trials; k++) {
		struct rules_value tol = { .set = 1, .value = 0.05, .relative = 1 };
		struct check_test_opts o = {+1, &tol, 0.01 / LOOK_M, 1, 0,
					    0,  0}; /* single look: Bonferroni bound of Holm */
		struct check_test t;
		double a[LOOK_N1], b[LOOK_N1];
		looks_test(&rng, 0.05, 0.15, &l);
		caught += (looks_decide(&l, 1, 0) & 2) != 0;
		times(&rng, a, NULL, LOOK_N1, 0.08, 0);
		times(&rng, b, NULL, LOOK_N1, 0.08, 0.15);
		assert_int_equal(check_test_samples(a, LOOK_N1, b, LOOK_N1, &o, &t), 0);
		caught_single += t.past && t.p <= o.alpha;
	}
	print_message("two looks (5 then 20 paired rounds, %d tests, alpha 0.01 split %g / %g): a "
		      "clean run fails "
		      "%d of %d times (%.4f); re-testing at the full level: %d; a 15 %% slowdown "
		      "at CV 8 %% caught "
		      "%d of %d (one look of 5 rounds: %d)\n",
		      LOOK_M, CHECK_FIRST_LOOK, 1 - CHECK_FIRST_LOOK, alarms, families,
		      (double)alarms / families, naive, caught, power_trials, caught_single);
	assert_true((double)alarms / families <= 0.01 + slack(0.01, families));
	assert_true(naive > alarms);
	assert_true(caught > 0.9 * power_trials);
	assert_true(caught > 2 * caught_single);
}

static void test_holm_bh_values(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005, NAN }, h[5], b[5];

	(void)state;
	stats_holm(p, 5, h);
	/* R: p.adjust(c(.01,.04,.03,.005,1), "holm") = 0.04 0.09 0.09 0.025 1 */
	assert_true(fabs(h[0] - 0.04) < 1e-12 && fabs(h[1] - 0.09) < 1e-12 &&
		    fabs(h[2] - 0.09) < 1e-12);
	assert_true(fabs(h[3] - 0.025) < 1e-12 && h[4] == 1);
	stats_bh(p, 5, b);
	/* R: p.adjust(c(.01,.04,.03,.005,1), "BH") = 0.025 0.05 0.05 0.025 1 */
	assert_true(fabs(b[0] - 0.025) < 1e-12 && fabs(b[1] - 0.05) < 1e-12 &&
		    fabs(b[2] - 0.05) < 1e-12);
	assert_true(fabs(b[3] - 0.025) < 1e-12 && b[4] == 1);
}

/*
 * The bootstrap of a derived ratio (speedup from T(ref) and T(p)) at the
 * boundary: with no change, its one-sided bound excludes no change at about
 * the nominal rate. 10,000 resamples, a seed per check.
 */
static void test_bootstrap_error_rate_at_the_boundary(void **state)
{
	struct rules_value tol0 = { .set = 1, .value = 0, .relative = 1 };
	struct stats_rng rng;
	double x[4][8];
	int trials = 600, rejected = 0;
	double rate;

	(void)state;
	stats_rng_init(&rng, 14);
	for (int k = 0; k < trials; k++) {
		struct check_groups g = {
			{x[0], x[1], x[2], x[3]}, {8, 8, 8, 8}, 2, 1000 + (uint64_t)k, 0};
		struct check_test t;
		for (int i = 0; i < 4; i++)
			times(&rng, x[i], NULL, 8, 0.03, i % 2 ? -0.45 : 0);
		assert_int_equal(check_test_derived(&g, RULES_SPEEDUP, &tol0, 0.05, &t), 0);
		rejected += t.significant;
	}
	rate = (double)rejected / trials;
	print_message("bootstrap of the speedup, 8 repeats, no change: %d of %d significant at "
		      "0.05 (%.3f)\n",
		      rejected, trials, rate);
	assert_true(rate <= 0.05 + slack(0.05, trials));
}

static double ratio_of_first_two(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[1] / m[0];
}

/* Paired rounds are resampled together: a drift shared by both groups cancels in their ratio. */
static void test_bootstrap_paired_rounds(void **state)
{
	double a[8], b[8], drift[8];
	struct stats_group g[2] = { { a, 8 }, { b, 8 } };
	struct stats_bootstrap indep = STATS_BOOTSTRAP_INIT, paired = STATS_BOOTSTRAP_INIT;
	struct stats_rng rng;
	double c[3] = { 1, 2, 3 };
	struct stats_group bad[2] = { { a, 8 }, { c, 3 } };

	(void)state;
	stats_rng_init(&rng, 15);
	for (int i = 0; i < 8; i++)
		drift[i] = 0.2 * normal(&rng);
	times(&rng, a, drift, 8, 0.005, 0);
	times(&rng, b, drift, 8, 0.005, 0.5);
	paired.paired = 1;
	assert_int_equal(stats_bootstrap(g, 2, ratio_of_first_two, NULL, 0.95, &indep), 0);
	assert_int_equal(stats_bootstrap(g, 2, ratio_of_first_two, NULL, 0.95, &paired), 0);
	print_message(
		"ratio 1.5 under a 20 %% drift: independent [%.3f, %.3f], paired [%.3f, %.3f]\n",
		indep.lo, indep.hi, paired.lo, paired.hi);
	assert_true(paired.hi - paired.lo < (indep.hi - indep.lo) / 4);
	assert_true(paired.lo < 1.5 * 1.02 && paired.hi > 1.5 * 0.98);
	assert_int_equal(stats_bootstrap(bad, 2, ratio_of_first_two, NULL, 0.95, &paired),
			 -1); /* unequal rounds */
}

/* A seed per check: two checks do not share their random draws, the same check always does. */
static void test_seed_per_check(void **state)
{
	(void)state;
	assert_true(stats_seed_of("jacobi program/solve 1x2 speedup") !=
		    stats_seed_of("jacobi program 1x2 speedup"));
	assert_true(stats_seed_of("a") == stats_seed_of("a"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_error_rate_at_the_boundary),
		cmocka_unit_test(test_paired_error_rate_and_power),
		cmocka_unit_test(test_holm_whole_run),
		cmocka_unit_test(test_holm_bh_values),
		cmocka_unit_test(test_two_looks_error_rate_and_power),
		cmocka_unit_test(test_bootstrap_error_rate_at_the_boundary),
		cmocka_unit_test(test_bootstrap_paired_rounds),
		cmocka_unit_test(test_seed_per_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
