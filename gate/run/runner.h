/* The matrix runner: runs every benchmark configuration of a loaded scalegate.yml and records the
 * results (docs/running.md). */
#ifndef SG_RUNNER_H
#define SG_RUNNER_H

#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "results/adaptive.h"
#include "results/complete.h"
#include "results/results.h"
#include "base/util.h"

enum run_status {
	RUN_OK,
	RUN_CRASH,        /* killed by a signal */
	RUN_EXIT,         /* an exit code not in expect_exit */
	RUN_TIMEOUT,
	RUN_NO_PROFILE,   /* no profile, or fewer than one per rank */
	RUN_BAD_PROFILE,  /* a profile the reader rejects */
	RUN_BUILD_FAILED,
	/* the Slurm job ended (failed, cancelled, time limit, refused) before the run */
	RUN_JOB_FAILED,
};

/* "ok", "crash", ...: the words of the manifest's status column. */
const char *run_status_name(enum run_status s);

struct runner_options {
	const char *results_dir; /* NULL: the configuration's 'results' */
	const char *benchmark;   /* NULL: every benchmark */
	int dry_run;             /* print the plan on stdout, run nothing */
	/* run here even with a 'slurm:' section (what the batch job does) */
	int local;
	int quiet;               /* --quiet: no progress (live line, run lines, medians, builds) */
	/* A/B (docs/running.md): the base revision's tree, with the layout of the head's tree at
	 * head_root */
	const char *base_root, *head_root;
	const char *inject; /* SCALEGATE_INJECT for the head's runs only ("solve:10%"), or NULL */
	uint64_t seed;           /* the A/B order's seed; 0: from the clock (recorded in ab.tsv) */
	/* Adaptive repeats (docs/check.md): run only these cells' rounds past their first look and
	 * append them to the results (manifest, ab.tsv, complete.tsv) as they are; NULL: a whole
	 * run. */
	const struct adaptive *extend;
	/* The results in memory that get a copy of every run recorded (ci's adaptive rounds, for
	 * the judge that holds the first ones); the base's go to record->base. NULL: none. */
	struct results *record;
};

struct bench_run;

struct runner {
	struct config *c;
	struct runner_options opt;
	char *results;        /* absolute */
	char *scratch;        /* results/.scratch */
	char *lib_dir;        /* where libscalegate*.so are looked for */
	FILE *partial;        /* manifest.tsv.partial, appended as runs end */
	struct complete complete; /* complete.tsv of the benchmarks left alone, rewritten last */
	int tty;              /* live progress on stderr */
	/* stdout is no terminal (a CI log): a line per finished run, line-buffered */
	int log;
	double log_every; /* seconds between the "still running" lines of a long run
			     (SG_PROGRESS_SECONDS) */
	int retry;            /* the contention retry under way (0: none), for the live line */
	struct {              /* the run under way, for the progress lines */
		const struct bench_run *br;
		size_t pt;
		int repeat, warm; /* repeat 0: warm-up run 'warm' */
		double next_log; /* when the next "still running" line is due (seconds into the run)
				  */
	} now;
	size_t total_runs, done_runs, failed_runs;
	size_t busy_runs;     /* ok runs kept although over max_contention */
	double started, run_seconds; /* gate start; wall time of the runs so far */
	/* whose counters the progress lines show: itself, or the head's for the base */
	struct runner *top;
	struct runner *base;  /* A/B: the base revision's runs, into RESULTS/base */
	FILE *ab;             /* A/B: RESULTS/ab.tsv, the seed and the order of every round */
};

/*
 * Prepares 'results' (unless dry-running): creates it, removes the subtrees of
 * the benchmarks about to run, starts the manifest with the lines of the other
 * benchmarks, writes fingerprint.tsv. Returns 0 or gate_error().
 */
int runner_init(struct runner *r, struct config *c, const struct runner_options *opt);
/*
 * Runs (or with dry_run prints) the selected benchmarks. Returns the number
 * of failed runs, or -1 when the gate itself could not go on (interrupted,
 * results not writable).
 */
long runner_run(struct runner *r);
/* The signal (SIGINT, SIGTERM, SIGHUP) that interrupted the gate's runs, or 0. */
int runner_caught_signal(void);
/* The run covers benchmark 'name': the one --benchmark names, else every configured one. */
int runner_selected_name(const struct runner *r, const char *name);
void runner_release(struct runner *r);

#endif
