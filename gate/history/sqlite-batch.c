/* Rows of one SQLite table written SQLITE_BATCH_BATCH to a statement, the rest one by one: a
 * record's points and samples a statement each cost a quarter more CPU in an import. */
#include "history/sqlite-batch.h"

#include <math.h>
#include <string.h>

#include "base/util.h"

static int prepare_rows(sqlite3 *db, sqlite3_stmt **st, const char *table, const char *columns,
			int nr_columns, int rows)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;

	strbuf_addf(&sql, "INSERT INTO %s (%s) VALUES ", table, columns);
	for (int i = 0; i < rows; i++) {
		strbuf_addstr(&sql, i ? ", (" : "(");
		for (int k = 0; k < nr_columns; k++)
			strbuf_addstr(&sql, k ? ", ?" : "?");
		strbuf_addch(&sql, ')');
	}
	rc = sqlite3_prepare_v2(db, sql.buf, -1, st, NULL);
	strbuf_release(&sql);
	return rc;
}

int sqlite_batch_prepare(struct sqlite_batch *r, sqlite3 *db, const char *table,
			 const char *columns, int nr_columns)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->columns = nr_columns;
	rc = prepare_rows(db, &r->one, table, columns, nr_columns, 1);
	if (rc == SQLITE_OK)
		rc = prepare_rows(db, &r->many, table, columns, nr_columns, SQLITE_BATCH_BATCH);
	return rc;
}

void sqlite_batch_finalize(struct sqlite_batch *r)
{
	sqlite3_finalize(r->one);
	sqlite3_finalize(r->many);
	r->one = r->many = NULL;
	r->at = 0;
}

/* Binds values v[0..n) to st's parameters and runs it. */
static int write_values(sqlite3_stmt *st, const struct sqlite_batch_value *v, int n)
{
	int rc;

	for (int i = 0; i < n; i++) {
		if (!v[i].real)
			sqlite3_bind_int64(st, i + 1, v[i].i);
		else if (isfinite(v[i].d))
			sqlite3_bind_double(st, i + 1, v[i].d);
		else
			sqlite3_bind_null(st, i + 1);
	}
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A batch is full after the value just added: written at once. */
static int added(struct sqlite_batch *r)
{
	int rc;

	if (++r->at < SQLITE_BATCH_BATCH * r->columns)
		return SQLITE_OK;
	rc = write_values(r->many, r->v, r->at);
	r->at = 0;
	return rc;
}

int sqlite_batch_int(struct sqlite_batch *r, long long i)
{
	r->v[r->at] = (struct sqlite_batch_value){ 0, i, 0 };
	return added(r);
}

int sqlite_batch_real(struct sqlite_batch *r, double d)
{
	r->v[r->at] = (struct sqlite_batch_value){ 1, 0, d };
	return added(r);
}

int sqlite_batch_flush(struct sqlite_batch *r)
{
	int rc = SQLITE_OK;

	for (int i = 0; rc == SQLITE_OK && i + r->columns <= r->at; i += r->columns)
		rc = write_values(r->one, r->v + i, r->columns);
	r->at = 0;
	return rc;
}

void sqlite_batch_drop(struct sqlite_batch *r)
{
	r->at = 0;
}
