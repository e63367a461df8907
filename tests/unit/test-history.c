/* History: change points in synthetic series (steps found, noise quiet), the database's schema,
 * writes and reads. */
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
#include "history/changepoint.h"
#include "history/detect.h"
#include "history/history.h"
#include "analyze/matrix.h"
#include "judge/check-priv.h"
#include "stats/stats.h"

static double gauss(struct stats_rng *rng)
{
	double u = ((double)(stats_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(stats_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* n values around 1 at coefficient of variation cv, times (1 + step) from index 'at' on. */
static void series(struct stats_rng *rng, double *x, size_t n, double cv, size_t at, double step)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (1 + cv * gauss(rng)) * (i >= at ? 1 + step : 1);
}

/* A 10 % step at CV 3 %, 30 runs before and 30 after: found within one run in at least 95 of 100
 * trials. */
static void test_step_found(void **state)
{
	struct changepoint_options o;
	struct changepoint cp[60];
	struct stats_rng rng;
	double x[60];
	int found = 0;

	(void)state;
	changepoint_options_init(&o);
	stats_rng_init(&rng, 42);
	for (int trial = 0; trial < 100; trial++) {
		size_t k;
		series(&rng, x, 60, 0.03, 30, 0.10);
		k = changepoint_find(x, 60, &o, cp);
		for (size_t j = 0; j < k; j++)
			if (cp[j].index >= 29 && cp[j].index <= 31) {
				found++;
				break;
			}
	}
	print_message("10 %% step at CV 3 %%: found within one run in %d of 100 trials\n", found);
	assert_true(found >= 95);
}

/* A history of 'nr' series of n runs each, from the generator. */
static void fake_history(struct history_data *d, size_t nr, size_t n, uint64_t seed, size_t at,
			 double step)
{
	struct stats_rng rng;

	memset(d, 0, sizeof(*d));
	stats_rng_init(&rng, seed);
	d->nr_runs = n;
	d->runs = xcalloc(n, sizeof(*d->runs));
	for (size_t i = 0; i < n; i++) {
		d->runs[i].id = (long long)i + 1;
		d->runs[i].commit = xstrfmt("c%zu", i);
		d->runs[i].date = xstrdup("2026-01-01");
	}
	d->nr_series = nr;
	d->series = xcalloc(nr, sizeof(*d->series));
	for (size_t s = 0; s < nr; s++) {
		struct history_series *hs = &d->series[s];
		hs->benchmark = xstrdup("b");
		hs->interval = xstrfmt("i%zu", s);
		hs->configuration = xstrdup("1x1");
		hs->metric = HISTORY_TIME;
		hs->n = hs->alloc = n;
		hs->run = xcalloc(n, sizeof(*hs->run));
		hs->value = xcalloc(n, sizeof(*hs->value));
		hs->lo = xcalloc(n, sizeof(*hs->lo));
		hs->hi = xcalloc(n, sizeof(*hs->hi));
		for (size_t i = 0; i < n; i++)
			hs->run[i] = i;
		series(&rng, hs->value, n, 0.03, s == 0 ? at : n, step);
	}
}

/* Pure noise at CV 3 %: at most a couple of change points over 1,000 series x 100 runs (target: 1).
 */
static void test_noise_quiet(void **state)
{
	struct history_data d;
	struct detect_options o = { 0 };
	struct detect_result r;

	(void)state;
	fake_history(&d, 1000, 100, 7, 100, 0);
	detect_run(&d, &o, &r);
	print_message("pure noise: %zu change points over 1000 series x 100 runs\n", r.nr);
	assert_true(r.nr <= 2);
	detect_result_release(&r);
	history_data_release(&d);
}

/* +15 % at run 12 of 24 in one series among 20: that change, within one run, and nothing elsewhere.
 */
static void test_one_step_among_quiet(void **state)
{
	struct history_data d;
	struct detect_options o = { 0 };
	struct detect_result r;

	(void)state;
	fake_history(&d, 20, 24, 11, 12, 0.15);
	detect_run(&d, &o, &r);
	for (size_t i = 0; i < r.nr; i++)
		print_message("series %zu run %zu p %g\n", r.changes[i].series, r.changes[i].run,
			      r.changes[i].p);
	assert_int_equal(r.nr, 1);
	assert_int_equal(r.changes[0].series, 0);
	assert_true(r.changes[0].run >= 11 && r.changes[0].run <= 13);
	assert_true(r.changes[0].regression);
	assert_true(r.changes[0].change > 0.10 && r.changes[0].change < 0.20);
	assert_int_equal(r.changes[0].previous + 1, r.changes[0].run);
	assert_true(detect_regression_within(&d, &r, 13));
	assert_false(detect_regression_within(&d, &r, 1));
	detect_result_release(&r);
	history_data_release(&d);
}

/* Ten commits each 2 % slower after 20 quiet runs: creeping, and flagged as a regression. */
static void test_creep_flagged(void **state)
{
	struct changepoint_options o;
	struct changepoint cp[30];
	struct stats_rng rng;
	double x[30];
	size_t k;

	(void)state;
	changepoint_options_init(&o);
	stats_rng_init(&rng, 3);
	series(&rng, x, 30, 0.01, 30, 0);
	for (size_t i = 20; i < 30; i++)
		x[i] *= pow(1.02, (double)(i - 19));
	k = changepoint_find(x, 30, &o, cp);
	assert_true(k >= 1);
	assert_true(cp[0].after > cp[0].before * 1.05);
}

/*
 * Night by night, ten commits each 2 % slower after 20 quiet runs: the change point is found before
 * the newest run, so 'within the last run' never fires, but some night makes it known; quiet
 * series never do.
 */
static void test_creep_arrives(void **state)
{
	struct history_data d;
	struct detect_options o = { 0 };
	int nights = 0, within = 0;
	size_t n;

	(void)state;
	fake_history(&d, 10, 30, 3, 30, 0);
	for (size_t i = 20; i < 30; i++)
		d.series[0].value[i] *= pow(1.02, (double)(i - 19));
	for (n = 21; n <= 30; n++) {
		struct history_data night = d;
		struct history_series s[10];
		struct detect_result r;
		night.nr_runs = n;
		for (size_t k = 0; k < 10; k++) {
			s[k] = d.series[k];
			s[k].n = n;
		}
		night.series = s;
		detect_run(&night, &o, &r);
		nights += detect_regression_arrived(&night, &o, &r, 1);
		within += detect_regression_within(&night, &r, 1);
		detect_result_release(&r);
	}
	print_message("creep: made known on %d nights, within the last run on %d\n", nights, within);
	assert_true(nights >= 1 && nights <= 2);
	history_data_release(&d);
	fake_history(&d, 10, 30, 4, 30, 0);
	for (n = 21; n <= 30; n++) {
		struct detect_result r;
		d.nr_runs = n;
		for (size_t k = 0; k < 10; k++)
			d.series[k].n = n;
		detect_run(&d, &o, &r);
		assert_false(detect_regression_arrived(&d, &o, &r, 1));
		detect_result_release(&r);
	}
	d.nr_runs = 30;
	history_data_release(&d);
}

/* A step in the newest run alone is found the night it arrives; a lone quiet run is not. */
static void test_newest_run(void **state)
{
	struct changepoint_options o;
	struct changepoint cp[21];
	struct stats_rng rng;
	double x[21];
	size_t k;

	(void)state;
	changepoint_options_init(&o);
	stats_rng_init(&rng, 5);
	series(&rng, x, 21, 0.02, 20, 0.30);
	k = changepoint_find(x, 21, &o, cp);
	assert_int_equal(k, 1);
	assert_int_equal(cp[0].index, 20);
	x[20] = 1.01;
	assert_int_equal(changepoint_find(x, 21, &o, cp), 0);
}

/* A change below the minimum magnitude is no change point, however significant. */
static void test_min_change(void **state)
{
	struct changepoint_options o;
	struct changepoint cp[60];
	struct stats_rng rng;
	double x[60];

	(void)state;
	changepoint_options_init(&o);
	stats_rng_init(&rng, 9);
	series(&rng, x, 60, 0.002, 30, 0.03);
	assert_int_equal(changepoint_find(x, 60, &o, cp), 0);
	o.min_change = 0.02;
	assert_int_equal(changepoint_find(x, 60, &o, cp), 1);
}

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
	assert_true(sd == 0.03 && df == 0);
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
	sql(path, "PRAGMA user_version = 1;");
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
		cmocka_unit_test(test_step_found),
		cmocka_unit_test(test_noise_quiet),
		cmocka_unit_test(test_one_step_among_quiet),
		cmocka_unit_test(test_creep_flagged),
		cmocka_unit_test(test_creep_arrives),
		cmocka_unit_test(test_newest_run),
		cmocka_unit_test(test_min_change),
		cmocka_unit_test(test_lost_terms_are_series),
		cmocka_unit_test(test_db_roundtrip),
		cmocka_unit_test(test_db_migrates),
		cmocka_unit_test(test_shift_from_history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
