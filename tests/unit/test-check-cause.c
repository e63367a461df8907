/* The checker's causes: which lost-time term a regression names, busy machines and Interference. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/lost-terms.h"
#include "judge/baseline.h"
#include "judge/check-priv.h"
#include "stats/stats.h"
#include "base/util.h"
#include "check-testing.h"

static void test_cause_synchronization_rising(void **state)
{
	double exec[] = {1, 1, 1}, before[] = {0.12, 0.12, 0.12}, after[] = {0.56, 0.56, 0.56};
	struct fixture f;
	struct baseline_cell *cur;
	char *cause;

	(void)state;
	fixture_init(&f, "rising");
	f.cell.base = add_cell(&f.bench.base, "program/solve", 4, 3, exec, ANALYSIS_SYNCHRONIZATION,
			       before);
	cur = add_cell(&f.bench.cur, "program/solve", 4, 3, exec, ANALYSIS_SYNCHRONIZATION, after);
	cur->fig[ANALYSIS_SYNC_OMP] = xmalloc(3 * sizeof(double));
	memcpy(cur->fig[ANALYSIS_SYNC_OMP], after, sizeof(after));
	f.cell.cur = cur;
	cause = cause_explain(&f.cell, -1);
	assert_non_null(cause);
	assert_string_equal(
		cause,
		"Synchronization (OpenMP barriers, locks and idle threads) grew from 3.0 % to 14.0 "
		"% "
		"of Total_time; Karp_Flatt rises 0.04 -> 0.11 with p: overhead grows with p");
	free(cause);
	fixture_release(&f);
}

/* Walks the table of lost-time terms: a term that grew (by each of its parts in turn) names
 * the cause, with the part's words (base/lost-table.h, judge/cause.c). */
static void expect_cause(const struct lost_term *term, const struct lost_term *part)
{
	double exec[] = { 1, 1, 1 }, before[] = { 0.04, 0.04, 0.04 }, after[] = { 0.8, 0.8, 0.8 };
	struct fixture f;
	struct baseline_cell *cur;
	char *cause, *want;

	fixture_init(&f, NULL);
	f.cell.base = add_cell(&f.bench.base, "program/solve", 4, 3, exec, term->fig, before);
	cur = add_cell(&f.bench.cur, "program/solve", 4, 3, exec, term->fig, after);
	if (part) {
		cur->fig[part->fig] = xmalloc(sizeof(after));
		memcpy(cur->fig[part->fig], after, sizeof(after));
	}
	f.cell.cur = cur;
	cause = cause_explain(&f.cell, -1);
	want = xstrfmt("%s%s grew from 1.0 %% to 20.0 %% of Total_time", term->name,
		       part ? part->cause : term->cause);
	assert_non_null(cause);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	fixture_release(&f);
}

/* The machine's term (Interference) that grew is never the cause. */
static void expect_no_cause(const struct lost_term *term)
{
	double exec[] = { 1, 1, 1 }, before[] = { 0.04, 0.04, 0.04 }, after[] = { 0.8, 0.8, 0.8 };
	struct fixture f;
	char *cause;

	fixture_init(&f, NULL);
	f.cell.base = add_cell(&f.bench.base, "program/solve", 4, 3, exec, term->fig, before);
	f.cell.cur = add_cell(&f.bench.cur, "program/solve", 4, 3, exec, term->fig, after);
	cause = cause_explain(&f.cell, -1);
	assert_true(!cause || !strstr(cause, term->name));
	free(cause);
	fixture_release(&f);
}

static void test_cause_every_lost_term(void **state)
{
	(void)state;
	for (size_t i = 0; i < lost_nr_terms; i++) {
		const struct lost_term *t = &lost_terms[i];
		if (t->parent != ANALYSIS_LOST_TIME)
			continue;
		if (t->machine) {
			expect_no_cause(t);
			continue;
		}
		if (!lost_term_has_parts(t->fig))
			expect_cause(t, NULL);
		for (size_t k = 0; k < lost_nr_terms; k++)
			if (lost_terms[k].parent == t->fig) {
				assert_true(lost_terms[k].cause[0]); /* a part says what it is */
				expect_cause(t, &lost_terms[k]);
			}
	}
}

static void test_cause_serial_flat(void **state)
{
	double exec[] = { 1, 1, 1 }, before[] = { 0.04, 0.04, 0.04 }, after[] = { 0.8, 0.8, 0.8 };
	struct fixture f;
	struct baseline_cell *cur;
	char *cause;

	(void)state;
	fixture_init(&f, "flat");
	f.cell.base = add_cell(&f.bench.base, "program/solve", 4, 3, exec,
			       ANALYSIS_INSUFFICIENT_PARALLELISM, before);
	cur = add_cell(&f.bench.cur, "program/solve", 4, 3, exec, ANALYSIS_INSUFFICIENT_PARALLELISM,
		       after);
	cur->fig[ANALYSIS_SEQ] = xmalloc(3 * sizeof(double));
	memcpy(cur->fig[ANALYSIS_SEQ], after, sizeof(after));
	f.cell.cur = cur;
	cause = cause_explain(&f.cell, -1);
	assert_string_equal(
		cause,
		"Insufficient_parallelism (serial code) grew from 1.0 % to 20.0 % of Total_time; "
		"inherent serial fraction ~ 0.1 (Insufficient_parallelism: serial code)");
	free(cause);
	fixture_release(&f);
}

/* A serial section leaves the other threads without work: Load_imbalance grows as much as
 * Insufficient_parallelism, but only the latter is a term of Lost_time and names the cause. */
static void test_cause_prefers_a_term(void **state)
{
	double exec[] = {1, 1, 1}, before[] = {0.004, 0.004, 0.004}, after[] = {0.8, 0.8, 0.8};
	double li[] = { 0.81, 0.81, 0.81 };
	struct fixture f;
	struct baseline_cell *cur, *base;
	char *cause;

	(void)state;
	fixture_init(&f, NULL);
	base = add_cell(&f.bench.base, "program/solve", 4, 3, exec,
			ANALYSIS_INSUFFICIENT_PARALLELISM, before);
	base->fig[ANALYSIS_LOAD_IMBALANCE] = xmalloc(3 * sizeof(double));
	memcpy(base->fig[ANALYSIS_LOAD_IMBALANCE], before, sizeof(before));
	f.cell.base = base;
	cur = add_cell(&f.bench.cur, "program/solve", 4, 3, exec, ANALYSIS_INSUFFICIENT_PARALLELISM,
		       after);
	cur->fig[ANALYSIS_LOAD_IMBALANCE] = xmalloc(3 * sizeof(double));
	memcpy(cur->fig[ANALYSIS_LOAD_IMBALANCE], li, sizeof(li));
	f.cell.cur = cur;
	cause = cause_explain(&f.cell, -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "Insufficient_parallelism"));
	assert_null(strstr(cause, "Load_imbalance"));
	free(cause);
	fixture_release(&f);
}

/* e >= 1 is no serial fraction: more processors made the interval slower. */
static void test_cause_no_speedup(void **state)
{
	double exec[] = { 1, 1, 1 }, before[] = { 0.04, 0.04, 0.04 }, after[] = { 0.8, 0.8, 0.8 };
	struct fixture f;
	struct baseline_cell *cur;
	char *cause;

	(void)state;
	fixture_init(&f, "flat");
	f.series.serial_fraction = 1.4;
	f.cell.base = add_cell(&f.bench.base, "program/solve", 4, 3, exec,
			       ANALYSIS_INSUFFICIENT_PARALLELISM, before);
	cur = add_cell(&f.bench.cur, "program/solve", 4, 3, exec, ANALYSIS_INSUFFICIENT_PARALLELISM,
		       after);
	f.cell.cur = cur;
	cause = cause_explain(&f.cell, -1);
	assert_non_null(cause);
	assert_non_null(strstr(
		cause,
		"no speedup (Karp_Flatt ~ 1.4 >= 1): more processors were no faster than one"));
	assert_null(strstr(cause, "inherent serial fraction"));
	free(cause);
	fixture_release(&f);
}

/* A regression measured while other processes took CPU says so in its cause. */
static void test_cause_busy_machine(void **state)
{
	double exec[] = { 1, 1, 1 }, before[] = { 0.04, 0.04, 0.04 }, after[] = { 0.8, 0.8, 0.8 };
	struct analysis_run runs[3] = {
		{.contention = 0.1}, {.contention = 0.6}, {.contention = NAN}};
	struct verdict_set vs;
	struct verdict *v;
	struct fixture f;

	(void)state;
	fixture_init(&f, NULL);
	f.cfg[2].runs = runs;
	f.cfg[2].nr_runs = 3;
	f.cell.base = add_cell(&f.bench.base, "program/solve", 4, 3, exec,
			       ANALYSIS_INSUFFICIENT_PARALLELISM, before);
	f.cell.cur = add_cell(&f.bench.cur, "program/solve", 4, 3, exec,
			      ANALYSIS_INSUFFICIENT_PARALLELISM, after);
	verdict_set_init(&vs);
	v = verdict_add(&vs, VERDICT_FAIL, "b", "program/solve", "-", 1, 4, "tolerance.time");
	check_add_cause(&f.cell, v);
	assert_non_null(v->cause);
	assert_non_null(strstr(v->cause, "Insufficient_parallelism"));
	assert_non_null(
		strstr(v->cause, "the machine was busy during 1 of 3 runs (up to 0.60 cores"));
	runs[1].contention = 0.2; /* an idle machine adds nothing */
	check_add_cause(&f.cell, v);
	assert_null(strstr(v->cause, "busy"));
	verdict_set_release(&vs);
	fixture_release(&f);
}

/* Most runs busy against a stored baseline: the cell cannot be judged; in A/B, or with no limit, it
 * can. */
static void test_busy_cell(void **state)
{
	struct analysis_run runs[3] = {
		{.contention = 0.6}, {.contention = 0.7}, {.contention = 0.1}};
	struct check c = { 0 };
	struct fixture f;

	(void)state;
	fixture_init(&f, NULL);
	f.cell.c = &c;
	f.cfg[2].runs = runs;
	f.cfg[2].nr_runs = 3;
	assert_true(check_busy(&f.cell)); /* 2 of 3 above 0.25 cores */
	f.bench.max_contention = 0.65;
	assert_false(check_busy(&f.cell)); /* the benchmark's own limit: 1 of 3 */
	f.bench.max_contention = -1;
	assert_false(check_busy(&f.cell)); /* max_contention: off */
	f.bench.max_contention = CHECK_BUSY_CORES;
	c.ab = 1;
	assert_false(check_busy(&f.cell)); /* A/B: the load hits base and head alike */
	fixture_release(&f);
}

/* Busy runs whose profiles carried the run-queue delay were corrected (Interference removed):
 * judged. */
static void test_busy_cell_corrected(void **state)
{
	struct analysis_point pts[3];
	struct analysis_run runs[3] = {
		{ .contention = 0.6 }, { .contention = 0.7 }, { .contention = 0.1 },
	};
	struct check c = { 0 };
	struct fixture f;

	(void)state;
	memset(pts, 0, sizeof(pts));
	for (int i = 0; i < 3; i++) {
		pts[i].present = 1;
		pts[i].fig[ANALYSIS_INTERFERENCE] = 0.5;
		runs[i].points = &pts[i];
		runs[i].nr_points = 1;
	}
	fixture_init(&f, NULL);
	f.cell.c = &c;
	f.cfg[2].runs = runs;
	f.cfg[2].nr_runs = 3;
	assert_false(check_busy(&f.cell)); /* 2 of 3 above 0.25 cores, both corrected */
	pts[1].fig[ANALYSIS_INTERFERENCE] = NAN; /* one busy run without the delay: 1 of 3 */
	assert_false(check_busy(&f.cell));
	/* two: the rule holds where nothing could be removed */
	pts[0].fig[ANALYSIS_INTERFERENCE] = NAN;
	assert_true(check_busy(&f.cell));
	fixture_release(&f);
}

/* The machine's share is named in the cause, never as the cause; a corrected busy run adds no
 * busy note. */
static void test_cause_interference(void **state)
{
	double exec[] = { 1, 1, 1 }, before[] = { 0.04, 0.04, 0.04 }, after[] = { 0.8, 0.8, 0.8 };
	struct analysis_point pts[3];
	struct analysis_run runs[3] = {
		{ .contention = 1.6 }, { .contention = 1.7 }, { .contention = 1.8 },
	};
	struct verdict_set vs;
	struct verdict *v;
	struct fixture f;

	(void)state;
	memset(pts, 0, sizeof(pts));
	for (int i = 0; i < 3; i++) {
		pts[i].present = 1;
		pts[i].fig[ANALYSIS_INTERFERENCE] = 0.62;
		runs[i].points = &pts[i];
		runs[i].nr_points = 1;
	}
	fixture_init(&f, NULL);
	f.cfg[2].runs = runs;
	f.cfg[2].nr_runs = 3;
	f.cells[2].fig[ANALYSIS_INTERFERENCE] = (struct matrix_figure){ 3, 0.62, 0.6, 0.7 };
	f.cells[2].fig[ANALYSIS_TOTAL_TIME_WALL] = (struct matrix_figure){ 3, 2, 1.9, 2.1 };
	f.cell.base = add_cell(&f.bench.base, "program/solve", 4, 3, exec,
			       ANALYSIS_INSUFFICIENT_PARALLELISM, before);
	f.cell.cur = add_cell(&f.bench.cur, "program/solve", 4, 3, exec,
			      ANALYSIS_INSUFFICIENT_PARALLELISM, after);
	verdict_set_init(&vs);
	v = verdict_add(&vs, VERDICT_FAIL, "b", "program/solve", "-", 1, 4, "tolerance.time");
	check_add_cause(&f.cell, v);
	assert_non_null(v->cause);
	assert_true(strstr(v->cause, "Insufficient_parallelism") == v->cause);
	assert_non_null(
		strstr(v->cause, "the machine took 31.0 % of Total_time_wall from this interval"));
	assert_null(strstr(v->cause, "busy"));
	verdict_set_release(&vs);
	fixture_release(&f);
}

static void test_cause_outside_inner(void **state)
{
	double before[] = { 1, 1, 1 }, after[] = { 1.5, 1.5, 1.5 }, inner[] = { 0.8, 0.8, 0.8 };
	struct fixture f;
	char *cause;

	(void)state;
	fixture_init(&f, NULL);
	f.cell.rp = 1; /* no Karp-Flatt part */
	f.cell.base = add_cell(&f.bench.base, "program/solve", 4, 3, before, ANALYSIS_IDLE, NULL);
	add_cell(&f.bench.base, "program/solve/inner", 4, 3, inner, ANALYSIS_IDLE, NULL);
	f.cell.cur = add_cell(&f.bench.cur, "program/solve", 4, 3, after, ANALYSIS_IDLE, NULL);
	add_cell(&f.bench.cur, "program/solve/inner", 4, 3, inner, ANALYSIS_IDLE, NULL);
	add_cell(&f.bench.cur, "program/solve/inner/deeper", 4, 3, inner, ANALYSIS_IDLE,
		 NULL); /* not a child */
	/* baseline_find needs sorted cells. */
	f.cell.base = baseline_find(&f.bench.base, "program/solve", "-", 1, 4);
	f.cell.cur = baseline_find(&f.bench.cur, "program/solve", "-", 1, 4);
	cause = cause_explain(&f.cell, -1);
	assert_non_null(cause);
	assert_non_null(strstr(
		cause,
		"the time went outside the inner intervals (waiting often lands in the "
		"enclosing interval): program/solve grew by 0.5 s, its inner intervals by 0 s"));
	free(cause);
	fixture_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cause_synchronization_rising),
		cmocka_unit_test(test_cause_prefers_a_term),
		cmocka_unit_test(test_cause_no_speedup),
		cmocka_unit_test(test_cause_busy_machine),
		cmocka_unit_test(test_busy_cell),
		cmocka_unit_test(test_busy_cell_corrected),
		cmocka_unit_test(test_cause_interference),
		cmocka_unit_test(test_cause_serial_flat),
		cmocka_unit_test(test_cause_every_lost_term),
		cmocka_unit_test(test_cause_outside_inner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
