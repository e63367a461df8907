/* Private to the runner: the state of one benchmark while it runs, shared by runner.c and
 * runner-record.c. */
#ifndef SG_RUNNER_PRIV_H
#define SG_RUNNER_PRIV_H

#include "run/runner.h"

/* Bytes of a failed run's or build's stderr its reason keeps: the first lines, then the last
 * (exec_excerpt). */
#define STDERR_HEAD 160
#define STDERR_TAIL 240

struct point_state {
	struct config_point p;
	char *name;      /* "s<size or ->-r<ranks>-t<threads>" */
	double *walls;   /* wall times of the ok runs */
	int nr_ok, nr_done;
	int last;        /* the last round to run: 'repeat', or an adaptive cell's rounds */
};

struct bench_run {
	const struct bench_config *b;
	char *workdir;   /* absolute */
	char *preload;   /* the library to LD_PRELOAD, or NULL */
	struct point_state *points;
	size_t nr_points;
	char *build_failed; /* the reason, or NULL */
	/* A/B: the same benchmark in the base tree (runner-ab.c), else NULL */
	struct bench_run *base;
	struct bench_config *base_config; /* ... and its configuration, owned */
};

/* The outcome of one run. */
struct run_record {
	enum run_status status;
	int exit_code;   /* -1: killed */
	double wall;
	char *dir;       /* relative to the results directory */
	char *reason;    /* NULL when ok */
	double contention; /* cores used by other processes during the run; NAN: unknown */
	/* on-CPU seconds of the machine speed reference beside the run (run/reference.h); NAN:
	 * not measured */
	double reference;
};

/* With more than one rank and a launcher that is not empty. */
int runner_uses_launcher(const struct bench_config *b, const struct config_point *p);
/* NAME=VALUE additions of one run ('out': its SCALEGATE_OUT), NULL-terminated; caller frees with
 * runner_free_env(). */
char **runner_run_env(const struct bench_run *br, const struct config_point *p, const char *out);
void runner_free_env(char **env);
/* Removes LD_PRELOAD from 'env': with a launcher it goes to the ranks only, on the command line. */
void runner_drop_preload(char **env);
/*
 * The shell line of one run (repeat 0: a warm-up run): the command with its
 * program path resolved against the workdir; with a launcher,
 * "LAUNCHER env NAME=VALUE... COMMAND" with the variables of 'env'. Caller frees.
 */
char *runner_command_line(const struct bench_run *br, const struct config_point *p, int repeat,
			  char **env);

/* One execution of a run's line into 'out' from a fresh scratch directory, judged into 'rec'; 0, or
 * -1 when the gate must stop. */
int runner_attempt(struct runner *r, struct bench_run *br, size_t pt, int repeat, const char *out,
		   struct run_record *rec);
/*
 * A measured run over max_contention runs again, up to contention_retries
 * times; the least contended ok attempt is kept in 'out' and described by
 * 'rec'. A failed attempt is recorded as it is: a failure is never hidden.
 * 0, or -1 when the gate must stop.
 */
int runner_retry_busy(struct runner *r, struct bench_run *br, size_t pt, int repeat,
		      const char *out, struct run_record *rec);

/* Sets tty, log and log_every from the terminals and SG_PROGRESS_SECONDS; line-buffers a piped
 * stdout. */
void runner_progress_init(struct runner *r);
/* The exec tick of a run (arg: the runner): the live line, and a "still running" line in a log. */
void runner_tick(void *arg, double run_elapsed);
/* The log line of a finished run: benchmark, configuration, repeat, time, status. */
void runner_log_run(struct runner *r, const struct bench_run *br, size_t pt, int repeat, int warm,
		    const struct run_record *rec);

/* Live progress before a run ('repeat' 0: warm-up run 'warm'). */
void runner_progress(struct runner *r, const struct bench_run *br, size_t pt, int repeat, int warm);
/* Appends the run to the manifest, tells about failures and finished configurations. */
int runner_record(struct runner *r, struct bench_run *br, size_t pt, int repeat,
		  const struct run_record *rec);
/* Tells that a measured run ran on a busy machine and runs again (attempt 'n' of the retries). */
void runner_tell_busy(struct runner *r, const struct bench_run *br, size_t pt, int repeat,
		      double contention, int n);
/* Tells that every attempt of a run was on a busy machine and which one is kept. */
void runner_tell_still_busy(struct runner *r, const struct bench_run *br, size_t pt, int repeat,
			    double contention);
/* Starts manifest.tsv.partial with the header and the kept lines; 0 or gate_error(). */
int runner_manifest_start(struct runner *r);
/* Renames manifest.tsv.partial to manifest.tsv; 0 or gate_error(). */
int runner_manifest_finish(struct runner *r);

/* runner-names.c: how every part of the runner names what it runs (below them all) */
/* Whether 'b' is among the benchmarks this run was asked for (--benchmark). */
int runner_selected(const struct runner *r, const struct bench_config *b);
/* "jacobi 2 ranks × 1 thread[, size S]" */
void runner_point_label(struct strbuf *sb, const struct bench_run *br, size_t pt);
/* "base " or "head " in an A/B run (the runner's side), else "": a progress label's first word. */
const char *runner_side(const struct runner *r);
/* Clears the live progress line, if any. */
void runner_clear_line(struct runner *r);

/* runner-core.c: what both sides of an A/B run use */
/*
 * runner_init without the base of an A/B run: opens the results directory;
 * 1 when the runner is ready for a base (runner_ab_init), 0 when it is done
 * (a dry run, a submitted Slurm job), -1 after gate_error().
 */
int runner_init_side(struct runner *r, struct config *c, const struct runner_options *opt);
int runner_bench_setup(struct runner *r, const struct bench_config *b, struct bench_run *br);
void runner_bench_release(struct bench_run *br);
int runner_one(struct runner *r, struct bench_run *br, size_t pt, int repeat);
int runner_build(struct runner *r, struct bench_run *br);
int runner_record_build_failed(struct runner *r, struct bench_run *br);

/* runner-ab.c: base and head of one benchmark, interleaved round by round (docs/running.md, A/B).
 */
int runner_ab_init(struct runner *r);
int runner_ab_setup(struct runner *r, struct bench_run *head);
int runner_ab_bench(struct runner *r, struct bench_run *head);
/* The rounds 'first'+1..'last' of configuration 'pt', base and head in the ABBA order; 0 or -1. */
int runner_ab_round(struct runner *r, struct bench_run *head, size_t pt, int repeat);
/* runner-extend.c: the extra rounds of the adaptive cells of one benchmark; 0 or -1. */
int runner_extend_bench(struct runner *r, struct bench_run *br);
/* The runs the extension will make for 'b' (both sides in A/B). */
size_t runner_extend_runs(const struct runner *r, const struct bench_config *b);
void runner_ab_release(struct bench_run *head);

#endif
