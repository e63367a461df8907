/* Unit tests of the analyzer: the lost-time identity on synthetic profiles, rank metadata, the DVM
 * Jacobi figures. */
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
#include "analyze/lost-terms.h"
#include "analyze/matrix.h"
#include "base/util.h"
#include "scratch-testing.h"

/*
 * One rank's profile: nodes program (0) > solve (1) > inner (2); 'threads'
 * slots (slot 0 main); 'stats' and 'mpi' are record lines without the
 * record name: "node thread count time par barrier idle lock" and
 * "node thread kind count time wait".
 */
static void write_rank(const char *dir, int rank, int ranks, int threads, const char *omp,
		       const char *mpi, const char *const *stats, const char *const *mpis)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/rank%05d.test.1.sgprof", dir, rank);

	if (ranks < 0) /* a process without MPI */
		strbuf_addf(&sb,
			    "scalegate-profile\t1\nmeta\trank\t-\nmeta\tranks\t-\nmeta\tomp\t%"
			    "s\nmeta\tmpi\t%s\n",
			    omp, mpi);
	else
		strbuf_addf(&sb,
			    "scalegate-profile\t1\nmeta\trank\t%d\nmeta\tranks\t%d\nmeta\tomp\t%"
			    "s\nmeta\tmpi\t%s\n",
			    rank, ranks, omp, mpi);
	strbuf_addstr(
		&sb,
		"columns\tregion\tid\tname\tfile\tline\nregion\t0\tprogram\t/bin/prog\t0\n"
		"region\t1\tsolve\tt.c\t10\nregion\t2\tinner\tt.c\t20\n"
		"columns\tnode\tid\tparent\tregion\ttag\nnode\t0\t-\t0\t-\nnode\t1\t0\t1\t-\n"
		"node\t2\t1\t2\t-\ncolumns\tthread\tid\tomp_thread\tkind\nthread\t0\t0\tmain\n");
	for (int t = 1; t < threads; t++)
		strbuf_addf(&sb, "thread\t%d\t%d\tworker\n", t, t);
	strbuf_addstr(
		&sb,
		"columns\tstat\tnode\tthread\tcount\ttime\tpar\tomp_barrier\tomp_idle\tomp_lock\n");
	for (; stats && *stats; stats++) {
		strbuf_addstr(&sb, "stat\t");
		for (const char *c = *stats; *c; c++)
			strbuf_addch(&sb, *c == ' ' ? '\t' : *c);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addstr(&sb, "columns\tmpi\tnode\tthread\tkind\tcount\ttime\twait\n");
	for (; mpis && *mpis; mpis++) {
		strbuf_addstr(&sb, "mpi\t");
		for (const char *c = *mpis; *c; c++)
			strbuf_addch(&sb, *c == ' ' ? '\t' : *c);
		strbuf_addch(&sb, '\n');
	}
	write_sealed_profile(path, &sb);
	strbuf_release(&sb);
	free(path);
}

static double fig(const struct analysis_point *pt, enum analysis_figure f)
{
	return pt->fig[f];
}

/* Lost_time is the sum of its terms (base/lost-table.h), absent terms as 0, none negative; a term
 * with parts is their sum. */
static void check_identity(const struct analysis_point *pt)
{
	double sum = 0;

	if (isnan(fig(pt,
		      ANALYSIS_LOST_TIME))) /* the split of the threads' time was not captured */
		return;
	for (size_t i = 0; i < lost_nr_terms; i++) {
		const struct lost_term *t = &lost_terms[i];
		double v = fig(pt, t->fig), parts = 0;
		if (isnan(v))
			continue;
		assert_true(v >= 0);
		if (t->parent == ANALYSIS_LOST_TIME)
			sum += v;
		if (!lost_term_has_parts(t->fig))
			continue;
		for (size_t k = 0; k < lost_nr_terms; k++)
			if (lost_terms[k].parent == t->fig && !isnan(fig(pt, lost_terms[k].fig)))
				parts += fig(pt, lost_terms[k].fig);
		assert_true(fabs(v - parts) < 1e-9);
	}
	assert_true(fabs(fig(pt, ANALYSIS_LOST_TIME) - sum) < 1e-9);
	assert_true(fabs(fig(pt, ANALYSIS_TOTAL_TIME) - fig(pt, ANALYSIS_PRODUCTIVE_TIME) -
			 fig(pt, ANALYSIS_LOST_TIME)) < 1e-9);
	assert_int_equal(pt->inconsistent, 0);
}

/* Loads 'dir' and returns the point of 'path' in the only run (the analysis is kept in *a). */
static const struct analysis_point *load_point(struct analysis *a, const char *dir,
					       const char *path)
{
	analysis_init(a);
	assert_int_equal(analysis_load(a, dir), 0);
	assert_int_equal(a->nr_configs, 1);
	assert_int_equal(a->configs[0].nr_runs, 1);
	for (size_t i = 0; i < a->nr_intervals; i++)
		if (!strcmp(a->intervals[i].path, path)) {
			for (size_t k = 0; k < a->nr_intervals; k++)
				if (a->configs[0].runs[0].points[k].present)
					check_identity(&a->configs[0].runs[0].points[k]);
			return &a->configs[0].runs[0].points[i];
		}
	fail_msg("no interval %s", path);
	return NULL;
}

static void test_serial(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *stats[] = { "0 0 1 2 0 0 0 0", "1 0 1 1.5 0 0 0 0", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 1, 1, "gomp", "none", stats, NULL);
	pt = load_point(&a, dir, "program/solve");
	near(fig(pt, ANALYSIS_EXECUTION_TIME), 1.5);
	near(fig(pt, ANALYSIS_LOST_TIME), 0);
	near(fig(pt, ANALYSIS_EFFICIENCY), 1);
	assert_true(isnan(fig(pt, ANALYSIS_COMMUNICATION))); /* MPI not captured: absent */
	near(fig(pt, ANALYSIS_SYNCHRONIZATION), 0);
	analysis_release(&a);
	remove_dir(dir);
}

/* Main: 2 s serial, a region of 8 s in which it works 7 and idles 1; the worker works 3, idles 5.
 */
static void test_openmp_imbalance(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *stats[] = { "0 0 1 10 8 0 0 0", "1 0 1 10 8 0 1 0", "1 1 0 3 3 0 5 0", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 1, 2, "gomp", "none", stats, NULL);
	pt = load_point(&a, dir, "program/solve");
	near(fig(pt, ANALYSIS_TOTAL_TIME), 20);
	near(fig(pt, ANALYSIS_PRODUCTIVE_TIME), 12);
	near(fig(pt, ANALYSIS_SEQ), 2);
	near(fig(pt, ANALYSIS_PAR), 0);
	near(fig(pt, ANALYSIS_SYNCHRONIZATION), 6);
	near(fig(pt, ANALYSIS_LOAD_IMBALANCE), 6);
	near(fig(pt, ANALYSIS_LOAD_BALANCE), 6.0 / 9);
	assert_int_equal(pt->cmp[ANALYSIS_PQ_WORK].max_thread, 0);
	assert_int_equal(pt->cmp[ANALYSIS_PQ_WORK].min_thread, 1);
	analysis_release(&a);
	remove_dir(dir);
}

/* Three threads; worker 2 takes part in one of two 4 s regions only; a nested interval inside the
 * body. */
static void test_worker_missing(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *stats[] = { "0 0 1 10 8 0 0 0", "1 0 1 10 8 0 0 0", "1 1 0 8 8 0 0 0",
				"1 2 0 4 4 0 0 0", "2 2 3 1 1 0 0 0", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 1, 3, "gomp", "none", stats, NULL);
	pt = load_point(&a, dir, "program/solve");
	near(fig(pt, ANALYSIS_TOTAL_TIME), 30);
	near(fig(pt, ANALYSIS_SEQ), 4);
	near(fig(pt, ANALYSIS_PAR), 4);
	near(fig(pt, ANALYSIS_PRODUCTIVE_TIME), 22);
	near(pt->cmp[ANALYSIS_PQ_MISSING].max, 4);
	assert_int_equal(pt->cmp[ANALYSIS_PQ_MISSING].max_thread, 2);
	analysis_release(&a);
	remove_dir(dir);
}

/* Two ranks; rank 0 spends 2 s in an allreduce that rank 1 finishes in 0.5 s; rank 1 leaves 0.5 s
 * early. */
static void test_mpi_wait(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *s0[] = { "0 0 1 5 0 0 0 0", "1 0 1 5 0 0 0 0", NULL };
	const char *s1[] = { "0 0 1 5 0 0 0 0", "1 0 1 4.5 0 0 0 0", NULL };
	const char *m0[] = { "1 0 allreduce 10 2 -", NULL };
	const char *m1[] = { "1 0 allreduce 10 0.5 -", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 2, 1, "gomp", "pmpi", s0, m0);
	write_rank(dir, 1, 2, 1, "gomp", "pmpi", s1, m1);
	pt = load_point(&a, dir, "program/solve");
	near(fig(pt, ANALYSIS_TOTAL_TIME), 10);
	near(fig(pt, ANALYSIS_COMMUNICATION), 1);
	near(fig(pt, ANALYSIS_SYNCHRONIZATION), 1.5);
	near(fig(pt, ANALYSIS_IDLE), 0.5);
	near(fig(pt, ANALYSIS_PRODUCTIVE_TIME), 7);
	assert_true(pt->wait_estimated);
	assert_int_equal(pt->cmp[ANALYSIS_PQ_MPI_WAIT].max_rank, 0);
	analysis_release(&a);
	remove_dir(dir);
}

/* No MPI library in the process ('meta mpi absent'): Communication is 0, not absent; 'none' keeps
 * it absent. */
static void test_mpi_absent(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *stats[] = { "0 0 1 2 0 0 0 0", "1 0 1 1.5 0 0 0 0", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, -1, 1, "gomp", "absent", stats, NULL);
	pt = load_point(&a, dir, "program/solve");
	near(fig(pt, ANALYSIS_COMMUNICATION), 0);
	near(fig(pt, ANALYSIS_SYNC_MPI), 0);
	analysis_release(&a);
	remove_dir(dir);
}

/* Without OpenMP capture the OpenMP waiting is absent, not zero, where it applies: more than one
 * thread. */
static void test_omp_absent(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *stats[] = { "0 0 1 2 - - - -", "1 0 1 1.5 - - - -", "1 1 0 1 - - - -", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 1, 2, "none", "none", stats, NULL);
	pt = load_point(&a, dir, "program/solve");
	assert_true(isnan(fig(pt, ANALYSIS_SYNC_OMP)));
	assert_true(isnan(fig(pt, ANALYSIS_SYNCHRONIZATION)));
	analysis_release(&a);
	remove_dir(dir);
}

/* One thread, no OpenMP, no MPI: nobody to wait for, so Synchronization is 0, not absent. */
static void test_serial_uncaptured(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *stats[] = { "0 0 1 2 - - - -", "1 0 1 1.5 - - - -", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 1, 1, "none", "none", stats, NULL);
	pt = load_point(&a, dir, "program/solve");
	near(fig(pt, ANALYSIS_SYNC_OMP), 0);
	near(fig(pt, ANALYSIS_SYNCHRONIZATION), 0);
	near(fig(pt, ANALYSIS_LOST_TIME), 0);
	analysis_release(&a);
	remove_dir(dir);
}

/* Pure MPI (issue 12): rank 1 is 1.5 s late to the allreduces; Synchronization is its MPI part. */
static void test_pure_mpi(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *s0[] = { "0 0 1 5 - - - -", "1 0 1 5 - - - -", NULL };
	const char *s1[] = { "0 0 1 5 - - - -", "1 0 1 5 - - - -", NULL };
	const char *m0[] = { "1 0 allreduce 10 2 -", NULL };
	const char *m1[] = { "1 0 allreduce 10 0.5 -", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 2, 1, "none", "pmpi", s0, m0);
	write_rank(dir, 1, 2, 1, "none", "pmpi", s1, m1);
	pt = load_point(&a, dir, "program/solve");
	near(fig(pt, ANALYSIS_SYNC_MPI), 1.5);
	near(fig(pt, ANALYSIS_SYNC_OMP), 0);
	near(fig(pt, ANALYSIS_SYNCHRONIZATION), 1.5);
	near(fig(pt, ANALYSIS_COMMUNICATION), 1);
	analysis_release(&a);
	remove_dir(dir);
}

/*
 * Issue 12: 'inner' opened by both threads inside the region forked from 'solve' (PRK Stencil's
 * shape). The rank's time there is the worker's 6 s; the main thread, in it for 3, had no work in
 * it for the other 3.
 */
static void test_opened_inside_region(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *stats[] = { "0 0 1 10 8 0 0 0", "1 0 1 10 8 0 1 0", "2 0 5 3 3 1 0 0",
				"1 1 0 7 7 0 1 0", "2 1 5 6 6 0.5 0 0", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 1, 2, "gomp", "none", stats, NULL);
	pt = load_point(&a, dir, "program/solve/inner");
	near(fig(pt, ANALYSIS_EXECUTION_TIME), 6);
	near(fig(pt, ANALYSIS_COUNT), 5);
	near(fig(pt, ANALYSIS_PAR), 3);
	near(fig(pt, ANALYSIS_SEQ), 0);
	near(fig(pt, ANALYSIS_SYNCHRONIZATION), 1.5);
	near(fig(pt, ANALYSIS_PRODUCTIVE_TIME), 7.5);
	analysis_release(&a);
	pt = load_point(&a, dir, "program/solve");
	near(fig(pt, ANALYSIS_EXECUTION_TIME), 10);
	near(fig(pt, ANALYSIS_SEQ), 2);
	near(fig(pt, ANALYSIS_PAR), 0);
	near(fig(pt, ANALYSIS_SYNCHRONIZATION), 3.5);
	near(fig(pt, ANALYSIS_PRODUCTIVE_TIME), 14.5);
	analysis_release(&a);
	remove_dir(dir);
}

/* Issue 12: only a second thread (a late pthread) enters 'inner', for 2 s; the main thread never
 * does. */
static void test_only_other_thread(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const char *stats[] = { "0 0 1 10 0 0 0 0", "2 1 1 2 0 0 0 0", NULL };
	const struct analysis_point *pt;

	(void)state;
	write_rank(dir, 0, 1, 2, "gomp", "none", stats, NULL);
	pt = load_point(&a, dir, "program/solve/inner");
	near(fig(pt, ANALYSIS_EXECUTION_TIME), 2);
	near(fig(pt, ANALYSIS_COUNT), 1);
	near(fig(pt, ANALYSIS_PRODUCTIVE_TIME), 2);
	near(fig(pt, ANALYSIS_PAR), 2); /* the main thread was not in it */
	analysis_release(&a);
	remove_dir(dir);
}

/* Profiles whose rank metadata disagree are refused, not merged as processors (issue 12). */
static void expect_refused(const char *dir)
{
	struct analysis a;

	analysis_init(&a);
	assert_int_equal(analysis_load(&a, dir), -1);
	analysis_release(&a);
}

static void test_rank_metadata(void **state)
{
	const char *stats[] = { "0 0 1 2 0 0 0 0", NULL };
	char *dir, *sub, *path;
	FILE *f;

	(void)state;
	dir = make_dir(); /* two rank 0s */
	write_rank(dir, 0, 2, 1, "gomp", "pmpi", stats, NULL);
	path = xstrfmt("%s/rank00000.test.1.sgprof", dir);
	sub = xstrfmt("%s/rank00000.other.2.sgprof", dir);
	assert_int_equal(link(path, sub), 0);
	expect_refused(dir);
	free(path);
	free(sub);
	remove_dir(dir);

	dir = make_dir(); /* rank 5 of 2 */
	write_rank(dir, 0, 2, 1, "gomp", "pmpi", stats, NULL);
	write_rank(dir, 5, 2, 1, "gomp", "pmpi", stats, NULL);
	expect_refused(dir);
	remove_dir(dir);

	dir = make_dir(); /* rank 0 of 2 and rank 1 of 3 */
	write_rank(dir, 0, 2, 1, "gomp", "pmpi", stats, NULL);
	write_rank(dir, 1, 3, 1, "gomp", "pmpi", stats, NULL);
	expect_refused(dir);
	remove_dir(dir);

	dir = make_dir(); /* rank 0 of 2 alone */
	write_rank(dir, 0, 2, 1, "gomp", "pmpi", stats, NULL);
	expect_refused(dir);
	remove_dir(dir);

	/* a results directory whose run has 2 ranks where the configuration says 1 */
	dir = make_dir();
	sub = xstrfmt("%s/b/r1/1", dir);
	path = xstrfmt("mkdir -p '%s'", sub);
	assert_int_equal(system(path), 0);
	free(path);
	write_rank(sub, 0, 2, 1, "gomp", "pmpi", stats, NULL);
	write_rank(sub, 1, 2, 1, "gomp", "pmpi", stats, NULL);
	path = xstrfmt("%s/manifest.tsv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("benchmark\tsize\tranks\tthreads\tp\trepeat\tstatus\texit\twall_s\tdir\treason\n"
	      "b\t-\t1\t1\t1\t1\tok\t0\t1.0\tb/r1/1\t-\n", f);
	fclose(f);
	expect_refused(dir);
	free(path);
	free(sub);
	remove_dir(dir);
}

/* A process without MPI next to the ranks (a launcher's helper, preloaded): refused. */
static void test_rankless_helper(void **state)
{
	const char *stats[] = { "0 0 1 2 0 0 0 0", NULL };
	char *dir = make_dir();

	(void)state;
	write_rank(dir, 0, 1, 1, "gomp", "pmpi", stats, NULL);
	write_rank(dir, 7, -1, 1, "none", "none", stats, NULL);
	expect_refused(dir);
	remove_dir(dir);
}

/*
 * docs/design.md's DVM Jacobi example on 16 processors (4 ranks x 4 threads):
 * Total 768.799744 = 48.049984 x 16, Efficiency 0.919949, Lost 61.543236 =
 * 29.595780 (insufficient parallelism) + 29.950592 (communication) + 1.996864 (idle).
 */
static void test_dvm_jacobi(void **state)
{
	char *dir = make_dir();
	struct analysis a;
	const struct analysis_point *pt;

	(void)state;
	for (int r = 0; r < 4; r++) {
		double W = r == 3 ? 48.049984 - 0.499216 : 48.049984, serial = 9.86526 / 4;
		char *st[6], *mp[5];
		st[0] = xstrfmt("0 0 1 %.9f %.9f 0 0 0", W, W - serial);
		for (int q = 1; q < 4; q++)
			st[q] = xstrfmt("0 %d 0 %.9f %.9f 0 0 0", q, W - serial, W - serial);
		st[4] = NULL;
		mp[0] = xstrfmt("0 0 sendrecv 100 2 -");
		for (int q = 1; q < 4; q++)
			mp[q] = xstrfmt("0 %d sendrecv 100 %.9f -", q, (29.950592 / 4 - 2) / 3);
		mp[4] = NULL;
		write_rank(dir, r, 4, 4, "gomp", "pmpi", (const char *const *)st,
			   (const char *const *)mp);
		for (int i = 0; i < 4; i++) {
			free(st[i]);
			free(mp[i]);
		}
	}
	pt = load_point(&a, dir, "program");
	assert_true(fabs(fig(pt, ANALYSIS_TOTAL_TIME) - 768.799744) < 1e-5);
	assert_true(fabs(fig(pt, ANALYSIS_EFFICIENCY) - 0.919949) < 1e-5);
	assert_true(fabs(fig(pt, ANALYSIS_LOST_TIME) - 61.543236) < 1e-5);
	assert_true(fabs(fig(pt, ANALYSIS_INSUFFICIENT_PARALLELISM) - 29.595780) < 1e-5);
	assert_true(fabs(fig(pt, ANALYSIS_COMMUNICATION) + fig(pt, ANALYSIS_SYNC_MPI) - 29.950592) <
		    1e-5);
	assert_true(fabs(fig(pt, ANALYSIS_IDLE) - 1.996864) < 1e-5);
	assert_true(fabs(fig(pt, ANALYSIS_PRODUCTIVE_TIME) - 707.256508) < 1e-5);
	near(fig(pt, ANALYSIS_PROCESSORS), 16);
	analysis_release(&a);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serial),
		cmocka_unit_test(test_openmp_imbalance),
		cmocka_unit_test(test_worker_missing),
		cmocka_unit_test(test_mpi_wait),
		cmocka_unit_test(test_omp_absent),
		cmocka_unit_test(test_serial_uncaptured),
		cmocka_unit_test(test_mpi_absent),
		cmocka_unit_test(test_pure_mpi),
		cmocka_unit_test(test_opened_inside_region),
		cmocka_unit_test(test_only_other_thread),
		cmocka_unit_test(test_rank_metadata),
		cmocka_unit_test(test_rankless_helper),
		cmocka_unit_test(test_dvm_jacobi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
