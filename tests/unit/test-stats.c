/* Unit tests for gate/stats: each result checked against an independent computation or a table. */
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

/* ---- descriptive ---- */

static void test_median_quantile(void **state)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, ten[10];
	double copy[4];

	(void)state;
	memcpy(copy, even, sizeof(even));
	assert_near(stats_median(odd, 3), 2, 0);
	assert_near(stats_median(even, 4), 2.5, 0);
	assert_memory_equal(copy, even, sizeof(even)); /* not sorted in place */
	for (int i = 0; i < 10; i++)
		ten[i] = 10 - i;
	/* R: quantile(1:10, c(0, .25, .5, .9, 1)) = 1 3.25 5.5 9.1 10 */
	assert_near(stats_quantile(ten, 10, 0), 1, 1e-12);
	assert_near(stats_quantile(ten, 10, 0.25), 3.25, 1e-12);
	assert_near(stats_quantile(ten, 10, 0.5), 5.5, 1e-12);
	assert_near(stats_quantile(ten, 10, 0.9), 9.1, 1e-12);
	assert_near(stats_quantile(ten, 10, 1), 10, 1e-12);
	assert_true(isnan(stats_quantile(ten, 10, 1.5)));
	assert_true(isnan(stats_median(ten, 0)));
	assert_near(stats_mean(ten, 10), 5.5, 1e-12);
	/* var(1:10) = 55/6 */
	assert_near(stats_sd(ten, 10), sqrt(55.0 / 6), 1e-12);
	assert_true(isnan(stats_sd(ten, 1)));
	assert_near(stats_min(ten, 10), 1, 0);
	assert_near(stats_max(ten, 10), 10, 0);
}

static void test_summary(void **state)
{
	double ten[10], one = 4.5, five[] = { 1.02, 0.98, 1.00, 1.05, 0.99 }, bad = NAN;
	struct stats_summary s;

	(void)state;
	for (int i = 0; i < 10; i++)
		ten[i] = i + 1;
	assert_int_equal(stats_summarize(ten, 0, 0.95, &s), -1);
	assert_int_equal(stats_summarize(&bad, 1, 0.95, &s), -1);
	assert_int_equal(stats_summarize(ten, 10, 1.5, &s), -1);

	assert_int_equal(stats_summarize(&one, 1, 0.95, &s), 0);
	assert_near(s.ci_lo, 4.5, 0);
	assert_near(s.ci_hi, 4.5, 0);

	/* Bin(10, 1/2): 1 - 2 P(X <= 1) = 0.979 >= 0.95 > 1 - 2 P(X <= 2) = 0.891: [x(2), x(9)] */
	assert_int_equal(stats_summarize(ten, 10, 0.95, &s), 0);
	assert_int_equal(s.n, 10);
	assert_near(s.median, 5.5, 0);
	assert_near(s.ci_lo, 2, 0);
	assert_near(s.ci_hi, 9, 0);
	/* n = 6 reaches 0.95 only with [min, max] (coverage 1 - 2/64) */
	assert_int_equal(stats_summarize(ten, 6, 0.95, &s), 0);
	assert_near(s.ci_lo, 1, 0);
	assert_near(s.ci_hi, 6, 0);

	/* n = 5 cannot reach 0.95 by order statistics: bootstrap, inside [min, max] */
	assert_int_equal(stats_summarize(five, 5, 0.95, &s), 0);
	assert_near(s.median, 1.00, 0);
	assert_true(s.ci_lo >= 0.98 && s.ci_lo <= s.median);
	assert_true(s.ci_hi <= 1.05 && s.ci_hi >= s.median);
	assert_true(s.ci_lo < s.ci_hi);
}

/* ---- random numbers and bootstrap ---- */

static void test_rng(void **state)
{
	struct stats_rng r1, r2;
	int hist[7] = { 0 };

	(void)state;
	stats_rng_init(&r1, 42);
	stats_rng_init(&r2, 42);
	for (int i = 0; i < 1000; i++)
		assert_true(stats_rng_next(&r1) == stats_rng_next(&r2));
	for (int i = 0; i < 70000; i++)
		hist[stats_rng_below(&r1, 7)]++;
	for (int i = 0; i < 7; i++)
		assert_true(hist[i] > 9500 && hist[i] < 10500);
}

static double speedup(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[0] / m[1];
}

/* Karp-Flatt from the medians of T(1) and T(p); ctx holds p. */
static double karp_flatt(const double *m, size_t k, void *ctx)
{
	double p = *(double *)ctx, psi = m[0] / m[1];

	(void)k;
	return (1 / psi - 1 / p) / (1 - 1 / p);
}

static double nan_when_first_above(const double *m, size_t k, void *ctx)
{
	(void)k;
	return m[0] > *(double *)ctx ? NAN : m[0];
}

static void fill_times(double *x, size_t n, double centre, double noise)
{
	for (size_t i = 0; i < n; i++)
		x[i] = centre * (1 + noise * lcg_normal());
}

static void test_bootstrap_determinism(void **state)
{
	double t1[7], t4[7], p = 4;
	struct stats_group g[2] = { { t1, 7 }, { t4, 7 } };
	struct stats_bootstrap b1 = STATS_BOOTSTRAP_INIT, b2 = STATS_BOOTSTRAP_INIT;
	struct stats_bootstrap b3 = STATS_BOOTSTRAP_INIT;

	(void)state;
	lcg_state = 1;
	fill_times(t1, 7, 8.0, 0.03);
	fill_times(t4, 7, 2.5, 0.03);
	assert_int_equal(stats_bootstrap(g, 2, speedup, NULL, 0.95, &b1), 0);
	assert_int_equal(stats_bootstrap(g, 2, speedup, NULL, 0.95, &b2), 0);
	assert_memory_equal(&b1, &b2, sizeof(b1));
	assert_near(b1.estimate, stats_median(t1, 7) / stats_median(t4, 7), 0);
	assert_true(b1.lo <= b1.estimate && b1.estimate <= b1.hi);
	assert_true(b1.lo > 2.8 && b1.hi < 3.6);
	assert_int_equal(b1.nan_count, 0);

	/* another seed: another, equally valid interval */
	b3.seed = 7;
	assert_int_equal(stats_bootstrap(g, 2, speedup, NULL, 0.95, &b3), 0);
	assert_true(b3.lo != b1.lo || b3.hi != b1.hi);
	assert_near(b3.estimate, b1.estimate, 0);

	/* Karp-Flatt: speedup 3.2 at p = 4 gives e = (1/3.2 - 1/4) / (3/4) = 1/12 */
	assert_int_equal(stats_bootstrap(g, 2, karp_flatt, &p, 0.95, &b2), 0);
	assert_true(b2.lo <= b2.estimate && b2.estimate <= b2.hi);
	assert_true(b2.lo < 1.0 / 12 + 0.05 && b2.hi > 1.0 / 12 - 0.05);
}

static int cmp_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static double ref_median(const double *x, const size_t *idx, size_t n)
{
	double *t = malloc(n * sizeof(*t));
	double v;

	for (size_t i = 0; i < n; i++)
		t[i] = x[idx[i]];
	v = stats_median(t, n);
	free(t);
	return v;
}

static double diff_fn(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[1] - m[0];
}

/*
 * The bootstrap selects its quantiles and counts medians instead of sorting
 * (for speed): it must give exactly the numbers of the plain method, i.e.
 * draw with stats_rng_below() group by group, sort, take type 7 quantiles.
 */
static void check_plain_bootstrap(const double *a, size_t na, const double *b, size_t nb,
				  int paired)
{
	struct stats_group g[2] = { { a, na }, { b, nb } };
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;
	size_t it, iterations = 999, idx[2][16];
	double *res = malloc(iterations * sizeof(*res)), m[2];
	struct stats_rng rng;
	double sorted[2][16];

	for (size_t k = 0; k < 2; k++) { /* unpaired groups draw indices into their sorted values */
		memcpy(sorted[k], g[k].x, g[k].n * sizeof(double));
		qsort(sorted[k], g[k].n, sizeof(double), cmp_value);
	}
	bs.iterations = iterations;
	bs.paired = paired;
	assert_int_equal(stats_bootstrap(g, 2, diff_fn, NULL, 0.9, &bs), 0);
	stats_rng_init(&rng, STATS_SEED);
	for (it = 0; it < iterations; it++) {
		for (size_t k = 0; k < 2; k++)
			for (size_t i = 0; i < g[k].n; i++)
				idx[k][i] = paired && k ? idx[0][i]
							: (size_t)stats_rng_below(&rng, g[k].n);
		for (size_t k = 0; k < 2; k++)
			m[k] = ref_median(paired ? g[k].x : sorted[k], idx[k], g[k].n);
		res[it] = diff_fn(m, 2, NULL);
	}
	assert_true(bs.lo == stats_quantile(res, iterations, (1 - 0.9) / 2));
	assert_true(bs.hi == stats_quantile(res, iterations, (1 + 0.9) / 2));
	free(res);
}

static void test_bootstrap_plain_method(void **state)
{
	double a[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5 }, b[] = { 2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4 };
	double c[] = { 1.5, 1.25, 1.5, 1.75, 1.0, 2.0, 1.5, 1.125 };

	(void)state;
	check_plain_bootstrap(a, 11, b, 11, 0);
	check_plain_bootstrap(a, 11, b, 11, 1);
	check_plain_bootstrap(c, 8, a, 11, 0);
	check_plain_bootstrap(c, 8, b, 8, 1);
	check_plain_bootstrap(a, 2, c, 1, 0);
}

/* ---- the exact bootstrap ---- */

struct weighted {
	double v, p;
};

static int cmp_weighted(const void *pa, const void *pb)
{
	const struct weighted *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* The smallest value whose cumulative probability reaches q (what ever more resamples approach). */
static double weighted_quantile(struct weighted *w, size_t n, double q)
{
	double cum = 0;

	qsort(w, n, sizeof(*w), cmp_weighted);
	for (size_t i = 0; i < n; i++)
		if ((cum += w[i].p) >= q - 1e-12)
			return w[i].v;
	return w[n - 1].v;
}

/* Every one of the n^n resamples of x (n <= 6), by brute force: its median, each of weight n^-n. */
static size_t all_resample_medians(const double *x, size_t n, struct weighted *out)
{
	size_t total = 1, idx[6];
	double r[6];

	for (size_t i = 0; i < n; i++)
		total *= n;
	for (size_t c = 0; c < total; c++) {
		size_t rest = c;
		for (size_t i = 0; i < n; i++, rest /= n)
			idx[i] = rest % n;
		for (size_t i = 0; i < n; i++)
			r[i] = x[idx[i]];
		out[c] = (struct weighted){ stats_median(r, n), 1.0 / total };
	}
	return total;
}

static double identity_fn(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[0];
}

/* One group: the interval is the brute-force distribution's, at every size up to 6 and level. */
static void test_bootstrap_exact_one_group(void **state)
{
	static struct weighted w[46656];
	double x[] = { 1.25, 0.5, 3.0, 0.75, 2.0, 1.0 }, ties[] = { 2, 1, 2, 2, 1, 3 };
	double levels[] = { 0.3, 0.5, 0.8, 0.95, 0.99 };
	const double *samples[] = { x, ties };

	(void)state;
	for (size_t s = 0; s < 2; s++)
		for (size_t n = 1; n <= 6; n++)
			for (size_t l = 0; l < 5; l++) {
				struct stats_group g = { samples[s], n };
				struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;
				size_t nw = all_resample_medians(samples[s], n, w);
				double lo = weighted_quantile(w, nw, (1 - levels[l]) / 2);
				double hi = weighted_quantile(w, nw, (1 + levels[l]) / 2);
				assert_int_equal(stats_bootstrap_exact(&g, 1, identity_fn, NULL,
								       levels[l], &bs),
						 0);
				assert_near(bs.estimate, stats_median(samples[s], n), 0);
				assert_near(bs.lo, lo, 1e-12);
				assert_near(bs.hi, hi, 1e-12);
			}
}

/* Two groups (a speedup): the exact interval is the brute force's; 10,000 resamples come close. */
static void test_bootstrap_exact_two_groups(void **state)
{
	static struct weighted wa[256], wb[256], w[256 * 256];
	double t1[] = { 8.1, 7.9, 8.4, 8.0 }, t4[] = { 2.6, 2.4, 2.5 };
	struct stats_group g[2] = { { t1, 4 }, { t4, 3 } };
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT, mc = STATS_BOOTSTRAP_INIT;
	size_t na = all_resample_medians(t1, 4, wa), nb = all_resample_medians(t4, 3, wb), nw = 0;

	(void)state;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			w[nw++] = (struct weighted){ wa[i].v / wb[j].v, wa[i].p * wb[j].p };
	assert_int_equal(stats_bootstrap_exact(g, 2, speedup, NULL, 0.9, &bs), 0);
	assert_near(bs.estimate, 8.05 / 2.5, 1e-12);
	assert_near(bs.lo, weighted_quantile(w, nw, 0.05), 1e-12);
	assert_near(bs.hi, weighted_quantile(w, nw, 0.95), 1e-12);
	assert_int_equal(stats_bootstrap(g, 2, speedup, NULL, 0.9, &mc), 0);
	assert_near(mc.lo, bs.lo, 0.01);
	assert_near(mc.hi, bs.hi, 0.01);
	/* NAN in more than half of the distribution: no interval, as stats_bootstrap() says */
	{
		double cut = 2.45;
		struct stats_group one = { t4, 3 };
		assert_int_equal(stats_bootstrap_exact(&one, 1, nan_when_first_above, &cut, 0.9,
						       &bs),
				 1);
		assert_true(isnan(bs.lo) && isnan(bs.hi));
	}
}

/*
 * Past STATS_EXACT_COMBINATIONS each group's median is drawn from its exact distribution: the same
 * bootstrap as resampling all n values, so 10,000 draws of each agree within their noise.
 */
static void test_bootstrap_exact_sampled(void **state)
{
	double a[40], b[41], c[39];
	struct stats_group g[3] = { { a, 40 }, { b, 41 }, { c, 39 } };
	struct stats_bootstrap ex = STATS_BOOTSTRAP_INIT, mc = STATS_BOOTSTRAP_INIT;
	double p = 4;

	(void)state;
	lcg_state = 3;
	fill_times(a, 40, 8.0, 0.05);
	fill_times(b, 41, 2.5, 0.05);
	fill_times(c, 39, 2.0, 0.05);
	ex.iterations = mc.iterations = 100000;
	assert_int_equal(stats_bootstrap_exact(g, 2, karp_flatt, &p, 0.95, &ex), 0);
	assert_int_equal(stats_bootstrap(g, 2, karp_flatt, &p, 0.95, &mc), 0);
	assert_near(ex.estimate, mc.estimate, 0);
	assert_true(ex.lo < ex.estimate && ex.estimate < ex.hi);
	assert_near(ex.lo, mc.lo, 0.02 * (mc.hi - mc.lo));
	assert_near(ex.hi, mc.hi, 0.02 * (mc.hi - mc.lo));
	/* more values than STATS_EXACT_MAX_N: stats_bootstrap() itself */
	{
		double big[STATS_EXACT_MAX_N + 1];
		struct stats_group gb = { big, STATS_EXACT_MAX_N + 1 };
		fill_times(big, STATS_EXACT_MAX_N + 1, 1.0, 0.05);
		ex = mc = (struct stats_bootstrap)STATS_BOOTSTRAP_INIT;
		assert_int_equal(stats_bootstrap_exact(&gb, 1, identity_fn, NULL, 0.95, &ex), 0);
		assert_int_equal(stats_bootstrap(&gb, 1, identity_fn, NULL, 0.95, &mc), 0);
		assert_true(ex.lo == mc.lo && ex.hi == mc.hi);
	}
}

static void test_bootstrap_width(void **state)
{
	double small[5], large[50];
	struct stats_group gs = { small, 5 }, gl = { large, 50 };
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT, bl = STATS_BOOTSTRAP_INIT;

	(void)state;
	lcg_state = 99;
	fill_times(large, 50, 1.0, 0.05);
	memcpy(small, large, sizeof(small));
	assert_int_equal(stats_bootstrap(&gs, 1, nan_when_first_above,
					 &(double){ INFINITY }, 0.90, &bs), 0);
	assert_int_equal(stats_bootstrap(&gl, 1, nan_when_first_above,
					 &(double){ INFINITY }, 0.90, &bl), 0);
	assert_true(bl.hi - bl.lo < bs.hi - bs.lo);
	assert_true(bl.lo <= bl.estimate && bl.estimate <= bl.hi);
	assert_true(bs.lo <= bs.estimate && bs.estimate <= bs.hi);
	/* a larger iteration count is honoured and still brackets the estimate */
	bl.iterations = 10000;
	assert_int_equal(stats_bootstrap(&gl, 1, nan_when_first_above,
					 &(double){ INFINITY }, 0.90, &bl), 0);
	assert_true(bl.lo <= bl.estimate && bl.estimate <= bl.hi);
}

static void test_bootstrap_nan(void **state)
{
	double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct stats_group g = { x, 9 };
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;
	double cut;

	(void)state;
	/* resampled medians above 6 are rare: skipped and counted */
	cut = 6.5;
	assert_int_equal(stats_bootstrap(&g, 1, nan_when_first_above, &cut, 0.95, &bs), 0);
	assert_true(bs.nan_count > 0 && bs.nan_count < STATS_BOOTSTRAP_ITERATIONS / 2);
	assert_true(bs.hi <= 6.5);
	/* above 2 nearly always: more than half undefined, no interval */
	cut = 2;
	assert_int_equal(stats_bootstrap(&g, 1, nan_when_first_above, &cut, 0.95, &bs), 1);
	assert_true(bs.nan_count > STATS_BOOTSTRAP_ITERATIONS / 2);
	assert_true(isnan(bs.lo) && isnan(bs.hi));
	/* bad input */
	assert_int_equal(stats_bootstrap(&g, 0, nan_when_first_above, &cut, 0.95, &bs), -1);
	g.n = 0;
	assert_int_equal(stats_bootstrap(&g, 1, nan_when_first_above, &cut, 0.95, &bs), -1);
}

static void test_ratio_of_medians(void **state)
{
	double base[5], cur[5];
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;

	(void)state;
	lcg_state = 5;
	fill_times(base, 5, 1.0, 0.01);
	fill_times(cur, 5, 1.2, 0.01);
	assert_int_equal(stats_ratio_of_medians(base, 5, cur, 5, 0.95, &bs), 0);
	assert_near(bs.estimate, stats_median(cur, 5) / stats_median(base, 5), 0);
	assert_true(bs.lo > 1.1 && bs.hi < 1.3);
	assert_true(bs.lo <= bs.estimate && bs.estimate <= bs.hi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_quantile),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_bootstrap_determinism),
		cmocka_unit_test(test_bootstrap_plain_method),
		cmocka_unit_test(test_bootstrap_exact_one_group),
		cmocka_unit_test(test_bootstrap_exact_two_groups),
		cmocka_unit_test(test_bootstrap_exact_sampled),
		cmocka_unit_test(test_bootstrap_width),
		cmocka_unit_test(test_bootstrap_nan),
		cmocka_unit_test(test_ratio_of_medians),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
