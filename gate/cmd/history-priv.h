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

/* What record and import share (cmd-history.c): now in ISO-8601, the FNV-1a of a file (NULL when
 * unreadable), the subject line of a commit git knows (NULL otherwise); callers free. */
char *history_cmd_now(void);
char *history_cmd_file_hash(const char *path);
char *history_cmd_subject(const char *commit);
struct analysis;
struct matrix;
/* The points, machine, reference and (when unset) date of r from an analysed results directory. */
void history_cmd_fill(struct history_record *r, const struct analysis *a, const struct matrix *m);
/* Analyses 'results' into r's points; 0 or -1 (reported). */
int history_cmd_analyse(struct history_record *r, struct config *c, const char *results);
/* Writes r into the open history h and prints its line; 0 or -1 (reported). */
int history_cmd_write(struct history *h, const char *where, struct history_record *r,
		      const char *results);

/*
 * The staging of 'history import' (history-stage.c): start() opens a temporary file (NULL after
 * gate_error()); put() appends an analysed run to it and frees r (allocated), 0 or -1 when it
 * holds no figure or the file cannot be written; write() writes every run put, in order, into h
 * in one write transaction (history_begin .. history_commit), printing each one's line: 0 or -1
 * (nothing written). free() removes the file.
 */
struct history_stage *history_stage_start(void);
int history_stage_put(struct history_stage *s, struct history_record *r, const char *results);
int history_stage_write(struct history_stage *s, struct history *h, const char *where);
void history_stage_free(struct history_stage *s);

/* 'history import' (history-import.c), 'history detect' (history-detect.c) and 'history report'
 * (history-report.c): exit codes. */
/*
 * Records the results directory into the database 'where' (config may be NULL: no configuration
 * hash); prints one line. 0, or -1 (reported).
 */
int history_cmd_record(const char *where, struct config *c, const char *config_path,
		       const char *results, const struct history_meta *meta);
int history_cmd_import(const char *where, struct config *c, const struct history_options *o);
int history_cmd_detect(const char *where, struct config *c, const struct history_options *o);
int history_cmd_report(const char *where, struct config *c, const struct history_options *o);

#endif
