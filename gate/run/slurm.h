/* The matrix as one Slurm batch job: submitted, followed and collected by the gate (docs/running.md, "On a Slurm cluster"). */
#ifndef SG_SLURM_H
#define SG_SLURM_H

#include "run/runner.h"

/* Whether 'r' submits its matrix to Slurm: a 'slurm:' section, and not --local. */
int slurm_wanted(const struct runner *r);
/* Prints the sbatch command line and the job's script (for --dry-run). */
void slurm_print_plan(const struct runner *r);
/*
 * Submits the selected benchmarks as one batch job that runs 'scalegate run
 * --local' on the allocated node, streams its output, waits for it with
 * bounded polling, and completes RESULTS/manifest.tsv: runs the job did not
 * do are 'job-failed' with Slurm's reason. Returns the number of failed runs,
 * or -1 when the gate was interrupted or could not go on (the job cancelled).
 */
long slurm_run(struct runner *r);

#endif
