/* A/B options of 'run' and 'ci': the base revision built and run in the same job (docs/running.md).
 */
#ifndef SG_AB_H
#define SG_AB_H

#include <stdint.h>

#include "config/config.h"
#include "run/runner.h"
#include "cmd/options.h"

struct ab_options {
	const char *against;      /* --against REV */
	const char *against_dir;  /* --against-dir DIR: a tree already built */
	const char *inject;       /* --inject INTERVAL:PCT, the head's runs only */
	uint64_t seed;            /* --seed N: the order of the rounds */
	char *repo, *head_root, *base_root, *scratch; /* set by ab_prepare */
};

int ab_parse_inject(const struct option *o, const char *value);
int ab_parse_seed(const struct option *o, const char *value);

/* The A/B rows of an option table ('o' a struct ab_options *). */
#define AB_OPTIONS(o) \
	OPT_STRING(NULL, "--against", &(o)->against, "REV", \
		   "A/B: check REV out into a scratch git worktree, run its\n" \
		   "build there, and interleave its runs with the head's\n" \
		   "round by round (ABBA, random order, seed in ab.tsv)"), \
	OPT_STRING(NULL, "--against-dir", &(o)->against_dir, "DIR", \
		   "A/B against a tree already built at DIR"), \
	OPT_PARSE(NULL, "--inject", &(o)->inject, "I:PCT", \
		  "SCALEGATE_INJECT for the head's runs: slow interval I down\n" \
		  "by PCT (a calibration tool, docs/check.md)", ab_parse_inject), \
	OPT_PARSE(NULL, "--seed", &(o)->seed, "N", \
		  "the seed of the A/B order (default: from the clock)", ab_parse_seed)

/* What the table cannot check alone (--against and --against-dir exclude each other): 0 or
 * gate_error().
 */
int ab_check(const struct ab_options *o);
/* Whether an A/B comparison was asked for. */
int ab_wanted(const struct ab_options *o);
/* Finds the base without touching anything: the repository and the revision (--against), or the
 * directory (--against-dir); 0 or gate_error(). Sets o->repo. */
int ab_locate(struct ab_options *o, const struct config *c);
/* Checks the base out (--against) and fills the runner's options; 0 or gate_error(). */
int ab_prepare(struct ab_options *o, const struct config *c, const char *results,
	       struct runner_options *ro);
/* Removes the scratch worktree; frees what ab_prepare set. */
void ab_finish(struct ab_options *o);

#endif
