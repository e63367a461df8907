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

static char *value_or_null(PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : xstrdup(PQgetvalue(res, row, col));
}

static int read_runs(struct pg_db *h, const char *branch, struct history_data *d, long long **ids)
{
	const char *p[1] = { branch };
	PGresult *res = query(h,
			      "SELECT id, commit_id, parent, branch, date, job_url, machine, "
			      "config_hash FROM runs "
			      "WHERE $1::text IS NULL OR branch = $1 ORDER BY id",
			      1, p);

	if (!res)
		return -1;
	d->nr_runs = (size_t)PQntuples(res);
	d->runs = xcalloc(d->nr_runs + 1, sizeof(*d->runs));
	*ids = xcalloc(d->nr_runs + 1, sizeof(**ids));
	for (int i = 0; i < PQntuples(res); i++) {
		struct history_run *r = &d->runs[i];
		(*ids)[i] = r->id = atoll(PQgetvalue(res, i, 0));
		r->commit = value_or_null(res, i, 1);
		r->parent = value_or_null(res, i, 2);
		r->branch = value_or_null(res, i, 3);
		r->date = value_or_null(res, i, 4);
		r->job_url = value_or_null(res, i, 5);
		r->machine = value_or_null(res, i, 6);
		r->config_hash = value_or_null(res, i, 7);
	}
	PQclear(res);
	return 0;
}

static double real_or_nan(PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NAN : strtod(PQgetvalue(res, row, col), NULL);
}

static int read_series(struct pg_db *h, struct history_data *d, const long long *ids)
{
	PGresult *res = query(
		h,
		"SELECT p.series, s.benchmark, s.\"interval\", s.configuration, s.metric, p.run, "
		"p.median, p.lo, p.hi FROM points p JOIN series s ON p.series = s.id "
		"ORDER BY p.series, p.run",
		0, NULL);
	struct history_series *s = NULL;
	long long current = -1;
	size_t alloc = 0;

	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res); i++) {
		long idx = history_run_index(ids, d->nr_runs, atoll(PQgetvalue(res, i, 5)));
		int metric = history_metric_find(PQgetvalue(res, i, 4));
		if (idx < 0 || metric < 0)
			continue;
		if (atoll(PQgetvalue(res, i, 0)) != current) {
			current = atoll(PQgetvalue(res, i, 0));
			ALLOC_GROW(d->series, d->nr_series + 1, alloc);
			s = &d->series[d->nr_series++];
			memset(s, 0, sizeof(*s));
			s->benchmark = xstrdup(PQgetvalue(res, i, 1));
			s->interval = xstrdup(PQgetvalue(res, i, 2));
			s->configuration = xstrdup(PQgetvalue(res, i, 3));
			s->metric = (enum history_metric)metric;
		}
		history_series_append(s, (size_t)idx, strtod(PQgetvalue(res, i, 6), NULL),
				      real_or_nan(res, i, 7), real_or_nan(res, i, 8));
	}
	PQclear(res);
	history_series_sort(d);
	return 0;
}

static int pg_read(void *db, const char *branch, struct history_data *d)
{
	struct pg_db *h = db;
	long long *ids = NULL;
	int ret;

	/* one snapshot: a run recorded meanwhile is either wholly in or wholly out */
	if (exec(h, "BEGIN ISOLATION LEVEL REPEATABLE READ"))
		return -1;
	ret = read_runs(h, branch, d, &ids) || read_series(h, d, ids) ? -1 : 0;
	PQclear(PQexec(h->conn, ret ? "ROLLBACK" : "COMMIT"));
	free(ids);
	return ret;
}

const struct history_backend history_pg = { pg_write, pg_read, pg_close };
