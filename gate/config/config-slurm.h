/* The 'slurm:' section of scalegate.yml: submit the matrix as a batch job (docs/configuration.md,
 * docs/running.md). */
#ifndef SG_CONFIG_SLURM_H
#define SG_CONFIG_SLURM_H

#include <stddef.h>

#include "base/yamldoc.h"

#define SLURM_DEFAULT_QUEUE_TIMEOUT 3600.0 /* seconds a job may wait in the queue */
#define SLURM_DEFAULT_POLL 10.0            /* seconds between two looks at the job's state */

struct batch_config {
	char *partition;      /* NULL: the cluster's default */
	char *account;        /* NULL: the user's default */
	char *time; /* the job's time limit as Slurm writes it ("30", "1:00:00", "1-0"); NULL: the
		       partition's */
	double time_s;        /* the same in seconds; 0 when unset */
	int nodes;            /* 0: unset (one) */
	int exclusive;        /* the node is the job's alone */
	char **options;       /* more sbatch options, each one word; NULL-terminated */
	size_t nr_options;
	double queue_timeout; /* seconds the job may stay pending before the gate cancels it */
	double poll;          /* seconds between two polls of the job's state */
	const yaml_node_t *node; /* the section, for later messages */
};

/* Parses the section 'v' into a new slurm_config (*out); 0, or -1 after reporting at the offending
 * node. */
int config_slurm_parse(struct yamldoc *d, const yaml_node_t *v, struct batch_config **out);
void config_slurm_free(struct batch_config *s);

/* A Slurm time limit ("minutes", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS") in seconds,
 * or -1. */
double config_slurm_time(const char *s);

#endif
