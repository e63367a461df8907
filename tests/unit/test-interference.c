/* Unit tests of the Interference term: the identity with run-queue delay, the judged figures,
 * oversubscription. */
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

#include "analyze/analysis.h"

#include "base/util.h"
#include "scratch-testing.h"

/*
 * A profile of one process without MPI: nodes program (0) > solve (1); 'threads' slots (slot 0
 * main); 'meta' extra meta lines ("key value" pairs, or NULL); 'stats' record lines without the
 * record name: "node thread count time par barrier idle lock cpu rq_wait" ('-' where not
 * captured), and rq_sync after them while 'with_rq_sync' is set.
 */
static int with_rq_sync;

static void write_profile(const char *dir, int threads, const char *const *meta,
			  const char *const *stats)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/test.1.sgprof", dir);

	strbuf_addstr(&sb, "scalegate-profile\t1\nmeta\trank\t-\nmeta\tranks\t-\nmeta\tomp\tgomp\n"
			   "meta\tmpi\tabsent\nmeta\thost\tnode1\n");
	for (; meta && *meta; meta += 2)
		strbuf_addf(&sb, "meta\t%s\t%s\n", meta[0], meta[1]);
	strbuf_addstr(&sb, "columns\tregion\tid\tname\tfile\tline\n"
			   "region\t0\tprogram\t/bin/prog\t0\nregion\t1\tsolve\tt.c\t10\n"
			   "columns\tnode\tid\tparent\tregion\ttag\n"
			   "node\t0\t-\t0\t-\nnode\t1\t0\t1\t-\n"
			   "columns\tthread\tid\tomp_thread\tkind\nthread\t0\t0\tmain\n");
	for (int t = 1; t < threads; t++)
		strbuf_addf(&sb, "thread\t%d\t%d\tworker\n", t, t);
	strbuf_addstr(&sb, "columns\tstat\tnode\tthread\tcount\ttime\tpar\tomp_barrier\tomp_idle"
			   "\tomp_lock\tcpu\trq_wait");
	strbuf_addstr(&sb, with_rq_sync ? "\trq_sync\n" : "\n");
	for (; stats && *stats; stats++) {
		strbuf_addstr(&sb, "stat\t");
		for (const char *c = *stats; *c; c++)
			strbuf_addch(&sb, *c == ' ' ? '\t' : *c);
		strbuf_addch(&sb, '\n');
	}
	write_sealed_profile(path, &sb);
	strbuf_release(&sb);
	free(path);
}

/*
 * Lost = IP + Communication + Idle + Synchronization + Interference over the wall's Total_time,
 * none negative; Total_time (the program's) = Total_time_wall - Interference = Productive + the
 * other terms.
 */
static void check_identity(const double *f)
{
	double sum = 0, interference = f[ANALYSIS_INTERFERENCE];
	enum analysis_figure terms[] = { ANALYSIS_INSUFFICIENT_PARALLELISM, ANALYSIS_COMMUNICATION,
					 ANALYSIS_IDLE, ANALYSIS_SYNCHRONIZATION,
					 ANALYSIS_INTERFERENCE };

	if (isnan(interference))
		interference = 0;

	for (size_t i = 0; i < ARRAY_SIZE(terms); i++)
		if (!isnan(f[terms[i]])) {
			assert_true(f[terms[i]] >= 0);
			sum += f[terms[i]];
		}
	near(f[ANALYSIS_LOST_TIME], sum);
	near(f[ANALYSIS_TOTAL_TIME_WALL] - f[ANALYSIS_PRODUCTIVE_TIME], f[ANALYSIS_LOST_TIME]);
	near(f[ANALYSIS_TOTAL_TIME], f[ANALYSIS_TOTAL_TIME_WALL] - interference);
	near(f[ANALYSIS_TOTAL_TIME], f[ANALYSIS_EXECUTION_TIME] * f[ANALYSIS_PROCESSORS]);
	near(f[ANALYSIS_EFFICIENCY], f[ANALYSIS_PRODUCTIVE_TIME] / f[ANALYSIS_TOTAL_TIME]);
}

/* Loads 'dir' (one run) and returns the figures of program/solve; the analysis is kept in *a. */
static const double *load_solve(struct analysis *a, const char *dir)
{
	analysis_init(a);
	assert_int_equal(analysis_load(a, dir), 0);
	assert_int_equal(a->nr_configs, 1);
	assert_int_equal(a->configs[0].nr_runs, 1);
	for (size_t i = 0; i < a->nr_intervals; i++)
		if (a->configs[0].runs[0].points[i].present)
			check_identity(a->configs[0].runs[0].points[i].fig);
	for (size_t i = 0; i < a->nr_intervals; i++)
		if (!strcmp(a->intervals[i].path, "program/solve"))
			return a->configs[0].runs[0].points[i].fig;
	fail_msg("no interval program/solve");
	return NULL;
}

static const char *const two_cpus[] = { "sched", "schedstat", "cpus", "2", "threads_max", "2",
					 NULL };

/*
 * A 3:1 imbalanced region on 2 threads (main works 3 s, the worker 1 s and waits at the barrier),
 * and a hog took 30 % of the main thread's time: its 3 s of work took 3/0.7 s. The judged figures
 * are the quiet machine's: Execution_time 3, Load_balance 2/3; the wall ones stay beside them.
 */
static void test_hog_on_critical_thread(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	double wall = 3 / 0.7, rq = wall - 3;
	char *s0 = xstrfmt("0 0 1 %.12g %.12g 0 0 0 3 %.12g", wall, wall, rq);
	char *s1 = xstrfmt("1 0 1 %.12g %.12g 0 0 0 3 %.12g", wall, wall, rq);
	char *s2 = xstrfmt("1 1 0 %.12g %.12g %.12g 0 0 1 0", wall, wall, wall - 1);
	const char *stats[] = { s0, s1, s2, NULL };
	const double *f;

	(void)state;
	write_profile(dir, 2, two_cpus, stats);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME_WALL], wall);
	near(f[ANALYSIS_EXECUTION_TIME], 3);
	/* both processors were held while the main thread waited */
	near(f[ANALYSIS_INTERFERENCE], 2 * rq);
	near(f[ANALYSIS_PRODUCTIVE_TIME], 4);
	/* the worker's wait for the main thread's own 2 s more work */
	near(f[ANALYSIS_SYNCHRONIZATION], 2);
	near(f[ANALYSIS_LOAD_BALANCE], 2.0 / 3);
	near(f[ANALYSIS_EFFICIENCY], 4.0 / 6);
	near(f[ANALYSIS_COMMUNICATION_EFFICIENCY], 1);
	assert_int_equal(a.configs[0].runs[0].points[1].inconsistent, 0);
	analysis_release(&a);
	free(s0);
	free(s1);
	free(s2);
	remove_dir(dir);
}

/*
 * The same region, the hog on the worker: its 1 s of work took 1/0.7 s, inside the slack before
 * the barrier. Execution_time does not change; the wall Load_balance (0.74) reads better than the
 * program's.
 */
static void test_hog_on_light_thread(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	double w1 = 1 / 0.7;
	char *s2 = xstrfmt("1 1 0 3 3 %.12g 0 0 1 %.12g", 3 - w1, w1 - 1);
	const char *stats[] = { "0 0 1 3 3 0 0 0 3 0", "1 0 1 3 3 0 0 0 3 0", s2, NULL };
	const double *f;

	(void)state;
	write_profile(dir, 2, two_cpus, stats);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME], 3);
	near(f[ANALYSIS_EXECUTION_TIME_WALL], 3);
	near(f[ANALYSIS_INTERFERENCE], 0); /* it took no processor time from the interval */
	near(f[ANALYSIS_LOAD_BALANCE], 2.0 / 3);
	near(f[ANALYSIS_SYNCHRONIZATION], 2);
	near(a.configs[0].runs[0].points[1].cmp[ANALYSIS_PQ_INTERFERENCE].max, w1 - 1);
	assert_int_equal(a.configs[0].runs[0].points[1].cmp[ANALYSIS_PQ_INTERFERENCE].max_thread,
			 1);
	analysis_release(&a);
	free(s2);
	remove_dir(dir);
}

/*
 * Measured (examples/imbalance, 3:1 on 2 threads, load 14 on 2 cores): the main thread spent 0.42
 * s on a CPU, 1.89 s in the run queue, part of it after the end-of-region wake-up (inside its
 * omp_idle, not its work). The judged figures are the on-CPU ones: Execution_time 0.42 s of 2.31
 * wall, Load_balance 2/3.
 */
static void test_measured_wakeup_delay(void **state)
{
	const char *stats[] = { "0 0 1 2.3079 2.3078 0 0 0 0.4213 1.8866",
				"1 0 1 2.3078 2.3078 0 0.40995 0 0.4212 1.8866",
				"1 1 0 1.1529 1.1529 0 1.15488 0 0.13968 1.01287", NULL };
	char *dir = make_dir();
	struct analysis a;
	const double *f;

	(void)state;
	write_profile(dir, 2, two_cpus, stats);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME_WALL], 2.3078);
	near(f[ANALYSIS_EXECUTION_TIME], 0.4212);
	/* the worker's work less its whole delay: its 1.15 s off the CPU hold a little more */
	near(f[ANALYSIS_PRODUCTIVE_TIME], 0.4212 + 1.1529 - 1.01287);
	near(f[ANALYSIS_LOAD_BALANCE], (0.4212 + 1.1529 - 1.01287) / 2 / 0.4212);
	assert_true(f[ANALYSIS_LOAD_BALANCE] <= 0.72);
	near(f[ANALYSIS_INTERFERENCE], 2 * (2.3078 - 0.4212));
	analysis_release(&a);
	remove_dir(dir);
}

/*
 * Four threads on the 2 CPUs the process was given (twice the threads): each waits half its time
 * for the program's own threads. That delay is the program's: no Interference, Execution_time
 * stays the wall's. A run-queue delay beyond it (here 0.1 of each thread's 4 s) is the machine's.
 */
static void test_self_oversubscription(void **state)
{
	static const char *const meta[] = { "sched", "schedstat", "cpus", "2", "threads_max", "4",
					    NULL };
	const char *own[] = { "0 0 1 4 4 0 0 0 2 2", "1 0 1 4 4 0 0 0 2 2", "1 1 0 4 4 0 0 0 2 2",
			      "1 2 0 4 4 0 0 0 2 2", "1 3 0 4 4 0 0 0 2 2", NULL };
	const char *more[] = { "0 0 1 4 4 0 0 0 1.6 2.4", "1 0 1 4 4 0 0 0 1.6 2.4",
			       "1 1 0 4 4 0 0 0 1.6 2.4",
			       "1 2 0 4 4 0 0 0 1.6 2.4", "1 3 0 4 4 0 0 0 1.6 2.4", NULL };
	char *dir = make_dir();
	struct analysis a;
	const double *f;

	(void)state;
	write_profile(dir, 4, meta, own);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_INTERFERENCE], 0);
	near(f[ANALYSIS_EXECUTION_TIME], 4);
	analysis_release(&a);
	write_profile(dir, 4, meta, more);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME], 4 - 0.4);
	near(f[ANALYSIS_INTERFERENCE], 4 * 0.4);
	near(f[ANALYSIS_LOAD_BALANCE], 1);
	analysis_release(&a);
	remove_dir(dir);
}

/*
 * A balanced region of 100 phases on 2 threads, each with 2 s of work: the hog preempted the main
 * thread for 1 s in some phases and the worker for 1 s in others, so each waited at the barriers 1
 * s for the other's delay: 4 s of wall time. The tracer's rq_sync (1 s each: the teams' shift of 2
 * s less each one's own 1 s) gives the program's figures: 2 s, no Synchronization. Without it only
 * the most delayed thread's delay comes off (3 s), and the waiting stays the program's.
 */
static void test_barrier_wait_for_preempted_sibling(void **state)
{
	const char *stats[] = { "0 0 1 4 4 1 0 0 2 1 1", "1 0 1 4 4 1 0 0 2 1 1",
				"1 1 0 4 4 1 0 0 2 1 1", NULL };
	const char *old[] = { "0 0 1 4 4 1 0 0 2 1", "1 0 1 4 4 1 0 0 2 1", "1 1 0 4 4 1 0 0 2 1",
			      NULL };
	char *dir = make_dir();
	struct analysis a;
	const double *f;

	(void)state;
	with_rq_sync = 1;
	write_profile(dir, 2, two_cpus, stats);
	with_rq_sync = 0;
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME_WALL], 4);
	near(f[ANALYSIS_EXECUTION_TIME], 2);
	near(f[ANALYSIS_SYNCHRONIZATION], 0);
	near(f[ANALYSIS_INTERFERENCE], 2 * 2);
	near(f[ANALYSIS_LOAD_BALANCE], 1);
	near(f[ANALYSIS_EFFICIENCY], 1);
	analysis_release(&a);
	write_profile(dir, 2, two_cpus, old);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME], 3);
	assert_true(f[ANALYSIS_SYNCHRONIZATION] > 0.5);
	analysis_release(&a);
	remove_dir(dir);
}

/* Without the run-queue delay (an old profile, or sched none) Interference is absent and nothing
 * moves. */
static void test_not_captured(void **state)
{
	static const char *const none[] = { "sched", "none", "cpus", "2", NULL };
	static const char *const no_cpus[] = { "sched", "schedstat", NULL };
	const char *const *metas[] = { NULL, none, no_cpus };
	const char *stats[] = { "0 0 1 5 3 0 0 0 - -", "1 0 1 5 3 0 0 0 - -", "1 1 0 3 3 2 0 0 - -",
				NULL };
	const char *with_rq[] = { "0 0 1 5 3 0 0 0 3 2", "1 0 1 5 3 0 0 0 3 2",
				  "1 1 0 3 3 2 0 0 1 0", NULL };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(metas); i++) {
		char *dir = make_dir();
		struct analysis a;
		const double *f;

		write_profile(dir, 2, metas[i], i == 2 ? with_rq : stats);
		f = load_solve(&a, dir);
		assert_true(isnan(f[ANALYSIS_INTERFERENCE]));
		near(f[ANALYSIS_EXECUTION_TIME], 5);
		near(f[ANALYSIS_EXECUTION_TIME_WALL], 5);
		near(f[ANALYSIS_TOTAL_TIME], 10);
		near(f[ANALYSIS_PRODUCTIVE_TIME], 6);
		near(f[ANALYSIS_SEQ], 2);
		near(f[ANALYSIS_SYNCHRONIZATION], 2);
		analysis_release(&a);
		remove_dir(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hog_on_critical_thread),
		cmocka_unit_test(test_hog_on_light_thread),
		cmocka_unit_test(test_measured_wakeup_delay),
		cmocka_unit_test(test_self_oversubscription),
		cmocka_unit_test(test_barrier_wait_for_preempted_sibling),
		cmocka_unit_test(test_not_captured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
