/* Private to gate/history/: the database backends (SQLite, PostgreSQL) behind history.h, and what
 * they share. */
#ifndef SG_HISTORY_DB_PRIV_H
#define SG_HISTORY_DB_PRIV_H

#include <stddef.h>

#include "history/history.h"

/* A writer waits this long for another one (two CI jobs recording at once) before giving up. */
#define HISTORY_BUSY_MS 60000

struct history_backend {
	int (*write)(void *db, struct history_record *r); /* one transaction; sets r->run.id */
	int (*read)(void *db, const char *branch, struct history_data *d);
	void (*close)(void *db);
};

extern const struct history_backend history_sqlite, history_pg;

/* Open (create, migrate) a database: 0 with *db and the version found, or error(). */
int history_sqlite_open(const char *where, void **db, int *found_version);
int history_pg_open(const char *url, void **db, int *found_version);

/* The index of run 'id' among the sorted ids, or -1 when it is not one read (another branch). */
long history_run_index(const long long *ids, size_t n, long long id);
/* Appends one point to a series. */
void history_series_append(struct history_series *s, size_t run, double v, double lo, double hi);
/* Sorts the series by benchmark, interval, configuration and metric. */
void history_series_sort(struct history_data *d);

#endif
