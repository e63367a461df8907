/* Private to the batch submission: the seam between the generic follow-and-collect loop and one
 * scheduler's commands (struct batch_backend), the job's state, bounded command runs. */
#ifndef SG_BATCH_PRIV_H
#define SG_BATCH_PRIV_H

#include "run/batch.h"

#define BATCH_CMD_TIMEOUT 60.0 /* seconds a submit, query or cancel command may take */

/* Where a job is, in the scheduler's words (state) and in the gate's (phase). */
enum batch_phase { BATCH_UNKNOWN, BATCH_QUEUED, BATCH_RUNNING, BATCH_ENDED };

struct batch_job {
	char *id;
	/* the scheduler's word: PENDING, RUNNING, COMPLETED, TIMEOUT, ...; NULL: not known */
	char *state;
	enum batch_phase phase;
	int timed_out;   /* ended at its time limit */
	/* ended by itself with exit code 0, or 3 (failed runs the job recorded itself) */
	int ended_clean;
	char *reason; /* the scheduler's reason ("Resources", "NonZeroExitCode", ...); NULL: none */
	char *exit_code; /* as the scheduler writes it, e.g. "0:0" (exit code and signal) */
	char *nodes;     /* the allocated nodes */
	double submit, start, end; /* epoch seconds; 0: not yet */
};

/* One scheduler's commands. Adding one is a struct like batch_slurm (run/slurm.c) in
 * batch_backends, and its section, a struct config_scheduler (config/config-slurm.c). */
struct batch_backend {
	/* "slurm": messages ("slurm: job 42 pending"), RESULTS/.slurm/ and RESULTS/slurm.tsv */
	const char *name;
	const char *title; /* "Slurm": the scheduler in sentences */
	const struct config_scheduler *section; /* its section of scalegate.yml */
	/* The command that submits 'script' with its output into 'output', NULL-terminated;
	 * free with batch_free_argv(). 's' is the scheduler's own section. */
	char **(*submit_argv)(const struct batch_section *s, const char *script,
			      const char *output);
	/* The job id in the submit command's output, or NULL. Caller frees. */
	char *(*parse_id)(const char *output);
	/* Reads the job's state into 'j'; 0, or -1 with the scheduler's message in 'err'. */
	int (*query)(struct batch_job *j, struct strbuf *err);
	/* The command that cancels the job, NULL-terminated; free with batch_free_argv(). */
	char **(*cancel_argv)(const struct batch_job *j);
};

extern const struct batch_backend batch_slurm;
/* Every scheduler the gate submits to, NULL-terminated. */
extern const struct batch_backend *const batch_backends[];

/* batch_run with a given scheduler (the tests' double is one). */
long batch_run_with(struct runner *r, const struct batch_backend *b);

/*
 * Runs argv (looked up in PATH) with stdin from /dev/null, in a process group
 * of its own, its stdout and stderr together into 'out'; killed after
 * BATCH_CMD_TIMEOUT. Returns its exit code, 127 when it could not start,
 * -1 when killed. The gate's own signals do not interrupt it.
 */
int batch_cmd(char *const argv[], struct strbuf *out);
void batch_free_argv(char **argv);

void batch_job_release(struct batch_job *j);
/* Cancels the job and waits, bounded, until it has ended; 0, or -1 after a warning. */
int batch_job_cancel(const struct batch_backend *b, struct batch_job *j);

/* 's' on one line: newlines become " | ", tabs spaces; "-" when empty. Caller frees. */
char *batch_one_line(const char *s);

/*
 * Completes RESULTS/manifest.tsv after the job: the lines the job wrote (its
 * manifest.tsv, or manifest.tsv.partial when it was killed), and a
 * 'job-failed' line with 'reason' for every run of the selected benchmarks
 * that is not among them. Writes RESULTS/<scheduler>.tsv. Returns the number
 * of failed runs, or -1 after gate_error().
 */
long batch_collect(struct runner *r, const struct batch_backend *b, const struct batch_job *j,
		   const char *reason);

#endif
