/* The one CI command's parts: the 'reports:' section and writing every report of a judged check. */
#ifndef SG_CI_H
#define SG_CI_H

#include "config/config.h"
#include "judge/judge.h"

struct ci_reports {
	char *dir;           /* where the reports go: 'reports' next to scalegate.yml by default */
	int testcase_output; /* JUnit testcase <system-out> (GitLab, Azure) */
	char *junit, *markdown, *json, *html; /* the files written, under 'dir' */
};

void ci_reports_init(struct ci_reports *r);
void ci_reports_release(struct ci_reports *r);
/* Reads 'reports: {dir, testcase_output}' of 'c' (absent: the defaults); 'dir' (the -o option) wins. 0 or -1. */
int ci_reports_load(struct ci_reports *r, struct config *c, const char *dir);
/* Writes the JUnit, Markdown, JSON and HTML reports of 'j' into r->dir; 0, or -1 if one failed. */
int ci_reports_write(struct ci_reports *r, struct judge *j);

#endif
