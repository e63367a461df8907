/* The sittings a stored baseline remembers: carried across updates, written and read back, and the
 * shift measured from them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/baseline.h"
#include "judge/check-priv.h"
#include "stats/stats.h"
#include "base/util.h"

/* A one-benchmark baseline dated 'date' whose cells (threads 1 and 2 of "solve") take 'scale' times
 * 1 s and 0.6 s. */
static void make(struct baseline *b, const char *date, double scale, const double *noise, size_t n)
{
	static const int threads[2] = { 1, 2 };
	static const double base[2] = { 1.0, 0.6 };

	baseline_init(b);
	b->benchmark = xstrdup("bench");
	b->fingerprint = xcalloc(2, sizeof(char *));
	b->fingerprint[0] = xstrdup("date");
	b->fingerprint[1] = xstrdup(date);
	b->nr_fingerprint = 1;
	for (int k = 0; k < 2; k++) {
		struct baseline_cell *c;
		ALLOC_GROW(b->cells, b->nr_cells + 1, b->alloc_cells);
		c = memset(&b->cells[b->nr_cells++], 0, sizeof(*c));
		c->interval = xstrdup("program/solve");
		c->size = xstrdup("-");
		c->ranks = 1;
		c->threads = threads[k];
		c->n = n;
		c->fig[ANALYSIS_EXECUTION_TIME] = xmalloc(n * sizeof(double));
		for (size_t i = 0; i < n; i++)
			c->fig[ANALYSIS_EXECUTION_TIME][i] = base[k] * scale *
							     (noise ? exp(noise[i]) : 1);
	}
}

/* Records sittings at the given scales, oldest first, as successive 'baseline update's would; 'b'
 * is the last. */
static void record(struct baseline *b, const double *scale, size_t k, const double *noise, size_t n)
{
	struct baseline old;

	for (size_t i = 0; i < k; i++) {
		char date[32];
		snprintf(date, sizeof(date), "2026-11-%02zuT00:00:00Z", i + 1);
		make(b, date, scale[i], noise, n);
		if (i) {
			baseline_carry(b, &old);
			baseline_release(&old);
		}
		old = *b;
	}
}

static void test_carry(void **state)
{
	double scale[] = { 1.0, 1.1, 0.9 };
	struct baseline b, again;

	(void)state;
	record(&b, scale, 3, NULL, 3);
	assert_int_equal(b.nr_sittings, 2);
	assert_string_equal(b.sittings[0], "2026-11-01T00:00:00Z");
	assert_string_equal(b.sittings[1], "2026-11-02T00:00:00Z");
	assert_true(fabs(b.cells[0].earlier[0] - 1.0) < 1e-12);
	assert_true(fabs(b.cells[1].earlier[1] - 0.66) < 1e-12);
	/* The same results recorded again are not another sitting. */
	make(&again, "2026-11-03T00:00:00Z", 0.9, NULL, 3);
	baseline_carry(&again, &b);
	assert_int_equal(again.nr_sittings, 2);
	assert_true(fabs(again.cells[1].earlier[1] - 0.66) < 1e-12);
	baseline_release(&again);
	baseline_release(&b);
}

static void test_carry_keeps_the_last(void **state)
{
	double scale[BASELINE_MAX_SITTINGS + 4];
	struct baseline b;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(scale); i++)
		scale[i] = 1 + 0.01 * (double)i;
	record(&b, scale, ARRAY_SIZE(scale), NULL, 3);
	assert_int_equal(b.nr_sittings, BASELINE_MAX_SITTINGS);
	/* the oldest dropped: the first kept is the sitting just before the last
	 * BASELINE_MAX_SITTINGS */
	assert_true(fabs(b.cells[0].earlier[0] -
			 scale[ARRAY_SIZE(scale) - 1 - BASELINE_MAX_SITTINGS]) < 1e-12);
	assert_true(fabs(b.cells[0].earlier[BASELINE_MAX_SITTINGS - 1] -
			 scale[ARRAY_SIZE(scale) - 2]) < 1e-12);
	baseline_release(&b);
}

static void test_roundtrip(void **state)
{
	char dir[] = "/tmp/sg-test-sittings-XXXXXX";
	double scale[] = { 1.0, 1.05, 0.97 };
	struct baseline b, r;
	struct strbuf one = STRBUF_INIT, two = STRBUF_INIT;
	char *file;

	(void)state;
	assert_non_null(mkdtemp(dir));
	file = baseline_path(dir, "bench");
	record(&b, scale, 3, NULL, 2);
	assert_int_equal(baseline_write(&b, file), 0);
	assert_int_equal(baseline_read(&r, file), 0);
	assert_int_equal(r.nr_sittings, 2);
	assert_string_equal(r.sittings[1], "2026-11-02T00:00:00Z");
	assert_true(fabs(r.cells[1].earlier[1] - 0.63) < 1e-9);
	baseline_format(&b, &one);
	baseline_format(&r, &two);
	assert_string_equal(one.buf, two.buf);
	assert_non_null(
		strstr(one.buf,
		       "\nsitting\t2026-11-01T00:00:00Z\nsitting\t2026-11-02T00:00:00Z\ncolumns"));
	assert_non_null(
		strstr(one.buf, "\nearlier\tprogram/solve\t-\t1\t2\tExecution_time\t0.6\t0.63\n"));
	strbuf_release(&one);
	strbuf_release(&two);
	baseline_release(&b);
	baseline_release(&r);
	unlink(file);
	rmdir(dir);
	free(file);
}

/* Shifts of +2 %, -2 % and 0 in log units: the sd between sittings is 2 %; the speedup does not
 * move. */
static void test_measure(void **state)
{
	double scale[] = { exp(0.02), exp(-0.02), 1.0 };
	struct baseline_shift s;
	struct baseline b;

	(void)state;
	record(&b, scale, 1, NULL, 5);
	baseline_measure_shift(&b, &s);
	assert_true(isnan(s.time)); /* one sitting: nothing to measure */
	baseline_release(&b);
	record(&b, scale, 2, NULL, 5);
	baseline_measure_shift(&b, &s);
	assert_int_equal(s.sittings, 2); /* two: one df, the spread of +2 % and -2 % */
	assert_true(fabs(s.time - 0.04 / M_SQRT2) < 1e-9);
	baseline_release(&b);
	record(&b, scale, 3, NULL, 5);
	baseline_measure_shift(&b, &s);
	assert_int_equal(s.sittings, 3);
	assert_true(fabs(s.time - 0.02) < 1e-9);
	assert_true(fabs(s.speedup) < 1e-9);
	baseline_release(&b);
}

/* Noise within the last sitting is taken out: sittings that differ by no more than their medians'
 * noise measure ~0. */
static void test_measure_noise(void **state)
{
	double noise[] = { -0.05, -0.02, 0, 0.02, 0.05 }, scale[] = { 1.0, 1.0, 1.0 };
	struct baseline_shift s;
	struct baseline b;

	(void)state;
	record(&b, scale, 3, noise, 5);
	baseline_measure_shift(&b, &s);
	assert_true(s.time == 0);
	baseline_release(&b);
}

/* Standard normal from the project's seeded generator. */
static double normal(struct stats_rng *rng)
{
	double u = ((double)(stats_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(stats_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

enum { SIM_N = 5, SIM_TRIALS = 2000 };

/* k sittings whose levels move by sd tau (log units), SIM_N repeats each at noise cv; b the last.
 */
static void record_random(struct baseline *b, struct stats_rng *rng, size_t k, double tau,
			  double cv)
{
	struct baseline old;
	double noise[SIM_N];

	for (size_t i = 0; i < k; i++) {
		char date[32];
		snprintf(date, sizeof(date), "2026-11-%02zuT00:00:00Z", i + 1);
		for (int j = 0; j < SIM_N; j++)
			noise[j] = cv * normal(rng);
		make(b, date, exp(tau * normal(rng)), noise, SIM_N);
		if (i) {
			baseline_carry(b, &old);
			baseline_release(&old);
		}
		old = *b;
	}
}

/* How the shift's sd is chosen: the gate's rule, or an older one replicated. */
enum rule {
	RULE_GATE,
	/* before the sittings' df: the sd of one sitting's level as the sd of the shift between
	 * two, known (infinite df), no floor */
	RULE_NAIVE,
	/* before issue 32: the assumed sd known (normal quantiles) below 3 sittings, what 2
	 * sittings measured ignored; the measured one from 3 as the gate does */
	RULE_KNOWN_BELOW_3,
};

/*
 * Stored mode with a true shift between two sittings of sd 'shift' (so each
 * sitting's level moves by shift / sqrt(2)) and an assumed one of 3 %: a
 * baseline of 'sittings' sittings and a new sitting with no change, tested
 * with the project's own test at alpha 1 % and tolerance 0 (the strictest
 * boundary). Returns the false alarms in 'trials' gates.
 */
static int stored_false_alarms(size_t sittings, double shift, enum rule rule, int trials,
			       uint64_t seed)
{
	struct rules_value tol0 = { .set = 1, .value = 0, .relative = 1 };
	double tau = shift / M_SQRT2;
	struct stats_rng rng;
	int alarms = 0;

	stats_rng_init(&rng, seed);
	for (int k = 0; k < trials; k++) {
		struct check_test_opts o = { +1, &tol0, 0.01, 0, 0, 0, 0 };
		struct baseline_shift sh;
		struct baseline b;
		struct check_test t;
		double cur[SIM_N], level = exp(tau * normal(&rng)), sd;
		record_random(&b, &rng, sittings, tau, 0.02);
		baseline_measure_shift(&b, &sh);
		for (int j = 0; j < SIM_N; j++)
			cur[j] = level * exp(0.02 * normal(&rng));
		switch (rule) {
		case RULE_NAIVE:
			sd = isfinite(sh.time) && sh.sittings >= CHECK_SITTINGS_MEASURED ? sh.time
											  : 0.03;
			o.sitting_sd = sh.sittings < CHECK_SITTINGS_TRUSTED ? fmax(sd, 0.03) : sd;
			break;
		case RULE_KNOWN_BELOW_3:
			if (sh.sittings < CHECK_SITTINGS_MEASURED) {
				o.sitting_sd = 0.03;
				break;
			}
			/* fall through */
		default:
			o.sitting_sd = check_sitting_choose(sh.time, sh.sittings, 0.03,
							    &o.sitting_df);
		}
		assert_int_equal(check_test_samples(b.cells[0].fig[ANALYSIS_EXECUTION_TIME], SIM_N,
						    cur, SIM_N, &o, &t),
				 0);
		alarms += t.p <= 0.01;
		baseline_release(&b);
	}
	return alarms;
}

/*
 * A comparison spans two sittings: the measured spread of the sittings'
 * levels counts sqrt(2) times, with its sittings - 1 df and a floor. At the
 * assumed 3 %, a clean stored-mode gate whose baseline measured its shift
 * over 6 sittings raises a false alarm at about alpha = 1 %, not 2-5 %.
 */
static void test_sitting_false_alarms(void **state)
{
	int six = stored_false_alarms(6, 0.03, RULE_GATE, SIM_TRIALS, 31);
	int six_naive = stored_false_alarms(6, 0.03, RULE_NAIVE, SIM_TRIALS, 31);
	int nine = stored_false_alarms(9, 0.03, RULE_GATE, SIM_TRIALS, 33);

	(void)state;
	print_message(
		"stored mode, shift between sittings 3 %%, alpha 1 %%, %d gates: false alarms "
		"with 6 sittings %d (%d as before), 9 sittings %d\n",
		SIM_TRIALS, six, six_naive, nine);
	assert_true(six <= 0.02 * SIM_TRIALS);
	assert_true(nine <= 0.02 * SIM_TRIALS);
	assert_true(six_naive > 0.02 * SIM_TRIALS); /* the old rule: the defect this test catches */
}

enum { SMALL_TRIALS = 4000 };

/*
 * Below 3 sittings the shift is an estimate, not exact (issue 32). When the
 * true shift is the assumed 3 %, a clean gate at alpha 1 % raises at most 1 %
 * false alarms with 1, 2 and 3 sittings (t quantiles on an estimate that is
 * right: fewer). When it is 3 times the assumed, 2 sittings show it and the
 * gate pools what they measured: at most 14 % (12.1 % with the prior worth
 * CHECK_SITTINGS_PRIOR_DF = 10 df, 7.7 % at 5, which cost too much power where
 * nothing is measured); the rule before ignored it and alarmed in about a
 * fifth of the gates (19.5 %).
 */
static void test_small_sittings_false_alarms(void **state)
{
	int at[3], wide = stored_false_alarms(2, 0.09, RULE_GATE, SMALL_TRIALS, 45);
	int wide_before = stored_false_alarms(2, 0.09, RULE_KNOWN_BELOW_3, SMALL_TRIALS, 45);

	(void)state;
	for (int k = 0; k < 3; k++)
		at[k] = stored_false_alarms((size_t)k + 1, 0.03, RULE_GATE, SMALL_TRIALS,
					    41 + (uint64_t)k);
	print_message("stored mode, alpha 1 %%, %d gates each: false alarms at the assumed 3 %% "
		      "with 1, 2, 3 sittings %d, %d, %d; at 9 %% with 2 sittings %d (%d with the "
		      "rule before: assumed, known)\n",
		      SMALL_TRIALS, at[0], at[1], at[2], wide, wide_before);
	for (int k = 0; k < 3; k++)
		assert_true(at[k] <= 0.01 * SMALL_TRIALS);
	assert_true(wide <= 0.14 * SMALL_TRIALS);
	assert_true(wide_before > 0.14 * SMALL_TRIALS); /* the defect this test catches */
}

/* Assumed (worth the prior's df) with 1 sitting, pooled with 2, the floor with the pooled df or
 * measured alone before 6, then measured (x sqrt 2) with df, floored. */
static void test_sitting_choose(void **state)
{
	double df, prior = CHECK_SITTINGS_PRIOR_DF, pooled;

	(void)state;
	assert_true(check_sitting_choose(NAN, 8, 0.03, &df) == 0.03 && df == prior);
	assert_true(check_sitting_choose(0.05, 1, 0.03, &df) == 0.03 && df == prior);
	/* 2 sittings: 7.1 % between them pooled with the assumed 3 % */
	pooled = sqrt((prior * 0.03 * 0.03 + 2 * 0.05 * 0.05) / (prior + 1));
	assert_true(fabs(check_sitting_choose(0.05, 2, 0.03, &df) - pooled) < 1e-15 &&
		    df == prior + 1);
	assert_true(check_sitting_choose(0.01, 2, 0.03, &df) == 0.03 && df == prior + 1);
	assert_true(check_sitting_choose(0.02, 4, 0.03, &df) == 0.03 &&
		    df == prior + 3); /* 2.8 % between two: the floor */
	assert_true(fabs(check_sitting_choose(0.05, 4, 0.03, &df) - 0.05 * M_SQRT2) < 1e-15 &&
		    df == 3);
	assert_true(fabs(check_sitting_choose(0.02, 6, 0.03, &df) - 0.02 * M_SQRT2) < 1e-15 &&
		    df == 5);
	assert_true(check_sitting_choose(0, 6, 0.03, &df) == 0.03 * CHECK_SITTINGS_FLOOR &&
		    df == 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_carry),
		cmocka_unit_test(test_carry_keeps_the_last),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_measure_noise),
		cmocka_unit_test(test_sitting_choose),
		cmocka_unit_test(test_sitting_false_alarms),
		cmocka_unit_test(test_small_sittings_false_alarms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
