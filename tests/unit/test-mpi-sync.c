/* Unit tests of waiting for a delayed rank: the tracer's arithmetic (tracer/mpi-sync.h) and what
 * the analyzer makes of mpi_sync and mpi_rq (docs/metrics.md, "Interference"). */
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

#include "../../tracer/mpi-sync.h"
#include "analyze/analysis.h"
#include "base/util.h"
#include "scratch-testing.h"

/* ---- the arithmetic, in ticks ---- */

#define SIDE(at, delay) ((struct sg_mpi_side){ (at), (delay) })

/* a waits for b, whose work took 30 ticks longer than a's: 20 of them its delay. */
static void test_partner_delayed(void **state)
{
	struct sg_mpi_side a = SIDE(1000, 0), b = SIDE(1030, 20);

	(void)state;
	/* without delays b would have come 10 ticks after a: that much waiting is the program's */
	assert_int_equal(sg_mpi_undelayed_wait(a, b, 32), 10);
	assert_int_equal(sg_mpi_caused(a, b, 1030, 32), 20);
	assert_int_equal(sg_mpi_sync_of(a, b, 1030, 1032, 32, 0), 20);
	/* a's own delay while it waited is in its rq_wait already: 3 ticks of it before b came
	 * shifted nothing and are given back, 2 after (its late notice) stay off its path */
	assert_int_equal(sg_mpi_sync_of(a, b, 1030, 1032, 32, 5), 17);
}

/* Nobody's delay: all of the wait is the program's, whatever the arrivals. */
static void test_no_delay(void **state)
{
	(void)state;
	assert_int_equal(sg_mpi_undelayed_wait(SIDE(1000, 0), SIDE(1300, 0), 300), 300);
	assert_int_equal(sg_mpi_sync_of(SIDE(1000, 0), SIDE(1300, 0), 1300, 1300, 300, 0), 0);
	/* an arrival read from an earlier call of b (it moved on) holds no delay either */
	assert_int_equal(sg_mpi_caused(SIDE(1000, 0), SIDE(900, 0), 900, 300), 0);
	/* a spun for a partner asleep, preempted 250 of the 300 ticks before it came: a would have
	 * waited as long, so its delay there is given back to its critical path */
	assert_int_equal(sg_mpi_sync_of(SIDE(1000, 0), SIDE(1300, 0), 1300, 1300, 300, 250), -250);
}

/* b's delay behind a's own: a's lag was as large, so the wait was the program's. */
static void test_both_delayed(void **state)
{
	struct sg_mpi_side a = SIDE(1050, 50), b = SIDE(1080, 50);

	(void)state;
	assert_int_equal(sg_mpi_undelayed_wait(a, b, 30), 30);
	assert_int_equal(sg_mpi_caused(a, b, 1080, 30), 0);
	/* b delayed 20 more than a: 20 of the 30 */
	assert_int_equal(sg_mpi_caused(a, SIDE(1080, 70), 1080, 30), 20);
}

/* a had more work than b: without delays it would not have waited at all. */
static void test_wait_only_by_delay(void **state)
{
	struct sg_mpi_side a = SIDE(1000, 0), b = SIDE(1040, 60);

	(void)state;
	assert_int_equal(sg_mpi_undelayed_gap(a, b), -20);
	assert_int_equal(sg_mpi_undelayed_wait(a, b, 45), 0);
	assert_int_equal(sg_mpi_caused(a, b, 1040, 45), 40);
	/* preempted 30 ticks while it waited, 5 of them after b came: of the 45 ticks' wait, 40
	 * were b's and 5 its own late notice, and nothing is counted twice (rq_wait 30 + mpi_sync
	 * 15) */
	assert_int_equal(sg_mpi_sync_of(a, b, 1040, 1045, 45, 30), 15);
}

/* A collective: the latest undelayed arrival decides, the most delayed member bounds. */
static void test_fold(void **state)
{
	struct sg_mpi_side b = { 0, 0 }, a = SIDE(1000, 0);

	(void)state;
	sg_mpi_fold(&b, SIDE(1100, 95), 1); /* undelayed at 1005 */
	sg_mpi_fold(&b, SIDE(1020, 0), 0);  /* undelayed at 1020: the critical member */
	sg_mpi_fold(&b, SIDE(1010, 30), 0); /* undelayed at 980 */
	assert_int_equal(b.at - b.delay, 1020);
	assert_int_equal(b.delay, 95);
	assert_int_equal(sg_mpi_undelayed_wait(a, b, 100), 20);
	/* the last actual arrival (1100) ended the wait */
	assert_int_equal(sg_mpi_caused(a, b, 1100, 100), 80);
}

/* The lag a goes on with after its wait, and its late notice. */
static void test_lag_after(void **state)
{
	(void)state;
	/* b's undelayed arrival was the later: a's own delay (10) fell in its slack, b's lag is a's
	 */
	assert_int_equal(sg_mpi_lag_after(SIDE(1000, 10), SIDE(1100, 40), 1100, 0), 40);
	/* a's was the later: it would not have waited; its lag grows by the wait */
	assert_int_equal(sg_mpi_lag_after(SIDE(1000, 10), SIDE(1100, 130), 1100, 0), 110);
	/* a noticed b's arrival 7 ticks late: its own delay makes it leave late */
	assert_int_equal(sg_mpi_lag_after(SIDE(1000, 10), SIDE(1100, 40), 1100, 7), 47);
	assert_int_equal(sg_mpi_late_notice(1120, 1100, 7), 7);
	assert_int_equal(sg_mpi_late_notice(1120, 1100, 50), 20);
	assert_int_equal(sg_mpi_late_notice(1090, 1100, 50), 0);
}

/* Clock values near the wrap of 64 bits: differences stay right. */
static void test_wrap(void **state)
{
	uint64_t t = UINT64_MAX - 10;

	(void)state;
	assert_int_equal(sg_mpi_caused(SIDE(t, 0), SIDE(t + 30, 20), t + 30, 32), 20);
	assert_int_equal(sg_mpi_sync_of(SIDE(t, 0), SIDE(t + 30, 20), t + 30, t + 32, 32, 5), 17);
	assert_int_equal(sg_mpi_undelayed_wait(SIDE(t, 0), SIDE(t + 30, 20), 32), 10);
}

/* ---- the analyzer: two ranks of one interval 'solve', one thread each ---- */

/*
 * Rank r's profile in 'dir': 'stat' is solve's record without the record name "count time cpu
 * rq_wait mpi_sync mpi_rq mpi_cpu" (the last three left out when 'columns' is 0: an older tracer),
 * 'mpi' its sendrecv's "count time wait". The level-0 interval holds solve alone.
 */
static void write_rank(const char *dir, int r, const char *stat, const char *mpi, int columns)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/rank%05d.node1.%d.sgprof", dir, r, r);

	strbuf_addf(&sb,
		    "scalegate-profile\t1\nmeta\trank\t%d\nmeta\tranks\t2\nmeta\tomp\tnone\n"
		    "meta\tmpi\tpmpi\nmeta\thost\tnode1\nmeta\tsched\tschedstat\nmeta\tcpus\t2\n"
		    "meta\tthreads_max\t1\n",
		    r);
	strbuf_addstr(&sb, "columns\tregion\tid\tname\tfile\tline\n"
			   "region\t0\tprogram\t/bin/prog\t0\nregion\t1\tsolve\tt.c\t10\n"
			   "columns\tnode\tid\tparent\tregion\ttag\n"
			   "node\t0\t-\t0\t-\nnode\t1\t0\t1\t-\n"
			   "columns\tthread\tid\tomp_thread\tkind\nthread\t0\t0\tmain\n");
	strbuf_addf(&sb, "columns\tstat\tnode\tthread\tcount\ttime\tcpu\trq_wait%s\n",
		    columns ? "\tmpi_sync\tmpi_rq\tmpi_cpu" : "");
	for (int node = 0; node < 2; node++) {
		strbuf_addf(&sb, "stat\t%d\t0\t", node);
		for (const char *c = stat; *c; c++)
			strbuf_addch(&sb, *c == ' ' ? '\t' : *c);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addstr(&sb, "columns\tmpi\tnode\tthread\tkind\tcount\ttime\twait\tbytes_sent"
			   "\tbytes_recv\nmpi\t1\t0\tsendrecv\t");
	for (const char *c = mpi; *c; c++)
		strbuf_addch(&sb, *c == ' ' ? '\t' : *c);
	strbuf_addstr(&sb, "\t8\t8\n");
	write_sealed_profile(path, &sb);
	strbuf_release(&sb);
	free(path);
}

/* The figures of program/solve of the one run in 'dir' (kept in *a); the identity checked. */
static const double *load_solve(struct analysis *a, const char *dir)
{
	const double *f = NULL;

	analysis_init(a);
	assert_int_equal(analysis_load(a, dir), 0);
	for (size_t i = 0; i < a->nr_intervals; i++)
		if (!strcmp(a->intervals[i].path, "program/solve"))
			f = a->configs[0].runs[0].points[i].fig;
	assert_non_null(f);
	near(f[ANALYSIS_LOST_TIME], f[ANALYSIS_INSUFFICIENT_PARALLELISM] +
					    f[ANALYSIS_COMMUNICATION] + f[ANALYSIS_IDLE] +
					    f[ANALYSIS_SYNCHRONIZATION] + f[ANALYSIS_INTERFERENCE]);
	near(f[ANALYSIS_TOTAL_TIME_WALL] - f[ANALYSIS_PRODUCTIVE_TIME], f[ANALYSIS_LOST_TIME]);
	near(f[ANALYSIS_TOTAL_TIME], f[ANALYSIS_TOTAL_TIME_WALL] - f[ANALYSIS_INTERFERENCE]);
	return f;
}

/*
 * Balanced work, 1 s a rank; a hog held rank 1 for 0.5 s of it, and rank 0 spun 0.5 s in its
 * sendrecv for it: the wait was the machine's (mpi_sync). The program's figures are the quiet
 * machine's: no Synchronization, Execution_time 1 s, Load_balance 1; the wait is Interference.
 * Without mpi_sync (an older tracer) it stays Synchronization, as before.
 */
static void test_wait_for_delayed_rank(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const double *f;

	(void)state;
	write_rank(dir, 0, "1 1.5 1.5 0 0.5 0 0.5", "2 0.5 0.5", 1);
	write_rank(dir, 1, "1 1.5 1.0 0.5 0 0 0", "2 0 0", 1);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME_WALL], 1.5);
	near(f[ANALYSIS_EXECUTION_TIME], 1);
	near(f[ANALYSIS_SYNCHRONIZATION], 0);
	near(f[ANALYSIS_INTERFERENCE], 1);
	near(f[ANALYSIS_PRODUCTIVE_TIME], 2);
	near(f[ANALYSIS_LOAD_BALANCE], 1);
	analysis_release(&a);

	write_rank(dir, 0, "1 1.5 1.5 0", "2 0.5 0.5", 0);
	write_rank(dir, 1, "1 1.5 1.0 0.5", "2 0 0", 0);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME], 1.5);
	assert_true(f[ANALYSIS_SYNCHRONIZATION] >= 0.5);
	analysis_release(&a);
	remove_dir(dir);
}

/*
 * A 3:1 imbalance (rank 0 works 3 s, rank 1 1 s and waits), a hog on rank 0 for 1 s: rank 1's wait
 * of 3 s is 2 s the program's and 1 s the machine's. The imbalance stays: Synchronization 2 s,
 * Load_balance 2/3, Execution_time 3 s.
 */
static void test_imbalance_beside_delay(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const double *f;

	(void)state;
	write_rank(dir, 0, "1 4 3 1 0 0 0", "2 0 0", 1);
	write_rank(dir, 1, "1 4 4 0 1 0 3", "2 3 3", 1);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME], 3);
	near(f[ANALYSIS_SYNCHRONIZATION], 2);
	near(f[ANALYSIS_INTERFERENCE], 2);
	near(f[ANALYSIS_LOAD_BALANCE], 2.0 / 3);
	near(f[ANALYSIS_PRODUCTIVE_TIME], 4);
	analysis_release(&a);
	remove_dir(dir);
}

/*
 * Rank 1 works 1 s on a CPU and 0.5 s blocked (I/O), then waits 0.5 s for rank 0's longer work,
 * preempted all that wait (mpi_rq; before rank 0 came, so given back: mpi_sync -0.5): its delay
 * fell in the wait, not in its work, whose time off the CPU was its blocking. Work 1.5 s,
 * Load_balance 3.5 / 4; the wait is the program's.
 */
static void test_delay_in_wait_not_work(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const double *f;

	(void)state;
	write_rank(dir, 0, "1 2 2 0 0 0 0", "2 0 0", 1);
	write_rank(dir, 1, "1 2 1 0.5 -0.5 0.5 0", "2 0.5 0.5", 1);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME], 2);
	near(f[ANALYSIS_PRODUCTIVE_TIME], 3.5);
	near(f[ANALYSIS_LOAD_BALANCE], 3.5 / 4);
	near(f[ANALYSIS_SYNCHRONIZATION], 0.5);
	analysis_release(&a);
	remove_dir(dir);
}

/*
 * A 3:1 imbalance, the light rank spinning in its wait (Open MPI's progress loop): its work, 1 s on
 * a CPU, was held 0.2 s, its spin 0.5 s (mpi_rq), and it spun on a CPU 1.3 s (mpi_cpu). That CPU
 * time was no work: its work is 1 s, Load_balance 2/3 as on a quiet machine (1.2 s and 0.7 when
 * the spin counted as work).
 */
static void test_spin_not_work(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const double *f;

	(void)state;
	write_rank(dir, 0, "1 3 3 0 0 0 0", "2 0 0", 1);
	write_rank(dir, 1, "1 3 2.3 0.7 0 0.5 1.3", "2 1.8 1.8", 1);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME], 3);
	near(f[ANALYSIS_PRODUCTIVE_TIME], 4);
	near(f[ANALYSIS_LOAD_BALANCE], 2.0 / 3);
	analysis_release(&a);
	remove_dir(dir);
}

/*
 * Two ranks pass a token, each holding it 1 s asleep and then spinning 1 s for the other's: the
 * machine held each spin 0.8 s before the token came. That delay shifted nothing (mpi_sync gives it
 * back): Execution_time 2 s, Synchronization 2 s, no Interference, as on a quiet machine (1.2 s
 * and 0.4 s when a thread's own delay always counted as on its critical path).
 */
static void test_delay_before_partner_came(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const double *f;

	(void)state;
	write_rank(dir, 0, "1 2 0.2 0.8 -0.8 0.8 0.2", "10 1 1", 1);
	write_rank(dir, 1, "1 2 0.2 0.8 -0.8 0.8 0.2", "10 1 1", 1);
	f = load_solve(&a, dir);
	near(f[ANALYSIS_EXECUTION_TIME], 2);
	near(f[ANALYSIS_SYNCHRONIZATION], 2);
	near(f[ANALYSIS_INTERFERENCE], 0);
	analysis_release(&a);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partner_delayed),
		cmocka_unit_test(test_no_delay),
		cmocka_unit_test(test_both_delayed),
		cmocka_unit_test(test_wait_only_by_delay),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_lag_after),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_wait_for_delayed_rank),
		cmocka_unit_test(test_imbalance_beside_delay),
		cmocka_unit_test(test_delay_in_wait_not_work),
		cmocka_unit_test(test_spin_not_work),
		cmocka_unit_test(test_delay_before_partner_came),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
