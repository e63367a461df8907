/* Unit tests of the findings: one per cause, enclosing intervals folded into the inner one that
 * explains their change, one per configuration, regressions apart from warnings. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "judge/findings.h"

/* A check of 'interval' at 1 x threads whose cell grew from 'base' to 'cur' seconds. */
static struct verdict *check(struct verdict_set *s, enum verdict_status st, const char *interval,
			     int threads, const char *kind, double cur, double base)
{
	struct verdict *v = verdict_add(s, st, "jacobi", interval, "-", 1, threads, kind);

	v->seconds = cur;
	v->base_seconds = base;
	return v;
}

static const char *interval_of(const struct verdict_set *s, const struct finding *f)
{
	return finding_where(s, f)->interval;
}

static char *count_line(const struct findings *fs)
{
	struct strbuf sb = STRBUF_INIT;

	findings_add_regressions(&sb, fs);
	strbuf_addstr(&sb, ", ");
	findings_add_warnings(&sb, fs);
	return strbuf_detach(&sb);
}

/* A critical section in program/solve/sweep: time, speedup and synchronization fail there and in
 * both enclosing intervals, at p = 2; at p = 1 only the time of the sweep, and of program/solve. */
static void test_parent_folded_into_child(void **state)
{
	struct verdict_set s;
	const struct findings *fs;
	const struct finding *f;
	char *line;

	(void)state;
	verdict_set_init(&s);
	for (int t = 1; t <= 2; t++) {
		check(&s, VERDICT_PASS, "program", t, "tolerance.efficiency", 1.3, 1.0);
		check(&s, VERDICT_FAIL, "program", t, "tolerance.time", 1.3, 1.0);
		if (t == 2) {
			check(&s, VERDICT_FAIL, "program", t, "tolerance.speedup", 1.3, 1.0);
			check(&s, VERDICT_FAIL, "program", t, "tolerance.synchronization", 1.3,
			      1.0);
		}
		check(&s, VERDICT_FAIL, "program/solve", t, "tolerance.time", 1.25, 0.95);
		check(&s, VERDICT_PASS, "program/solve/residual", t, "tolerance.time", 0.1, 0.1);
		verdict_set_cause(check(&s, VERDICT_FAIL, "program/solve/sweep", t,
					"tolerance.time", 1.1, 0.8),
				  "Synchronization (critical) grew");
		if (t == 2)
			check(&s, VERDICT_FAIL, "program/solve/sweep", t,
			      "tolerance.synchronization", 1.1, 0.8);
	}
	verdict_set_sort(&s, 0);
	verdict_set_finish(&s);
	fs = s.findings;
	assert_non_null(fs);
	/* two configurations: two findings, both in the sweep */
	assert_int_equal(fs->nr, 2);
	assert_int_equal(fs->regressions, 2);
	assert_int_equal(fs->warnings, 0);
	for (size_t i = 0; i < fs->nr; i++) {
		f = &fs->f[i];
		assert_string_equal(interval_of(&s, f), "program/solve/sweep");
		assert_int_equal(f->status, VERDICT_FAIL);
		assert_string_equal(finding_cause(&s, f), "Synchronization (critical) grew");
		assert_int_equal(finding_where(&s, f)->threads, (int)i + 1);
		for (size_t k = 0; k < f->nr_checks; k++) {
			const struct verdict *v = &s.v[f->checks[k]];
			assert_int_equal(v->status, VERDICT_FAIL);
			assert_int_equal(finding_folded(f, k),
					 strcmp(v->interval, "program/solve/sweep") != 0);
		}
	}
	assert_int_equal(fs->f[0].nr_own, 1);
	assert_int_equal(fs->f[0].nr_checks, 3); /* sweep, solve, program: the time each */
	assert_int_equal(fs->f[1].nr_own, 2);
	assert_int_equal(fs->f[1].nr_checks, 6);
	assert_int_equal(fs->failed, 9);
	line = count_line(fs);
	assert_string_equal(line, "2 regressions (9 checks failed), 0 warnings");
	free(line);
	verdict_set_release(&s);
}

/* An enclosing interval that grew by more than twice what its inner interval did has a cause of
 * its own: two findings. Without a reference time nothing is folded. */
static void test_not_explained(void **state)
{
	struct verdict_set s;
	const struct findings *fs;

	(void)state;
	verdict_set_init(&s);
	check(&s, VERDICT_FAIL, "program/solve", 2, "tolerance.time", 1.5, 1.0);
	check(&s, VERDICT_FAIL, "program/solve/sweep", 2, "tolerance.time", 0.9, 0.7);
	check(&s, VERDICT_FAIL, "program/other", 2, "tolerance.time", 0.5, NAN);
	check(&s, VERDICT_FAIL, "program/other/inner", 2, "tolerance.time", 0.4, NAN);
	/* a sibling's prefix is no parent: program/solver is not inside program/solve */
	check(&s, VERDICT_FAIL, "program/solver", 2, "tolerance.time", 2.0, 1.0);
	verdict_set_sort(&s, 0);
	verdict_set_finish(&s);
	fs = s.findings;
	assert_int_equal(fs->nr, 5);
	assert_int_equal(fs->regressions, 5);
	for (size_t i = 0; i < fs->nr; i++)
		assert_int_equal(fs->f[i].nr_checks, 1);
	/* exactly half of the enclosing growth explains it */
	verdict_set_release(&s);
	check(&s, VERDICT_FAIL, "program/solve", 2, "tolerance.time", 1.5, 1.0);
	check(&s, VERDICT_FAIL, "program/solve/sweep", 2, "tolerance.time", 0.75, 0.5);
	verdict_set_finish(&s);
	assert_int_equal(s.findings->nr, 1);
	assert_string_equal(interval_of(&s, &s.findings->f[0]), "program/solve/sweep");
	verdict_set_release(&s);
}

/* Warnings are findings of their own; a regression never folds into a warning; a warning of the
 * cell of a regression is its evidence; inconclusive checks and errors are no findings. */
static void test_warnings_and_errors(void **state)
{
	struct verdict_set s;
	const struct findings *fs;
	const struct finding *f;
	char *line;

	(void)state;
	verdict_set_init(&s);
	/* a regression in program at p = 2 whose inner interval only warns: not folded */
	check(&s, VERDICT_FAIL, "program", 2, "tolerance.time", 1.4, 1.0);
	check(&s, VERDICT_WARN, "program/solve", 2, "tolerance.time", 1.35, 1.0);
	/* a warning in program at p = 4 folds into its inner interval's regression */
	check(&s, VERDICT_WARN, "program", 4, "tolerance.efficiency", 0.8, 0.6);
	check(&s, VERDICT_FAIL, "program/solve", 4, "tolerance.time", 0.75, 0.55);
	check(&s, VERDICT_WARN, "program/solve", 4, "tolerance.efficiency", 0.75, 0.55);
	/* inconclusive, an error and a skip: no findings */
	check(&s, VERDICT_WARN, "program", 8, "tolerance.time", 0.5, 0.4)->inconclusive = 1;
	check(&s, VERDICT_ERROR, "program", 8, "fingerprint", 0.5, 0.4);
	check(&s, VERDICT_SKIPPED, "program/init", 8, "tolerance.time", 0.1, NAN);
	/* a warning alone at p = 1 */
	check(&s, VERDICT_WARN, "program/init", 1, "tolerance.time", 0.2, 0.1);
	verdict_set_sort(&s, 0);
	verdict_set_finish(&s);
	fs = s.findings;
	assert_int_equal(fs->nr, 4);
	assert_int_equal(fs->regressions, 2);
	assert_int_equal(fs->failed, 2);
	assert_int_equal(fs->warnings, 2);
	assert_int_equal(fs->warned, 2);
	for (size_t i = 0; i < fs->nr; i++) {
		f = &fs->f[i];
		if (!strcmp(interval_of(&s, f), "program")) {
			assert_int_equal(f->status, VERDICT_FAIL);
			assert_int_equal(finding_where(&s, f)->threads, 2);
			assert_int_equal(f->nr_checks, 1);
			assert_string_equal(finding_severity(f), "regression");
		} else if (!strcmp(interval_of(&s, f), "program/init")) {
			assert_int_equal(f->status, VERDICT_WARN);
			assert_int_equal(finding_where(&s, f)->threads, 1);
			assert_string_equal(finding_severity(f), "warning");
		} else if (finding_where(&s, f)->threads == 2) {
			assert_int_equal(f->status, VERDICT_WARN);
			assert_int_equal(f->warned, 1);
		} else {
			/* p = 4: its own failure and warning, program's warning folded in */
			assert_int_equal(f->status, VERDICT_FAIL);
			assert_int_equal(f->nr_own, 2);
			assert_int_equal(f->nr_checks, 3);
			assert_int_equal(f->failed, 1);
			assert_int_equal(f->warned, 2);
			assert_string_equal(s.v[f->checks[2]].interval, "program");
		}
	}
	line = count_line(fs);
	assert_string_equal(line, "2 regressions (2 checks failed), 2 warnings (2 checks)");
	free(line);
	verdict_set_release(&s);

	/* nothing failed or warned */
	verdict_set_finish(&s);
	line = count_line(s.findings);
	assert_string_equal(line, "0 regressions (0 checks failed), 0 warnings");
	free(line);
	verdict_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parent_folded_into_child),
		cmocka_unit_test(test_not_explained),
		cmocka_unit_test(test_warnings_and_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
