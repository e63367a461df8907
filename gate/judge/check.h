/* The checker: verdicts for current results against the rules and the stored baselines
 * (docs/check.md). */
#ifndef SG_CHECK_H
#define SG_CHECK_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "judge/baseline.h"
#include "analyze/matrix.h"
#include "rules/rules.h"
#include "judge/verdict.h"
#include "results/adaptive.h"

struct config;

/* The fingerprint keys that decide whether absolute times are comparable. */
#define CHECK_FINGERPRINT_KEYS \
	"cpu_model", "cores", "smt", "compiler", "omp_runtime", "mpi", "OMP_PROC_BIND", \
		"OMP_PLACES", "launcher"

/*
 * The share of every rule's level the first look of an adaptive run spends
 * (judge-looks.c); the second spends the rest, 1 - CHECK_FIRST_LOOK, so that
 * by the union bound the whole run stays at the level for any data. Small
 * (O'Brien-Fleming-like): the first look sees the configured rounds and
 * decides only large changes, which the second would catch as well; the look
 * that decides gets most of the level. A first look after which no cell gets
 * more rounds is the last one and is judged again at the full level (cmd-ci.c).
 */
#define CHECK_FIRST_LOOK 0.05

/* Other processes' CPU use (cores) above which a run was measured on a busy machine: the runner's
 * default. */
#define CHECK_BUSY_CORES 0.25

/* The words before the factor wherever a current time scaled to a stored baseline's machine speed
 * is shown (docs/reports.md, "One basis for every figure"): "... by ×0.909". */
#define CHECK_SCALED_WORDS "scaled to the baseline's machine speed by \xc3\x97"

/* One benchmark of the current results and what it is compared with. */
struct check_bench {
	char *name;
	struct baseline cur;     /* the current samples */
	struct baseline base;    /* the baseline (empty when none) */
	char *base_path;         /* its file, when read from one */
	int has_base;
	int refused;             /* read but refused (another benchmark's, empty, all zero): said */
	char *fingerprint_diff; /* "cpu_model 'A' -> 'B', ..." when the environments differ, else
				   NULL */
	/* measured from the stored baseline's sittings (NAN: too few) */
	struct baseline_shift shift;
	/* the benchmark's: a run above it was measured on a busy machine; < 0 no limit */
	double max_contention;
	struct check_spread *spread; /* per cell, from the history (check-history.c); stored mode */
	/* check-reference.c: cells whose times a plausible machine speed factor could be checked
	 * against, and those it contradicts (more than half: no factor is applied) */
	size_t speed_compared, speed_contradicted;
	size_t nr_spread, alloc_spread;
};

/* The spread of one cell's recorded medians over the history's runs (log units). */
struct check_spread {
	char *interval, *configuration; /* as the history names them */
	int speedup;                    /* 1: of the speedup; 0: of Execution_time */
	double sd;                      /* of one run's level */
	size_t runs;
	/* of one run's level scaled by the run's machine speed reference (times whose runs all
	 * have one), the current side's scaled alike; NAN: none */
	double sd_scaled;
};

struct check {
	struct rules *rules;
	const struct analysis *a;
	const struct matrix *m;
	struct verdict_set *vs;
	struct check_bench *bench;
	size_t nr_bench;
	int quiet;               /* no warnings on stderr (calibrate compares many times) */
	/* the baseline is the base revision run in the same job, round by round */
	int ab;
	int allow_no_reference;  /* no baseline, no base revision: a skip, not an error verdict */
	struct check_pending *pending; /* tolerance tests awaiting the whole-run adjustment */
	size_t nr_pending, alloc_pending;
	/* each look's share of the level: 0.5 in an adaptive (two-look) run; 0: 1 */
	double alpha_scale;
	/* the second look: only its cells' tests enter Holm (others p = 1) */
	const struct adaptive *second;
	/* error-level tests in the whole-run family (after check_evaluate) */
	size_t family;
	/* ... in this many cells (benchmark x interval x configuration), time checks first */
	size_t family_cells;
	/* the largest significance among them: the whole-run false-alarm level */
	double family_level;
};

/* "cpu_model 'A' -> 'B', cores '4' -> '2'" (base -> cur) on CHECK_FINGERPRINT_KEYS, or NULL; caller
 * frees. */
char *check_fingerprint_diff(const struct baseline *cur, const struct baseline *base);

/* Prepares a check of 'a' (and 'm', built from it) whose verdicts go to 'vs'. */
void check_init(struct check *c, struct rules *r, const struct analysis *a, const struct matrix *m,
		struct verdict_set *vs);
void check_release(struct check *c);

/* Reads DIR/<benchmark>.sgbase of every benchmark in the results; a missing one is noted. 0 or
 * gate_error(). */
int check_load_baselines(struct check *c, const char *dir);
/*
 * With a history database ('where': a file or URL; NULL: none) holding at least 3
 * (CHECK_SITTINGS_MEASURED) runs of a cell, the cell's shift between sittings is measured from the
 * spread of those runs' medians (log scale; the last 30 runs) with runs - 1 df, instead of from
 * the baseline's sittings. Stored mode only; an unreadable database warns and changes nothing.
 */
void check_history_shift(struct check *c, const char *where);
/* Takes the samples of 'base' as the baseline of every benchmark (calibrate). */
void check_use_baselines(struct check *c, const struct analysis *base);

/* Judges every interval x configuration x check; appends the verdicts, sorted. */
void check_evaluate(struct check *c);

/*
 * The runs of RESULTS/manifest.tsv whose status is not 'ok', one error
 * verdict (kind "run") per configuration; marks the rules that select them.
 * A missing manifest is not an error (a plain directory of profiles). 0 or gate_error().
 */
int check_run_failures(struct verdict_set *vs, struct rules *r, const char *results_dir);
struct manifest;
/* The same from a manifest in memory (NULL: none). */
void check_run_failures_of(struct verdict_set *vs, struct rules *r, const struct manifest *m);
/* The same for the base revision's runs of an A/B gate (kind "run.base"): a configuration the base
 * did not run has nothing to compare with, an error (exit 3), never a pass. */
void check_base_run_failures(struct verdict_set *vs, const struct manifest *m);
/*
 * Nothing judged is never green, per benchmark with a reference: one whose reference matched
 * none of the comparisons the rules asked for (kind "baseline.unmatched", an error), or whose
 * time checks were all inconclusive or skipped (kind "undecided": an error, or with 'accept'
 * ('undecided: pass') a skip that says so). On the final verdicts, before
 * verdict_set_finish().
 */
void check_decided(struct check *c, int accept);
/* An error verdict per site of an annotation mistake in the results (kind "annotation.<kind>"): the
 * intervals there are mis-timed, so the run cannot pass (exit 3 unless a regression gives 1). */
void check_annotations(struct verdict_set *vs, const struct analysis *a);
/* One error per run whose profiles could not be read (analysis 'keep_going'): its file and line. */
void check_damaged(struct verdict_set *vs, const struct analysis *a);

/* Fills the set's fingerprint, timestamp and hostname from the analysis. */
void check_describe(struct verdict_set *vs, const struct analysis *a);

/* Gives every verdict the source file:line of its interval, from the profiles' region records, and
 * the set each benchmark's program of 'c' (its command and executable; 'c' may be NULL). */
void verdict_set_sources(struct verdict_set *vs, const struct analysis *a, const struct config *c);

/*
 * When the gate exits with another code than the one the counts gave (a
 * report not written, a failed post), one more line says the real one: the
 * last line never lies about the exit code.
 */
void check_print_exit(FILE *out, const struct verdict_set *vs, int code);
/* The text summary, in two halves so that a caller prints the recap between them: one line per
 * verdict that is not a pass ('all': every one), then the counts. */
void check_print_verdicts(FILE *out, const struct verdict_set *vs, int all);
void check_print_counts(FILE *out, const struct verdict_set *vs);
/* The SGR sequence that colours a status word on 'out' (colour_wanted()), or ""; its end. */
const char *check_colour(FILE *out, enum verdict_status st, int inconclusive);
const char *check_colour_end(const char *start);
/* "1x2", or "1x2@4000" with a size. */
void check_config_name(char *buf, size_t size, const char *size_name, int ranks, int threads);

#endif
