/* Private to gate/history/: the database backends (SQLite, PostgreSQL) behind history.h, and what
 * they share. */
#ifndef SG_HISTORY_DB_PRIV_H
#define SG_HISTORY_DB_PRIV_H

#include <stddef.h>

#include "history/history.h"

/* A writer waits this long for another one (two CI jobs recording at once) before giving up. */
#define HISTORY_BUSY_MS 60000

struct history_backend {
	/* A write transaction: the runs written until commit are recorded all together or none
	 * (rollback, or a writer killed). */
	int (*begin)(void *db);
	int (*write)(void *db, struct history_record *r); /* within begin..commit; sets r->run.id */
	int (*commit)(void *db);
	void (*rollback)(void *db);
	/* intervals 0: the series' lo and hi left NULL (not read) */
	int (*read)(void *db, const char *branch, int intervals, struct history_data *d);
	void (*close)(void *db);
};

extern const struct history_backend history_sqlite, history_pg;

/* Open (create, migrate) a database: 0 with *db and the version found, or gate_error(). */
int history_sqlite_open(const char *where, void **db, int *found_version);
int history_pg_open(const char *url, void **db, int *found_version);

/*
 * Whether a database found at schema version 'v' ('recorded': a version of ours is stored, so 0 is
 * not a new database) holding 'tables' (the tables of its schema) may be opened and migrated: 0, or
 * gate_error() naming 'where' when the version is negative, zero but recorded, or from a later
 * scalegate, when a table of ours is missing, or when a database without a version holds tables
 * (another program's: never extended into a history).
 */
int history_check_schema(const char *where, int v, int recorded, const char *const *tables,
			 size_t nr);

/*
 * The rows of one query, as a backend hands them to the reader below: next() steps to the next row
 * (1), past the last (0) or fails (-1, after gate_error()); the getters read a column of the row.
 */
struct history_cursor {
	void *ctx;
	int (*next)(void *ctx);
	const char *(*text)(void *ctx, int col);  /* NULL for SQL NULL */
	double (*real)(void *ctx, int col);       /* NAN for SQL NULL */
	long long (*integer)(void *ctx, int col);
};

/* The columns of the reader's three queries, in this order. */
#define HISTORY_RUN_COLUMNS \
	"id, commit_id, parent, branch, date, job_url, machine, config_hash, subject, reference"
#define HISTORY_SERIES_COLUMNS "id, benchmark, \"interval\", configuration, metric"
#define HISTORY_POINT_COLUMNS "series, run, median, lo, hi"
/* the same without the interval */
#define HISTORY_VALUE_COLUMNS "series, run, median"

/*
 * Reading a database into a history_data, the same for every backend: the runs read (in record
 * order), then every series (any order), then every point (any order: a table scan, not a sort
 * by series), in one read transaction; then history_reader_finish(), also after a failure.
 */
struct history_reader {
	struct history_data *d;
	int intervals;	       /* whether the points' rows have lo and hi */
	long long *run_ids;    /* of d->runs, increasing */
	struct reader_series *series; /* by id */
	size_t nr_series, alloc_series, last;
	size_t last_run; /* index of the run of the last point read */
};

void history_reader_init(struct history_reader *r, struct history_data *d, int intervals);
int history_reader_runs(struct history_reader *r, struct history_cursor *c);
int history_reader_series(struct history_reader *r, struct history_cursor *c);
/* The points' rows: HISTORY_POINT_COLUMNS, or HISTORY_VALUE_COLUMNS without intervals. */
int history_reader_points(struct history_reader *r, struct history_cursor *c);
/* Keeps the series with a point in a run read (their points by run, the series by benchmark,
 * interval, configuration and metric); releases what r holds. */
void history_reader_finish(struct history_reader *r);

#endif
