/* Shared by the checker's files: metric table, the context of one interval x configuration, the
 * tests. */
#ifndef SG_CHECK_PRIV_H
#define SG_CHECK_PRIV_H

#include <stdint.h>

#include "judge/check.h"

/* How a metric is measured and compared. */
enum check_kind {
	CHECK_PER_RUN, /* a figure of each run: Mann-Whitney on the samples */
	CHECK_SHARE,   /* a figure / Total_time per run: Mann-Whitney on the shares */
	CHECK_DERIVED, /* speedup, efficiency, Karp-Flatt from T(ref) and T(p): bootstrap */
	CHECK_SLOPE,   /* Karp-Flatt slope over p, per series: bootstrap */
	CHECK_RATIO,   /* a figure / Execution_time per run (Average_parallelism): Mann-Whitney */
	/* Weak_efficiency from T(ref, n_ref) and T(p, n_p) of a weak series: bootstrap */
	CHECK_WEAK,
	CHECK_GROWTH,  /* the isoefficiency growth of a benchmark x interval: a bound only */
};

struct check_metric {
	enum rules_metric id;
	const char *key;         /* the rules' key: "time" */
	const char *name;        /* as reported: "Execution_time" */
	int worse;               /* +1 larger is worse, -1 smaller is worse */
	enum check_kind kind;
	enum analysis_figure fig; /* CHECK_PER_RUN, CHECK_SHARE, CHECK_RATIO (the numerator) */
	const char *unit;        /* " s", " %" (shares, shown x 100) or "" */
};

extern const struct check_metric check_metrics[RULES_NR_METRICS];

/* One interval x configuration being judged. */
struct check_cell {
	struct check *c;
	const struct check_bench *b;
	const struct matrix_series *series;
	const struct matrix_cell *mc;        /* current, from the matrix */
	const char *interval;
	const struct baseline_cell *cur, *base;         /* base: NULL without a baseline */
	/* the reference configuration of the series */
	const struct baseline_cell *cur_ref, *base_ref;
	double rp;                           /* p / p_ref */
	const struct rules_settings *set;
	/* weak scaling (series->weak): the reference point of the benchmark x interval, across
	 * sizes */
	const struct matrix_cell *weak_ref;
	const char *weak_ref_size;
	const struct baseline_cell *weak_cur_ref, *weak_base_ref;
};

/* The outcome of comparing current samples with baseline samples. */
struct check_test {
	size_t n_base, n_cur;
	double base, cur, lo, hi; /* baseline estimate; current estimate and its 95 % interval */
	double change;            /* current vs baseline: relative (0.12 = +12 %) or absolute */
	/* bootstrap: the one-sided bound of the change at the level; else NAN */
	double bound;
	/*
	 * one-sided p of "worse than no change" (or than the tolerance: margin); the bootstrap's is
	 * the share of its resamples not worse (check-stats.c). NAN: undefined, inconclusive
	 */
	double p;
	int past;                 /* the change is past the tolerance in the worse direction */
	/* ... and significantly so at the level (before the whole-run adjustment) */
	int significant;
	/* t-tests (NAN for the bootstrap): in the metric's change units, magnitudes in the worse
	 * direction */
	/* the one-sided upper bound of the worsening: larger changes are excluded */
	double excluded;
	/* the change a FAIL catches with 80 % power (check_test_power()) */
	double mdc;
	/* repeats to add so that no change passes with 80 % power (0: none) */
	int more;
	/* the t-test in its domain (logs or values), for check_test_power(); se NAN for the others
	 */
	/* standard error, df, tolerance, the sittings' variance in se */
	double se, df, dtol, extra;
	size_t n_pairs;             /* the smaller side, or the pairs */
	int logs;
	int degenerate;           /* no variation on either side and equal: nothing to test */
	/* check_busy(): against a stored baseline, measured on a busy machine */
	int busy;
	/* check_may_extend_past(): a change past the tolerance earns more repeats
	 * (check_test_more_past()) */
	int extend_past;
	const char *test; /* "paired t on log", "Welch t on log", "Welch t", "bootstrap", ... */
};

/* What a t-test of a change needs besides the samples. */
struct check_test_opts {
	int worse;                      /* +1 or -1 */
	const struct rules_value *tol;
	double alpha;
	/* rounds pair: base[i] and cur[i] were measured side by side */
	int paired;
	/* sd of the shift between two sittings (log/metric units); A/B 0 */
	double sitting_sd;
	int margin; /* 'test: margin': H0 is "worse by at most the tolerance", not "no worse" */
	double sitting_df;              /* the df of sitting_sd when measured; 0: assumed (known) */
};

/*
 * The minimum detectable change of a t-test at level alpha (the level the
 * whole-run adjustment leaves it in the worst case): the true worsening that
 * a FAIL, past the tolerance AND significant, catches with 80 % power; and
 * the repeats to add so that no change would pass with 80 % power.
 */
void check_test_power(struct check_test *t, double alpha, int worse, int margin);

/*
 * For a change past the tolerance: t->more becomes the repeats to add so
 * that a look at level alpha finds it significant (q_alpha se below it), -1
 * when none would. Against a stored baseline the shift between sittings keeps
 * the noise above the tolerance whatever the repeats, so check_test_power()
 * gives up on such a cell; a change far past it is still decided by a few more.
 * Other tests are left as they are.
 */
void check_test_more_past(struct check_test *t, double alpha, int worse, int margin);

/*
 * A t-test on the logs (relative tolerance, positive values) or on the
 * values, paired by round when opts->paired: is 'cur' worse than 'base'? 0 or gate_error().
 */
int check_test_samples(const double *base, size_t nb, const double *cur, size_t nc,
		       const struct check_test_opts *o, struct check_test *t);

/* Four groups: T(ref), T(p) of the baseline, then of the current results. */
struct check_groups {
	const double *x[4];
	size_t n[4];
	double rp;
	uint64_t seed;      /* the bootstrap's seed: one per check */
	int margin;         /* 'test: margin': p of "worse by at most the tolerance" */
};

/* A derived ratio of T(ref) and T(p): bootstrap interval of its change. 0, or 1 when undefined. */
int check_test_derived(const struct check_groups *g, enum rules_metric m,
		       const struct rules_value *tol, double alpha, struct check_test *t);

/* The figures a derived check shows, defined as everywhere else (docs/metrics.md): base and cur
 * from the medians, median T(ref) / median T(p) for a speedup, cur's 95 % interval as the
 * analyzer's; the test's n, change and p untouched. 0, -1 on error. */
int check_derived_figures(const struct check_groups *g, enum rules_metric m, struct check_test *t);

/* The metric's value from medians of T(ref) and T(p) at p / p_ref = rp (NAN when undefined). */
double check_derived_value(enum rules_metric m, double t_ref, double t_p, double rp);

/* Karp-Flatt slope over the configurations with p > p_ref in both: bootstrap of its change. */
struct check_slope_groups {
	/* 2k + 2 groups: baseline ref, k configurations, current ref, k configurations */
	const double **x;
	size_t *n;
	const double *rp;   /* k values of p / p_ref */
	size_t k;
	uint64_t seed;
	int margin;
};
int check_test_slope(const struct check_slope_groups *g, const struct rules_value *tol,
		     double alpha, struct check_test *t);

/* Checks: check-bound.c, check-compare.c. They append verdicts to cell->c->vs. */
void check_bound(struct check_cell *cell, const struct check_metric *m, int is_max);
void check_tolerance(struct check_cell *cell, const struct check_metric *m);
void check_slope(struct check_cell *cell);
/* The isoefficiency growth of m->iso[k] against isoefficiency_growth_max (check-growth.c). */
void check_growth(struct check *c, const struct check_bench *b, const struct isoeff *iso);

/* Prepares the cell for s->cells[i] of benchmark b; 'set' receives the effective rules. */
void check_cell_init(struct check_cell *cell, struct check *c, const struct check_bench *b,
		     const struct matrix_series *s, size_t i, struct rules_settings *set);

/*
 * The sd of the shift between sittings allowed for against a stored baseline
 * (0 in A/B mode): measured from the baseline's sittings when it has at least
 * CHECK_SITTINGS_MEASURED (never below the assumed one before CHECK_SITTINGS_TRUSTED), else
 * assumed.
 */
#define CHECK_SITTINGS_MEASURED 3
#define CHECK_SITTINGS_TRUSTED 6
/* From CHECK_SITTINGS_TRUSTED sittings, a measured sd counts down to this share of the assumed. */
#define CHECK_SITTINGS_FLOOR 0.5
/*
 * What an assumed sd is worth as an estimate, in degrees of freedom (t quantiles, never exact).
 * A choice of power against how fast a wrong assumption gives way to measured sittings: at 5
 * (what CHECK_SITTINGS_TRUSTED sittings measure) a time check's minimum detectable change against
 * a 1-sitting baseline (1 % over 20 tests) went from 13.7 % (known) to 25 %; at 10 it is 17.8 %,
 * and 2 sittings that show 3 times the assumed shift still cut the false alarms from 19.5 % to
 * 12.1 % (tests/unit/test-sittings.c; docs/check.md, "Shift between sittings").
 */
#define CHECK_SITTINGS_PRIOR_DF 10
/* *df: the df of the value: CHECK_SITTINGS_PRIOR_DF when assumed, plus sittings - 1 when pooled
 * with a measured one, sittings - 1 when measured alone (0: none, A/B); df may be NULL. */
double check_sitting_sd(const struct check_cell *cell, const struct check_metric *m, int relative,
			double *df);
/*
 * The sd of the shift between two sittings from the spread of the sittings'
 * levels measured over 'sittings' (NAN: none; a comparison spans two
 * sittings: sqrt(2) times it) and the assumed sd of the shift; *df as above.
 */
double check_sitting_choose(double level_sd, size_t sittings, double assumed, double *df);
/*
 * Stored mode: scales the times of every current cell by the ratio of the
 * machine speed references' medians, the baseline's over the current runs'
 * (check-reference.c), so that a machine that runs the same fixed loop
 * slower now does not read as a slower program. Cells without references on
 * either side (at least CHECK_REFERENCE_MIN_RUNS) are left as measured.
 */
#define CHECK_REFERENCE_MIN_RUNS 3
/*
 * A factor outside [CHECK_SPEED_MIN, CHECK_SPEED_MAX] is not applied, nor are
 * any of a benchmark's when more than half the cells the program left
 * unchanged (within 2 se) would move past 2 se by their factor; the details
 * say so (the cell's speed_refused).
 */
#define CHECK_SPEED_MIN 0.5
#define CHECK_SPEED_MAX 2.0
void check_reference_scale(struct check_bench *b);
/* The standard error (log units) the scaling adds to metric m's change in this cell; 0 when none.
 */
double check_reference_sd(const struct check_cell *cell, const struct check_metric *m);
/* A details line: how much slower or faster the machine ran, the factor applied, and the sd it
 * adds to the metric's change ('sd', from check_reference_sd()). */
void check_describe_reference(struct strbuf *sb, const struct check_cell *cell, double sd);

/* The cell's history spread of Execution_time (speedup 0) or of the speedup, or NULL. */
const struct check_spread *check_history_spread(const struct check_cell *cell, int speedup);
/* Its sd for the cell: of the scaled times when the cell's times are scaled (*scaled: 1). */
double check_spread_sd(const struct check_cell *cell, const struct check_spread *h, int *scaled);
void check_spread_release(struct check_bench *b);
/*
 * Whether a change past the tolerance in this cell may earn adaptive repeats
 * (check_test_more_past()): stored mode, the times scaled to the baseline's
 * machine speed, and the load's bias taken out: by the scaling alone at one
 * processor, at more only while the machine's shares of head and baseline
 * agree.
 */
int check_may_extend_past(const struct check_cell *cell);
/*
 * Stored mode, loads apart: the allowance (sd in metric m's units) the shift allowed for holds
 * because the machine's shares of the current runs (*here) and of the baseline (*base) differ by
 * more than the 0.10 within which loads count as alike; 0 otherwise (A/B, loads alike, not
 * captured). here and base may be NULL. A check it leaves undecided cannot be judged against
 * this baseline (check_defer_loads()).
 */
double check_loads_sd(const struct check_cell *cell, const struct check_metric *m, double *here,
		      double *base);
/* Whether more rounds may close the gap: some current run's machine share was within 0.10 of the
 * baseline's (the load came and went); else every run met it and more would too. */
int check_loads_may_close(const struct check_cell *cell);
/* A details line: the shift between sittings allowed for, and whether measured or assumed (stored
 * mode only). */
void check_describe_sitting(struct strbuf *sb, const struct check_cell *cell,
			    const struct check_metric *m, int relative);
/*
 * Attaches to the test just deferred (check_defer()) the same test without the allowance for loads
 * apart (check_loads_sd() > 0): when the allowance alone leaves it undecided (it would have been
 * decided without it, or its minimum detectable change grows past CHECK_LOADS_BLIND times the
 * tolerance), check_adjust() marks it "cannot judge against this baseline" and check_decided()
 * counts it (kind "baseline.loads").
 */
void check_defer_loads(struct check_cell *cell, const struct verdict *v,
		       const struct check_test *bare);
#define CHECK_LOADS_BLIND 2.0
/* The significance of the rule of metric m in this cell, times the look's share of it (adaptive
 * runs). */
double check_alpha(const struct check_cell *cell, const struct check_metric *m);

/*
 * Records a tolerance test for the whole-run adjustment (check-adjust.c): the
 * verdict's final status and message are set by check_adjust() once every
 * check of the run is known.
 */
void check_defer(struct check_cell *cell, size_t verdict, const struct check_metric *m,
		 const struct check_test *t);
/*
 * The whole run's family (docs/check.md, "Whole-run error control"): a weighted Holm over the
 * error-level tests in cells (benchmark x interval x configuration), each cell's time check
 * first (CHECK_PRIMARY_WEIGHT, stats/family.h); Benjamini-Hochberg for the warnings; sets
 * statuses and messages.
 */
void check_adjust(struct check *c);
/* The share of a cell's level its time check holds: a half, the other half for the cell's other
 * checks, which get the whole once the time check is rejected. With the whole share (pure
 * gatekeeping) a serial section that barely moved a short interval's time could never fail on its
 * share (cli/ab-git's residual); the half keeps 73 % power for one cell of 72 slower by 20 %,
 * against 84 % and Holm-over-everything's 56 % (unit/test-family). */
#define CHECK_PRIMARY_WEIGHT 0.5
/* Dense cell numbers for n verdicts (same benchmark, interval, size, ranks and threads: same
 * number) into cell; returns the number of cells. */
size_t check_family_cells(const struct verdict *const *v, size_t n, size_t *cell);

/* Helpers of check-cell.c for the check files. */
/* "rules/ci.yml:12:5", or "default rules"; caller frees. */
char *check_rule_origin(const struct rules_rule *from);
struct verdict *check_verdict(struct check_cell *cell, enum verdict_status st, const char *kind,
			      const struct check_metric *m, const struct rules_rule *from);
/* The samples of a metric in a cell (per-run figure or share); out has room for cell->n. */
size_t check_samples(const struct baseline_cell *bc, const struct check_metric *m, double *out);
/* As check_samples(), with the round of each sample in round (its position + 1 when not known). */
size_t check_samples_rounds(const struct baseline_cell *bc, const struct check_metric *m,
			    double *out, int *round);
/*
 * The samples of the rounds both sides have, paired: pb[k] and pc[k] come from
 * the same round (A/B runs base and head round by round; a failed run on either
 * side drops its round, not the pairing of the others); pr (may be NULL) their
 * rounds. Returns the pairs.
 */
size_t check_pair_rounds(const double *xb, const int *rb, size_t nb, const double *xc,
			 const int *rc, size_t nc, double *pb, double *pc, int *pr);
/* Why a check cannot fail with these sample counts, or NULL; caller frees. */
char *check_unreachable(size_t nb, size_t nc, const struct rules_policy *pol);
/*
 * Whether most of the cell's current runs were measured on a busy machine
 * while its baseline is a stored one: then its changes cannot be told from
 * the machine's load, and its tolerance tests cannot fail (check-adjust.c).
 */
int check_busy(const struct check_cell *cell);
/* Appends the likely cause (cause.c) to a warning or failure. */
void check_add_cause(struct check_cell *cell, struct verdict *v);


/* cause.c: "Synchronization grew from 3 % to 14 % of Total_time; ..." or NULL; caller frees.
 * prefer: the figure a share check judged, named when it grew even if another grew more; or -1. */
char *cause_explain(const struct check_cell *cell, int prefer);

/* How metric m's values read (base/units.h). */
enum unit check_unit(const struct check_metric *m);
/* Formats a value of metric m: "0.123 s", "14.2 %", "0.91". */
void check_format_value(char *buf, size_t size, const struct check_metric *m, double v);
/* Formats a change: "+12.3 %" for relative, else in the metric's units. */
void check_format_change(char *buf, size_t size, const struct check_metric *m, double change,
			 int relative);

#endif
