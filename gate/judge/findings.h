/* Findings: the failed checks of one benchmark, interval and configuration grouped into one cause,
 * with the checks of enclosing intervals whose change it explains (docs/reports.md, "Findings"). */
#ifndef SG_FINDINGS_H
#define SG_FINDINGS_H

#include <stddef.h>

#include "judge/verdict.h"

struct strbuf;

/*
 * An enclosing interval's change is explained by an inner one's when the inner interval's time
 * grew by at least this part of the enclosing one's growth: the threshold below which the cause
 * says the time went outside the inner intervals (judge/cause.c).
 */
#define FINDINGS_EXPLAINED 0.5

/* One cause: its evidence is the checks of one cell, then those of enclosing intervals. */
struct finding {
	/* VERDICT_FAIL: a regression (a check failed); VERDICT_WARN: a warning (none failed) */
	enum verdict_status status;
	/* indices into the set's verdicts: the cell's own checks first (nr_own), then the folded */
	size_t *checks;
	size_t nr_checks, nr_own;
	/* of the checks, how many failed and how many warned */
	size_t failed, warned;
	/* the verdict whose cause line is the finding's (the first with one), or the first */
	size_t cause;
};

struct findings {
	struct finding *f;
	size_t nr, alloc;
	/* findings and checks by severity: regressions and the checks that failed, warnings and
	 * the checks that warned in them */
	size_t regressions, failed, warnings, warned;
};

/*
 * Groups the failed and warning checks of 'vs' (inconclusive ones left out) by benchmark,
 * interval, size and configuration, then folds a finding into one of an inner interval of the
 * same configuration whose time growth explains its own (FINDINGS_EXPLAINED), never a
 * regression into a warning. Findings in the order of their first check.
 */
void findings_build(struct findings *fs, const struct verdict_set *vs);
void findings_release(struct findings *fs);

/* The first verdict of a finding: its benchmark, interval and configuration. */
const struct verdict *finding_where(const struct verdict_set *vs, const struct finding *f);
/* Its cause line, or NULL. */
const char *finding_cause(const struct verdict_set *vs, const struct finding *f);
/* Whether check k of the finding was folded in from an enclosing interval; whether it is the
 * first of its interval (the folded ones are grouped by interval). */
int finding_folded(const struct finding *f, size_t k);
int finding_first_of_interval(const struct verdict_set *vs, const struct finding *f, size_t k);

/* "1 regression (3 checks failed)", "2 warnings (2 checks)": the count line of every report. */
void findings_add_regressions(struct strbuf *sb, const struct findings *fs);
void findings_add_warnings(struct strbuf *sb, const struct findings *fs);
/* The severity word of summary.json: "regression" or "warning". */
const char *finding_severity(const struct finding *f);

#endif
