/* The one CI command's parts: the 'reports:' section and writing every report of a judged check. */
#ifndef SG_CI_H
#define SG_CI_H

#include "config/config.h"
#include "judge/judge.h"
#include "report/report.h"

struct ci_reports {
	char *dir;           /* where the reports go: 'reports' next to scalegate.yml by default */
	int testcase_output; /* JUnit testcase <system-out> (GitLab, Azure) */
	char *name[REPORT_MAX_FORMATS]; /* by row of report_formats: a file under 'dir', or NULL */
	char *path[REPORT_MAX_FORMATS]; /* the files written, under 'dir' */
	struct strbuf summary;          /* the JSON summary written, for the poster */
};

void ci_reports_init(struct ci_reports *r);
void ci_reports_release(struct ci_reports *r);
/* Reads 'reports: {dir, testcase_output, <format>: FILE}' of 'c' (absent: the defaults); 'dir'
 * (the -o option) wins. 0 or -1. */
int ci_reports_load(struct ci_reports *r, struct config *c, const char *dir);
/* Writes every report of the registry that has a file into r->dir; 0, or -1 if one failed. */
int ci_reports_write(struct ci_reports *r, struct judge *j);
/* The list at the end of ci's output: each report written and its path. */
void ci_reports_print(const struct ci_reports *r, FILE *out);

#endif
