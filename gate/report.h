/* The reports 'scalegate check' writes from its verdicts: JUnit XML, Markdown, the JSON summary. */
#ifndef SG_REPORT_H
#define SG_REPORT_H

#include "verdict.h"

struct matrix;

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

/* The JSON summary, input of 'scalegate post' (schema: docs/summary.md). 0 or error(). */
int summary_write(const struct verdict_set *s, const struct report_paths *paths, const char *path);

/* One line for a commit status (at most 'max' bytes, UTF-8 safe): caller frees. */
char *summary_headline(const struct verdict_set *s, size_t max);

#endif
