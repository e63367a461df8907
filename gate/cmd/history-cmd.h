/* The history's parts the ci command shares with 'scalegate history': recording a run, the drift
 * line. */
#ifndef SG_HISTORY_CMD_H
#define SG_HISTORY_CMD_H

#include <stdio.h>

#include "config/config.h"

/* What names a recorded run; NULL fields default from the CI's environment and git
 * (docs/history.md). */
struct history_meta {
	const char *commit, *parent, *branch, *date, *job_url, *subject;
};

/* Records results analysed already (the judge's, in 'ci --record') into the database 'where'
 * (config may be NULL: no configuration hash); prints one line. 0, or -1 (reported). */
struct analysis;
struct matrix;
int history_cmd_record_analysis(const char *where, struct config *c, const char *config_path,
				const struct analysis *a, const struct matrix *m,
				const struct history_meta *meta);

/*
 * "history: jacobi is 12.0 % slower than 30 runs ago; change points at ..." for each benchmark,
 * from the database 'where' (runs of 'branch', NULL: all); nothing when it has too few runs.
 */
void history_cmd_drift(FILE *out, const char *where, struct config *c, const char *branch,
		       size_t runs);

#endif
