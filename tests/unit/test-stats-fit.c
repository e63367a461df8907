/* Unit tests for gate/stats-fit: distributions and least squares, against tables and exact data. */
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

/* ---- distributions ---- */

static void test_quantiles(void **state)
{
	static const struct { double p, df, t; } table[] = {
		{ 0.975, 1, 12.706204736 }, { 0.975, 2, 4.302652730 }, { 0.975, 4, 2.776445105 },
		{ 0.975, 10, 2.228138852 }, { 0.975, 30, 2.042272456 }, { 0.95, 5, 2.015048373 },
		{ 0.995, 3, 5.840909310 }, { 0.9, 1, 3.077683537 }, { 0.99, 100, 2.364217366 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		double t = stats_t_quantile(table[i].p, table[i].df);

		assert_near(t, table[i].t, 1e-6);
		assert_near(stats_t_quantile(1 - table[i].p, table[i].df), -t, 1e-9);
		assert_near(stats_t_cdf(t, table[i].df), table[i].p, 1e-10);
	}
	/* the brief's table values, to the printed precision */
	assert_near(stats_t_quantile(0.975, 1), 12.706, 1e-3);
	assert_near(stats_t_quantile(0.975, 4), 2.776, 1e-3);
	assert_near(stats_t_quantile(0.975, 30), 2.042, 1e-3);
	/* df = 1 is Cauchy: closed form tan(pi (p - 1/2)) */
	assert_near(stats_t_quantile(0.999, 1), tan(3.14159265358979323846 * 0.499),
			    1e-6);
	/* large df tends to the normal */
	assert_near(stats_t_quantile(0.975, 1e7), stats_normal_quantile(0.975), 1e-5);
	assert_near(stats_t_quantile(0.5, 3), 0, 0);
	assert_true(isnan(stats_t_quantile(1, 3)));
	assert_true(isnan(stats_t_quantile(0.9, 0)));

	assert_near(stats_normal_quantile(0.975), 1.959963984540054, 1e-12);
	assert_near(stats_normal_quantile(0.05), -1.644853626951472, 1e-12);
	assert_near(stats_normal_quantile(1e-10), -6.361340902404056, 1e-9);
	assert_near(stats_normal_quantile(0.5), 0, 1e-15);
	for (double p = 0.001; p < 1; p += 0.0437)
		assert_near(stats_normal_cdf(stats_normal_quantile(p)), p, 1e-13);
	assert_near(stats_normal_cdf(1.959963984540054), 0.975, 1e-13);
	assert_true(isnan(stats_normal_quantile(0)));
}

/* ---- least squares ---- */

static void test_line_exact(void **state)
{
	double x[] = { 1, 2, 3, 4, 5 }, y[5], flat[] = { 0.1, 0.1, 0.1, 0.1, 0.1 };
	struct stats_line l;

	(void)state;
	for (int i = 0; i < 5; i++)
		y[i] = 2 + 3 * x[i];
	assert_int_equal(stats_line_fit(x, y, 5, 0.95, &l), 0);
	assert_near(l.a, 2, 1e-12);
	assert_near(l.b, 3, 1e-12);
	assert_near(l.r2, 1, 1e-12);
	assert_near(l.se_b, 0, 1e-12);
	assert_near(l.b_lo, 3, 1e-12);
	assert_near(l.b_hi, 3, 1e-12);
	/* a flat Karp-Flatt trend */
	assert_int_equal(stats_line_fit(x, flat, 5, 0.95, &l), 0);
	assert_near(l.b, 0, 1e-15);
	assert_near(l.r2, 1, 0);
	/* two points: a line, but no interval */
	assert_int_equal(stats_line_fit(x, y, 2, 0.95, &l), 0);
	assert_near(l.b, 3, 1e-12);
	assert_true(isnan(l.se_b) && isnan(l.b_lo));
	assert_int_equal(stats_line_fit(x, y, 1, 0.95, &l), -1);
	assert_int_equal(stats_line_fit(flat, y, 5, 0.95, &l), -1);
}

static void test_line_noise(void **state)
{
	double x[8], y[8], X[16];
	struct stats_line l;
	struct stats_lsq fit;
	int covered = 0, reps = 400;

	(void)state;
	lcg_state = 31337;
	for (int rep = 0; rep < reps; rep++) {
		for (int i = 0; i < 8; i++) {
			x[i] = i + 1;
			y[i] = 1 + 0.5 * x[i] + 0.3 * lcg_normal();
		}
		assert_int_equal(stats_line_fit(x, y, 8, 0.95, &l), 0);
		covered += l.b_lo <= 0.5 && 0.5 <= l.b_hi;
	}
	/* 95 % interval: binomial(400, .95) stays within 90 %..99 % */
	assert_true(covered > 0.90 * reps && covered < 0.99 * reps);

	/* the general solver agrees with the closed form on the last sample */
	for (int i = 0; i < 8; i++) {
		X[2 * i] = 1;
		X[2 * i + 1] = x[i];
	}
	assert_int_equal(stats_lsq_fit(X, y, NULL, 8, 2, &fit), 0);
	assert_near(fit.coef[0], l.a, 1e-12);
	assert_near(fit.coef[1], l.b, 1e-12);
	assert_near(fit.se[1], l.se_b, 1e-12);
	assert_near(fit.r2, l.r2, 1e-12);
	assert_near(fit.sd, l.sd, 1e-12);
}

static void test_scaling_fit(void **state)
{
	double p[] = { 1, 2, 4, 8, 16, 32 }, t[6], w[6], same[] = { 4, 4, 4, 4, 4 };
	struct stats_lsq fit;

	(void)state;
	for (int i = 0; i < 6; i++) {
		t[i] = 0.5 + 10 / p[i] + 0.02 * p[i];
		w[i] = 1 / (t[i] * t[i]); /* relative errors */
	}
	assert_int_equal(stats_fit_scaling(p, t, NULL, 6, &fit), 0);
	assert_int_equal(fit.k, 3);
	assert_near(fit.coef[0], 0.5, 1e-10);
	assert_near(fit.coef[1], 10, 1e-10);
	assert_near(fit.coef[2], 0.02, 1e-12);
	assert_near(fit.r2, 1, 1e-12);
	assert_true(fit.sd < 1e-12);
	assert_int_equal(stats_fit_scaling(p, t, w, 6, &fit), 0);
	assert_near(fit.coef[0], 0.5, 1e-10);
	assert_near(fit.coef[1], 10, 1e-10);
	assert_near(fit.coef[2], 0.02, 1e-12);

	/* noisy: the estimates land near the truth, with a standard error */
	lcg_state = 8;
	for (int i = 0; i < 6; i++)
		t[i] *= 1 + 0.001 * lcg_normal();
	assert_int_equal(stats_fit_scaling(p, t, w, 6, &fit), 0);
	assert_near(fit.coef[1], 10, 0.1);
	assert_true(fit.se[1] > 0 && fabs(fit.coef[1] - 10) < 5 * fit.se[1]);

	/* refused: 3 points for 3 coefficients, one distinct p, p = 0, bad weight */
	assert_int_equal(stats_fit_scaling(p, t, NULL, 3, &fit), -1);
	assert_int_equal(stats_fit_scaling(same, t, NULL, 5, &fit), -1);
	p[0] = 0;
	assert_int_equal(stats_fit_scaling(p, t, NULL, 6, &fit), -1);
	p[0] = 1;
	w[2] = 0;
	assert_int_equal(stats_fit_scaling(p, t, w, 6, &fit), -1);
	/* two distinct p for three coefficients */
	p[2] = p[4] = 1;
	p[3] = p[5] = 2;
	assert_int_equal(stats_fit_scaling(p, t, NULL, 6, &fit), -1);
}

static void test_lsq_limits(void **state)
{
	double X[5 * 5] = { 0 }, y[5] = { 1, 2, 3, 4, 5 };
	struct stats_lsq fit;

	(void)state;
	assert_int_equal(stats_lsq_fit(X, y, NULL, 5, 5, &fit), -1);
	assert_int_equal(stats_lsq_fit(X, y, NULL, 5, 0, &fit), -1);
	/* a zero column is singular */
	for (int i = 0; i < 5; i++)
		X[2 * i] = 1;
	assert_int_equal(stats_lsq_fit(X, y, NULL, 5, 2, &fit), -1);
	/* four basis functions, exact cubic */
	for (int i = 0; i < 5; i++) {
		double x = i + 1;

		X[4 * i] = 1;
		X[4 * i + 1] = x;
		X[4 * i + 2] = x * x;
		X[4 * i + 3] = x * x * x;
		y[i] = 1 - 2 * x + 0.5 * x * x + 0.25 * x * x * x;
	}
	assert_int_equal(stats_lsq_fit(X, y, NULL, 5, 4, &fit), 0);
	assert_near(fit.coef[0], 1, 1e-9);
	assert_near(fit.coef[1], -2, 1e-9);
	assert_near(fit.coef[2], 0.5, 1e-9);
	assert_near(fit.coef[3], 0.25, 1e-10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_line_exact),
		cmocka_unit_test(test_line_noise),
		cmocka_unit_test(test_scaling_fit),
		cmocka_unit_test(test_lsq_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
