/* The matrix as one job of a batch scheduler (Slurm): submitted, followed and collected by the gate
 * (docs/running.md, "On a Slurm cluster"). The scheduler's own commands sit behind
 * struct batch_backend (run/batch-priv.h); run/slurm.c is the Slurm one. */
#ifndef SG_BATCH_H
#define SG_BATCH_H

#include "run/runner.h"

/* Whether 'r' submits its matrix to a scheduler: a 'slurm:' section, and not --local. */
int batch_wanted(const struct runner *r);
/* Prints the submit command line and the job's script (for --dry-run). */
void batch_print_plan(const struct runner *r);
/*
 * Submits the selected benchmarks as one batch job that runs 'scalegate run
 * --local' on the allocated node, streams its output, waits for it with
 * bounded polling, and completes RESULTS/manifest.tsv: runs the job did not
 * do are 'job-failed' with the scheduler's reason. Returns the number of
 * failed runs, or -1 when the gate was interrupted or could not go on (the
 * job cancelled).
 */
long batch_run(struct runner *r);

#endif
