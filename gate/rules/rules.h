/* Rules: what the gate checks, read from YAML (rule files such as rules/ci.yml, or 'rules:' in
 * scalegate.yml); see docs/rules.md. */
#ifndef SG_RULES_H
#define SG_RULES_H

#include <stddef.h>

#include "base/lost-table.h"

struct config;

/*
 * The metrics a rule can bound or compare with the baseline, every fact about
 * them in one table: 'key' is the YAML key (under 'tolerance:', and with
 * _min/_max for bounds); 'worse' the direction of a regression (+1 larger is
 * worse, -1 smaller); then, for the checker (judge/check-format.c), the name
 * reports use, the unit values are printed with, how a metric is measured and
 * compared (CHECK_<kind>, judge/check-priv.h) and the analysis figure it reads
 * (ANALYSIS_<figure>, NONE when derived from Execution_time). The shares of
 * the terms of Lost_time come from the table of base/lost-table.h.
 */
#define RULES_LOST_TERM(X, id, name, needs, key, colour, key_when, cause, formula, judged) \
	RULES_LOST_##judged(X, id, name, key)
#define RULES_LOST_PROGRAM(X, id, name, key) X(id, key, +1, name, " %", SHARE, id)
#define RULES_LOST_MACHINE(X, ...) /* the machine's (Interference): never gated */
#define RULES_LOST_PART(X, ...)
#define RULES_METRICS(X) \
	X(TIME, "time", +1, "Execution_time", " s", PER_RUN, EXECUTION_TIME) /* seconds */ \
	X(SPEEDUP, "speedup", -1, "Speedup", "", DERIVED, NONE) /* T(1)/T(p) */ \
	X(EFFICIENCY, "efficiency", -1, "Measured_efficiency", "", DERIVED, NONE) /* speedup/p */ \
	X(KARP_FLATT, "karp_flatt", +1, "Karp_Flatt", "", DERIVED, NONE) /* e(p), p > 1 */ \
	X(KARP_FLATT_SLOPE, "karp_flatt_slope", +1, "Karp_Flatt_slope", "", SLOPE, \
	  NONE) /* per series */ \
	X(PARALLEL_EFFICIENCY, "parallel_efficiency", -1, "Parallel_efficiency", "", PER_RUN, \
	  PARALLEL_EFFICIENCY) \
	X(LOAD_BALANCE, "load_balance", -1, "Load_balance", "", PER_RUN, LOAD_BALANCE) /* POP */ \
	LOST_TERMS(RULES_LOST_TERM, RULES_LOST_PART, X) \
	X(LOAD_IMBALANCE, "load_imbalance", +1, "Load_imbalance", " %", SHARE, LOAD_IMBALANCE) \
	X(SERIALIZATION, "serialization", +1, "Serialized_work", " %", SHARE, SERIALIZED_WORK) \
	X(AVERAGE_PARALLELISM, "average_parallelism", -1, "Average_parallelism", "", RATIO, \
	  PRODUCTIVE_TIME) \
	X(WEAK_EFFICIENCY, "weak_efficiency", -1, "Weak_efficiency", "", WEAK, \
	  NONE) /* T(1, n_1) / T(p, n_p) */ \
	X(ISOEFFICIENCY_GROWTH, "isoefficiency_growth", +1, "Isoefficiency_growth", "", GROWTH, \
	  NONE) /* _max only */

enum rules_metric {
#define X(id, key, worse, ...) RULES_##id,
	RULES_METRICS(X)
#undef X
	RULES_NR_METRICS
};

enum rules_level { RULES_LEVEL_ERROR, RULES_LEVEL_WARN, RULES_LEVEL_OFF };

#define RULES_DEFAULT_SIGNIFICANCE 0.05
#define RULES_DEFAULT_MIN_SAMPLES 3
/* Where the built-in defaults are written down; their origins point into it. */
#define RULES_DEFAULT_FILE "rules/default.yml"

/* A setting that a rule may or may not set: later rules override earlier ones, field by field. */
struct rules_value {
	int set;
	double value;
	int relative; /* tolerance given as a percentage: 0.05 for "5%" */
	/* in a rule: 'off' clears what earlier rules set (never set in rules_settings) */
	int off;
	int log_power; /* isoefficiency_growth: the bound is p^value (log p)^log_power */
};

/*
 * How one check (a metric's bound, or its tolerance) is judged. A rule's
 * level, significance, min_samples and across_fingerprints apply to the
 * checks that rule sets; a rule that sets no check applies them to every
 * check of what it selects, earlier and later ones (docs/rules.md).
 */
struct rules_policy {
	enum rules_level level;
	double significance;
	int min_samples;
	int across_fingerprints; /* default: rules_metric_across_default() */
	/* 'test: margin': significantly beyond the tolerance, not only worse than no change */
	int margin;
};

/* Where a rule was written, for messages ("rules/ci.yml:12:5"). */
struct rules_origin {
	const char *file;
	int line, col;
};

/* One rule as written: selectors and settings. */
struct rules_rule {
	struct rules_origin origin;
	char *name;             /* optional 'name:' */
	char *benchmark;        /* glob, NULL = any */
	char *interval;         /* glob on the call path (program/solve/...), NULL = any */
	int *threads, *ranks, *p;
	size_t nr_threads, nr_ranks, nr_p;
	long long *sizes;
	size_t nr_sizes;
	/* absolute lower bounds: efficiency_min, ... */
	struct rules_value min[RULES_NR_METRICS];
	/* absolute upper bounds: time_max, karp_flatt_max, ... */
	struct rules_value max[RULES_NR_METRICS];
	/* against the baseline, in the metric's worse direction */
	struct rules_value tolerance[RULES_NR_METRICS];
	struct rules_value level;                       /* enum rules_level */
	/* alpha of the one-sided test, default 0.05 */
	struct rules_value significance;
	/* below it the rule cannot fail, default 3 */
	struct rules_value min_samples;
	/* compare with a baseline of another machine */
	struct rules_value across_fingerprints;
	/* 1: 'test: margin', 0: 'test: change' (the default) */
	struct rules_value test;
	int matched;                                    /* selected something in the results */
	int builtin;                                    /* one of the shipped defaults */
};

/* What applies to one interval x configuration: every matching rule merged in order. */
struct rules_settings {
	struct rules_value min[RULES_NR_METRICS];
	struct rules_value max[RULES_NR_METRICS];
	struct rules_value tolerance[RULES_NR_METRICS];
	/* for each metric, the rule that set its bound or tolerance last (for messages) */
	const struct rules_rule *bound_from[RULES_NR_METRICS];
	const struct rules_rule *tolerance_from[RULES_NR_METRICS];
	/* The policy of the checks that say nothing else (set by rules without checks, else the
	 * defaults). */
	enum rules_level level;
	double significance;
	int min_samples;
	int across_fingerprints;
	/* What the checker uses: the policy of each check (min and max of a metric are one check).
	 */
	struct rules_policy bound_policy[RULES_NR_METRICS];
	struct rules_policy tolerance_policy[RULES_NR_METRICS];
};

struct rules {
	struct rules_rule *rule;
	size_t nr, alloc;
	/* the shipped defaults are rules[0..]: none was configured, or 'defaults: true' */
	int defaults;
	/* the files rules came from (the configuration file for inline ones), owned */
	char **files;
	size_t nr_files;
};

void rules_init(struct rules *r);
void rules_release(struct rules *r);
/*
 * Loads the rules of 'c': its inline 'rules:' section, and rule files it
 * names; without any, the shipped defaults (rules/default.yml semantics,
 * built in). 'c' may be NULL: the defaults. Every mistake is reported with
 * file:line:col; returns 0, or -1 with 'r' empty.
 */
int rules_load(struct rules *r, struct config *c);
/* Loads one rule file (used by rules_load and by tests); 0 or -1. */
int rules_load_file(struct rules *r, const char *path);
/*
 * Merges the rules selecting this interval x configuration into 'out', in
 * order, field by field, and marks them matched. 'interval' is the call path
 * ("program/solve"); 'size' is written as in the results: "-" (or NULL) when
 * the benchmark has none.
 */
void rules_effective(struct rules *r, const char *benchmark, const char *interval, const char *size,
		     int ranks, int threads, struct rules_settings *out);
const char *rules_metric_key(enum rules_metric m);
int rules_metric_worse(enum rules_metric m);
/* The metric whose YAML key is 'key', or -1. */
int rules_metric_find(const char *key);
/* The metric the reports name 'name' (any case: "Execution_time", "measured_efficiency"), or -1. */
int rules_metric_find_report_name(const char *name);
const char *rules_metric_report_name(enum rules_metric m); /* "Execution_time" */
/* A share of Total_time (a lost-time component): the metrics 'share_max' takes. */
int rules_metric_is_share(enum rules_metric m);
/*
 * Growth models of the isoefficiency function, ordered by how fast they grow:
 * p^k (log p)^b compares k first, then b, so constant < log p < p^K (0 < K < 1)
 * < p < p log p < p^K (K > 1). rules_growth_cmp returns <0, 0, >0.
 */
#define RULES_GROWTH_FORMS "constant, log p, p, p log p, p^K"
int rules_growth_parse(const char *text, double *k, int *log_power);
int rules_growth_cmp(double k1, int log1, double k2, int log2);
/* "p log p", "p^1.5", "constant" */
void rules_growth_text(double k, int log_power, char *buf, size_t size);
/* Whether a tolerance of this metric compares with a baseline of another machine by default: ratios
 * do. */
int rules_metric_across_default(enum rules_metric m);
/*
 * After every rules_effective() call of a check: reports each rule that
 * selected nothing as "file:line:col: rule 'name' selects nothing in the
 * results" and returns how many. Built-in rules and rules with 'level: off'
 * are not reported.
 */
int rules_report_unmatched(const struct rules *r);

#endif
