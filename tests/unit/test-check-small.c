/* The checker's tests at small samples keep their level where Holm uses them (issue 32): the
 * permutation p of the derived checks, simulated with no change at 3, 4 and 5 values a group. */
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
#include "stats-testing.h"

/* Holm's first step over 24 checks at the whole run's 1 %. */
#define HOLM_FIRST (0.01 / 24)
#define DRAWS 3000

/* The relative change of the speedup T(ref) / T(p), as check-stats.c computes it. */
static double speedup_change(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return (m[2] / m[3]) / (m[0] / m[1]) - 1;
}

static void draw(double *x, size_t n, double level, double sd)
{
	for (size_t i = 0; i < n; i++)
		x[i] = level * exp(sd * lcg_normal());
}

/*
 * With no change, "past the 5 % tolerance and p <= alpha / 24" must happen at
 * most alpha / 24 of the time (within a binomial margin: 6 of 3000 where 1.2
 * are expected has probability 0.002). The bootstrap's p did it 22 times of
 * 3000 at 3 values a group and 8 at 4.
 */
static int false_alarms(size_t n, size_t iterations)
{
	double x[4][8];
	struct stats_group g[4];
	int count = 0;

	lcg_state = 32 + n;
	for (int d = 0; d < DRAWS; d++) {
		struct stats_permutation r = { .iterations = iterations, .seed = STATS_SEED + d };
		for (int i = 0; i < 4; i++) {
			draw(x[i], n, i % 2 ? 0.5 : 1.0, 0.05);
			g[i] = (struct stats_group){ x[i], n };
		}
		assert_int_equal(stats_permutation(g, 2, speedup_change, NULL, &r), 0);
		assert_true(r.p_less >= stats_permutation_min_p(g, 2) - 1e-15);
		count += r.estimate < -0.05 && r.p_less <= HOLM_FIRST;
	}
	return count;
}

static void test_level_at_small_samples(void **state)
{
	(void)state;
	assert_true(false_alarms(3, 0) <= 5); /* 400 arrangements: p >= 1/400, never this low */
	assert_true(false_alarms(4, 0) <= 5); /* 4900 arrangements, all visited */
	assert_true(false_alarms(5, 4000) <= 5); /* 63,504: drawn, p >= 1/4001 */
}

/* The exact p: every split visited once, the smallest p 1 / C(6, 3) for one pair of 3. */
static double first_mean_shift(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[1] - m[0];
}

static void test_exact_enumeration(void **state)
{
	double a[] = { 1, 2, 3, 3.5 }, b[] = { 4, 5, 6 };
	struct stats_group g[2] = { { a, 3 }, { b, 3 } };
	struct stats_permutation r = { 0 };

	(void)state;
	assert_int_equal(stats_permutation(g, 1, first_mean_shift, NULL, &r), 0);
	assert_true(r.exact);
	assert_int_equal(r.arrangements, 20);
	assert_near(r.p_greater, 1.0 / 20, 1e-15);
	assert_near(r.p_less, 1.0, 1e-15);
	assert_near(stats_permutation_min_p(g, 1), 1.0 / 20, 1e-15);
	/* 4 vs 2: C(6, 2) = 15 splits, the observed the most extreme of them */
	g[0].n = 4;
	g[1] = (struct stats_group){ b + 1, 2 };
	assert_int_equal(stats_permutation(g, 1, first_mean_shift, NULL, &r), 0);
	assert_int_equal(r.arrangements, 15);
	assert_near(r.p_greater, 1.0 / 15, 1e-15);
}

/*
 * A derived check at 3 values a group whose groups' ranges separate: the
 * bootstrap said p = 1/(1 + B) however close they were, enough for the first
 * step of Holm over any family; the permutation p is at least 1/400.
 */
static void test_derived_check_small(void **state)
{
	double ref[] = { 1.00, 1.01, 0.99 }, bp[] = { 0.500, 0.501, 0.502 };
	double cp[] = { 0.530, 0.531, 0.532 };
	struct check_groups g = { { ref, bp, ref, cp }, { 3, 3, 3, 3 }, 2, 0, 0 };
	struct rules_value tol = { .set = 1, .value = 0.05, .relative = 1 };
	struct check_test t;

	(void)state;
	assert_int_equal(check_test_derived(&g, RULES_SPEEDUP, &tol, 0.01, &t), 0);
	assert_true(t.past);
	assert_true(t.p >= 1.0 / 400 - 1e-15);
	assert_true(t.p > HOLM_FIRST);
	assert_string_equal(t.test, "permutation");
	/* 'test: margin' keeps the bootstrap's p of the tolerance, never below the permutation's */
	g.margin = 1;
	assert_int_equal(check_test_derived(&g, RULES_SPEEDUP, &tol, 0.01, &t), 0);
	assert_true(t.p >= 1.0 / 400 - 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_enumeration),
		cmocka_unit_test(test_derived_check_small),
		cmocka_unit_test(test_level_at_small_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
