/* The history database in SQLite: schema and migrations, one transaction per recorded run, reading
 * series back. */
#include "history/db-priv.h"
#include "history/history.h"
#include "history/series-ids.h"
#include "history/sqlite-batch.h"

#include <errno.h>
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
	/* 3: no reader uses it (they scan the table once), and a run's points reached a leaf of it
	 * per series: it made 9 in 10 of a record's page writes */
	"DROP INDEX IF EXISTS points_by_series;\n",
	/* 4: the commit's subject for the trend pages, the machine speed reference of the run; the
	 * points and samples without a rowid (their primary key is the table: one b-tree a row,
	 * not two), in the same order */
	"ALTER TABLE runs ADD COLUMN subject TEXT;\n"
	"ALTER TABLE runs ADD COLUMN reference REAL;\n"
	"CREATE TABLE points4 (\n"
	"  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
	"  series INTEGER NOT NULL REFERENCES series (id),\n"
	"  median REAL NOT NULL,\n"
	"  lo REAL,\n"
	"  hi REAL,\n"
	"  n INTEGER NOT NULL,\n"
	"  PRIMARY KEY (run, series)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE samples4 (\n"
	"  run INTEGER NOT NULL,\n"
	"  series INTEGER NOT NULL,\n"
	"  repeat INTEGER NOT NULL,\n"
	"  value REAL NOT NULL,\n"
	"  PRIMARY KEY (run, series, repeat),\n"
	"  FOREIGN KEY (run, series) REFERENCES points (run, series) ON DELETE CASCADE\n"
	") WITHOUT ROWID;\n"
	"INSERT INTO points4 SELECT run, series, median, lo, hi, n FROM points\n"
	"  ORDER BY run, series;\n"
	"INSERT INTO samples4 SELECT run, series, repeat, value FROM samples\n"
	"  ORDER BY run, series, repeat;\n"
	"DROP TABLE samples;\n"
	"DROP TABLE points;\n"
	"ALTER TABLE points4 RENAME TO points;\n"
	"ALTER TABLE samples4 RENAME TO samples;\n",
};

struct sqlite_db {
	sqlite3 *db;
	char *where;
	int found_version;
	sqlite3_stmt *run_insert, *series_insert;
	struct sqlite_batch points, samples;
	struct series_ids ids; /* every series, while a write transaction holds the lock */
};

/* SQLite's message, with the system's reason where it has one: "disk I/O error" alone does not
 * say that the disk is full. Returns -1. */
static int say(struct sqlite_db *h, const char *what, const char *msg)
{
	int code = sqlite3_errcode(h->db) & 0xff, sys = sqlite3_system_errno(h->db);

	if (code == SQLITE_FULL && sys <= 0)
		sys = ENOSPC;
	if ((code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN) && sys > 0)
		return gate_error("history '%s': %s%s%s: %s", h->where, what ? what : "",
				  what ? ": " : "", msg, strerror(sys));
	return gate_error("history '%s': %s%s%s", h->where, what ? what : "", what ? ": " : "",
			  msg);
}

static int db_error(struct sqlite_db *h, const char *what)
{
	return say(h, what, sqlite3_errmsg(h->db));
}

static int exec(struct sqlite_db *h, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(h->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		say(h, NULL, msg ? msg : sqlite3_errmsg(h->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int prepare(struct sqlite_db *h, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(h->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_error(h, "cannot prepare a statement");
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

/* The tables of the database (its own sqlite_* ones left out) into names[0..*nr); caller frees. */
static int list_tables(struct sqlite_db *h, char ***names, size_t *nr)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc;

	*names = NULL;
	*nr = 0;
	if (prepare(h, &st,
		    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
		    "'sqlite\\_%' ESCAPE '\\'"))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(*names, *nr + 1, alloc);
		(*names)[(*nr)++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(h, "cannot read the tables");
}

static void free_names(char **names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/* Reads the schema version into h->found_version; 0 when the database may be opened as a history
 * (nothing written to it yet: another program's database or a damaged one is left as it is). */
static int check_schema(struct sqlite_db *h)
{
	char **tables;
	size_t nr;
	int ret;

	if (user_version(h, &h->found_version) || list_tables(h, &tables, &nr))
		return -1;
	ret = history_check_schema(h->where, h->found_version, 0, (const char *const *)tables, nr);
	free_names(tables, nr);
	return ret;
}

/* Brings the schema to HISTORY_SCHEMA_VERSION in one transaction: a killed migration leaves the old
 * one. */
static int migrate(struct sqlite_db *h)
{
	int v = h->found_version;
	char sql[64];

	/* current: no write transaction (its commit's sync cost every open a fifth of a record) */
	if (v == HISTORY_SCHEMA_VERSION)
		return 0;
	/* another writer may have migrated meanwhile: read again under the lock */
	if (exec(h, "BEGIN IMMEDIATE") || check_schema(h))
		goto fail;
	for (v = h->found_version; v < HISTORY_SCHEMA_VERSION; v++)
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

static int prepare_all(struct sqlite_db *h)
{
	if (prepare(h, &h->run_insert,
		    "INSERT INTO runs (commit_id, parent, branch, date, job_url, machine, "
		    "config_hash, subject, reference, recorded_at) "
		    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") ||
	    prepare(h, &h->series_insert,
		    "INSERT INTO series (benchmark, interval, configuration, metric) VALUES (?, ?, "
		    "?, ?)"))
		return -1;
	if (sqlite_batch_prepare(&h->points, h->db, "points", "run, series, median, lo, hi, n",
				 6) != SQLITE_OK ||
	    sqlite_batch_prepare(&h->samples, h->db, "samples", "run, series, repeat, value", 4) !=
		    SQLITE_OK)
		return db_error(h, "cannot prepare a statement");
	return 0;
}

static void sqlite_close(void *db)
{
	struct sqlite_db *h = db;

	if (!h)
		return;
	sqlite3_finalize(h->run_insert);
	sqlite3_finalize(h->series_insert);
	sqlite_batch_finalize(&h->points);
	sqlite_batch_finalize(&h->samples);
	sqlite3_close(h->db);
	series_ids_release(&h->ids);
	free(h->where);
	free(h);
}

int history_sqlite_open(const char *where, void **db, int *found_version)
{
	struct sqlite_db *h = xcalloc(1, sizeof(*h));

	*db = NULL;
	h->where = xstrdup(where);
	/* NOMUTEX: one thread uses the connection; the lock around every column read cost 14 % of
	 * a detect */
	if (sqlite3_open_v2(where, &h->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		db_error(h, "cannot open");
		sqlite_close(h);
		return -1;
	}
	sqlite3_busy_timeout(h->db, HISTORY_BUSY_MS);
	/* WAL: readers never block the writer; a writer killed mid-transaction leaves the last
	 * commit. Set after the check: it rewrites the file's header. Foreign keys stay
	 * unenforced (SQLite's default): the writer refers only to the run and series it has
	 * just written or read under the lock, and checking each sample's point cost a sixth of
	 * an import. */
	if (check_schema(h) || exec(h, "PRAGMA journal_mode = WAL") || migrate(h) ||
	    prepare_all(h)) {
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
	sqlite3_stmt *st = h->run_insert;
	char now[32];
	time_t t = time(NULL);
	int ret;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	bind_text(st, 1, r->commit);
	bind_text(st, 2, r->parent);
	bind_text(st, 3, r->branch);
	bind_text(st, 4, r->date);
	bind_text(st, 5, r->job_url);
	bind_text(st, 6, r->machine);
	bind_text(st, 7, r->config_hash);
	bind_text(st, 8, r->subject);
	bind_real(st, 9, r->reference);
	bind_text(st, 10, now);
	ret = step_done(h, st, "cannot record the run");
	r->id = sqlite3_last_insert_rowid(h->db);
	return ret;
}

/* The id of p's series, added when new: the write lock is held and h->ids holds every series. */
static int series_id(struct sqlite_db *h, const struct history_point *p, long long *id)
{
	const char *metric = history_metric_name(p->metric);

	if (series_ids_find(&h->ids, p->benchmark, p->interval, p->configuration, metric, id))
		return 0;
	bind_text(h->series_insert, 1, p->benchmark);
	bind_text(h->series_insert, 2, p->interval);
	bind_text(h->series_insert, 3, p->configuration);
	bind_text(h->series_insert, 4, metric);
	if (step_done(h, h->series_insert, "cannot add a series"))
		return -1;
	*id = sqlite3_last_insert_rowid(h->db);
	series_ids_add(&h->ids, p->benchmark, p->interval, p->configuration, metric, *id);
	return 0;
}

/* Adds p's point and samples to the batches (written when full); 0 or db_error(). */
static int insert_point(struct sqlite_db *h, long long run, const struct history_point *p)
{
	struct sqlite_batch *pt = &h->points, *sm = &h->samples;
	long long s = 0;
	int rc;

	if (series_id(h, p, &s))
		return -1;
	if (sqlite_batch_int(pt, run) || sqlite_batch_int(pt, s) ||
	    sqlite_batch_real(pt, p->median) || sqlite_batch_real(pt, p->lo) ||
	    sqlite_batch_real(pt, p->hi) || sqlite_batch_int(pt, (long long)p->n))
		return db_error(h, "cannot record a point");
	for (size_t i = 0; i < p->nr_samples; i++) {
		rc = sqlite_batch_int(sm, run);
		rc = rc ? rc : sqlite_batch_int(sm, s);
		rc = rc ? rc : sqlite_batch_int(sm, p->repeat[i]);
		rc = rc ? rc : sqlite_batch_real(sm, p->sample[i]);
		if (rc)
			return db_error(h, "cannot record a sample");
	}
	return 0;
}

/* Every series into h->ids: one scan, instead of a look-up per point recorded. */
static int load_series(struct sqlite_db *h)
{
	sqlite3_stmt *st;
	int rc;

	series_ids_release(&h->ids);
	if (prepare(h, &st, "SELECT id, benchmark, interval, configuration, metric FROM series"))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		series_ids_add(&h->ids, (const char *)sqlite3_column_text(st, 1),
			       (const char *)sqlite3_column_text(st, 2),
			       (const char *)sqlite3_column_text(st, 3),
			       (const char *)sqlite3_column_text(st, 4),
			       sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(h, "cannot read the series");
}

/* The write lock, taken at once (a second writer waits here, not at its first insert). */
static int sqlite_begin(void *db)
{
	struct sqlite_db *h = db;

	if (exec(h, "BEGIN IMMEDIATE"))
		return -1;
	if (!load_series(h))
		return 0;
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int sqlite_write(void *db, struct history_record *r)
{
	struct sqlite_db *h = db;

	if (insert_run(h, &r->run))
		return -1;
	for (size_t i = 0; i < r->nr; i++)
		if (insert_point(h, r->run.id, &r->points[i]))
			return -1;
	if (sqlite_batch_flush(&h->points) || sqlite_batch_flush(&h->samples))
		return db_error(h, "cannot record a point");
	return 0;
}

static int sqlite_commit(void *db)
{
	struct sqlite_db *h = db;

	series_ids_release(&h->ids);
	return exec(h, "COMMIT");
}

static void sqlite_rollback(void *db)
{
	struct sqlite_db *h = db;

	series_ids_release(&h->ids);
	sqlite_batch_drop(&h->points);
	sqlite_batch_drop(&h->samples);
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

/* A statement's rows as the reader's cursor. */
struct sqlite_rows {
	struct sqlite_db *h;
	sqlite3_stmt *st;
};

static int rows_next(void *ctx)
{
	struct sqlite_rows *r = ctx;
	int rc = sqlite3_step(r->st);

	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : db_error(r->h, "cannot read");
}

static const char *rows_text(void *ctx, int col)
{
	return (const char *)sqlite3_column_text(((struct sqlite_rows *)ctx)->st, col);
}

static double rows_real(void *ctx, int col)
{
	sqlite3_stmt *st = ((struct sqlite_rows *)ctx)->st;

	return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

static long long rows_integer(void *ctx, int col)
{
	return sqlite3_column_int64(((struct sqlite_rows *)ctx)->st, col);
}

static int sqlite_query(void *db, const char *sql, const char *param, history_rows_fn *rows_fn,
			struct history_reader *rd)
{
	struct sqlite_rows rows = { db, NULL };
	struct history_cursor c = { &rows, rows_next, rows_text, rows_real, rows_integer };
	int ret;

	if (prepare(db, &rows.st, sql))
		return -1;
	if (param)
		bind_text(rows.st, 1, param);
	ret = rows_fn(rd, &c);
	sqlite3_finalize(rows.st);
	return ret;
}

static int sqlite_read_begin(void *db)
{
	return exec(db, "BEGIN");
}

static void sqlite_read_end(void *db, int failed)
{
	(void)failed; /* nothing was written: the end of the snapshot either way */
	sqlite3_exec(((struct sqlite_db *)db)->db, "COMMIT", NULL, NULL, NULL);
}

const struct history_backend history_sqlite = {
	.begin = sqlite_begin,
	.write = sqlite_write,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.read_begin = sqlite_read_begin,
	.read_end = sqlite_read_end,
	.query = sqlite_query,
	.close = sqlite_close,
};
