/* The matrix built from analyzed runs: speedup, efficiency, the Karp-Flatt e and its trend, the
 * projection. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analyze/analysis.h"
#include "analyze/matrix.h"
#include "base/util.h"

/* A run of one interval that took E seconds. */
static void fake_run(struct analysis_config *c, double E)
{
	struct analysis_run *run;

	ALLOC_GROW(c->runs, c->nr_runs + 1, c->alloc_runs);
	run = &c->runs[c->nr_runs++];
	run->repeat = (int)c->nr_runs;
	run->nr_points = 1;
	run->points = xcalloc(1, sizeof(*run->points));
	run->points[0].present = 1;
	for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
		run->points[0].fig[f] = NAN;
	run->points[0].fig[ANALYSIS_EXECUTION_TIME] = E;
}

/* T(p) = T(1) / psi(p) for p = 1 (psi 1), 2..8 (the table), three identical repeats each. */
static void scaling_table(struct analysis *a, struct matrix *m, const double *psi)
{
	analysis_init(a);
	matrix_init(m);
	analysis_interval_id(a, "quinn", "program", "prog", 0, 0);
	for (int p = 1; p <= 8; p++)
		for (int r = 0; r < 3; r++)
			fake_run(analysis_config_get(a, "quinn", "-", 1, p),
				 100 / (p == 1 ? 1 : psi[p - 2]));
	assert_int_equal(matrix_build(m, a), 0);
	assert_int_equal(m->nr_series, 1);
	assert_int_equal(m->series[0].nr_cells, 8);
	assert_true(m->series[0].ref_is_serial);
	assert_int_equal(m->series[0].cells[0].karp_flatt.n, 0); /* not reported at p = 1 */
}

static void test_karp_flatt_flat(void **state)
{
	const double psi[] = { 1.82, 2.50, 3.08, 3.57, 4.00, 4.38, 4.71 };
	struct analysis a;
	struct matrix m;

	(void)state;
	scaling_table(&a, &m, psi);
	for (size_t i = 1; i < 8; i++) {
		assert_true(fabs(m.series[0].cells[i].karp_flatt.median - 0.10) < 0.002);
		assert_false(m.series[0].cells[i].superlinear);
	}
	assert_string_equal(m.series[0].trend, "flat");
	assert_true(fabs(m.series[0].serial_fraction - 0.10) < 0.002);
	assert_null(m.series[0].projection_refused);
	matrix_release(&m);
	analysis_release(&a);
}

static void test_karp_flatt_rising(void **state)
{
	const double psi[] = { 1.87, 2.61, 3.23, 3.73, 4.14, 4.46, 4.71 };
	struct analysis a;
	struct matrix m;

	(void)state;
	scaling_table(&a, &m, psi);
	assert_true(fabs(m.series[0].cells[1].karp_flatt.median - 0.07) < 0.002);
	assert_true(fabs(m.series[0].cells[7].karp_flatt.median - 0.10) < 0.002);
	for (size_t i = 2; i < 8; i++)
		assert_true(m.series[0].cells[i].karp_flatt.median >
			    m.series[0].cells[i - 1].karp_flatt.median);
	assert_string_equal(m.series[0].trend, "rising");
	assert_true(m.series[0].karp_flatt_slope.lo > 0);
	matrix_release(&m);
	analysis_release(&a);
}

/* A superlinear speedup is flagged and its Karp-Flatt e is negative. */
static void test_karp_flatt_superlinear(void **state)
{
	const double psi[] = { 2.2, 2.9, 3.9, 4.8, 5.7, 6.6, 7.5 };
	struct analysis a;
	struct matrix m;

	(void)state;
	scaling_table(&a, &m, psi);
	assert_true(m.series[0].cells[1].superlinear);
	assert_true(m.series[0].cells[1].karp_flatt.median < 0);
	assert_false(m.series[0].cells[2].superlinear);
	assert_true(fabs(m.series[0].cells[1].speedup.median - 2.2) < 1e-9);
	assert_true(fabs(m.series[0].cells[1].efficiency.median - 1.1) < 1e-9);
	matrix_release(&m);
	analysis_release(&a);
}

/* Fewer than four distinct p: no projection, and a reason. */
/* skip_trend (history record) leaves out the slope's bootstrap and trend, and nothing else. */
static void test_skip_trend(void **state)
{
	const double psi[] = { 1.87, 2.61, 3.23, 3.73, 4.14, 4.46, 4.71 };
	struct analysis a;
	struct matrix m, lean;

	(void)state;
	scaling_table(&a, &m, psi);
	matrix_init(&lean);
	lean.skip_trend = 1;
	assert_int_equal(matrix_build(&lean, &a), 0);
	assert_int_equal(lean.series[0].karp_flatt_slope.n, 0);
	assert_null(lean.series[0].trend);
	assert_string_equal(m.series[0].trend, "rising");
	for (size_t i = 0; i < 8; i++) {
		const struct matrix_cell *c = &m.series[0].cells[i], *l = &lean.series[0].cells[i];
		assert_memory_equal(&c->speedup, &l->speedup, sizeof(c->speedup));
		assert_memory_equal(&c->fig[ANALYSIS_EXECUTION_TIME],
				    &l->fig[ANALYSIS_EXECUTION_TIME], sizeof(c->fig[0]));
	}
	matrix_release(&lean);
	matrix_release(&m);
	analysis_release(&a);
}

static void test_projection_refused(void **state)
{
	struct analysis a;
	struct matrix m;

	(void)state;
	analysis_init(&a);
	matrix_init(&m);
	analysis_interval_id(&a, "b", "program", "prog", 0, 0);
	for (int p = 1; p <= 4; p *= 2)
		fake_run(analysis_config_get(&a, "b", "-", 1, p), 10.0 / p);
	assert_int_equal(matrix_build(&m, &a), 0);
	assert_non_null(m.series[0].projection_refused);
	assert_string_equal(m.series[0].trend, "flat");
	matrix_release(&m);
	analysis_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_karp_flatt_flat),
		cmocka_unit_test(test_karp_flatt_rising),
		cmocka_unit_test(test_karp_flatt_superlinear),
		cmocka_unit_test(test_skip_trend),
		cmocka_unit_test(test_projection_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
