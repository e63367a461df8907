/* Unit tests of scaling with problem size: isoefficiency on Quinn's worked examples, memory models,
 * weak scaling. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/analysis.h"
#include "analyze/isoeff.h"
#include "analyze/matrix.h"
#include "analyze/scaling-size.h"
#include "stats/stats.h"
#include "base/util.h"

#define NOISE 0.02 /* +-2 % on every time, uniform: about +-15 % on the n where eps crosses 0.8 */

static const int procs[] = { 1, 2, 4, 8, 16, 32, 64 };

/* A run of interval 0 that took 'time' seconds, of which 'work' useful and 'serial' in serial code.
 */
static void fake_run(struct analysis_config *c, double time, double work, double serial)
{
	struct analysis_run *run;
	double *fig;

	ALLOC_GROW(c->runs, c->nr_runs + 1, c->alloc_runs);
	run = &c->runs[c->nr_runs++];
	run->repeat = (int)c->nr_runs;
	run->nr_points = 1;
	run->points = xcalloc(1, sizeof(*run->points));
	run->points[0].present = 1;
	fig = run->points[0].fig;
	for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
		fig[f] = NAN;
	fig[ANALYSIS_EXECUTION_TIME] = time;
	fig[ANALYSIS_PROCESSORS] = c->ranks * c->threads;
	fig[ANALYSIS_PRODUCTIVE_TIME] = work;
	fig[ANALYSIS_SERIAL_SHARE] = serial / time;
}

static double noisy(struct stats_rng *rng, double t, double noise)
{
	return t * (1 + noise * (2.0 * (double)stats_rng_next(rng) / 18446744073709551616.0 - 1));
}

/* T(n, p) of the three textbook systems. */
static double reduction(double n, double p)
{
	return n / p + log2(p); /* T0 = p log p */
}

static double floyd(double n, double p)
{
	return n * n * n / p + n * n * log2(p); /* T0 = n^2 p log p */
}

static double finite_difference(double n, double p)
{
	return n * n / p + (p > 1 ? 8 * n / sqrt(p) : 0); /* n = grid side, T0 = 8 n sqrt(p) */
}

/* Sizes 4 .. 2048 a factor sqrt(2) apart, p = 1 .. 64, three noisy repeats each. */
static void strong_matrix(struct analysis *a, struct matrix *m, double (*T)(double, double),
			  const char *memory, double noise)
{
	struct stats_rng rng;

	stats_rng_init(&rng, 42);
	analysis_init(a);
	matrix_init(m);
	analysis_interval_id(a, "b", "program", "prog", 0, 0);
	for (int k = 4; k <= 22; k++) {
		double n = round(pow(2, k / 2.0));
		char size[32];
		snprintf(size, sizeof(size), "%.0f", n);
		for (size_t i = 0; i < ARRAY_SIZE(procs); i++)
			for (int r = 0; r < 3; r++)
				fake_run(analysis_config_get(a, "b", size, 1, procs[i]),
					 noisy(&rng, T(n, procs[i]), noise), T(n, 1), 0);
	}
	if (memory)
		assert_int_equal(matrix_set_memory(m, NULL, memory), 0);
	assert_int_equal(matrix_build(m, a), 0);
	assert_int_equal(m->nr_iso, 1);
	assert_int_equal(m->nr_weak, 0);
}

/* Every p crosses 80 % inside the sizes at n* within 'tol' of the model's n*(p). */
static void check_points(const struct isoeff *iso, double (*nstar)(double), double tol)
{
	assert_int_equal(iso->nr_points, 6);
	for (size_t i = 0; i < iso->nr_points; i++) {
		double want = nstar(iso->points[i].p);
		assert_int_equal(iso->points[i].p, procs[i + 1]);
		assert_int_equal(iso->points[i].where, ISOEFF_INSIDE);
		if (fabs(iso->points[i].n / want - 1) > tol)
			fail_msg("p = %d: n* = %g, expected %g", iso->points[i].p, iso->points[i].n,
				 want);
	}
	assert_int_equal(iso->nr_fitted, 6);
	assert_null(iso->refused);
}

/* eps = n / (n + p log2 p) >= 0.8 <=> n >= 4 p log2 p. */
static double nstar_plogp(double p)
{
	return 4 * p * log2(p);
}

static double nstar_sqrt(double p)
{
	return 4 * 8 * sqrt(p);
}

/* Quinn's reduction: n >= C p log p, M(n) = n: scalability function C log p. */
static void test_reduction(void **state)
{
	struct analysis a;
	struct matrix m;
	const struct isoeff *iso;

	(void)state;
	strong_matrix(&a, &m, reduction, "n", NOISE);
	iso = &m.iso[0];
	assert_true(iso->target == 0.8);
	check_points(iso, nstar_plogp, 0.2);
	assert_int_equal(iso->growth, ISOEFF_P_LOG_P);
	assert_true(fabs(iso->fits[ISOEFF_P_LOG_P].c / (4 / log(2)) - 1) < 0.1); /* ln, not log2 */
	assert_true(iso->fits[ISOEFF_P_LOG_P].rms < 0.1);
	assert_true(iso->fits[ISOEFF_LINEAR].rms > 2 * iso->fits[ISOEFF_P_LOG_P].rms);
	assert_true(iso->has_scalability);
	assert_true(iso->scalability.p_exp == 0 && iso->scalability.log_exp == 1);
	assert_int_equal(iso->scalability.verdict, ISOEFF_MEMORY_LIMIT);
	assert_string_equal(
		iso->explanation,
		"to hold 80 % efficiency, n must grow like p log p; memory per processor "
		"then grows like log p: scalable up to the memory limit");
	matrix_release(&m);
	analysis_release(&a);
}

/* Without noise the odds eps / (1 - eps) = n / (p log2 p) are linear in ln n: interpolation is
 * exact. */
static void test_reduction_exact(void **state)
{
	struct analysis a;
	struct matrix m;
	const struct isoeff *iso;

	(void)state;
	strong_matrix(&a, &m, reduction, NULL, 0);
	iso = &m.iso[0];
	check_points(iso, nstar_plogp, 1e-9); /* n = 8, 32, 96, 256, 640, 1536 */
	assert_int_equal(iso->growth, ISOEFF_P_LOG_P);
	assert_true(fabs(iso->fits[ISOEFF_P_LOG_P].c - 4 / log(2)) < 1e-9 &&
		    iso->fits[ISOEFF_P_LOG_P].rms < 1e-9);
	assert_true(fabs(iso->points[5].at[18]->total_overhead.median - 64 * 6) <
		    1e-9); /* T0 = p log2 p */
	assert_false(iso->has_scalability);
	assert_string_equal(iso->explanation,
			    "to hold 80 % efficiency, n must grow like p log p; declare the "
			    "benchmark's 'memory' (e.g. n^2) to judge its scalability");
	matrix_release(&m);
	analysis_release(&a);
}

/* Floyd: n >= C p log p with M(n) = n^2: memory per processor grows like p log^2 p. */
static void test_floyd(void **state)
{
	struct analysis a;
	struct matrix m;
	const struct isoeff *iso;
	char fn[64];

	(void)state;
	strong_matrix(&a, &m, floyd, "n^2", NOISE);
	iso = &m.iso[0];
	check_points(iso, nstar_plogp, 0.2);
	assert_int_equal(iso->growth, ISOEFF_P_LOG_P);
	assert_int_equal(iso->scalability.verdict, ISOEFF_POORLY_SCALABLE);
	isoeff_function_text(&iso->scalability, fn, sizeof(fn));
	assert_string_equal(fn, "p log^2 p");
	assert_non_null(strstr(iso->explanation, "grows like p log^2 p: poorly scalable"));
	matrix_release(&m);
	analysis_release(&a);
}

/* Finite differences: n >= C sqrt(p) (grid side), M(n) = n^2: constant, perfectly scalable. */
static void test_finite_difference(void **state)
{
	struct analysis a;
	struct matrix m;
	const struct isoeff *iso;
	const struct isoeff_fit *f;

	(void)state;
	strong_matrix(&a, &m, finite_difference, "n^2", NOISE);
	iso = &m.iso[0];
	check_points(iso, nstar_sqrt, 0.2);
	assert_int_equal(iso->growth, ISOEFF_POWER);
	f = &iso->fits[ISOEFF_POWER];
	assert_true(fabs(f->k - 0.5) < 0.05);
	assert_true(f->k_lo < 0.5 && f->k_hi > 0.5);
	assert_true(iso->scalability.p_exp == 0 && iso->scalability.log_exp == 0);
	assert_int_equal(iso->scalability.verdict, ISOEFF_PERFECTLY_SCALABLE);
	assert_non_null(strstr(iso->explanation, "n must grow like p^0.5"));
	assert_non_null(strstr(iso->explanation,
			       "memory per processor then stays constant: perfectly scalable"));
	matrix_release(&m);
	analysis_release(&a);
}

/* p in {1, 2} only: one point, no growth, and the reason says so; without 'memory' no verdict. */
static void test_too_few_points(void **state)
{
	struct analysis a;
	struct matrix m;

	(void)state;
	analysis_init(&a);
	matrix_init(&m);
	analysis_interval_id(&a, "b", "program", "prog", 0, 0);
	for (int n = 4; n <= 64; n *= 2)
		for (int p = 1; p <= 4; p *= 2) {
			char size[16];
			snprintf(size, sizeof(size), "%d", n);
			fake_run(analysis_config_get(&a, "b", size, 1, p),
				 reduction(n, p) * (p == 4 ? 3 : 1), n, 0);
		}
	assert_int_equal(matrix_build(&m, &a), 0);
	assert_int_equal(m.iso[0].nr_points, 2);
	assert_int_equal(m.iso[0].points[0].where, ISOEFF_INSIDE);
	assert_int_equal(m.iso[0].points[1].where,
			 ISOEFF_BEYOND); /* eps(64, 4) = 64 / (3 (64 + 8)) */
	assert_true(fabs(m.iso[0].points[1].efficiency - 64.0 / 216) < 1e-9);
	assert_int_equal(m.iso[0].growth, -1);
	assert_string_equal(m.iso[0].refused,
			    "the target is crossed inside the measured sizes at 1 processor count, "
			    "2 are needed (p = 4: beyond measured sizes)");
	assert_false(m.iso[0].has_scalability);
	matrix_release(&m);
	analysis_release(&a);
}

static void test_memory_parse(void **state)
{
	static const struct {
		const char *text;
		double a;
		int b;
	} good[] = {
		{"n", 1, 0},       {"n^2", 2, 0},          {" N ^ 3 ", 3, 0},
		{"n**2", 2, 0},    {"n log n", 1, 1},      {"n*log(n)", 1, 1},
		{"8 * n^2", 2, 0}, {"n^1.5 ln n", 1.5, 1}, {"16n", 1, 0},
	};
	static const char *const bad[] = {"",      "m^2", "n^",      "n^-1",
					  "log n", "nn",  "n^2 + n", "n log m"};
	struct memory_model m;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		if (memory_model_parse(good[i].text, &m))
			fail_msg("'%s' rejected", good[i].text);
		assert_true(m.a == good[i].a && m.b == good[i].b);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!memory_model_parse(bad[i], &m))
			fail_msg("'%s' accepted", bad[i]);
}

/* M(f(p))/p for the textbook pairs, and the named growths chosen on exact data. */
static void test_scalability_function(void **state)
{
	static const struct {
		const char *memory;
		enum isoeff_growth g;
		double k;
		const char *fn;
		enum isoeff_verdict v;
	} cases[] = {
		{ "n", ISOEFF_P_LOG_P, 1, "log p", ISOEFF_MEMORY_LIMIT },
		{ "n^2", ISOEFF_P_LOG_P, 1, "p log^2 p", ISOEFF_POORLY_SCALABLE },
		{ "n^2", ISOEFF_POWER, 0.52, "constant", ISOEFF_PERFECTLY_SCALABLE },
		{ "n", ISOEFF_LINEAR, 1, "constant", ISOEFF_PERFECTLY_SCALABLE },
		{ "n^3", ISOEFF_LINEAR, 1, "p^2", ISOEFF_POORLY_SCALABLE },
		{ "n log n", ISOEFF_LINEAR, 1, "log p", ISOEFF_MEMORY_LIMIT },
		{ "n", ISOEFF_CONSTANT, 0, "p^-1", ISOEFF_PERFECTLY_SCALABLE },
		{ "n log n", ISOEFF_LOG, 0, "p^-1 log p log log p", ISOEFF_PERFECTLY_SCALABLE },
	};
	struct memory_model mem;
	struct isoeff_scalability s;
	char fn[64];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(memory_model_parse(cases[i].memory, &mem), 0);
		isoeff_scalability(&mem, cases[i].g, cases[i].k, &s);
		isoeff_function_text(&s, fn, sizeof(fn));
		assert_string_equal(fn, cases[i].fn);
		assert_int_equal(s.verdict, cases[i].v);
	}
}

static void test_growth_fit(void **state)
{
	double p[] = { 2, 4, 8, 16 }, n[4];
	struct isoeff_fit fits[ISOEFF_NR_GROWTHS];

	(void)state;
	for (int g = 0; g < ISOEFF_POWER; g++) {
		for (int i = 0; i < 4; i++)
			n[i] = 3 * (g == ISOEFF_CONSTANT ? 1
				    : g == ISOEFF_LOG    ? log(p[i])
				    : g == ISOEFF_LINEAR ? p[i]
							 : p[i] * log(p[i]));
		assert_int_equal(isoeff_fit_growth(p, n, 4, fits), g);
		assert_true(fabs(fits[g].c - 3) < 1e-9 && fits[g].rms < 1e-9);
	}
	for (int i = 0; i < 4; i++)
		n[i] = 5 * pow(p[i], 1.7);
	assert_int_equal(isoeff_fit_growth(p, n, 4, fits), ISOEFF_POWER);
	assert_true(fabs(fits[ISOEFF_POWER].k - 1.7) < 1e-9);
	assert_int_equal(isoeff_fit_growth(p, n, 2, fits), ISOEFF_P_LOG_P); /* p^k needs 3 points */
	assert_false(fits[ISOEFF_POWER].eligible);
	assert_int_equal(isoeff_fit_growth(p, n, 1, fits), -1);
}

/* Size 1000 p: T = 1 + 0.05 log2 p; 3 % serial at every p (Quinn: 10 processors, 3 % serial: 9.73).
 */
static void test_weak(void **state)
{
	static const int wp[] = { 1, 2, 4, 10 };
	struct analysis a;
	struct matrix m;
	const struct matrix_weak *w;

	(void)state;
	analysis_init(&a);
	matrix_init(&m);
	analysis_interval_id(&a, "w", "program", "prog", 0, 0);
	for (size_t i = 0; i < ARRAY_SIZE(wp); i++) {
		char size[16];
		double t = 1 + 0.05 * log2(wp[i]);
		snprintf(size, sizeof(size), "%d", 1000 * wp[i]);
		for (int r = 0; r < 3; r++)
			fake_run(analysis_config_get(&a, "w", size, 1, wp[i]), t, 0.9 * wp[i] * t,
				 0.03 * t);
	}
	assert_true(scaling_size_is_weak(&a, "w"));
	assert_int_equal(matrix_build(&m, &a), 0);
	assert_int_equal(m.nr_weak, 1);
	assert_int_equal(m.nr_iso, 0);
	w = &m.weak[0];
	assert_int_equal(w->nr_points, 4);
	assert_true(w->ref_is_serial && w->ref == 0);
	for (size_t i = 0; i < 4; i++) {
		const struct matrix_cell *c = w->points[i].cell;
		assert_true(m.series[i].weak);
		assert_true(fabs(c->weak_efficiency.median - 1 / (1 + 0.05 * log2(wp[i]))) < 1e-9);
		assert_true(fabs(c->average_parallelism.median - 0.9 * wp[i]) < 1e-9);
	}
	assert_true(fabs(w->points[3].cell->gustafson_speedup.median - 9.73) < 1e-9);
	assert_string_equal(w->average_parallelism_trend, "growing");
	assert_true(fabs(w->average_parallelism_slope.median - 0.9) < 1e-9);
	matrix_release(&m);
	analysis_release(&a);
}

/* A strong matrix over sizes is not weak; a matrix with one size at two p neither. */
static void test_not_weak(void **state)
{
	struct analysis a;

	(void)state;
	analysis_init(&a);
	analysis_config_get(&a, "s", "100", 1, 1);
	analysis_config_get(&a, "s", "200", 1, 2);
	analysis_config_get(&a, "t", "-", 1, 1);
	analysis_config_get(&a, "t", "-", 1, 2);
	assert_true(scaling_size_is_weak(&a, "s"));
	assert_false(scaling_size_is_weak(&a, "t"));
	analysis_config_get(&a, "s", "200", 1, 1);
	assert_false(scaling_size_is_weak(&a, "s"));
	analysis_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduction),
		cmocka_unit_test(test_reduction_exact),
		cmocka_unit_test(test_floyd),
		cmocka_unit_test(test_finite_difference),
		cmocka_unit_test(test_too_few_points),
		cmocka_unit_test(test_memory_parse),
		cmocka_unit_test(test_scalability_function),
		cmocka_unit_test(test_growth_fit),
		cmocka_unit_test(test_weak),
		cmocka_unit_test(test_not_weak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
