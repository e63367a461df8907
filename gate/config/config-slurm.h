/* The 'slurm:' section of scalegate.yml: Slurm's own keys behind the scheduler seam
 * (config/config-batch.h; docs/configuration.md, docs/running.md). */
#ifndef SG_CONFIG_SLURM_H
#define SG_CONFIG_SLURM_H

#include <stddef.h>

#include "config/config-batch.h"

/* Slurm's own settings (batch_section.own); the time limit is in batch_section.limits. */
struct slurm_config {
	char *partition;      /* NULL: the cluster's default */
	char *account;        /* NULL: the user's default */
	int nodes;            /* 0: unset (one) */
	int exclusive;        /* the node is the job's alone */
	char **options;       /* more sbatch options, each one word; NULL-terminated */
	size_t nr_options;
};

extern const struct config_scheduler config_slurm;

/* A Slurm time limit ("minutes", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS") in seconds,
 * or -1. */
double config_slurm_time(const char *s);

#endif
