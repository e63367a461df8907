/* Private to the Slurm submission: running the Slurm commands, the job's state, the collection of its results. */
#ifndef SG_SLURM_PRIV_H
#define SG_SLURM_PRIV_H

#include "run/slurm.h"

#define SLURM_CMD_TIMEOUT 60.0 /* seconds an sbatch, scontrol, sacct or scancel may take */

/*
 * Runs argv (looked up in PATH) with stdin from /dev/null, in a process group
 * of its own, its stdout and stderr together into 'out'; killed after
 * SLURM_CMD_TIMEOUT. Returns its exit code, 127 when it could not start,
 * -1 when killed. The gate's own signals do not interrupt it.
 */
int slurm_cmd(char *const argv[], struct strbuf *out);

/* What the gate knows of its job. */
struct slurm_job {
	char *id;
	char *state;     /* PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...; NULL: not known yet */
	char *reason;    /* Slurm's reason ("Resources", "NonZeroExitCode", ...), NULL or "None": none */
	char *exit_code; /* "0:0": exit code and signal of the batch script */
	char *nodes;     /* the allocated nodes */
	double submit, start, end; /* epoch seconds; 0: not yet */
};

void slurm_job_release(struct slurm_job *j);
/*
 * Reads the job's state with 'scontrol show job', or with 'sacct' once the
 * controller forgot it. 0, or -1 with Slurm's message in 'err'.
 */
int slurm_job_query(struct slurm_job *j, struct strbuf *err);
/* Whether the state is final (COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ...). */
int slurm_job_done(const struct slurm_job *j);
/* Cancels the job and waits, bounded, until it has left the queue; 0, or -1 after a warning. */
int slurm_job_cancel(struct slurm_job *j);

/* 's' on one line: newlines become " | ", tabs spaces; "-" when empty. Caller frees. */
char *slurm_one_line(const char *s);

/*
 * Completes RESULTS/manifest.tsv after the job: the lines the job wrote (its
 * manifest.tsv, or manifest.tsv.partial when it was killed), and a
 * 'job-failed' line with 'reason' for every run of the selected benchmarks
 * that is not among them. Writes RESULTS/slurm.tsv. Returns the number of
 * failed runs, or -1 after error().
 */
long slurm_collect(struct runner *r, const struct slurm_job *j, const char *reason);

#endif
