/* Unit tests of the machine speed reference in stored mode: the current times scaled to the
 * baseline's machine speed, and the repeats a change past the tolerance earns. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check-testing.h"

static const double exec[] = { 0.100, 0.102, 0.099, 0.101, 0.098 };
static const double ref[] = { 0.0080, 0.0081, 0.0079, 0.0080, 0.0082 };

/* A cell of 'exec' times k, the reference times r (NULL: none), Load_balance 0.7. */
static struct baseline_cell *cell(struct baseline *b, double k, const double *refs, double r)
{
	double x[5], lb[5] = { 0.7, 0.7, 0.7, 0.7, 0.7 };
	struct baseline_cell *c;

	for (int i = 0; i < 5; i++)
		x[i] = k * exec[i];
	c = add_cell(b, "program/solve", 1, 5, x, ANALYSIS_LOAD_BALANCE, lb);
	if (refs) {
		c->fig[ANALYSIS_REFERENCE_TIME] = xmalloc(5 * sizeof(double));
		for (int i = 0; i < 5; i++)
			c->fig[ANALYSIS_REFERENCE_TIME][i] = r * refs[i];
	}
	return c;
}

/*
 * The machine runs everything 20 % slower now (a neighbour on the host): the reference loop
 * and the program alike. Scaled to the baseline's speed, the program's times read as they did;
 * its ratios are not touched.
 */
static void test_scale_slower_machine(void **state)
{
	struct check_bench b = { .has_base = 1 };

	(void)state;
	cell(&b.base, 1.0, ref, 1.0);
	cell(&b.cur, 1.2, ref, 1.2);
	check_reference_scale(&b);
	assert_float_equal(b.cur.cells[0].speed, 1 / 1.2, 1e-9);
	assert_true(b.cur.cells[0].speed_se > 0 && b.cur.cells[0].speed_se < 0.02);
	for (int i = 0; i < 5; i++) {
		assert_float_equal(b.cur.cells[0].fig[ANALYSIS_EXECUTION_TIME][i], exec[i], 1e-12);
		assert_float_equal(b.cur.cells[0].fig[ANALYSIS_TOTAL_TIME][i], exec[i], 1e-12);
		assert_float_equal(b.cur.cells[0].fig[ANALYSIS_LOAD_BALANCE][i], 0.7, 0);
	}
	baseline_release(&b.base);
	baseline_release(&b.cur);
}

/* A program 25 % slower on a machine of the same speed stays 25 % slower. */
static void test_scale_keeps_program_change(void **state)
{
	struct check_bench b = { .has_base = 1 };

	(void)state;
	cell(&b.base, 1.0, ref, 1.0);
	cell(&b.cur, 1.25, ref, 1.0);
	check_reference_scale(&b);
	assert_float_equal(b.cur.cells[0].speed, 1, 1e-9);
	assert_float_equal(b.cur.cells[0].fig[ANALYSIS_EXECUTION_TIME][2], 1.25 * exec[2], 1e-12);
	baseline_release(&b.base);
	baseline_release(&b.cur);
}

/*
 * Issue 32: any finite factor was applied, so a loop 3 times slower absorbed 3 times the work.
 * Outside 0.5-2 the factor is reported and not applied.
 */
static void test_scale_bounded(void **state)
{
	struct check_bench b = { .has_base = 1 };

	(void)state;
	cell(&b.base, 1.0, ref, 1.0);
	cell(&b.cur, 3.0, ref, 3.0);
	check_reference_scale(&b);
	assert_true(b.cur.cells[0].speed == 0);
	assert_float_equal(b.cur.cells[0].speed_refused, 1 / 3.0, 1e-9);
	assert_float_equal(b.cur.cells[0].fig[ANALYSIS_EXECUTION_TIME][1], 3 * exec[1], 1e-12);
	baseline_release(&b.base);
	baseline_release(&b.cur);
}

/*
 * Something slowed the loop by 20 % but not the program, whose intervals read as they did: the
 * factor would turn every one of them into a 17 % improvement (or hide a regression that size),
 * so it is not applied. A program that slowed with the loop agrees with it (above).
 */
static void test_scale_contradicted(void **state)
{
	struct check_bench b = { .has_base = 1 };

	(void)state;
	cell(&b.base, 1.0, ref, 1.0);
	cell(&b.cur, 1.0, ref, 1.2);
	cell(&b.base, 1.0, ref, 1.0)->threads = 2;
	cell(&b.cur, 1.01, ref, 1.2)->threads = 2;
	check_reference_scale(&b);
	assert_int_equal(b.speed_compared, 2);
	assert_int_equal(b.speed_contradicted, 2);
	for (int i = 0; i < 2; i++) {
		assert_true(b.cur.cells[i].speed == 0);
		assert_float_equal(b.cur.cells[i].speed_refused, 1 / 1.2, 1e-9);
	}
	assert_float_equal(b.cur.cells[0].fig[ANALYSIS_EXECUTION_TIME][1], exec[1], 1e-12);
	baseline_release(&b.base);
	baseline_release(&b.cur);
}

/* Without references on either side (an older baseline, a batch job), or with fewer than
 * CHECK_REFERENCE_MIN_RUNS, the times stay as measured. */
static void test_scale_needs_both(void **state)
{
	static const double two[] = { 0.008, 0.008, NAN, NAN, NAN };
	struct check_bench b = { .has_base = 1 };

	(void)state;
	cell(&b.base, 1.0, NULL, 0);
	cell(&b.cur, 1.2, ref, 1.2);
	check_reference_scale(&b);
	assert_true(b.cur.cells[0].speed == 0);
	assert_float_equal(b.cur.cells[0].fig[ANALYSIS_EXECUTION_TIME][0], 1.2 * exec[0], 1e-12);
	baseline_release(&b.base);
	baseline_release(&b.cur);
	cell(&b.base, 1.0, two, 1.0);
	cell(&b.cur, 1.2, ref, 1.2);
	check_reference_scale(&b);
	assert_true(b.cur.cells[0].speed == 0);
	baseline_release(&b.base);
	baseline_release(&b.cur);
}

/*
 * Against a stored baseline the shift between sittings does not shrink with repeats, so no number
 * of them brings the noise within the tolerance; a change far past it is still decided by a few
 * more (the second look). Without this, adaptive repeats skipped such cells (more = -1): a quiet
 * stored gate let +25 % work pass in 2 of 20 gates, its 1-thread cells never extended.
 */
static void test_more_repeats_past(void **state)
{
	double base[] = { 1.00, 1.02, 0.99, 1.01, 0.98 };
	double slower[] = { 1.24, 1.27, 1.23, 1.26, 1.25 }; /* +25 % */
	double same[] = { 1.01, 1.00, 1.02, 0.99, 1.00 };
	struct rules_value rel5 = { .set = 1, .value = 0.05, .relative = 1 };
	/* two sittings 3 % apart each: sd 4.2 % of their difference */
	struct check_test_opts o = { +1, &rel5, 0.0005 / 24, 0, 0.042, 0, 0 };
	struct check_test t;

	(void)state;
	assert_int_equal(check_test_samples(base, 5, slower, 5, &o, &t), 0);
	assert_true(t.past);
	assert_int_equal(t.more, -1); /* the noise alone never fits in the tolerance */
	check_test_more_past(&t, 0.0095 / 24, +1, 0); /* at the second look's level, 24 tests */
	assert_true(t.more >= 1 && t.more <= 15);
	/* nothing changed: left as it was, no repeats bring the noise below 5 % */
	assert_int_equal(check_test_samples(base, 5, same, 5, &o, &t), 0);
	assert_false(t.past);
	check_test_more_past(&t, 0.0095 / 24, +1, 0);
	assert_int_equal(t.more, -1);
}

/*
 * The cell of 'f' at index i (p = 1, 2, 4) with quiet baseline samples (Interference 0) and current
 * ones whose machine share of Total_time_wall is 'share', its times scaled by 'speed' (0: not).
 */
static void cell_at(struct fixture *f, int i, double share, double speed)
{
	double exec[] = { 1, 1, 1 }, none[] = { 0, 0, 0 };

	f->cell.mc = &f->cells[i];
	f->cells[i].fig[ANALYSIS_TOTAL_TIME_WALL] = (struct matrix_figure){ 3, 1, 1, 1 };
	f->cells[i].fig[ANALYSIS_INTERFERENCE] = (struct matrix_figure){ 3, share, share, share };
	f->cell.base = add_cell(&f->bench.base, "program/solve", 1 << i, 3, exec,
				ANALYSIS_INTERFERENCE, none);
	f->cell.cur = add_cell(&f->bench.cur, "program/solve", 1 << i, 3, exec,
			       ANALYSIS_INTERFERENCE, none);
	f->bench.cur.cells[f->bench.cur.nr_cells - 1].speed = speed;
}

/* Whether a change past the tolerance in the cell may earn repeats; releases the fixture. */
static int extends(struct fixture *f)
{
	struct check c;
	int ret;

	memset(&c, 0, sizeof(c));
	f->cell.c = &c;
	ret = check_may_extend_past(&f->cell);
	fixture_release(f);
	return ret;
}

/*
 * Beside two hogs, against a quiet baseline: at one thread the load costs the machine's speed on a
 * CPU, which the scaling takes out, so a change past the tolerance earns repeats; at more threads
 * the team's waiting that the correction leaves reads +10-18 % and would become a false alarm with
 * enough repeats (16 of 16 stored A/A gates failed at 2 threads when they were extended), so only
 * while the loads agree. Without the scaling, never.
 */
static void test_extend_past_where_load_bias_is_out(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, NULL);
	cell_at(&f, 0, 0.33, 0.9);
	assert_true(extends(&f));
	fixture_init(&f, NULL);
	cell_at(&f, 1, 0.6, 0.9);
	assert_false(extends(&f));
	fixture_init(&f, NULL);
	cell_at(&f, 1, 0.05, 0.9); /* quiet against quiet */
	assert_true(extends(&f));
	fixture_init(&f, NULL);
	cell_at(&f, 0, 0.33, 0); /* no references: the on-CPU slowdown stays in the change */
	assert_false(extends(&f));
}

/* The allowance for loads apart: 4 % per unit of the gap at one scaled processor, 10 % else. */
static void test_allowance_alone(void **state)
{
	struct check c;
	struct fixture f;
	double one, two;

	(void)state;
	memset(&c, 0, sizeof(c));
	fixture_init(&f, NULL);
	f.cell.c = &c;
	cell_at(&f, 0, 0.5, 0.9);
	one = check_sitting_sd(&f.cell, &check_metrics[RULES_TIME], 1, NULL);
	fixture_release(&f);
	fixture_init(&f, NULL);
	f.cell.c = &c;
	cell_at(&f, 1, 0.5, 0.9);
	two = check_sitting_sd(&f.cell, &check_metrics[RULES_TIME], 1, NULL);
	fixture_release(&f);
	assert_float_equal(one, sqrt(0.03 * 0.03 + 0.02 * 0.02), 1e-9);
	assert_float_equal(two, sqrt(0.03 * 0.03 + 0.05 * 0.05), 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale_slower_machine),
		cmocka_unit_test(test_scale_keeps_program_change),
		cmocka_unit_test(test_scale_needs_both),
		cmocka_unit_test(test_scale_bounded),
		cmocka_unit_test(test_scale_contradicted),
		cmocka_unit_test(test_more_repeats_past),
		cmocka_unit_test(test_extend_past_where_load_bias_is_out),
		cmocka_unit_test(test_allowance_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
