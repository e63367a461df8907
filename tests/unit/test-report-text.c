/* Unit tests of the reports' text: the Markdown summary, the headline, and the escaping of JSON and
 * UTF-8 that every report shares. */
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
#include "base/escape.h"
#include "analyze/matrix.h"
#include "report/report.h"
#include "report/report-priv.h"
#include "base/util.h"
#include "report-testing.h"

/* A run of every interval that took E[k] seconds. */
static void fake_run(struct analysis *a, struct analysis_config *c, const double *E)
{
	struct analysis_run *run;

	ALLOC_GROW(c->runs, c->nr_runs + 1, c->alloc_runs);
	run = &c->runs[c->nr_runs++];
	run->repeat = (int)c->nr_runs;
	run->nr_points = a->nr_intervals;
	run->points = xcalloc(run->nr_points, sizeof(*run->points));
	for (size_t k = 0; k < run->nr_points; k++) {
		run->points[k].present = 1;
		for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
			run->points[k].fig[f] = NAN;
		run->points[k].fig[ANALYSIS_EXECUTION_TIME] = E[k];
	}
}

static void test_markdown(void **state)
{
	struct verdict_set s;
	struct analysis a;
	struct matrix m;
	char *dir = make_dir(), *path = xstrfmt("%s/summary.md", dir), *md, *regressions, *warnings;

	(void)state;
	build_set(&s);
	analysis_init(&a);
	matrix_init(&m);
	analysis_interval_id(&a, "jacobi", "program", "prog", 0, 0);
	analysis_interval_id(&a, "jacobi", "program/solve", "t.c", 10, 1);
	analysis_interval_id(&a, "jacobi", "program/solve/inner", "t.c", 20, 2);
	analysis_interval_id(&a, "jacobi", "program/solve/inner/deep", "t.c", 30, 3);
	for (int t = 1; t <= 4; t *= 2)
		for (int r = 0; r < 3; r++) {
			double E[] = {10.0 / t + 0.5, 8.0 / t + 0.4 + 0.05 * r, 4.0 / t + 1,
				      1.0 / t + 0.1 * r};
			fake_run(&a, analysis_config_get(&a, "jacobi", "-", 1, t), E);
		}
	assert_int_equal(matrix_build(&m, &a), 0);

	assert_int_equal(markdown_write_analysis(&s, &a, &m, NULL, 0, path), 0);
	md = read_text(path);
	if (getenv("SG_VERBOSE"))
		fputs(md, stderr);
	assert_true(!strncmp(md,
			     "### \xe2\x9d\x8c scalegate: 1 regression (1 check failed), 1 warning "
			     "(1 check), 1 error, 1 skipped in 7 checks\n",
			     strlen("### \xe2\x9d\x8c scalegate: 1 regression (1 check failed), 1 "
				    "warning (1 check), 1 error, 1 skipped in 7 checks\n")));
	regressions = strstr(md, "#### 1 regression (1 check failed)\n");
	warnings = strstr(md, "#### 1 warning (1 check)\n");
	assert_non_null(regressions);
	assert_non_null(warnings);
	assert_true(regressions < warnings);
	/* the finding: where, its cause, its checks */
	assert_non_null(strstr(regressions, "| jacobi | `program/solve` | 1 rank \xc3\x97 4 "
					    "threads (p=4) | Karp\\_Flatt rises"));
	assert_non_null(strstr(regressions, "| 1: `Measured_efficiency` |\n"));
	assert_non_null(
		strstr(regressions, "<details><summary>The evidence: 1 check failed</summary>"));
	/* the evidence row of its check: figures, and its cause with '|' and HTML escaped */
	assert_non_null(strstr(regressions,
			       "| jacobi | `program/solve` | 1 rank \xc3\x97 4 threads (p=4) | "
			       "`Measured_efficiency` | "
			       "0.61 [0.58, 0.64] | 0.83 | -0.22 | 0.004 | Karp\\_Flatt rises"));
	assert_non_null(strstr(regressions, "\\<&amp;\\>\"' \\| |\n"));
	assert_non_null(strstr(warnings, "| 1.3 s [1.1 s, 1.5 s] | 1.2 s | +8.3 % | 0.21 |"));
	assert_non_null(strstr(md, "<details><summary>Errors (1)</summary>"));
	assert_non_null(strstr(md, "<details><summary>Skipped (1)</summary>"));
	assert_true(strstr(md, "Skipped (1)") > warnings);
	/* the scaling table: the warned interval first, then levels 0 and 1; not level 3 */
	assert_non_null(strstr(md, "#### Scaling"));
	assert_true(strstr(md, "** `program/solve/inner`") < strstr(md, "** `program`"));
	assert_non_null(strstr(md, "** `program/solve`"));
	assert_null(strstr(md, "`program/solve/inner/deep`"));
	assert_non_null(
		strstr(md, "| 1 | 1x1 | 8.45 s [8.4 s, 8.5 s] | 1 | 1 | \xe2\x80\x93 |  |\n"));
	/* no spread: no interval; the figures read as in every report (base/units.h) */
	assert_non_null(strstr(md, "| 4 | 1x4 | 3 s | 3.5 | 0.875 | 0.0476 |  |\n"));
	assert_non_null(strstr(md, "\xe2\x9d\x8c regression |"));
	free(md);

	/* without the analysis: no scaling table */
	assert_int_equal(markdown_write(&s, &m, path), 0);
	md = read_text(path);
	assert_null(strstr(md, "#### Scaling"));
	free(md);

	/* a pass */
	verdict_set_release(&s);
	verdict_add(&s, VERDICT_PASS, "a|b", "program", "-", 1, 1, "time_max");
	verdict_set_finish(&s);
	assert_int_equal(markdown_write(&s, NULL, path), 0);
	md = read_text(path);
	assert_string_equal(md, "### \xe2\x9c\x85 scalegate: 1 check passes\n\n");
	free(md);

	matrix_release(&m);
	analysis_release(&a);
	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

/* An inconclusive check's message as the judge writes it: its last clause says what would decide.
 */
#define INCONCLUSIVE_TEXT \
	"Execution_time median 2.614e-05 s (n=5) vs base 9.68e-06 s (n=5): geometric-mean change " \
	"+155.6 %, past the tolerance of 10.0 % but not significant: inconclusive; at this noise " \
	"a " \
	"failure catches a worsening of 903.6 % with 80 % power; against a stored baseline the " \
	"shift " \
	"between sittings alone is larger: compare with the base revision in the same job " \
	"(--against)"
#define CAUSE_TEXT \
	"Insufficient_parallelism (serial code) grew from 0.1 % to 50.0 % of Total_time; the " \
	"time " \
	"went outside the inner intervals (waiting often lands in the enclosing interval); the " \
	"machine took 31 % of Total_time from this interval (Interference: other processes; " \
	"removed from the judged figures)"

/* Where a long text was cut: after a whole clause "... path/K", then the marker; -1 if not so. */
static int cut_after_clause(const char *md)
{
	char end[96];

	for (int k = 0; k < 60; k++) {
		snprintf(end, sizeof(end),
			 "long/path/%d \xe2\x80\xa6 (the whole text in the JUnit report)", k);
		if (strstr(md, end))
			return k;
	}
	return -1;
}

/* Messages and causes whole in bullets and cells (they were cut at 240 bytes, mid-number); a text
 * past 1000 bytes ends after a clause and says where the rest is; the lists stay within budget. */
static void test_markdown_whole(void **state)
{
	char *dir = make_dir(), *path = xstrfmt("%s/summary.md", dir), *md;
	struct strbuf longer = STRBUF_INIT;
	struct verdict_set s;
	struct verdict *v;

	(void)state;
	for (int k = 0; k < 40; k++)
		strbuf_addf(&longer,
			    "clause %d of a long message with a path /a/very/long/path/%d, ", k, k);
	verdict_set_init(&s);
	v = verdict_add(&s, VERDICT_WARN, "jacobi", "program/solve", "-", 1, 1, "tolerance.time");
	v->inconclusive = 1;
	verdict_set_message(v, "%s", INCONCLUSIVE_TEXT);
	v = verdict_add(&s, VERDICT_FAIL, "jacobi", "program/solve", "-", 1, 2, "tolerance.time");
	verdict_set_message(v, "%s", INCONCLUSIVE_TEXT);
	verdict_set_cause(v, "%s", CAUSE_TEXT);
	v = verdict_add(&s, VERDICT_ERROR, "jacobi", "-", "-", 0, 0, "baseline");
	verdict_set_message(v, "%s", longer.buf);
	verdict_set_finish(&s);
	assert_int_equal(markdown_write(&s, NULL, path), 0);
	md = read_text(path);
	if (getenv("SG_VERBOSE"))
		fputs(md, stderr);
	/* the bullet ends with the message's last clause */
	assert_non_null(strstr(
		md,
		"with 80 % power; against a stored baseline the shift between sittings "
		"alone is larger: compare with the base revision in the same job (--against)\n"));
	/* the finding's cause cell and the evidence's, whole */
	assert_non_null(strstr(
		md, "(Interference: other processes; removed from the judged figures) | 1: "));
	assert_non_null(strstr(md, "removed from the judged figures) |\n"));
	assert_true(cut_after_clause(md) > 5);
	free(md);

	/* 60 long bullets: the lists end within the budget, the rest counted */
	verdict_set_release(&s);
	verdict_set_init(&s);
	for (int k = 0; k < 60; k++) {
		v = verdict_add(&s, k % 2 ? VERDICT_ERROR : VERDICT_SKIPPED, "jacobi", "program",
				"-", 1, k + 1, "baseline");
		verdict_set_message(v, "%s", longer.buf);
	}
	verdict_set_finish(&s);
	assert_int_equal(markdown_write(&s, NULL, path), 0);
	md = read_text(path);
	assert_true(strlen(md) < 34000);
	assert_non_null(strstr(md, "more in the JUnit report\n"));
	free(md);

	strbuf_release(&longer);
	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

static int valid_utf8(const char *s)
{
	unsigned cp;

	while (*s) {
		size_t len = utf8_decode(s, &cp);
		if (!len)
			return 0;
		s += len;
	}
	return 1;
}

static void test_headline(void **state)
{
	static const char want[] = "scalegate: 1 regression (1 check failed), 1 warning (1 check), "
				   "1 error, 1 skipped in 7 checks \xe2\x80\x94 "
				   "jacobi program/solve 1 rank \xc3\x97 4 thread\xe2\x80\xa6";
	struct verdict_set s;
	char *h;

	(void)state;
	build_set(&s);
	h = summary_headline(&s, 140);
	assert_string_equal(h, want);
	free(h);
	/* every cut: within max bytes, well-formed, an ellipsis when cut */
	for (size_t max = 0; max <= sizeof(want); max++) {
		h = summary_headline(&s, max);
		assert_true(strlen(h) <= max);
		assert_true(valid_utf8(h));
		if (max < sizeof(want) - 1 && max > 3)
			assert_non_null(strstr(h, "\xe2\x80\xa6"));
		free(h);
	}
	/* cut just inside the em dash: the dash goes whole */
	h = summary_headline(&s, strlen("scalegate: 1 regression (1 check failed), 1 warning (1 "
					"check), 1 error, 1 skipped in 7 checks ") +
					 4);
	assert_string_equal(h, "scalegate: 1 regression (1 check failed), 1 warning (1 check), 1 "
			       "error, 1 skipped in 7 checks \xe2\x80\xa6");
	free(h);
	verdict_set_release(&s);

	verdict_add(&s, VERDICT_PASS, "a", "program", "-", 1, 1, "time_max");
	verdict_add(&s, VERDICT_WARN, "a", "program", "-", 1, 2, "tolerance.time");
	verdict_add(&s, VERDICT_WARN, "a", "program", "-", 1, 4, "tolerance.time");
	verdict_set_finish(&s);
	h = summary_headline(&s, 140);
	assert_string_equal(h, "scalegate: no regressions in 3 checks: 2 warnings (2 checks)");
	free(h);
	verdict_add(&s, VERDICT_SKIPPED, "a", "program", "-", 1, 8, "tolerance.time");
	verdict_add(&s, VERDICT_ERROR, "a", "program", "-", 1, 8, "fingerprint");
	verdict_set_finish(&s);
	h = summary_headline(&s, 140);
	assert_string_equal(
		h,
		"scalegate: no regressions in 5 checks: 2 warnings (2 checks), 1 error, 1 skipped");
	free(h);
	verdict_set_release(&s);
}

static void test_escape(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	xml_add_attr(&sb,
		     "a\tb\nc\rd\x01\x1f<&>\"'\xef\xbf\xbe\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80z");
	assert_string_equal(sb.buf,
			    "a&#9;b&#10;c&#13;d&lt;&amp;&gt;&quot;&apos;"
			    /* U+FFFE */ "\xef\xbf\xbd"
			    /* overlong */ "\xef\xbf\xbd\xef\xbf\xbd"
			    /* surrogate */ "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			    /* past U+10FFFF */ "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			    "z");
	strbuf_reset(&sb);
	xml_add_text(&sb, "a\tb\nc");
	assert_string_equal(sb.buf, "a\tb\nc");
	strbuf_reset(&sb);
	json_add_string(&sb, "q\"b\\n\n\x01\x7f\xff\xe2\x82\xac");
	assert_string_equal(sb.buf, "\"q\\\"b\\\\n\\n\\u0001\\u007f\\ufffd\xe2\x82\xac\"");
	strbuf_reset(&sb);
	json_add_string(&sb, NULL);
	json_add_number(&sb, NAN);
	json_add_number(&sb, 0.1);
	assert_string_equal(sb.buf, "nullnull0.1");
	assert_int_equal(utf8_prefix("a\xe2\x82\xac", 3), 1);
	assert_int_equal(utf8_prefix("a\xe2\x82\xac", 4), 4);
	strbuf_release(&sb);
}

/* Every absolute bound is told by its side, share_max.* too (its reference read 'baseline'); a
 * tolerance or a run's verdict is no bound. */
static void test_bound_sides(void **state)
{
	static const char *const kinds[][2] = {
		{"efficiency_min", "min"},
		{"time_max", "max"},
		{"share_max.insufficient_parallelism", "max"},
		{"isoefficiency_growth_max", "max"},
		{"tolerance.time", NULL},
		{"tolerance.efficiency_min", NULL},
		{"run.failed", NULL},
	};
	struct verdict_set s;

	(void)state;
	verdict_set_init(&s);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct verdict *v = verdict_add(&s, VERDICT_PASS, "a", "program", "-", 1, 1,
						kinds[i][0]);
		if (kinds[i][1])
			assert_string_equal(verdict_bound(v), kinds[i][1]);
		else
			assert_null(verdict_bound(v));
		assert_string_equal(report_reference(v), kinds[i][1] ? kinds[i][1] : "baseline");
	}
	verdict_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound_sides),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_markdown_whole),
		cmocka_unit_test(test_headline),
		cmocka_unit_test(test_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
