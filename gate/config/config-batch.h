/* A batch scheduler's section of scalegate.yml ('slurm:'), behind one seam: the gate's own keys
 * (poll, queue_timeout) here, the scheduler's in its struct config_scheduler (extending.md). */
#ifndef SG_CONFIG_BATCH_H
#define SG_CONFIG_BATCH_H

#include "base/yamldoc.h"

#define BATCH_DEFAULT_QUEUE_TIMEOUT 3600.0 /* seconds a job may wait in the queue */
#define BATCH_DEFAULT_POLL 10.0            /* seconds between two looks at the job's state */

/* What the gate's follow-and-collect loop (run/batch.c) needs of any scheduler's section. */
struct batch_limits {
	double queue_timeout; /* seconds the job may stay pending before the gate cancels it */
	double poll;          /* seconds between two polls of the job's state */
	/* the job's time limit as the scheduler writes it ("1:00:00"); NULL: the scheduler's */
	char *time;
	double time_s;        /* the same in seconds; 0 when unset */
	char *where; /* where the job goes, for messages ("partition debug"); NULL: unsaid */
};

struct batch_section;

/* One scheduler's section: its key, its own keys, and how it reads and checks them. */
struct config_scheduler {
	const char *key;              /* the top-level key, "slurm" */
	const char *const *own_keys;  /* the section's keys besides poll and queue_timeout */
	void *(*own_new)(void);       /* the own settings with their defaults */
	void (*own_free)(void *own);
	/* Reads one of own_keys into s->own (and s->limits); errors through yamldoc_error. */
	void (*parse_key)(struct yamldoc *d, const struct yamldoc_iter *it,
			  struct batch_section *s);
	/* Checks across keys after the section was read; 0, or -1 after yamldoc_error. NULL:
	 * none. */
	int (*validate)(struct yamldoc *d, struct batch_section *s);
};

struct batch_section {
	const struct config_scheduler *scheduler;
	struct batch_limits limits;
	void *own;               /* the scheduler's own settings; only its code looks inside */
	const yaml_node_t *node; /* the section, for later messages */
};

/* The schedulers whose section scalegate.yml may have, NULL-terminated. */
extern const struct config_scheduler *const config_schedulers[];
/* The scheduler whose section is the top-level 'key', or NULL. */
const struct config_scheduler *config_scheduler_find(const char *key);
/*
 * Parses 'v', the section of scheduler 'sch', into a new batch_section (*out, replacing one there);
 * 0, or -1 after reporting every problem at its node.
 */
int config_batch_parse(struct yamldoc *d, const yaml_node_t *v, const struct config_scheduler *sch,
		       struct batch_section **out);
void config_batch_free(struct batch_section *s);

#endif
