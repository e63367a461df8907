/* The history database in PostgreSQL (libpq): the SQLite schema, migrated under an advisory lock,
 * one transaction a run. */
#include <libpq-fe.h>
#include <math.h>
#include <stdint.h>
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

/* Seconds libpq waits for a server to connect and answer, unless the URL says otherwise. */
#define HISTORY_PG_CONNECT_TIMEOUT "10"

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
	"DROP INDEX IF EXISTS points_by_series;\n", /* 3: unused; most of a record's writes */
	/* 4: the commit's subject, the machine speed reference of the run */
	"ALTER TABLE runs ADD COLUMN subject TEXT, ADD COLUMN reference DOUBLE PRECISION;\n",
};

/* The statements of a record, prepared once a connection (an import sends 5 a run). */
enum pg_write { PG_RUN, PG_SERIES, PG_POINTS, PG_SAMPLES, PG_NR_WRITES };

struct pg_db {
	PGconn *conn;
	char *where;
	int prepared[PG_NR_WRITES];
};

/* Runs 'sql' with text parameters (NULL: SQL NULL); the result, or NULL after gate_error() (the
 * transaction is then aborted). */
static PGresult *query(struct pg_db *h, const char *sql, int n, const char *const *params)
{
	PGresult *res = PQexecParams(h->conn, sql, n, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(res);

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
		return res;
	gate_error("history '%s': %s", h->where, PQresultErrorMessage(res));
	PQclear(res);
	return NULL;
}

/* Runs write statement k ('sql', prepared on its first use) with text parameters: as query(). */
static PGresult *write_query(struct pg_db *h, enum pg_write k, const char *sql, int n,
			     const char *const *params)
{
	char name[32];
	PGresult *res;

	snprintf(name, sizeof(name), "scalegate_write_%d", (int)k);
	if (!h->prepared[k]) {
		res = PQprepare(h->conn, name, sql, n, NULL);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			gate_error("history '%s': %s", h->where, PQresultErrorMessage(res));
			PQclear(res);
			return NULL;
		}
		PQclear(res);
		h->prepared[k] = 1;
	}
	res = PQexecPrepared(h->conn, name, n, params, NULL, NULL, 0);
	if (PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK)
		return res;
	gate_error("history '%s': %s", h->where, PQresultErrorMessage(res));
	PQclear(res);
	return NULL;
}

/* Runs one or more statements without parameters; 0 or gate_error(). */
static int exec(struct pg_db *h, const char *sql)
{
	PGresult *res = PQexec(h->conn, sql);
	ExecStatusType st = PQresultStatus(res);
	int ret = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK
			  ? 0
			  : gate_error("history '%s': %s", h->where, PQresultErrorMessage(res));

	PQclear(res);
	return ret;
}

/* The tables of the current schema: whether one is schema_version, and the version it holds. */
static int read_version(struct pg_db *h, PGresult *tables, int *v, int *recorded)
{
	PGresult *res;

	*v = 0;
	*recorded = 0;
	for (int i = 0; i < PQntuples(tables); i++)
		*recorded |= !strcmp(PQgetvalue(tables, i, 0), "schema_version");
	if (!*recorded)
		return 0;
	res = query(h, "SELECT max(version) FROM schema_version", 0, NULL);
	if (!res)
		return -1;
	*v = PQgetisnull(res, 0, 0) ? 0 : atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

/* The schema version into *found; 0 when the database may be opened as a history (nothing
 * written to it yet: another program's tables or a damaged history are left as they are). */
static int check_schema(struct pg_db *h, int *found)
{
	PGresult *tables = query(h,
				 "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = "
				 "c.relnamespace WHERE n.nspname = current_schema() AND c.relkind "
				 "IN ('r', 'p', 'v', 'm', 'f')",
				 0, NULL);
	const char **names;
	int recorded, ret;

	if (!tables)
		return -1;
	names = xcalloc((size_t)PQntuples(tables) + 1, sizeof(*names));
	for (int i = 0; i < PQntuples(tables); i++)
		names[i] = PQgetvalue(tables, i, 0);
	ret = read_version(h, tables, found, &recorded);
	if (!ret)
		ret = history_check_schema(h->where, *found, recorded, names,
					   (size_t)PQntuples(tables));
	free(names);
	PQclear(tables);
	return ret;
}

static int migrate(struct pg_db *h, int *found)
{
	int v;
	char sql[96];

	snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%d)", PG_MIGRATION_LOCK);
	if (exec(h, "BEGIN") || exec(h, sql) || check_schema(h, found) ||
	    exec(h, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"))
		goto fail;
	for (v = *found; v < HISTORY_SCHEMA_VERSION; v++)
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

int history_pg_url(const char *where)
{
	return !strncmp(where, "postgresql://", 13) || !strncmp(where, "postgres://", 11);
}

/* The location for messages: a URL's password masked (history.h). */
char *history_where_text(const char *where)
{
	struct strbuf sb = STRBUF_INIT;
	const char *at = history_pg_url(where) ? strchr(where, '@') : NULL, *colon = NULL, *pw;

	/* postgresql://user:PASSWORD@host/db and ...?password=PASSWORD: the password never printed
	 */
	for (const char *p = strstr(where, "://"); at && p && p < at; p++)
		if (*p == ':' && p[1] != '/')
			colon = p;
	if (colon) {
		strbuf_add(&sb, where, (size_t)(colon - where) + 1);
		strbuf_addstr(&sb, "***");
		strbuf_addstr(&sb, at);
	} else {
		strbuf_addstr(&sb, where);
	}
	if ((pw = strstr(sb.buf, "password=")) != NULL) {
		size_t start = (size_t)(pw - sb.buf) + 9,
		       end = start + strcspn(sb.buf + start, "&");
		char *rest = xstrdup(sb.buf + end);
		sb.len = start;
		sb.buf[start] = 0;
		strbuf_addstr(&sb, "***");
		strbuf_addstr(&sb, rest);
		free(rest);
	}
	return strbuf_detach(&sb);
}

/*
 * Connects with libpq's defaults (GSS negotiation included) and a bounded wait: without one, a
 * server that accepts and never answers holds the gate for ever. A connect_timeout in the URL, or
 * PGCONNECT_TIMEOUT, wins (the URL's parameters override the ones before it in the list).
 */
static PGconn *pg_connect(const char *url)
{
	const char *env = getenv("PGCONNECT_TIMEOUT");
	const char *const keys[] = { "connect_timeout", "dbname", NULL };
	const char *const values[] = { env && *env ? env : HISTORY_PG_CONNECT_TIMEOUT, url, NULL };

	return PQconnectdbParams(keys, values, 1);
}

/* A connection's failure, naming the server: libpq's own words, on one line. */
static void connect_error(struct pg_db *h)
{
	const char *host = PQhost(h->conn), *port = PQport(h->conn);
	char *msg = xstrdup(PQerrorMessage(h->conn));
	size_t n = strlen(msg);

	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = 0;
	for (char *p = msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	gate_error("history '%s': cannot connect to host '%s' port %s: %s", h->where,
		   host && *host ? host : "localhost", port && *port ? port : "5432", msg);
	free(msg);
}

int history_pg_open(const char *url, void **db, int *found_version)
{
	struct pg_db *h = xcalloc(1, sizeof(*h));

	*db = NULL;
	h->where = history_where_text(url);
	h->conn = pg_connect(url);
	if (!h->conn || PQstatus(h->conn) != CONNECTION_OK) {
		if (h->conn)
			connect_error(h);
		else
			gate_error("history '%s': cannot connect: out of memory", h->where);
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

static int insert_run(struct pg_db *h, struct history_run *r)
{
	char now[32], reference[32];
	time_t t = time(NULL);
	const char *p[10] = { r->commit,  r->parent,	  r->branch,  r->date,
			      r->job_url, r->machine,	  r->config_hash,
			      r->subject, isfinite(r->reference) ? reference : NULL, now };
	PGresult *res;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	snprintf(reference, sizeof(reference), "%.17g", r->reference);
	res = write_query(h, PG_RUN,
			  "INSERT INTO runs (commit_id, parent, branch, date, job_url, machine, "
			  "config_hash, subject, reference, recorded_at) "
			  "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
			  10, p);
	if (!res)
		return -1;
	r->id = atoll(PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

/*
 * A record is three statements whatever its size, each over arrays of its rows (unnest): one query
 * per point and sample, each a round trip to the server, took 8-10 s for the 5,400 figures of a
 * 50-interval x 12-configuration run. The arrays are sent as text literals.
 */
struct pg_array {
	struct strbuf sb;
	size_t n;
};

static void array_next(struct pg_array *a)
{
	strbuf_addch(&a->sb, a->n++ ? ',' : '{');
}

static void array_text(struct pg_array *a, const char *s)
{
	array_next(a);
	strbuf_addch(&a->sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addch(&a->sb, '\\');
		strbuf_addch(&a->sb, *s);
	}
	strbuf_addch(&a->sb, '"');
}

static void array_real(struct pg_array *a, double v)
{
	array_next(a);
	if (isfinite(v))
		strbuf_addf(&a->sb, "%.17g", v);
	else
		strbuf_addstr(&a->sb, "NULL");
}

static void array_int(struct pg_array *a, long long v)
{
	array_next(a);
	strbuf_addf(&a->sb, "%lld", v);
}

/* The literal, "{}" when empty. */
static const char *array_end(struct pg_array *a)
{
	if (!a->n)
		strbuf_addch(&a->sb, '{');
	strbuf_addch(&a->sb, '}');
	return a->sb.buf;
}

/* The names of a series: benchmark, interval, configuration, metric. */
#define SERIES_KEY 4

static void add_key(struct pg_array *key, const struct history_point *pt)
{
	array_text(&key[0], pt->benchmark);
	array_text(&key[1], pt->interval);
	array_text(&key[2], pt->configuration);
	array_text(&key[3], history_metric_name(pt->metric));
}

static void arrays_init(struct pg_array *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		strbuf_init(&a[i].sb);
		a[i].n = 0;
	}
}

/*
 * Runs 'sql' over the run's id (NULL: none) and the arrays a[0..n) as its parameters; it must have
 * changed 'rows' rows (SIZE_MAX: any number). Releases the arrays.
 */
static int array_query(struct pg_db *h, enum pg_write k, const char *sql, const char *run,
		       struct pg_array *a, size_t n, size_t rows)
{
	const char *p[16];
	int np = 0, ret = 0;
	PGresult *res;

	if (run)
		p[np++] = run;
	for (size_t i = 0; i < n; i++)
		p[np++] = array_end(&a[i]);
	res = write_query(h, k, sql, np, p);
	if (!res)
		ret = -1;
	else if (rows != SIZE_MAX && strtoull(PQcmdTuples(res), NULL, 10) != rows)
		ret = gate_error("history '%s': %s rows of %zu written", h->where, PQcmdTuples(res),
				 rows);
	PQclear(res);
	for (size_t i = 0; i < n; i++)
		strbuf_release(&a[i].sb);
	return ret;
}

/* The series new to the database ('ON CONFLICT': a concurrent writer may add one first). */
static int insert_series(struct pg_db *h, const struct history_record *r)
{
	struct pg_array a[SERIES_KEY];

	arrays_init(a, ARRAY_SIZE(a));
	for (size_t i = 0; i < r->nr; i++)
		add_key(a, &r->points[i]);
	return array_query(h, PG_SERIES,
			   "INSERT INTO series (benchmark, \"interval\", configuration, metric) "
			   "SELECT DISTINCT * FROM unnest($1::text[], $2::text[], $3::text[], "
			   "$4::text[]) ON CONFLICT DO NOTHING",
			   NULL, a, ARRAY_SIZE(a), SIZE_MAX);
}

#define JOIN_SERIES \
	" JOIN series s ON s.benchmark = v.b AND s.\"interval\" = v.i AND s.configuration = v.c " \
	"AND s.metric = v.m"

static int insert_points(struct pg_db *h, const char *run, const struct history_record *r)
{
	struct pg_array a[SERIES_KEY + 4];

	arrays_init(a, ARRAY_SIZE(a));
	for (size_t i = 0; i < r->nr; i++) {
		const struct history_point *pt = &r->points[i];
		add_key(a, pt);
		array_real(&a[4], pt->median);
		array_real(&a[5], pt->lo);
		array_real(&a[6], pt->hi);
		array_int(&a[7], (long long)pt->n);
	}
	return array_query(h, PG_POINTS,
			   "INSERT INTO points (run, series, median, lo, hi, n) "
			   "SELECT $1::bigint, s.id, v.median, v.lo, v.hi, v.n FROM "
			   "unnest($2::text[], $3::text[], $4::text[], $5::text[], "
			   "$6::float8[], $7::float8[], $8::float8[], $9::int[]) "
			   "AS v(b, i, c, m, median, lo, hi, n)" JOIN_SERIES,
			   run, a, ARRAY_SIZE(a), r->nr);
}

static int insert_samples(struct pg_db *h, const char *run, const struct history_record *r)
{
	struct pg_array a[SERIES_KEY + 2];
	size_t rows = 0;

	arrays_init(a, ARRAY_SIZE(a));
	for (size_t i = 0; i < r->nr; i++)
		for (size_t k = 0; k < r->points[i].nr_samples; k++, rows++) {
			add_key(a, &r->points[i]);
			array_int(&a[4], r->points[i].repeat[k]);
			array_real(&a[5], r->points[i].sample[k]);
		}
	return array_query(h, PG_SAMPLES,
			   "INSERT INTO samples (run, series, repeat, value) "
			   "SELECT $1::bigint, s.id, v.repeat, v.value FROM unnest($2::text[], "
			   "$3::text[], $4::text[], $5::text[], $6::int[], $7::float8[]) "
			   "AS v(b, i, c, m, repeat, value)" JOIN_SERIES,
			   run, a, ARRAY_SIZE(a), rows);
}

static int pg_begin(void *db)
{
	return exec(db, "BEGIN");
}

static int pg_write(void *db, struct history_record *r)
{
	struct pg_db *h = db;
	char *run;
	int ret;

	if (insert_run(h, &r->run))
		return -1;
	run = xstrfmt("%lld", r->run.id);
	ret = insert_series(h, r) || insert_points(h, run, r) || insert_samples(h, run, r) ? -1 : 0;
	free(run);
	return ret;
}

static int pg_commit(void *db)
{
	return exec(db, "COMMIT");
}

static void pg_rollback(void *db)
{
	PQclear(PQexec(((struct pg_db *)db)->conn, "ROLLBACK"));
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

static int pg_query(void *db, const char *sql, const char *param, history_rows_fn *rows_fn,
		    struct history_reader *rd)
{
	const char *p[1] = { param };
	struct pg_rows rows = { query(db, sql, param ? 1 : 0, p), -1 };
	struct history_cursor c = { &rows, rows_next, rows_text, rows_real, rows_integer };
	int ret;

	if (!rows.res)
		return -1;
	ret = rows_fn(rd, &c);
	PQclear(rows.res);
	return ret;
}

static int pg_read_begin(void *db)
{
	return exec(db, "BEGIN ISOLATION LEVEL REPEATABLE READ");
}

static void pg_read_end(void *db, int failed)
{
	PQclear(PQexec(((struct pg_db *)db)->conn, failed ? "ROLLBACK" : "COMMIT"));
}

const struct history_backend history_pg = {
	.begin = pg_begin,
	.write = pg_write,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.read_begin = pg_read_begin,
	.read_end = pg_read_end,
	.query = pg_query,
	.close = pg_close,
};
