/* The reports 'scalegate check' writes from its verdicts: JUnit XML, Markdown, the JSON summary,
 * HTML. */
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

/*
 * JUnit XML valid against the three schemas in shared/junit-xsd: one testsuite per
 * benchmark, one testcase per verdict; FAIL -> <failure type=kind message=...>,
 * ERROR -> <error>, SKIPPED -> <skipped>reason</skipped>; the fingerprint in
 * <properties>. 'testcase_output' adds testcase-level <system-out> (GitLab, Azure;
 * valid against junit10.xsd only). Written atomically; 0 or gate_error().
 */
int junit_write(const struct verdict_set *s, const char *path, int testcase_output);

/* Markdown for a PR comment or $GITHUB_STEP_SUMMARY: regressions, warnings, then a
 * compact scaling table from 'm' (may be NULL). 0 or gate_error(). */
int markdown_write(const struct verdict_set *s, const struct matrix *m, const char *path);
/* The same with the analysis 'm' was built from: a matrix series holds its interval
 * as an id, so only with 'a' can the scaling table name its intervals (and keep to
 * levels 0 and 1); markdown_write leaves the table out. 'a' and 'm' may be NULL.
 * 'base' (nr_base of them, one per benchmark) puts the base's or the stored
 * baseline's time and speedup beside the current ones. */
int markdown_write_analysis(const struct verdict_set *s, const struct analysis *a,
			    const struct matrix *m, const struct baseline *const *base,
			    size_t nr_base, const char *path);

/* The HTML report shows at most this many intervals' sections (docs/reports.md). */
#define HTML_MAX_SECTIONS 24

/* The JSON summary, input of 'scalegate post' (schema: docs/summary.md), written to 'path'
 * atomically. 'paths' are the files of the reports written with it, one per row of
 * report_formats (NULL: none written). 0 or gate_error(). */
int summary_write(const struct verdict_set *s, const char *const *paths, const char *path);

/* The JUnit testcase name of a verdict, stable from run to run (CI tracks tests by
 * name): "[<interval> ]<R>x<T> (p=N)[ size S][ <kind>]". */
void report_testcase_name(struct strbuf *sb, const struct verdict *v);

/* The recap for the end of the console output: failures, then errors, each with benchmark,
 * interval, its file:line, configuration, metric, change and rule; nothing when neither. */
void report_recap(FILE *out, const struct verdict_set *vs);

/* One line for a commit status (at most 'max' bytes, UTF-8 safe): caller frees. */
char *summary_headline(const struct verdict_set *s, size_t max);

/* The HTML report (html_write) of a judged check, with the baselines it read and the figures it
 * judged (judge_shown_matrix). 0 or gate_error(). */
int report_write_html(const struct judge *j, const char *path);

/*
 * The registry of report formats (docs/extending.md, "Adding a report format"): each format is
 * one file of gate/report/ and one row of report_formats. check's options, ci's files and the
 * list it prints, the 'reports:' keys of scalegate.yml and the "reports" of summary.json all
 * come from the rows.
 */
struct report_input {
	const struct judge *j;          /* the judged check */
	const char *const *paths;       /* the file of each format, by row (NULL: not written) */
	int testcase_output;            /* JUnit: each testcase's own <system-out> */
	struct strbuf *summary;         /* not NULL: gets the JSON summary's text, for the poster */
};

struct report_format {
	const char *name;   /* the key in summary.json's "reports", ci's list and 'reports:' */
	const char *file;   /* ci's file in the reports directory; NULL: written only when asked */
	const char *flag;   /* the option of 'check' that names the file */
	const char *help;   /* its line in 'check --help' */
	int (*write)(const struct report_input *in, const char *path); /* 0 or gate_error() */
};

#define REPORT_MAX_FORMATS 16
/* Every format, in the order of summary.json's "reports", ci's list and check's options;
 * NULL-terminated. */
extern const struct report_format *const report_formats[];
/* The rows, each defined in its format's file. */
extern const struct report_format report_junit, report_markdown, report_json, report_html,
	report_protocol;

/* The row of the format called 'name', or -1. */
int report_format_index(const char *name);

/* Every report of 'in->paths' that is not NULL, from the judged check; one that cannot be
 * written does not cost the others. 0, or -1 when any failed (already reported). */
int report_write_all(const struct report_input *in);

#endif
