/* Verdicts: what 'scalegate check' concluded per interval x configuration x rule, and why. */
#ifndef SG_VERDICT_H
#define SG_VERDICT_H

#include <stddef.h>

#include "base/units.h"

enum verdict_status {
	VERDICT_PASS,    /* within the bound or tolerance */
	VERDICT_WARN,    /* past the tolerance but not significant, or a warn-level rule failed */
	VERDICT_FAIL,    /* a regression: past the tolerance and significant, or past a bound */
	/* could not be judged: run failed, fingerprint mismatch, baseline unreadable */
	VERDICT_ERROR,
	/* not judged: too few samples, level unreachable, metric absent; says why */
	VERDICT_SKIPPED,
};

/* One testcase of the JUnit report. */
struct verdict {
	enum verdict_status status;
	char *benchmark;
	char *interval;    /* call path, e.g. program/solve */
	char *size;        /* "-" when none */
	int ranks, threads, p;
	char *kind; /* the rule kind, JUnit failure@type: "efficiency_min", "tolerance.time",
		       "fingerprint", "run", "baseline.missing", "interval.new", "interval.removed"
		     */
	char *metric;      /* "Execution_time", "Measured_efficiency", ... (NULL for run errors) */
	size_t n;          /* current samples */
	double value, lo, hi;     /* current median and its interval (NAN when absent) */
	size_t n_base;
	/* baseline median, or the bound for absolute rules (NAN when none) */
	double baseline;
	/* relative for time-like metrics, absolute for ratios (NAN when none) */
	double change;
	/* how value, lo, hi and baseline read, and how change and mdc read (UNIT_RELATIVE for a
	 * relative change): every output renders them with base/units.h */
	enum unit unit, change_unit;
	double p_value;           /* one-sided, NAN when not tested */
	/* Holm-adjusted over the run's error-level tests (NAN when not in the family) */
	double p_adjusted;
	/* minimum detectable change at this noise and n, in the change's units (or NAN) */
	double mdc;
	/* a warning that says only: the data cannot decide (docs/check.md) */
	int inconclusive;
	/* inconclusive: about this many more repeats would decide; < 0 none can; 0 unknown */
	int more;
	/* inconclusive because a busy machine's change met a stored baseline, or because the
	 * machine's loads here and in the baseline are too far apart to judge (loads): shown in
	 * full */
	int busy;
	/* a time check that cannot be judged against this stored baseline: the machine took
	 * loads_here of Total_time_wall here and loads_base in the baseline (shares, else NAN) */
	int loads;
	double loads_here, loads_base;
	char *message;     /* one line a person can act on */
	/* the likely cause, from the lost-time breakdown and the Karp-Flatt trend (or NULL) */
	char *cause;
	char *details;     /* several lines: figures, rule origin, samples (or NULL) */
	char *rule_origin; /* "rule 'name' (rules/ci.yml:12:5)", "rules/ci.yml:12:5" or "built-in
			      rule default-time" */
	char *file;        /* the interval's source file, as the tracer recorded it (or NULL) */
	int line;          /* its line, 0 when unknown (the whole program) */
	/* JUnit testcase time: the median time of the configuration as the reports show it (in
	 * stored mode at the baseline's machine speed, when the check scaled it), or 0 */
	double seconds;
	/* a time compared with a stored baseline: the machine speed factor value, lo and hi were
	 * scaled by to the baseline's (docs/check.md, "Machine speed"); 0: as measured */
	double speed;
	/* the median time of the configuration in the baseline or base (NAN: none): with 'seconds',
	 * how much the interval grew, which tells whether an inner interval explains it */
	double base_seconds;
};

/* A benchmark's whole program: where the reports point when an interval has no line of its own. */
struct verdict_program {
	char *benchmark;
	char *command;     /* its command in scalegate.yml, as written (or NULL) */
	char *file;        /* its executable, as the profiles record it (or NULL) */
};

struct findings;

struct verdict_set {
	struct verdict *v;
	size_t nr, alloc;
	size_t count[VERDICT_SKIPPED + 1];
	char **fingerprint;       /* key, value, key, value, ... of the current results */
	size_t nr_fingerprint;
	char *timestamp;          /* ISO 8601 without zone, e.g. 2026-11-22T10:22:36 */
	char *hostname;
	/* exitcode.h: 0 pass, 1 regression, 3 run failed or not judged (error) */
	int exit_code;
	/* the error-level tolerance tests whose whole-run false-alarm rate is controlled */
	size_t family;
	/* ... in this many cells, each its time check first (docs/check.md) */
	size_t family_cells;
	/* ... at this level (Holm): the largest significance among them */
	double family_level;
	/* the base revision run in the same job is the reference, not a stored baseline */
	int ab;
	/* 2: an adaptive run judged in two looks (CHECK_FIRST_LOOK of family_level, then the rest);
	 * else 0 */
	int looks;
	/* ... cells that got more rounds, and how many more in all */
	size_t extended, extended_rounds;
	/* the failed and warning checks grouped by cause (judge/findings.h): verdict_set_finish */
	struct findings *findings;
	/* the signal that interrupted the gate: the verdicts are incomplete, exit_code 128 + it */
	int interrupted;
	/* each benchmark's program (verdict_set_program), in the configuration's order */
	struct verdict_program *programs;
	size_t nr_programs, alloc_programs;
};

void verdict_set_init(struct verdict_set *s);
void verdict_set_release(struct verdict_set *s);
/* Appends a verdict (strings are copied; NULL allowed where documented) and returns it. */
struct verdict *verdict_add(struct verdict_set *s, enum verdict_status status,
			    const char *benchmark, const char *interval, const char *size,
			    int ranks, int threads, const char *kind);
void verdict_set_message(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void verdict_set_cause(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void verdict_set_details(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Records (or replaces) the program of 'benchmark'; 'command' and 'file' are copied, NULL allowed.
 */
void verdict_set_program(struct verdict_set *s, const char *benchmark, const char *command,
			 const char *file);
/* The program of 'benchmark', or NULL. */
const struct verdict_program *verdict_program(const struct verdict_set *s,
					      const char *benchmark);
/* Counts by status, builds the findings and sets exit_code: 1 if any FAIL, else 3 if any ERROR
 * (a failed run, an annotation mistake, an unreadable baseline, …), else 0 (docs/check.md, "Exit
 * codes and the reports"). */
void verdict_set_finish(struct verdict_set *s);
/* Sorts the verdicts from 'first' on by benchmark, interval, size, processors, ranks; stable. */
void verdict_set_sort(struct verdict_set *vs, size_t first);
/* An absolute bound's side, "min" or "max" (efficiency_min, time_max, share_max.*), or NULL for
 * any other verdict (a tolerance, a run's or a baseline's). */
const char *verdict_bound(const struct verdict *v);
const char *verdict_status_name(
	enum verdict_status st); /* "pass", "warn", "fail", "error", "skipped" */

#endif
