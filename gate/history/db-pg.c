/* The history database in PostgreSQL (libpq): the SQLite schema, migrated under an advisory lock,
 * one transaction a run. */
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "history/db-priv.h"
#include "history/history.h"

/* The key of the advisory lock that serializes migrations: two first records at once create the
 * schema once. */
#define PG_MIGRATION_LOCK 5715250

/* The same tables as db-sqlite.c, in PostgreSQL's types; "interval" is quoted (a type name there).
 */
static const char *const migrations[HISTORY_SCHEMA_VERSION] = {
	"CREATE TABLE runs (id BIGSERIAL PRIMARY KEY, commit_id TEXT NOT NULL, parent TEXT, branch "
	"TEXT,\n"
	"  date TEXT NOT NULL, job_url TEXT, machine TEXT, config_hash TEXT, recorded_at TEXT NOT "
	"NULL);\n"
	"CREATE TABLE series (id BIGSERIAL PRIMARY KEY, benchmark TEXT NOT NULL, \"interval\" TEXT "
	"NOT NULL,\n"
	"  configuration TEXT NOT NULL, metric TEXT NOT NULL,\n"
	"  UNIQUE (benchmark, \"interval\", configuration, metric));\n"
	"CREATE TABLE points (run BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
	"  series BIGINT NOT NULL REFERENCES series (id), median DOUBLE PRECISION NOT NULL,\n"
	"  lo DOUBLE PRECISION, hi DOUBLE PRECISION, n INTEGER NOT NULL, PRIMARY KEY (run, "
	"series));\n"
	"CREATE TABLE samples (run BIGINT NOT NULL, series BIGINT NOT NULL, repeat INTEGER NOT "
	"NULL,\n"
	"  value DOUBLE PRECISION NOT NULL, PRIMARY KEY (run, series, repeat),\n"
	"  FOREIGN KEY (run, series) REFERENCES points (run, series) ON DELETE CASCADE);\n",
	"CREATE INDEX points_by_series ON points (series, run);\n",
};

struct pg_db {
	PGconn *conn;
	char *where;
};

/* Runs 'sql' with text parameters (NULL: SQL NULL); the result, or NULL after error() (the
 * transaction is then aborted). */
static PGresult *query(struct pg_db *h, const char *sql, int n, const char *const *params)
{
	PGresult *res = PQexecParams(h->conn, sql, n, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(res);

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
		return res;
	error("history '%s': %s", h->where, PQresultErrorMessage(res));
	PQclear(res);
	return NULL;
}

/* Runs one or more statements without parameters; 0 or error(). */
static int exec(struct pg_db *h, const char *sql)
{
	PGresult *res = PQexec(h->conn, sql);
	ExecStatusType st = PQresultStatus(res);
	int ret = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK
			  ? 0
			  : error("history '%s': %s", h->where, PQresultErrorMessage(res));

	PQclear(res);
	return ret;
}

static int migrate(struct pg_db *h, int *found)
{
	PGresult *res;
	int v;
	char sql[96];

	snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%d)", PG_MIGRATION_LOCK);
	if (exec(h, "BEGIN") || exec(h, sql) ||
	    exec(h, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)") ||
	    !(res = query(h, "SELECT max(version) FROM schema_version", 0, NULL)))
		goto fail;
	v = PQgetisnull(res, 0, 0) ? 0 : atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	*found = v;
	if (v > HISTORY_SCHEMA_VERSION) {
		error("history '%s' has schema version %d; this scalegate knows up to %d", h->where,
		      v, HISTORY_SCHEMA_VERSION);
		goto fail;
	}
	for (; v < HISTORY_SCHEMA_VERSION; v++)
		if (exec(h, migrations[v]))
			goto fail;
	snprintf(sql, sizeof(sql),
		 "DELETE FROM schema_version; INSERT INTO schema_version VALUES (%d)",
		 HISTORY_SCHEMA_VERSION);
	if (exec(h, sql) || exec(h, "COMMIT"))
		goto fail;
	return 0;
fail:
	PQclear(PQexec(h->conn, "ROLLBACK"));
	return -1;
}

static void pg_close(void *db)
{
	struct pg_db *h = db;

	if (!h)
		return;
	PQfinish(h->conn);
	free(h->where);
	free(h);
}

int history_pg_open(const char *url, void **db, int *found_version)
{
	struct pg_db *h = xcalloc(1, sizeof(*h));

	*db = NULL;
	h->where = history_where_text(url);
	h->conn = PQconnectdb(url);
	if (PQstatus(h->conn) != CONNECTION_OK) {
		error("history '%s': cannot connect: %s", h->where, PQerrorMessage(h->conn));
		pg_close(h);
		return -1;
	}
	PQclear(PQexec(h->conn, "SET client_min_messages = warning"));
	if (migrate(h, found_version)) {
		pg_close(h);
		return -1;
	}
	*db = h;
	return 0;
}

static char *real_text(double v)
{
	return isfinite(v) ? xstrfmt("%.17g", v) : NULL;
}

static int insert_run(struct pg_db *h, struct history_run *r)
{
	char now[32];
	time_t t = time(NULL);
	const char *p[8] = { r->commit,	 r->parent,  r->branch,	     r->date,
			     r->job_url, r->machine, r->config_hash, now };
	PGresult *res;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	res = query(h,
		    "INSERT INTO runs (commit_id, parent, branch, date, job_url, machine, "
		    "config_hash, recorded_at) "
		    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
		    8, p);
	if (!res)
		return -1;
	r->id = atoll(PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

/* The series' id, created when missing (ON CONFLICT: a concurrent writer may create it first). */
static int series_id(struct pg_db *h, const struct history_point *pt, char **id)
{
	const char *p[4] = { pt->benchmark, pt->interval, pt->configuration,
			     history_metric_name(pt->metric) };
	PGresult *res = query(h,
			      "INSERT INTO series (benchmark, \"interval\", configuration, metric) "
			      "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
			      4, p);

	if (!res)
		return -1;
	PQclear(res);
	res = query(h,
		    "SELECT id FROM series WHERE benchmark = $1 AND \"interval\" = $2 AND "
		    "configuration = $3 "
		    "AND metric = $4",
		    4, p);
	if (!res)
		return -1;
	*id = PQntuples(res) ? xstrdup(PQgetvalue(res, 0, 0)) : NULL;
	PQclear(res);
	return *id ? 0 : error("history '%s': a series vanished", h->where);
}

static int insert_samples(struct pg_db *h, const char *run, const char *series,
			  const struct history_point *pt)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < pt->nr_samples; i++) {
		char *rep = xstrfmt("%d", pt->repeat[i]), *v = real_text(pt->sample[i]);
		const char *p[4] = { run, series, rep, v };
		PGresult *res = query(
			h,
			"INSERT INTO samples (run, series, repeat, value) VALUES ($1, $2, $3, $4)",
			4, p);
		ret = res ? 0 : -1;
		PQclear(res);
		free(rep);
		free(v);
	}
	return ret;
}

static int insert_point(struct pg_db *h, const char *run, const struct history_point *pt)
{
	char *series = NULL, *median = real_text(pt->median), *lo = real_text(pt->lo),
	     *hi = real_text(pt->hi);
	char *n = xstrfmt("%zu", pt->n);
	PGresult *res = NULL;
	int ret = -1;

	if (!series_id(h, pt, &series)) {
		const char *p[6] = { run, series, median, lo, hi, n };
		res = query(h,
			    "INSERT INTO points (run, series, median, lo, hi, n) VALUES ($1, $2, "
			    "$3, $4, $5, $6)",
			    6, p);
		ret = res ? insert_samples(h, run, series, pt) : -1;
	}
	PQclear(res);
	free(series);
	free(median);
	free(lo);
	free(hi);
	free(n);
	return ret;
}

static int pg_write(void *db, struct history_record *r)
{
	struct pg_db *h = db;
	char *run = NULL;
	int ret = -1;

	if (exec(h, "BEGIN") || insert_run(h, &r->run))
		goto out;
	run = xstrfmt("%lld", r->run.id);
	for (size_t i = 0; i < r->nr; i++)
		if (insert_point(h, run, &r->points[i]))
			goto out;
	ret = exec(h, "COMMIT");
out:
	if (ret)
		PQclear(PQexec(h->conn, "ROLLBACK"));
	free(run);
	return ret;
}

/* A result's rows as the reader's cursor. */
struct pg_rows {
	PGresult *res;
	int row;
};

static int rows_next(void *ctx)
{
	struct pg_rows *r = ctx;

	return ++r->row < PQntuples(r->res);
}

static const char *rows_text(void *ctx, int col)
{
	struct pg_rows *r = ctx;

	return PQgetisnull(r->res, r->row, col) ? NULL : PQgetvalue(r->res, r->row, col);
}

static double rows_real(void *ctx, int col)
{
	const char *s = rows_text(ctx, col);

	return s ? strtod(s, NULL) : NAN;
}

static long long rows_integer(void *ctx, int col)
{
	const char *s = rows_text(ctx, col);

	return s ? atoll(s) : 0;
}

/* Runs one query of the reader: 'part' reads its rows. */
static int read_part(struct pg_db *h, struct history_reader *rd, const char *sql,
		     const char *branch,
		     int (*part)(struct history_reader *, struct history_cursor *))
{
	const char *p[1] = { branch };
	struct pg_rows rows = { query(h, sql, branch ? 1 : 0, p), -1 };
	struct history_cursor c = { &rows, rows_next, rows_text, rows_real, rows_integer };
	int ret;

	if (!rows.res)
		return -1;
	ret = part(rd, &c);
	PQclear(rows.res);
	return ret;
}

static int pg_read(void *db, const char *branch, struct history_data *d)
{
	struct pg_db *h = db;
	struct history_reader rd;
	int ret;

	/* one snapshot: a run recorded meanwhile is either wholly in or wholly out */
	if (exec(h, "BEGIN ISOLATION LEVEL REPEATABLE READ"))
		return -1;
	history_reader_init(&rd, d);
	ret = read_part(h, &rd,
			branch ? "SELECT " HISTORY_RUN_COLUMNS " FROM runs WHERE branch = $1 "
				 "ORDER BY id"
			       : "SELECT " HISTORY_RUN_COLUMNS " FROM runs ORDER BY id",
			branch, history_reader_runs);
	if (!ret)
		ret = read_part(h, &rd, "SELECT " HISTORY_SERIES_COLUMNS " FROM series", NULL,
				history_reader_series);
	if (!ret)
		ret = read_part(h, &rd, "SELECT " HISTORY_POINT_COLUMNS " FROM points", NULL,
				history_reader_points);
	history_reader_finish(&rd);
	PQclear(PQexec(h->conn, ret ? "ROLLBACK" : "COMMIT"));
	return ret;
}

const struct history_backend history_pg = { pg_write, pg_read, pg_close };
