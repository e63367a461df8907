/* Whether a database may be opened as a history: its schema version and its tables, the same checks
 * for every backend, made before anything is written to it. */
#include <stddef.h>
#include <string.h>

#include "base/util.h"
#include "history/db-priv.h"
#include "history/history.h"

/* The tables of a history: its data, then PostgreSQL's schema_version (SQLite keeps the version in
 * its header). */
#define DATA_TABLES 4
static const char *const history_tables[] = { "runs", "series", "points", "samples",
					      "schema_version" };

static int is_history_table(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(history_tables); i++)
		if (!strcmp(name, history_tables[i]))
			return 1;
	return 0;
}

/* The first of the history's data tables that 'tables' lacks, or NULL. */
static const char *missing_table(const char *const *tables, size_t nr)
{
	for (size_t i = 0; i < DATA_TABLES; i++) {
		size_t k = 0;
		while (k < nr && strcmp(tables[k], history_tables[i]))
			k++;
		if (k == nr)
			return history_tables[i];
	}
	return NULL;
}

int history_check_schema(const char *where, int v, int recorded, const char *const *tables,
			 size_t nr)
{
	const char *missing;

	if (v < 0 || (v == 0 && recorded))
		return gate_error(
			"history '%s' has schema version %d, which no scalegate writes: a "
			"damaged history, or not one; left as it is",
			where, v);
	if (v > HISTORY_SCHEMA_VERSION)
		return gate_error(
			"history '%s' has schema version %d; this scalegate knows up to %d", where,
			v, HISTORY_SCHEMA_VERSION);
	if (v == 0) {
		for (size_t i = 0; i < nr; i++)
			if (!is_history_table(tables[i]))
				return gate_error(
					"history '%s' is not a scalegate history: it holds table "
					"'%s' and no schema version of ours; left as it is",
					where, tables[i]);
		if (nr)
			return gate_error("history '%s' holds table '%s' but no schema version: a "
					  "damaged history; left as it is",
					  where, tables[0]);
		return 0;
	}
	missing = missing_table(tables, nr);
	if (missing)
		return gate_error("history '%s' has schema version %d but no table '%s': a damaged "
				  "history; left as it is",
				  where, v, missing);
	return 0;
}
