/* Change points in synthetic series: steps found within a run, with and without wild runs; noise
 * quiet; the newest run a suspect until the next confirms it; an alarm only for what is new. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "history/changepoint.h"
#include "history/detect.h"
#include "history/history.h"
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

/* Doubles each of x[0..n) with probability 'share': a wild run now and then. */
static void wild(struct stats_rng *rng, double *x, size_t n, double share)
{
	for (size_t i = 0; i < n; i++)
		if ((double)stats_rng_below(rng, 1000000) < share * 1e6)
			x[i] *= 2;
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
	print_message("creep: made known on %d nights, within the last run on %d\n", nights,
		      within);
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

/* A step in the newest run alone is a suspect the night it arrives, confirmed by the next run at
 * the same level; a lone quiet run is neither. */
static void test_newest_run(void **state)
{
	struct changepoint_options o;
	struct changepoint cp[22];
	struct stats_rng rng;
	double x[22];
	size_t k;

	(void)state;
	changepoint_options_init(&o);
	stats_rng_init(&rng, 5);
	series(&rng, x, 22, 0.02, 20, 0.30);
	k = changepoint_find(x, 21, &o, cp);
	assert_int_equal(k, 1);
	assert_int_equal(cp[0].index, 20);
	assert_int_equal(cp[0].kind, CHANGEPOINT_SUSPECT);
	k = changepoint_find(x, 22, &o, cp);
	assert_int_equal(k, 1);
	assert_int_equal(cp[0].index, 20);
	assert_int_equal(cp[0].kind, CHANGEPOINT_TAIL);
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

/* How many of 'trials' series of 100 runs at 'cv', 'share' of them wild, with a step of 'step' at
 * run 50, detect_run() finds that step within one run of it. */
static int steps_found(uint64_t seed, int trials, double cv, double step, double share)
{
	struct history_data d;
	struct detect_options o = { 0 };
	struct detect_result r;
	struct stats_rng rng;
	int found = 0;

	fake_history(&d, (size_t)trials, 100, seed, 100, 0);
	stats_rng_init(&rng, seed + 1);
	for (int s = 0; s < trials; s++) {
		series(&rng, d.series[s].value, 100, cv, 50, step);
		wild(&rng, d.series[s].value, 100, share);
	}
	detect_run(&d, &o, &r);
	for (int s = 0; s < trials; s++)
		for (size_t i = 0; i < r.nr; i++)
			if (r.changes[i].series == (size_t)s && r.changes[i].run + 1 >= 50 &&
			    r.changes[i].run <= 51) {
				found++;
				break;
			}
	detect_result_release(&r);
	history_data_release(&d);
	return found;
}

/* Wild runs do not hide a step: +10 % at CV 1 % and 3 % with 2 % of the runs doubled (a t-test of
 * the raw values found 9 of 50 at CV 1 %). */
static void test_wild_runs_keep_steps(void **state)
{
	int cv1 = steps_found(21, 50, 0.01, 0.10, 0.02),
	    cv3 = steps_found(22, 50, 0.03, 0.10, 0.02);

	(void)state;
	print_message("+10 %% with 2 %% wild runs: %d of 50 at CV 1 %%, %d of 50 at CV 3 %%\n", cv1,
		      cv3);
	assert_true(cv1 >= 45);
	assert_true(cv3 >= 45);
}

/* The smallest change follows the noise: +5 % at CV 1 % is found, not a coin toss at a fixed 5 %.
 */
static void test_min_change_follows_noise(void **state)
{
	int found = steps_found(23, 50, 0.01, 0.05, 0);

	(void)state;
	print_message("+5 %% at CV 1 %%: %d of 50\n", found);
	assert_true(found >= 45);
}

/* Pure noise with 2 % of the runs doubled: no change point but suspects over 1,000 series x 100. */
static void test_wild_runs_quiet(void **state)
{
	struct history_data d;
	struct detect_options o = { 0 };
	struct detect_result r;
	struct stats_rng rng;
	size_t steps = 0;

	(void)state;
	fake_history(&d, 1000, 100, 31, 100, 0);
	stats_rng_init(&rng, 32);
	for (size_t s = 0; s < 1000; s++)
		wild(&rng, d.series[s].value, 100, 0.02);
	detect_run(&d, &o, &r);
	for (size_t i = 0; i < r.nr; i++)
		steps += r.changes[i].kind != CHANGEPOINT_SUSPECT;
	print_message("noise with wild runs: %zu change points, %zu suspects\n", steps,
		      r.nr - steps);
	assert_true(steps <= 1);
	assert_false(detect_regression_within(&d, &r, 1));
	detect_result_release(&r);
	history_data_release(&d);
}

/* Whether the first n runs of d make a regression known to 'history detect' (a window of 1). */
static int night(struct history_data *d, size_t n, size_t *suspects)
{
	struct history_data view = *d;
	struct detect_options o = { 0 };
	struct detect_result r;
	int arrived;

	view.nr_runs = n;
	view.series = xcalloc(d->nr_series, sizeof(*view.series));
	for (size_t s = 0; s < d->nr_series; s++) {
		view.series[s] = d->series[s];
		view.series[s].n = n;
	}
	detect_run(&view, &o, &r);
	arrived = detect_regression_arrived(&view, &o, &r, 1);
	*suspects = 0;
	for (size_t i = 0; i < r.nr; i++)
		*suspects += r.changes[i].kind == CHANGEPOINT_SUSPECT;
	detect_result_release(&r);
	free(view.series);
	return arrived;
}

/* Night by night: one slow newest run is a suspect (no alarm); the next run at the same level
 * fires once; the nights after it, and a slow night that recovers, fire nothing. */
static void test_one_slow_night(void **state)
{
	struct history_data d;
	size_t suspects;

	(void)state;
	fake_history(&d, 20, 64, 41, 64, 0);
	for (size_t i = 40; i < 64; i++)
		d.series[0].value[i] *= 1.3; /* a step at run 40 */
	d.series[1].value[50] *= 1.5;	     /* one slow night at run 50 */
	assert_false(night(&d, 40, &suspects));
	assert_false(night(&d, 41, &suspects));
	assert_true(suspects >= 1);
	assert_true(night(&d, 42, &suspects));
	for (size_t n = 43; n <= 50; n++)
		assert_false(night(&d, n, &suspects));
	assert_false(night(&d, 51, &suspects));
	assert_true(suspects >= 1);
	for (size_t n = 52; n <= 64; n++)
		assert_false(night(&d, n, &suspects));
	history_data_release(&d);
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
		cmocka_unit_test(test_wild_runs_keep_steps),
		cmocka_unit_test(test_min_change_follows_noise),
		cmocka_unit_test(test_wild_runs_quiet),
		cmocka_unit_test(test_one_slow_night),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
