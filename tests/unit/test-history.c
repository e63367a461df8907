/* History: the metrics' series, the database's schema, writes and reads (change points:
 * test-changepoint.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/util.h"
#include "history/history.h"
#include "analyze/matrix.h"
#include "judge/check-priv.h"
#include "stats/stats.h"

/* Every term of the program in the table of lost-time terms is a series of its own, its share
 * worse when larger; the machine's Interference is none (never a regression). */
static void test_lost_terms_are_series(void **state)
{
	size_t terms = 0;

	(void)state;
#define SERIES_PROGRAM(share_key) \
	assert_true(history_metric_find(share_key) >= 0); \
	assert_int_equal( \
		history_metric_worse((enum history_metric)history_metric_find(share_key)), 1); \
	terms++;
#define SERIES_MACHINE(share_key) assert_int_equal(history_metric_find(share_key), -1);
#define TERM(A, id, name, needs, share_key, colour, key_when, cause, formula, judged) \
	SERIES_##judged(share_key)
#define PART(A, id, name, needs, parent, cause, formula)
	LOST_TERMS(TERM, PART, 0)
#undef TERM
#undef PART
#undef SERIES_PROGRAM
#undef SERIES_MACHINE
	assert_int_equal(HISTORY_NR_METRICS, 3 + terms + 3); /* time, speedup, efficiency; POP */
	assert_true(history_metric_share((enum history_metric)history_metric_find("idle")));
	assert_false(history_metric_share(HISTORY_LOAD_BALANCE));
	assert_true(history_metric_pop(HISTORY_PARALLEL_EFFICIENCY));
	assert_false(history_metric_pop(HISTORY_EFFICIENCY));
	assert_int_equal(history_metric_find("Load_balance"), HISTORY_LOAD_BALANCE);
	assert_int_equal(history_metric_worse(HISTORY_COMMUNICATION_EFFICIENCY), -1);
	assert_int_equal(history_metric_find("speedup"), HISTORY_SPEEDUP);
	assert_int_equal(history_metric_find("nonsense"), -1);
}

static char *temp_db(void)
{
	char *path = xstrdup("/tmp/sg-history-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	return path;
}

static void remove_db(const char *path)
{
	char *wal = xstrfmt("%s-wal", path), *shm = xstrfmt("%s-shm", path);

	unlink(path);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
}

static void add_run(struct history *h, const char *commit, double t)
{
	struct history_record r;
	struct history_point *p;

	history_record_init(&r);
	r.run.commit = xstrdup(commit);
	r.run.branch = xstrdup("main");
	r.run.date = xstrdup("2026-11-25T10:00:00Z");
	r.points = xcalloc(1, sizeof(*r.points));
	r.nr = r.alloc = 1;
	p = &r.points[0];
	p->benchmark = xstrdup("jacobi");
	p->interval = xstrdup("program/solve");
	p->configuration = xstrdup("1x4");
	p->metric = HISTORY_TIME;
	p->median = t;
	p->lo = t * 0.9;
	p->hi = NAN;
	p->n = 2;
	p->nr_samples = 2;
	p->repeat = xcalloc(2, sizeof(int));
	p->sample = xcalloc(2, sizeof(double));
	p->repeat[0] = 1, p->repeat[1] = 2;
	p->sample[0] = t, p->sample[1] = t * 1.01;
	assert_int_equal(history_write(h, &r), 0);
	assert_true(r.run.id > 0);
	history_record_release(&r);
}

/* Runs written are read back in record order, one series per key, unknown values as NAN. */
static void test_db_roundtrip(void **state)
{
	char *path = temp_db();
	struct history *h;
	struct history_data d;

	(void)state;
	assert_int_equal(history_open(&h, path), 0);
	assert_int_equal(history_found_version(h), 0);
	add_run(h, "aaa", 2.0);
	add_run(h, "bbb", 3.0);
	assert_int_equal(history_read(h, NULL, &d), 0);
	assert_int_equal(d.nr_runs, 2);
	assert_string_equal(d.runs[1].commit, "bbb");
	assert_null(d.runs[0].parent);
	assert_int_equal(d.nr_series, 1);
	assert_int_equal(d.series[0].n, 2);
	assert_true(d.series[0].value[1] == 3.0);
	assert_true(fabs(d.series[0].lo[0] - 1.8) < 1e-12);
	assert_true(isnan(d.series[0].hi[0]));
	history_data_release(&d);
	assert_int_equal(history_read(h, "other", &d), 0);
	assert_int_equal(d.nr_runs, 0);
	assert_int_equal(d.nr_series, 0);
	history_data_release(&d);
	history_close(h);
	assert_int_equal(history_open(&h, path), 0);
	assert_int_equal(history_found_version(h), HISTORY_SCHEMA_VERSION);
	history_close(h);
	remove_db(path);
	free(path);
}

/* Series k's value in run r of test_db_reads_many_points(); 0 when it has none there. */
static double many_value(size_t r, size_t k)
{
	return (r + k) % 7 ? (double)r * 1000 + (double)k : 0;
}

/*
 * More points than the reader holds before it puts them into their series (READER_PENDING in
 * db.c): every series read back whole and in record order, some missing in some runs, with and
 * without the intervals, of all runs and of one branch.
 */
static void test_db_reads_many_points(void **state)
{
	const size_t runs = 120, series = 700;
	char *path = temp_db(), name[32];
	struct history *h;
	struct history_data d;

	(void)state;
	assert_int_equal(history_open(&h, path), 0);
	assert_int_equal(history_begin(h), 0);
	for (size_t r = 0; r < runs; r++) {
		struct history_record rec;
		history_record_init(&rec);
		rec.run.commit = xstrfmt("c%zu", r);
		rec.run.branch = xstrdup(r % 3 ? "main" : "other");
		rec.run.date = xstrdup("2026-11-25T10:00:00Z");
		rec.points = xcalloc(series, sizeof(*rec.points));
		rec.alloc = series;
		for (size_t k = 0; k < series; k++) {
			struct history_point *p = &rec.points[rec.nr];
			if (!many_value(r, k))
				continue;
			snprintf(name, sizeof(name), "i%03zu", k);
			p->benchmark = xstrdup("b");
			p->interval = xstrdup(name);
			p->configuration = xstrdup("1x1");
			p->metric = HISTORY_TIME;
			p->median = many_value(r, k);
			p->lo = p->median - 0.5;
			p->hi = NAN;
			p->n = 1;
			rec.nr++;
		}
		assert_int_equal(history_write(h, &rec), 0);
		history_record_release(&rec);
	}
	assert_int_equal(history_commit(h), 0);
	for (int pass = 0; pass < 3; pass++) {
		const char *branch = pass == 2 ? "main" : NULL;
		int ret = pass ? history_read_values(h, branch, &d) : history_read(h, NULL, &d);
		assert_int_equal(ret, 0);
		assert_int_equal(d.nr_series, series);
		for (size_t k = 0; k < series; k++) {
			const struct history_series *s = &d.series[k];
			size_t at = 0;
			for (size_t r = 0; r < runs; r++) {
				if (!many_value(r, k) || (branch && !(r % 3)))
					continue;
				assert_true(at < s->n);
				snprintf(name, sizeof(name), "c%zu", r);
				assert_string_equal(d.runs[s->run[at]].commit, name);
				assert_true(s->value[at] == many_value(r, k));
				assert_true(!pass ? s->lo[at] == s->value[at] - 0.5 : !s->lo);
				at++;
			}
			assert_int_equal(at, s->n);
		}
		history_data_release(&d);
	}
	history_close(h);
	remove_db(path);
	free(path);
}

/* A run of 'bench' whose one cell took 't' (add_run's benchmark is "jacobi"). */
static void add_bench_run(struct history *h, const char *bench, double t)
{
	struct history_record r;
	struct history_point *p;

	history_record_init(&r);
	r.run.commit = xstrdup("ccc");
	r.run.branch = xstrdup("main");
	r.run.date = xstrdup("2026-11-25T10:00:00Z");
	r.points = xcalloc(1, sizeof(*r.points));
	r.nr = r.alloc = 1;
	p = &r.points[0];
	p->benchmark = xstrdup(bench);
	p->interval = xstrdup("program");
	p->configuration = xstrdup("1x2");
	p->metric = HISTORY_TIME;
	p->median = t;
	p->lo = p->hi = NAN;
	p->n = 1;
	assert_int_equal(history_write(h, &r), 0);
	history_record_release(&r);
}

/*
 * Stored mode: with >= 3 recorded runs of a cell, its shift between sittings is the spread of the
 * runs' medians (log scale) with runs - 1 df, and the details say so; fewer runs, another cell, no
 * database or an A/B comparison leave the baseline's own measure.
 */
static void test_shift_from_history(void **state)
{
	static const double logs[6] = { 0, 0.04, -0.04, 0, 0.04, -0.04 };
	char *path = temp_db();
	struct history *h;
	struct check_bench b[2] = { { .name = "jacobi", .has_base = 1 },
				    { .name = "other", .has_base = 1 } };
	struct check c = { .bench = b, .nr_bench = 2 };
	struct analysis_config conf = { .ranks = 1, .threads = 4 };
	struct matrix_cell mc = { .config = &conf };
	struct matrix_series ms = { .benchmark = "jacobi", .size = "-" };
	struct check_cell cell = { .c = &c, .b = &b[0], .series = &ms, .mc = &mc,
				   .interval = "program/solve" };
	const struct check_metric *time = &check_metrics[RULES_TIME];
	struct strbuf sb = STRBUF_INIT;
	double df, sd, level = sqrt(4 * 0.04 * 0.04 / 5);

	(void)state;
	for (size_t i = 0; i < 2; i++)
		b[i].shift = (struct baseline_shift){ 1, NAN, NAN };
	check_history_shift(&c, path); /* no database: nothing changes, none is created */
	assert_int_equal(b[0].nr_spread, 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(history_open(&h, path), 0);
	for (size_t i = 0; i < 6; i++)
		add_run(h, "aaa", 2.0 * exp(logs[i])); /* jacobi program/solve 1x4 */
	add_bench_run(h, "other", 1.0);
	add_bench_run(h, "other", 1.1);
	history_close(h);
	check_history_shift(&c, path);
	assert_int_equal(b[0].nr_spread, 1);
	assert_int_equal(b[0].spread[0].runs, 6);
	assert_true(fabs(b[0].spread[0].sd - level) < 1e-9);
	assert_int_equal(b[1].nr_spread, 0); /* two runs: not enough */
	sd = check_sitting_sd(&cell, time, 1, &df);
	assert_true(df == 5);
	assert_true(fabs(sd - M_SQRT2 * level) < 1e-12);
	check_describe_sitting(&sb, &cell, time, 1);
	assert_non_null(strstr(sb.buf, "(measured from 6 history runs: "));
	assert_non_null(strstr(sb.buf, "5 df)"));
	strbuf_release(&sb);
	cell.interval = "program"; /* another cell: the baseline's one sitting, assumed */
	sd = check_sitting_sd(&cell, time, 1, &df);
	assert_true(sd == 0.03 && df == CHECK_SITTINGS_PRIOR_DF); /* an estimate */
	check_spread_release(&b[0]);
	c.ab = 1; /* A/B: the base ran in the same job, history plays no part */
	check_history_shift(&c, path);
	assert_int_equal(b[0].nr_spread, 0);
	remove_db(path);
	free(path);
}

static void sql(const char *path, const char *text)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, text, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static int count_of(const char *path, const char *query)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int n;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, query, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* A version 1 database (no index) is migrated to the current version with its runs kept; version
 * 3 drops the index of version 2 (a record's points touched a leaf of it per series). */
static void test_db_migrates(void **state)
{
	char *path = temp_db();
	struct history *h;
	struct history_data d;

	(void)state;
	assert_int_equal(history_open(&h, path), 0);
	add_run(h, "old", 1.0);
	history_close(h);
	/* version 1 had neither the subject nor the reference (version 4 adds them) */
	sql(path, "ALTER TABLE runs DROP COLUMN subject; ALTER TABLE runs DROP COLUMN reference; "
		  "PRAGMA user_version = 1;");
	assert_int_equal(history_open(&h, path), 0);
	assert_int_equal(history_found_version(h), 1);
	assert_int_equal(count_of(path, "SELECT count(*) FROM sqlite_master WHERE name = "
					"'points_by_series'"), 0);
	assert_int_equal(count_of(path, "PRAGMA user_version"), HISTORY_SCHEMA_VERSION);
	assert_int_equal(history_read(h, "main", &d), 0);
	assert_int_equal(d.nr_runs, 1);
	assert_string_equal(d.runs[0].commit, "old");
	history_data_release(&d);
	history_close(h);
	/* a database from a newer scalegate is refused, not damaged */
	sql(path, "PRAGMA user_version = 99;");
	assert_int_equal(history_open(&h, path), -1);
	assert_null(h);
	remove_db(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lost_terms_are_series),
		cmocka_unit_test(test_db_roundtrip),
		cmocka_unit_test(test_db_reads_many_points),
		cmocka_unit_test(test_db_migrates),
		cmocka_unit_test(test_shift_from_history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
