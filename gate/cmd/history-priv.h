/* Shared by the files of 'scalegate history': its options, the database read, the change points. */
#ifndef SG_HISTORY_PRIV_H
#define SG_HISTORY_PRIV_H

#include <stddef.h>

#include "cmd/history-cmd.h"
#include "config/config.h"
#include "history/detect.h"
#include "history/history.h"

struct history_options {
	const char *verb, *history, *config, *html, *window_text, *fdr_text, *commit_url;
	const char *compare_text; /* report: SHA,SHA[,...] */
	struct history_meta meta;
	int json, config_given;
	char **dirs;
	size_t nr_dirs;
};

/* The environment variable's value, NULL when unset or empty. */
const char *history_cmd_env(const char *name);

/* Reads the database (the medians' intervals only with 'intervals'); 0 or -1. */
int history_cmd_read(const char *where, const char *branch, int intervals,
		     struct history_data *d);

/* Change points of 'd' with the rules of 'c' (NULL: the defaults) as minimum changes; 0 or -1. */
int history_cmd_changes(const struct history_data *d, struct config *c, double fdr,
			struct detect_result *r);

/* 'history detect' (history-detect.c) and 'history report' (history-report.c): exit codes. */
int history_cmd_detect(const char *where, struct config *c, const struct history_options *o);
int history_cmd_report(const char *where, struct config *c, const struct history_options *o);

#endif
