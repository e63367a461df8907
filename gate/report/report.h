/* The reports 'scalegate check' writes from its verdicts: JUnit XML, Markdown, the JSON summary, HTML. */
#ifndef SG_REPORT_H
#define SG_REPORT_H

#include <stdio.h>

#include "judge/verdict.h"

struct analysis;
struct check;
struct judge;
struct baseline;
struct matrix;
struct strbuf;

/* Paths of the reports written in one check (NULL when not written), recorded in the summary. */
struct report_paths {
	const char *junit;
	const char *markdown;
	const char *json;
	const char *html;
};

/*
 * JUnit XML valid against the three schemas in shared/junit-xsd: one testsuite per
 * benchmark, one testcase per verdict; FAIL -> <failure type=kind message=...>,
 * ERROR -> <error>, SKIPPED -> <skipped>reason</skipped>; the fingerprint in
 * <properties>. 'testcase_output' adds testcase-level <system-out> (GitLab, Azure;
 * valid against junit10.xsd only). Written atomically; 0 or error().
 */
int junit_write(const struct verdict_set *s, const char *path, int testcase_output);

/* Markdown for a PR comment or $GITHUB_STEP_SUMMARY: regressions, warnings, then a
 * compact scaling table from 'm' (may be NULL). 0 or error(). */
int markdown_write(const struct verdict_set *s, const struct matrix *m, const char *path);
/* The same with the analysis 'm' was built from: a matrix series holds its interval
 * as an id, so only with 'a' can the scaling table name its intervals (and keep to
 * levels 0 and 1); markdown_write leaves the table out. 'a' and 'm' may be NULL.
 * 'base' (nr_base of them, one per benchmark) puts the base's or the stored
 * baseline's time and speedup beside the current ones. */
int markdown_write_analysis(const struct verdict_set *s, const struct analysis *a, const struct matrix *m,
			    const struct baseline *const *base, size_t nr_base, const char *path);

/*
 * The HTML report (docs/reports.md): one self-contained page, inline CSS and
 * SVG, no script. The outcome, the regressions and warnings, then per
 * benchmark and interval (flagged ones first, then by level, at most
 * HTML_MAX_SECTIONS) plots of speedup, efficiency and Karp-Flatt e against p
 * with their intervals and the baseline, the lost-time breakdown, and weak
 * scaling and isoefficiency where 'm' has them. 'base' holds the baselines
 * read, one per benchmark (nr_base may be 0). The same input gives the same
 * bytes. Written atomically; 0 or error().
 */
#define HTML_MAX_SECTIONS 24
int html_write(const struct verdict_set *s, const struct analysis *a, const struct matrix *m,
	       const struct baseline *const *base, size_t nr_base, const char *path);

/* The JSON summary, input of 'scalegate post' (schema: docs/summary.md). 0 or error(). */
int summary_write(const struct verdict_set *s, const struct report_paths *paths, const char *path);

/* The JUnit testcase name of a verdict, stable from run to run (CI tracks tests by
 * name): "[<interval> ]<R>x<T> (p=N)[ size S][ <kind>]". */
void report_testcase_name(struct strbuf *sb, const struct verdict *v);

/* The recap for the end of the console output: failures, then errors, each with benchmark,
 * interval, its file:line, configuration, metric, change and rule; nothing when neither. */
void report_recap(FILE *out, const struct verdict_set *vs);

/* One line for a commit status (at most 'max' bytes, UTF-8 safe): caller frees. */
char *summary_headline(const struct verdict_set *s, size_t max);

/* The HTML report (html_write) with the baselines the check 'c' read. 0 or error(). */
int report_write_html(const struct check *c, const struct verdict_set *vs, const char *path);

/* Every report of 'paths' that is not NULL, from the judged check 'j'; one that cannot be
 * written does not cost the others. 0, or -1 when any failed (already reported). */
int report_write_all(const struct judge *j, const struct report_paths *paths, int testcase_output);

#endif
