/* A whole check in memory: configuration, rules, results, matrix, baselines and verdicts, loaded
 * and judged as 'scalegate check' does. */
#ifndef SG_JUDGE_H
#define SG_JUDGE_H

#include "judge/check.h"
#include "config/config.h"
#include "results/adaptive.h"
#include "results/results.h"

struct judge {
	struct config config;
	struct rules rules;
	struct analysis a;
	struct matrix m;
	struct verdict_set vs;
	struct check c;
	struct results res;  /* read once, shared by every look, the reports and 'ci' */
	/* what the reports show when the check scaled times to the stored baseline's machine
	 * speed (judge_shown); 'a' and 'm' keep the measured ones (the history records them) */
	struct analysis scaled_a;
	struct matrix scaled_m;
	int scaled;
	const char *results, *baselines; /* as used: the options, or the configuration's */
	int partial;      /* set before judge_load(): judge incomplete results (--partial) */
	int allow_no_reference; /* --allow-no-reference: no reference is a skip, not an error */
	/* when judge_load() fails: the exit code (2, or 3 for incomplete results) */
	int load_error;
	/* set before judging: the signal that interrupted the gate's runs (the reports are
	 * incomplete; every configuration short of its repeats is an error), or 0 */
	int interrupted;
};

void judge_init(struct judge *j);
void judge_release(struct judge *j);

/*
 * Loads the configuration 'config' and its rules, the results (NULL: the
 * configuration's), the matrix (with the benchmarks' memory models) and the
 * baselines (NULL: the configuration's), then judges as 'scalegate check'
 * does: j->vs holds the finished verdicts. 0, or -1 (a usage or configuration
 * error, already reported).
 */
int judge_load(struct judge *j, const char *config, const char *results, const char *baselines);

/* The two halves of judge_load: the configuration and every rule file it names, loaded and
 * validated before anything runs; then the results judged. Each 0, or -1 (already reported). */
int judge_configure(struct judge *j, const char *config);
int judge_evaluate(struct judge *j, const char *results, const char *baselines);
/* Judges j->res again, as it is in memory now (with the rounds an adaptive run appended to it and
 * its adaptive record), after adapt_forget(); 0, or -1 (already reported). */
int judge_again(struct judge *j);

/*
 * What the reports show (docs/reports.md, "One basis for every figure"): the figures the checks
 * judged. In stored mode, where the check scaled a cell's times to the baseline's machine speed,
 * a copy of the analysis and matrix with those cells' times scaled by the same factor (the matrix
 * cells carry it as 'speed'); else j->a and j->m. Built by judge_again().
 */
const struct analysis *judge_shown_analysis(const struct judge *j);
const struct matrix *judge_shown_matrix(const struct judge *j);
/* Builds the scaled copy when the check scaled any cell (judge_again calls it); 0 or -1
 * (reported). */
int judge_shown(struct judge *j);
/* Frees it (before the results are judged again). */
void judge_shown_release(struct judge *j);

/*
 * Refuses results that 'scalegate run' did not finish: no complete.tsv (an
 * interrupted or failed run), a benchmark of 'c' (or only 'benchmark') not in
 * it or run with another matrix, a manifest with fewer runs than recorded.
 * Each problem is named; returns 0, or the exit code (3 incomplete, 2 a
 * benchmark not run or run with another configuration). With 'partial' the
 * problems are warnings and 0 is returned.
 */
int judge_check_complete(const struct config *c, const char *results, const char *benchmark,
			 int partial);
/* The same on results in memory. */
int judge_check_results(const struct config *c, struct results *r, const char *benchmark,
			int partial);

/* An error verdict "run.interrupted" for every configuration of the configuration with fewer runs
 * in j->res's manifest than its repeats: the gate was interrupted by 'signal' ("SIGTERM"). */
void judge_not_run(struct judge *j, const char *signal);

/* The benchmarks' memory models of 'c' into 'm' (before matrix_build), for the isoefficiency's
 * scalability function, as 'analyze -c' reads them. 0 or gate_error(). */
int judge_set_memory(struct matrix *m, const struct config *c);

/* One look at the results: what it judges into, its share of the level, and whether it is the last.
 */
struct judge_look {
	/* its 'keep' set by the caller: the rounds this look sees */
	struct analysis *a;
	struct matrix *m;
	struct verdict_set *vs;
	struct check *c;
	double scale;                   /* the share of each rule's significance this look spends */
	const struct adaptive *second;  /* the second look: the cells that got more rounds */
	/* the look whose run failures and descriptions are reported */
	int final;
};
/* Loads the results through look->a and judges them into look->vs; 0 or -1 (reported). */
int judge_pass(struct judge *j, struct judge_look *look);
/*
 * An adaptive run (RESULTS/adaptive.tsv, docs/check.md): the first look on
 * the configured rounds at CHECK_FIRST_LOOK of each level; then, when cells got more
 * rounds, the second look on every round of those cells at the rest,
 * and the verdicts combined (a cell fails when either look rejects). 0 or -1.
 */
int judge_two_looks(struct judge *j, const struct adaptive *looks);

#endif
