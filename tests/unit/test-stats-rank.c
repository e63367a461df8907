/* Unit tests for gate/stats' rank statistics (Mann-Whitney U, Hodges-Lehmann): each result checked
 * against an enumeration of every split, a table or the definition. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

#include "stats-testing.h"

/* ---- Mann-Whitney U ---- */

/* U of b by definition: pairs with b > a, ties one half, doubled to stay integer. */
static long u2_by_pairs(const double *a, size_t na, const double *b, size_t nb)
{
	long u2 = 0;

	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u2 += b[j] > a[i] ? 2 : b[j] == a[i];
	return u2;
}

/* Exact one-sided p by enumerating every split of the pooled values. */
static double brute_force_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	double pool[24], ga[24], gb[24];
	long obs = u2_by_pairs(a, na, b, nb), total = 0, ge = 0;

	memcpy(pool, a, na * sizeof(*a));
	memcpy(pool + na, b, nb * sizeof(*b));
	for (uint32_t mask = 0; mask < (UINT32_C(1) << n); mask++) {
		size_t ka = 0, kb = 0;

		if ((size_t)__builtin_popcount(mask) != nb)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (mask & (UINT32_C(1) << i))
				gb[kb++] = pool[i];
			else
				ga[ka++] = pool[i];
		}
		total++;
		ge += u2_by_pairs(ga, na, gb, nb) >= obs;
	}
	return (double)ge / total;
}

static void test_mwu_separation(void **state)
{
	double a5[] = { 1.00, 1.01, 0.99, 1.02, 0.98 }, b5[] = { 1.10, 1.12, 1.09, 1.11, 1.13 };
	struct stats_mwu r;

	(void)state;
	assert_int_equal(stats_mwu_greater(a5, 5, b5, 5, &r), 0);
	assert_true(r.exact);
	assert_near(r.u, 25, 0);
	assert_near(r.p, 1.0 / 252, 1e-15);
	assert_near(r.p, stats_mwu_min_p(5, 5), 1e-15);
	assert_int_equal(stats_mwu_greater(a5, 3, b5, 3, &r), 0);
	assert_near(r.p, 1.0 / 20, 1e-15);
	assert_near(stats_mwu_min_p(3, 3), 1.0 / 20, 1e-15);
	assert_near(stats_mwu_min_p(5, 5), 1.0 / 252, 1e-15);
	assert_near(stats_mwu_min_p(4, 6), 1.0 / 210, 1e-15);
	assert_near(stats_mwu_min_p(0, 6), 1, 0);
	/* the other direction: b is not greater, p = 1 */
	assert_int_equal(stats_mwu_greater(b5, 5, a5, 5, &r), 0);
	assert_near(r.u, 0, 0);
	assert_near(r.p, 1, 1e-15);
	/* everything tied: no evidence */
	assert_int_equal(stats_mwu_greater(a5, 1, a5, 1, &r), 0);
	assert_near(r.p, 1, 0);
	assert_int_equal(stats_mwu_greater(a5, 0, b5, 5, &r), -1);
	{
		/* 30 vs 30 is the largest exact case: C(60, 30) counts must not overflow */
		double a30[30], b30[30];

		for (int i = 0; i < 30; i++) {
			a30[i] = i;
			b30[i] = 100 + i;
		}
		assert_int_equal(stats_mwu_greater(a30, 30, b30, 30, &r), 0);
		assert_true(r.exact);
		assert_near(r.p / stats_mwu_min_p(30, 30), 1, 1e-12);
		assert_near(1 / stats_mwu_min_p(30, 30), 118264581564861424.0, 1e3);
	}
}

static void check_against_brute_force(const double *a, size_t na, const double *b, size_t nb)
{
	struct stats_mwu r;

	assert_int_equal(stats_mwu_greater_with(a, na, b, nb, STATS_MWU_EXACT, &r), 0);
	assert_near(2 * r.u, u2_by_pairs(a, na, b, nb), 0);
	assert_near(r.p, brute_force_p(a, na, b, nb), 1e-13);
}

static void test_mwu_exact_ties(void **state)
{
	double a1[] = { 1, 2, 2, 3 }, b1[] = { 2, 3, 3, 4, 4 };
	double a2[] = { 5, 5, 5 }, b2[] = { 5, 5, 6 };
	double a3[] = { 1, 1, 2, 2, 3, 3 }, b3[] = { 2, 2, 3, 3, 3, 4 };
	double a[12], b[12];

	(void)state;
	check_against_brute_force(a1, 4, b1, 5);
	check_against_brute_force(a2, 3, b2, 3);
	check_against_brute_force(a3, 6, b3, 6);
	/* random small samples on a coarse grid, so ties are frequent */
	lcg_state = 2024;
	for (int rep = 0; rep < 40; rep++) {
		size_t na = 2 + (size_t)(lcg_uniform() * 8), nb = 2 + (size_t)(lcg_uniform() * 8);

		for (size_t i = 0; i < na; i++)
			a[i] = floor(lcg_uniform() * 5);
		for (size_t i = 0; i < nb; i++)
			b[i] = floor(lcg_uniform() * 5 + rep % 3);
		check_against_brute_force(a, na, b, nb);
	}
	/* no ties: continuous values */
	for (int rep = 0; rep < 10; rep++) {
		for (size_t i = 0; i < 8; i++) {
			a[i] = lcg_normal();
			b[i] = lcg_normal() + 0.5;
		}
		check_against_brute_force(a, 8, b, 8);
	}
}

static void test_mwu_normal(void **state)
{
	double a[30], b[30];
	struct stats_mwu ex, nm, au;

	(void)state;
	lcg_state = 77;
	for (int rep = 0; rep < 10; rep++) {
		for (int i = 0; i < 25; i++) {
			a[i] = lcg_normal();
			b[i] = lcg_normal() + 0.1 * rep;
		}
		assert_int_equal(stats_mwu_greater_with(a, 25, b, 25, STATS_MWU_EXACT, &ex), 0);
		assert_int_equal(stats_mwu_greater_with(a, 25, b, 25, STATS_MWU_NORMAL, &nm), 0);
		assert_false(nm.exact);
		assert_near(ex.u, nm.u, 0);
		assert_near(ex.p, nm.p, 0.003);
	}
	/* with heavy ties the tie-corrected approximation still follows the exact p */
	for (int rep = 0; rep < 10; rep++) {
		for (int i = 0; i < 25; i++) {
			a[i] = floor(lcg_uniform() * 4);
			b[i] = floor(lcg_uniform() * 4 + 0.15 * rep);
		}
		assert_int_equal(stats_mwu_greater_with(a, 25, b, 25, STATS_MWU_EXACT, &ex), 0);
		assert_int_equal(stats_mwu_greater_with(a, 25, b, 25, STATS_MWU_NORMAL, &nm), 0);
		assert_near(ex.p, nm.p, 0.01);
	}
	/* 30 against 30 is still exact in AUTO mode (60 values in all) */
	for (int i = 25; i < 30; i++) {
		a[i] = lcg_normal();
		b[i] = lcg_normal();
	}
	assert_int_equal(stats_mwu_greater(a, 30, b, 30, &au), 0);
	assert_true(au.exact);
	assert_int_equal(stats_mwu_greater_with(a, 30, b, 30, STATS_MWU_EXACT, &ex), 0);
	assert_near(ex.p, au.p, 0);
	{
		double big_a[40], big_b[40];

		for (int i = 0; i < 40; i++) {
			big_a[i] = lcg_normal();
			big_b[i] = lcg_normal() + 1;
		}
		assert_int_equal(stats_mwu_greater(big_a, 40, big_b, 40, &au), 0);
		assert_false(au.exact);
		assert_true(au.p < 0.01);
		assert_int_equal(stats_mwu_greater_with(big_a, 40, big_b, 40, STATS_MWU_EXACT, &ex),
				 -1);
	}
}

static void test_hodges_lehmann(void **state)
{
	double a[] = { 1, 2, 3 }, b[] = { 2, 3, 4 }, c[] = { 10, 11, 12, 13 };

	(void)state;
	/* differences -1 0 0 1 1 1 2 2 3 */
	assert_near(stats_hodges_lehmann(a, 3, b, 3), 1, 0);
	assert_near(stats_hodges_lehmann(a, 3, c, 4), 9.5, 0); /* 7 8 8 9 9 9 | 10 10 10 11 11 12 */
	assert_true(isnan(stats_hodges_lehmann(a, 0, b, 3)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_separation),
		cmocka_unit_test(test_mwu_exact_ties),
		cmocka_unit_test(test_mwu_normal),
		cmocka_unit_test(test_hodges_lehmann),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
