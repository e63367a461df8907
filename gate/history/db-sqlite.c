/* The history database in SQLite: schema and migrations, one transaction per recorded run, reading
 * series back. */
#include "history/db-priv.h"
#include "history/history.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"

/* migrations[v] brings a database from version v to v + 1 (docs/history.md describes the result).
 */
static const char *const migrations[HISTORY_SCHEMA_VERSION] = {
	"CREATE TABLE runs (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  commit_id TEXT NOT NULL,\n"
	"  parent TEXT,\n"
	"  branch TEXT,\n"
	"  date TEXT NOT NULL,\n"
	"  job_url TEXT,\n"
	"  machine TEXT,\n"
	"  config_hash TEXT,\n"
	"  recorded_at TEXT NOT NULL\n"
	");\n"
	"CREATE TABLE series (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  benchmark TEXT NOT NULL,\n"
	"  interval TEXT NOT NULL,\n"
	"  configuration TEXT NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  UNIQUE (benchmark, interval, configuration, metric)\n"
	");\n"
	"CREATE TABLE points (\n"
	"  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
	"  series INTEGER NOT NULL REFERENCES series (id),\n"
	"  median REAL NOT NULL,\n"
	"  lo REAL,\n"
	"  hi REAL,\n"
	"  n INTEGER NOT NULL,\n"
	"  PRIMARY KEY (run, series)\n"
	");\n"
	"CREATE TABLE samples (\n"
	"  run INTEGER NOT NULL,\n"
	"  series INTEGER NOT NULL,\n"
	"  repeat INTEGER NOT NULL,\n"
	"  value REAL NOT NULL,\n"
	"  PRIMARY KEY (run, series, repeat),\n"
	"  FOREIGN KEY (run, series) REFERENCES points (run, series) ON DELETE CASCADE\n"
	");\n",
	/* 2: reading one series in record order without a scan of every point */
	"CREATE INDEX points_by_series ON points (series, run);\n",
};

struct sqlite_db {
	sqlite3 *db;
	char *where;
	int found_version;
	sqlite3_stmt *series_insert, *series_id, *point_insert, *sample_insert;
};

static int db_error(struct sqlite_db *h, const char *what)
{
	return error("history '%s': %s: %s", h->where, what, sqlite3_errmsg(h->db));
}

static int exec(struct sqlite_db *h, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(h->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("history '%s': %s", h->where, msg ? msg : sqlite3_errmsg(h->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int user_version(struct sqlite_db *h, int *v)
{
	sqlite3_stmt *st;
	int ret = -1;

	if (sqlite3_prepare_v2(h->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return db_error(h, "cannot read the schema version");
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		ret = 0;
	} else {
		db_error(h, "cannot read the schema version");
	}
	sqlite3_finalize(st);
	return ret;
}

/* Brings the schema to HISTORY_SCHEMA_VERSION in one transaction: a killed migration leaves the old
 * one. */
static int migrate(struct sqlite_db *h)
{
	int v = 0;
	char sql[64];

	if (exec(h, "BEGIN IMMEDIATE") || user_version(h, &v))
		goto fail;
	h->found_version = v;
	if (v > HISTORY_SCHEMA_VERSION) {
		error("history '%s' has schema version %d; this scalegate knows up to %d", h->where,
		      v, HISTORY_SCHEMA_VERSION);
		goto fail;
	}
	for (; v < HISTORY_SCHEMA_VERSION; v++)
		if (exec(h, migrations[v]))
			goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", HISTORY_SCHEMA_VERSION);
	if (exec(h, sql) || exec(h, "COMMIT"))
		goto fail;
	return 0;
fail:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int prepare(struct sqlite_db *h, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(h->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_error(h, "cannot prepare a statement");
	return 0;
}

static int prepare_all(struct sqlite_db *h)
{
	return prepare(h, &h->series_insert,
		       "INSERT INTO series (benchmark, interval, configuration, metric) VALUES (?, "
		       "?, ?, ?) "
		       "ON CONFLICT DO NOTHING") ||
			       prepare(h, &h->series_id,
				       "SELECT id FROM series WHERE benchmark = ? AND interval = ? "
				       "AND configuration = ? "
				       "AND metric = ?") ||
			       prepare(h, &h->point_insert,
				       "INSERT INTO points (run, series, median, lo, hi, n) VALUES "
				       "(?, ?, ?, ?, ?, ?)") ||
			       prepare(h, &h->sample_insert,
				       "INSERT INTO samples (run, series, repeat, value) VALUES "
				       "(?, ?, ?, ?)")
		       ? -1
		       : 0;
}

static void sqlite_close(void *db)
{
	struct sqlite_db *h = db;

	if (!h)
		return;
	sqlite3_finalize(h->series_insert);
	sqlite3_finalize(h->series_id);
	sqlite3_finalize(h->point_insert);
	sqlite3_finalize(h->sample_insert);
	sqlite3_close(h->db);
	free(h->where);
	free(h);
}

int history_sqlite_open(const char *where, void **db, int *found_version)
{
	struct sqlite_db *h = xcalloc(1, sizeof(*h));

	*db = NULL;
	h->where = xstrdup(where);
	if (sqlite3_open_v2(where, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		db_error(h, "cannot open");
		sqlite_close(h);
		return -1;
	}
	sqlite3_busy_timeout(h->db, HISTORY_BUSY_MS);
	/* WAL: readers never block the writer; a writer killed mid-transaction leaves the last
	 * commit. */
	if (exec(h, "PRAGMA journal_mode = WAL") || exec(h, "PRAGMA foreign_keys = ON") ||
	    migrate(h) || prepare_all(h)) {
		sqlite_close(h);
		return -1;
	}
	*found_version = h->found_version;
	*db = h;
	return 0;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Runs a bound statement that returns no row, and resets it; 0 or db_error(). */
static int step_done(struct sqlite_db *h, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : db_error(h, what);
}

static int insert_run(struct sqlite_db *h, struct history_run *r)
{
	sqlite3_stmt *st;
	char now[32];
	time_t t = time(NULL);
	int ret;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (prepare(h, &st,
		    "INSERT INTO runs (commit_id, parent, branch, date, job_url, machine, "
		    "config_hash, "
		    "recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"))
		return -1;
	bind_text(st, 1, r->commit);
	bind_text(st, 2, r->parent);
	bind_text(st, 3, r->branch);
	bind_text(st, 4, r->date);
	bind_text(st, 5, r->job_url);
	bind_text(st, 6, r->machine);
	bind_text(st, 7, r->config_hash);
	bind_text(st, 8, now);
	ret = step_done(h, st, "cannot record the run");
	sqlite3_finalize(st);
	r->id = sqlite3_last_insert_rowid(h->db);
	return ret;
}

static void bind_series(sqlite3_stmt *st, const struct history_point *p)
{
	bind_text(st, 1, p->benchmark);
	bind_text(st, 2, p->interval);
	bind_text(st, 3, p->configuration);
	bind_text(st, 4, history_metric_name(p->metric));
}

static int series_id(struct sqlite_db *h, const struct history_point *p, long long *id)
{
	int rc;

	bind_series(h->series_insert, p);
	if (step_done(h, h->series_insert, "cannot add a series"))
		return -1;
	bind_series(h->series_id, p);
	rc = sqlite3_step(h->series_id);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(h->series_id, 0);
	sqlite3_reset(h->series_id);
	sqlite3_clear_bindings(h->series_id);
	return rc == SQLITE_ROW ? 0 : db_error(h, "cannot find a series");
}

static int insert_point(struct sqlite_db *h, long long run, const struct history_point *p)
{
	long long s = 0;

	if (series_id(h, p, &s))
		return -1;
	sqlite3_bind_int64(h->point_insert, 1, run);
	sqlite3_bind_int64(h->point_insert, 2, s);
	sqlite3_bind_double(h->point_insert, 3, p->median);
	bind_real(h->point_insert, 4, p->lo);
	bind_real(h->point_insert, 5, p->hi);
	sqlite3_bind_int64(h->point_insert, 6, (long long)p->n);
	if (step_done(h, h->point_insert, "cannot record a point"))
		return -1;
	for (size_t i = 0; i < p->nr_samples; i++) {
		sqlite3_bind_int64(h->sample_insert, 1, run);
		sqlite3_bind_int64(h->sample_insert, 2, s);
		sqlite3_bind_int(h->sample_insert, 3, p->repeat[i]);
		sqlite3_bind_double(h->sample_insert, 4, p->sample[i]);
		if (step_done(h, h->sample_insert, "cannot record a sample"))
			return -1;
	}
	return 0;
}

static int sqlite_write(void *db, struct history_record *r)
{
	struct sqlite_db *h = db;

	if (exec(h, "BEGIN IMMEDIATE") || insert_run(h, &r->run))
		goto fail;
	for (size_t i = 0; i < r->nr; i++)
		if (insert_point(h, r->run.id, &r->points[i]))
			goto fail;
	if (exec(h, "COMMIT"))
		goto fail;
	return 0;
fail:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static char *column_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

static int read_runs(struct sqlite_db *h, const char *branch, struct history_data *d,
		     long long **ids)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc;

	if (prepare(h, &st,
		    "SELECT id, commit_id, parent, branch, date, job_url, machine, config_hash "
		    "FROM runs "
		    "WHERE ?1 IS NULL OR branch = ?1 ORDER BY id"))
		return -1;
	bind_text(st, 1, branch);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct history_run *r;
		ALLOC_GROW(d->runs, d->nr_runs + 1, alloc);
		r = &d->runs[d->nr_runs++];
		r->id = sqlite3_column_int64(st, 0);
		r->commit = column_text(st, 1);
		r->parent = column_text(st, 2);
		r->branch = column_text(st, 3);
		r->date = column_text(st, 4);
		r->job_url = column_text(st, 5);
		r->machine = column_text(st, 6);
		r->config_hash = column_text(st, 7);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(h, "cannot read the runs");
	*ids = xmalloc((d->nr_runs + 1) * sizeof(**ids));
	for (size_t i = 0; i < d->nr_runs; i++)
		(*ids)[i] = d->runs[i].id;
	return 0;
}

static double column_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* Every series with its points in record order; series of unknown metrics (a newer writer) are
 * skipped. */
static int read_series(struct sqlite_db *h, struct history_data *d, const long long *ids)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	long long current = -1;
	struct history_series *s = NULL;
	int rc;

	if (prepare(h, &st,
		    "SELECT s.id, s.benchmark, s.interval, s.configuration, s.metric, p.run, "
		    "p.median, "
		    "p.lo, p.hi FROM points p JOIN series s ON p.series = s.id ORDER BY p.series, "
		    "p.run"))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long idx = history_run_index(ids, d->nr_runs, sqlite3_column_int64(st, 5));
		int metric = history_metric_find((const char *)sqlite3_column_text(st, 4));
		if (idx < 0 || metric < 0)
			continue;
		if (sqlite3_column_int64(st, 0) != current) {
			current = sqlite3_column_int64(st, 0);
			ALLOC_GROW(d->series, d->nr_series + 1, alloc);
			s = &d->series[d->nr_series++];
			memset(s, 0, sizeof(*s));
			s->benchmark = column_text(st, 1);
			s->interval = column_text(st, 2);
			s->configuration = column_text(st, 3);
			s->metric = (enum history_metric)metric;
		}
		history_series_append(s, (size_t)idx, sqlite3_column_double(st, 6),
				      column_real(st, 7), column_real(st, 8));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(h, "cannot read the series");
	history_series_sort(d);
	return 0;
}

static int sqlite_read(void *db, const char *branch, struct history_data *d)
{
	struct sqlite_db *h = db;
	long long *ids = NULL;
	int ret;

	/* one read transaction: a run recorded meanwhile is either wholly in or wholly out */
	if (exec(h, "BEGIN"))
		return -1;
	ret = read_runs(h, branch, d, &ids) || read_series(h, d, ids) ? -1 : 0;
	sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
	free(ids);
	return ret;
}

const struct history_backend history_sqlite = { sqlite_write, sqlite_read, sqlite_close };
