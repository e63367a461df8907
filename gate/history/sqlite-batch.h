/* Rows of one SQLite table written many to a statement: a record's 30,000 points and samples one
 * statement each spent more on starting and ending statements than on the rows. */
#ifndef SG_HISTORY_SQLITE_BATCH_H
#define SG_HISTORY_SQLITE_BATCH_H

#include <sqlite3.h>

/* Rows a statement writes at once (at most 999 parameters in all, SQLite's old limit). */
#define SQLITE_BATCH_BATCH 64
#define SQLITE_BATCH_MAX_COLUMNS 8

struct sqlite_batch_value {
	int real; /* 0: integer */
	long long i;
	double d; /* not finite: NULL */
};

struct sqlite_batch {
	sqlite3_stmt *one, *many; /* one row; SQLITE_BATCH_BATCH rows */
	int columns, at;	  /* values a row, values held */
	struct sqlite_batch_value v[SQLITE_BATCH_BATCH * SQLITE_BATCH_MAX_COLUMNS];
};

/* Prepares "INSERT INTO table (columns) VALUES (?, ...)" for one row and for a batch: SQLITE_OK or
 * SQLite's error (the connection's message says which). */
int sqlite_batch_prepare(struct sqlite_batch *r, sqlite3 *db, const char *table,
			 const char *columns, int nr_columns);
void sqlite_batch_finalize(struct sqlite_batch *r);

/* The next value of the row being added; a full batch is written: SQLITE_OK or SQLite's error. */
int sqlite_batch_int(struct sqlite_batch *r, long long i);
int sqlite_batch_real(struct sqlite_batch *r, double d);
/* Writes the rows held (SQLITE_OK or SQLite's error); drops them. */
int sqlite_batch_flush(struct sqlite_batch *r);
void sqlite_batch_drop(struct sqlite_batch *r);

#endif
