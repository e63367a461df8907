/* The history database: every recorded run's figures, the series over runs, their change points
 * (docs/history.md). */
#ifndef SG_HISTORY_H
#define SG_HISTORY_H

#include <stddef.h>

#include "base/lost-table.h"

struct analysis;
struct matrix;

/* The schema version this scalegate writes (PRAGMA user_version); older databases are migrated. */
#define HISTORY_SCHEMA_VERSION 4

/*
 * The figures recorded per benchmark x interval x configuration, each a series over runs: the
 * name, the direction of a regression (+1: larger is worse). Time, speedup and efficiency, then
 * the share of Total_time of each term of the table of lost-time terms (base/lost-table.h, named
 * by its rule key; not the machine's Interference): a new term there is a new series here; then
 * the POP factors. history/figures.c reads each from the analysis.
 */
#define HISTORY_TERM(X, id, name, needs, share_key, colour, key_when, cause, formula, judged) \
	HISTORY_TERM_##judged(X, id, share_key)
#define HISTORY_TERM_PROGRAM(X, id, share_key) X(id, share_key, +1)
#define HISTORY_TERM_MACHINE(X, ...) /* the machine's (Interference): no regression, no series */
#define HISTORY_PART(X, id, name, needs, parent, cause, formula)
#define HISTORY_METRICS(X) \
	X(TIME, "time", +1) \
	X(SPEEDUP, "speedup", -1) \
	X(EFFICIENCY, "efficiency", -1) \
	LOST_TERMS(HISTORY_TERM, HISTORY_PART, X) \
	HISTORY_POP(X)
/* The POP factors, per run like time (smaller is worse); after the shares. */
#define HISTORY_POP(X) \
	X(LOAD_BALANCE, "Load_balance", -1) \
	X(COMMUNICATION_EFFICIENCY, "Communication_efficiency", -1) \
	X(PARALLEL_EFFICIENCY, "Parallel_efficiency", -1)

enum history_metric {
#define X(id, name, worse) HISTORY_##id,
	HISTORY_METRICS(X)
#undef X
	HISTORY_NR_METRICS
};

/* The metric called 'name', or -1; its name; +1 when larger values are worse, -1 when smaller are.
 */
int history_metric_find(const char *name);
const char *history_metric_name(enum history_metric m);
int history_metric_worse(enum history_metric m);
/* 1 when m is a lost-time share of Total_time. */
int history_metric_share(enum history_metric m);
/* 1 when m is a POP factor (Load_balance, Communication_efficiency, Parallel_efficiency). */
int history_metric_pop(enum history_metric m);

/* One recorded run: what was measured and where. Strings may be NULL (unknown), except commit and
 * date. */
struct history_run {
	long long id; /* record order */
	char *commit, *parent, *branch, *date, *job_url, *machine, *config_hash;
	char *subject;	  /* the commit's subject line */
	double reference; /* the machine speed reference: the runs' median reference_s; NAN: none */
};

/* One figure of one interval x configuration in one run: the median over repeats, its interval, the
 * repeats. */
struct history_point {
	char *benchmark, *interval, *configuration;
	enum history_metric metric;
	double median, lo, hi; /* lo, hi NAN when unknown */
	size_t n;	       /* repeats behind the median */
	int *repeat; /* the repeats' samples, by repeat number; none for derived figures */
	double *sample;
	size_t nr_samples;
};

/* What one 'history record' writes: the run and its points. */
struct history_record {
	struct history_run run;
	struct history_point *points;
	size_t nr, alloc;
};

void history_record_init(struct history_record *r);
void history_record_release(struct history_record *r);
/* Adds every metric of every interval x configuration of an analysed results directory, and sets
 * the run's machine speed reference. */
void history_record_add(struct history_record *r, const struct analysis *a, const struct matrix *m);
/* "2x4" (ranks x threads), "2x4 n=1000" with a problem size; caller frees. */
char *history_configuration(const char *size, int ranks, int threads);

/* One series over the runs, in record order. */
struct history_series {
	char *benchmark, *interval, *configuration;
	enum history_metric metric;
	size_t *run; /* index into history_data.runs, increasing */
	double *value, *lo, *hi;
	size_t n, alloc;
};

struct history_data {
	struct history_run *runs; /* in record order */
	size_t nr_runs;
	struct history_series *series; /* by benchmark, interval, configuration, metric */
	size_t nr_series;
};

void history_series_release(struct history_series *s);
void history_data_release(struct history_data *d);

struct history; /* an open database */

/*
 * Opens (creating and migrating when needed) the database at 'where': a file name (SQLite, WAL,
 * a busy timeout) or a postgresql:// URL. 0, or gate_error() with *h NULL.
 */
int history_open(struct history **h, const char *where);
void history_close(struct history *h);
/* 'where' as messages show it: a URL's password masked. Caller frees. */
char *history_where_text(const char *where);
/* The schema version found when the database was opened, before any migration. */
int history_found_version(const struct history *h);
/* Writes one run and its points in one transaction (or in the one history_begin() opened); sets
 * r->run.id. 0 or gate_error(). */
int history_write(struct history *h, struct history_record *r);
/* One write transaction for the runs written until history_commit(): all of them recorded, or
 * none (history_rollback(), a failed commit, or a writer killed). Other writers wait for it.
 * 0 or gate_error(). */
int history_begin(struct history *h);
int history_commit(struct history *h);
void history_rollback(struct history *h);
/* Reads every run ('branch' NULL) or those of one branch, and their series. 0 or gate_error(). */
int history_read(struct history *h, const char *branch, struct history_data *d);
/* The same without the medians' intervals (each series' lo and hi NULL): a third less to read,
 * for change points and drifts. */
int history_read_values(struct history *h, const char *branch, struct history_data *d);

#endif
