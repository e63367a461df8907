/* Private to gate/history/: the database backends (SQLite, PostgreSQL) behind history.h, and what
 * they share. */
#ifndef SG_HISTORY_DB_PRIV_H
#define SG_HISTORY_DB_PRIV_H

#include <stddef.h>

#include "history/history.h"

/* A writer waits this long for another one (two CI jobs recording at once) before giving up. */
#define HISTORY_BUSY_MS 60000

struct history_cursor;
struct history_reader;
/* Reads the rows of one query through a cursor: 0, or -1 after gate_error(). */
typedef int history_rows_fn(struct history_reader *rd, struct history_cursor *c);

struct history_backend {
	/* A write transaction: the runs written until commit are recorded all together or none
	 * (rollback, or a writer killed). */
	int (*begin)(void *db);
	int (*write)(void *db, struct history_record *r); /* within begin..commit; sets r->run.id */
	int (*commit)(void *db);
	void (*rollback)(void *db);
	/* The reader's snapshot (db.c): a run recorded meanwhile is wholly in or wholly out. Its
	 * queries run between read_begin and read_end ('failed': whether one failed). */
	int (*read_begin)(void *db);
	void (*read_end)(void *db, int failed);
	/* Runs 'sql', with $1 bound to 'param' when not NULL, and hands its rows to 'rows' with
	 * 'rd' as a cursor; what 'rows' returns, or -1 after gate_error(). */
	int (*query)(void *db, const char *sql, const char *param, history_rows_fn *rows,
		     struct history_reader *rd);
	void (*close)(void *db);
};

extern const struct history_backend history_sqlite, history_pg;

/* Open (create, migrate) a database: 0 with *db and the version found, or gate_error(). */
int history_sqlite_open(const char *where, void **db, int *found_version);
int history_pg_open(const char *url, void **db, int *found_version);
/* Whether 'where' names a PostgreSQL database (a postgresql:// or postgres:// URL). */
int history_pg_url(const char *where);

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
 * The rows of one query, as a backend hands them to the reader (db.c): next() steps to the next row
 * (1), past the last (0) or fails (-1, after gate_error()); the getters read a column of the row.
 */
struct history_cursor {
	void *ctx;
	int (*next)(void *ctx);
	const char *(*text)(void *ctx, int col);  /* NULL for SQL NULL */
	double (*real)(void *ctx, int col);       /* NAN for SQL NULL */
	long long (*integer)(void *ctx, int col);
};

#endif
