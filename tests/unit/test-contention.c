/* Unit tests for gate/contention: /proc/stat parsing and the arithmetic, with made-up numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sched.h>

#include "run/contention.h"

/* Two CPUs; cpu0 busy 100+1+20+3+4+5 = 133, cpu1 busy 200+2+30+6+7+8 = 253; aggregate 386. */
static const char stat_text[] =
	"cpu  300 3 50 900 40 9 11 13 77 0\n"
	"cpu0 100 1 20 500 10 3 4 5 77 0\n"
	"cpu1 200 2 30 400 30 6 7 8 0 0\n"
	"intr 12345 0 0\n"
	"ctxt 999\n"
	"cpu7 is not a counter line\n";

static void test_parse_aggregate(void **state)
{
	unsigned long long busy = 0;

	(void)state;
	/* guest (77) is already part of user and idle/iowait do not count */
	assert_int_equal(contention_parse_stat(stat_text, NULL, &busy), 0);
	assert_int_equal(busy, 386);
}

static void test_parse_affinity(void **state)
{
	unsigned long long busy = 0;
	cpu_set_t cpus;

	(void)state;
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	assert_int_equal(contention_parse_stat(stat_text, &cpus, &busy), 0);
	assert_int_equal(busy, 253);
	CPU_SET(0, &cpus);
	assert_int_equal(contention_parse_stat(stat_text, &cpus, &busy), 0);
	assert_int_equal(busy, 386);
	/* a mask naming no listed CPU falls back to the aggregate line */
	CPU_ZERO(&cpus);
	CPU_SET(5, &cpus);
	assert_int_equal(contention_parse_stat(stat_text, &cpus, &busy), 0);
	assert_int_equal(busy, 386);
}

static void test_parse_bad(void **state)
{
	unsigned long long busy = 0;

	(void)state;
	assert_int_equal(contention_parse_stat("", NULL, &busy), -1);
	assert_int_equal(contention_parse_stat("intr 1 2 3\n", NULL, &busy), -1);
	/* too few counters (a kernel before 'steal') */
	assert_int_equal(contention_parse_stat("cpu  1 2 3 4 5 6 7\n", NULL, &busy), -1);
}

static void test_cores(void **state)
{
	(void)state;
	/* 300 jiffies at 100 Hz = 3 s busy, 1 s of it the run's own, over 2 s: 1 core for others */
	assert_true(fabs(contention_cores(300, 100, 1.0, 2.0) - 1.0) < 1e-12);
	/* busy 1 s, own 1.2 s (rusage is finer than ticks): clamped at 0 */
	assert_true(contention_cores(100, 100, 1.2, 1.0) == 0);
	assert_true(fabs(contention_cores(250, 250, 0.5, 2.0) - 0.25) < 1e-12);
	assert_true(isnan(contention_cores(100, 100, 0, 0)));
	/* 0.1 s is 10 ticks: too short to tell one tick of another process from a busy core */
	assert_true(isnan(contention_cores(1, 100, 0, 0.1)));
	assert_true(!isnan(contention_cores(1, 100, 0, 0.2)));
	assert_true(isnan(contention_cores(100, 0, 0, 1)));
}

/* Measured against the cores a run leaves free: a 1-thread run on 2 cores with one busy neighbour
 * is not contended. */
static void test_beyond_free(void **state)
{
	(void)state;
	assert_true(contention_beyond_free(1.0, 1, 2) == 0); /* one neighbour on the free core */
	assert_true(fabs(contention_beyond_free(1.5, 1, 2) - 0.5) <
		    1e-12); /* half a core taken from the run */
	assert_true(fabs(contention_beyond_free(1.0, 2, 2) - 1.0) <
		    1e-12); /* 2 threads on 2 cores: all of it */
	assert_true(fabs(contention_beyond_free(0.3, 4, 2) - 0.3) <
		    1e-12); /* oversubscribed: nothing is free */
	assert_true(contention_beyond_free(0.0, 1, 1) == 0);
	assert_true(isnan(contention_beyond_free(NAN, 1, 2)));
	assert_true(contention_machine_cores() >= 1);
}

static void test_between(void **state)
{
	struct contention_sample a = { .busy = 1000, .valid = 1 }, b = { .busy = 1000, .valid = 1 };

	(void)state;
	assert_true(contention_between(&a, &b, 0, 1) == 0);
	b.valid = 0;
	assert_true(isnan(contention_between(&a, &b, 0, 1)));
	b.valid = 1;
	b.busy = 999; /* counters never go back: unknown */
	assert_true(isnan(contention_between(&a, &b, 0, 1)));
}

static void test_sample_here(void **state)
{
	struct contention_sample a, b;

	(void)state;
	contention_sample(&a);
	contention_sample(&b);
	if (!a.valid) /* no /proc here: nothing more to check */
		return;
	assert_true(b.valid);
	assert_true(b.busy >= a.busy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_aggregate),
		cmocka_unit_test(test_parse_affinity),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_cores),
		cmocka_unit_test(test_beyond_free),
		cmocka_unit_test(test_between),
		cmocka_unit_test(test_sample_here),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
