/* Unit tests of the profile reader: round trip of a known file, absent values, damaged files. */
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

#include "results/profile.h"
#include "base/util.h"

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* Writes 'body' followed by its end record to a temporary file; returns its path (caller frees). */
static char *write_profile(const char *body, int with_end)
{
	char *path = xstrdup("/tmp/sg-test-profile-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs(body, f);
	if (with_end)
		fprintf(f, "end\t%016llx\n", (unsigned long long)fnv1a(body, strlen(body)));
	fclose(f);
	return path;
}

static const char good[] =
	"scalegate-profile\t1\n"
	"meta\thost\tnode07\n"
	"meta\trank\t3\n"
	"meta\tcmdline\t./jacobi\\t4 2000\n"
	"meta\tfuture_key\twhatever\n"
	"columns\tregion\tid\tname\tfile\tline\n"
	"region\t0\tprogram\t./jacobi\t0\n"
	"region\t1\tsolve\tjacobi.c\t42\n"
	"region\t2\tsweep\tjacobi.c\t50\n"
	"columns\tnode\tid\tparent\tregion\ttag\n"
	"node\t0\t-\t0\t-\n"
	"node\t1\t0\t1\t-\n"
	"node\t2\t1\t2\t7\n"
	"columns\tthread\tid\tomp_thread\tkind\n"
	"thread\t0\t0\tmain\n"
	"thread\t1\t-\tworker\n"
	"columns\tstat\tnode\tthread\tcount\ttime\tnew_column\tmin\tmax\tsumsq\tpar\tomp_barrier\n"
	"stat\t0\t0\t1\t2.5\t9\t2.5\t2.5\t6.25\t1.5\t-\n"
	"stat\t2\t1\t10\t1.25\t9\t0.1\t0.2\t0.17\t1.25\t0.125\n"
	"newrecord\tfrom\ta\tnewer\ttracer\n";

static void test_round_trip(void **state)
{
	struct profile p;
	char *path = write_profile(good, 1);

	(void)state;
	assert_int_equal(profile_read(&p, path), 0);
	assert_string_equal(profile_meta(&p, "host"), "node07");
	assert_string_equal(profile_meta(&p, "cmdline"), "./jacobi\t4 2000");
	assert_true(profile_meta_num(&p, "rank", -1) == 3);
	assert_null(profile_meta(&p, "missing"));
	assert_int_equal(p.nr_regions, 3);
	assert_int_equal(p.nr_nodes, 3);
	assert_string_equal(p.nodes[2].path, "program/solve/sweep[7]");
	assert_int_equal(p.nodes[2].depth, 2);
	assert_string_equal(p.regions[p.nodes[1].region].file, "jacobi.c");
	assert_int_equal(p.regions[p.nodes[1].region].line, 42);
	assert_int_equal(p.nr_threads, 2);
	assert_true(p.threads[0].is_main);
	assert_int_equal(p.threads[1].omp_thread, -1);
	assert_int_equal(p.nr_stats, 2);
	assert_true(p.stats[1].v[PROFILE_COUNT] == 10);
	assert_true(p.stats[1].v[PROFILE_TIME] == 1.25);
	assert_true(p.stats[1].v[PROFILE_OMP_BARRIER] == 0.125);
	/* '-' and a column the file lacks are both absent, never zero. */
	assert_true(isnan(p.stats[0].v[PROFILE_OMP_BARRIER]));
	assert_true(isnan(p.stats[0].v[PROFILE_OMP_LOCK]));
	profile_data_release(&p);
	unlink(path);
	free(path);
}

/* Each damaged variant must be rejected. */
static void expect_rejected(const char *body, int with_end)
{
	struct profile p;
	char *path = write_profile(body, with_end);

	assert_int_equal(profile_read(&p, path), -1);
	unlink(path);
	free(path);
}

static void test_damaged(void **state)
{

	(void)state;
	expect_rejected(good, 0);                                   /* truncated: no end */
	expect_rejected("", 0);                                     /* empty */
	expect_rejected("scalegate-profile\t3\n", 1);               /* future version */
	expect_rejected("something else\n", 1);                     /* not a profile */
	expect_rejected("scalegate-profile\t1\n", 1);               /* no level-0 interval */
	expect_rejected("scalegate-profile\t1\ncolumns\tregion\n"
			"region\t0\tprogram\tp\t0\nnode\t0\t5\t0\t-\n", 1); /* parent after child */
	expect_rejected("scalegate-profile\t1\nregion\t0\tprogram\tp\t0\nnode\t0\t-\t0\t-\n"
			"thread\t0\t0\tmain\nstat\t0\t0\t1\n", 1);   /* stat before its columns */
}

/* A profile whose level-0 interval has no statistics measured nothing: rejected, so that the run
 * is an error and a gate cannot pass on no data. */
static void test_no_measurements(void **state)
{
	char body[2048];
	const char *root = strstr(good, "stat\t0\t0\t");
	const char *rest = strstr(good, "stat\t2\t1\t");
	const char *after = strstr(good, "newrecord");
	struct profile p;
	char *path;

	(void)state;
	/* no stat record at all */
	snprintf(body, sizeof(body), "%.*s%s", (int)(root - good), good, after);
	expect_rejected(body, 1);
	/* only an inner interval's */
	snprintf(body, sizeof(body), "%.*s%s", (int)(root - good), good, rest);
	expect_rejected(body, 1);
	/* the level-0 record alone is a profile */
	snprintf(body, sizeof(body), "%.*s%s", (int)(rest - good), good, after);
	path = write_profile(body, 1);
	assert_int_equal(profile_read(&p, path), 0);
	profile_data_release(&p);
	unlink(path);
	free(path);
}

/* A value in a known column that is not finite or is negative: rejected, never analysed (issue 12).
 */
static void test_non_finite(void **state)
{
	const char *bad_values[] = { "nan", "inf", "-inf", "-15", "1e999" };
	char body[2048];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		/* the time of node 2 on thread 1 */
		const char *at = strstr(good, "stat\t2\t1\t10\t1.25\t");
		size_t head = (size_t)(at - good) + strlen("stat\t2\t1\t10\t");
		snprintf(body, sizeof(body), "%.*s%s%s", (int)head, good, bad_values[i],
			 at + strlen("stat\t2\t1\t10\t1.25"));
		expect_rejected(body, 1);
	}
	/* a negative count */
	snprintf(body, sizeof(body), "%s", good);
	memcpy(strstr(body, "stat\t2\t1\t10\t") + 9, "-1", 2);
	expect_rejected(body, 1);
	/* an MPI record with a negative byte count */
	snprintf(body, sizeof(body),
		 "%scolumns\tmpi\tnode\tthread\tkind\tcount\ttime\twait\tbytes_sent\tbytes_recv\n"
		 "mpi\t1\t0\tsend\t3\t0.5\t-\t-24\t0\n",
		 good);
	expect_rejected(body, 1);
}

static void test_checksum(void **state)
{
	struct profile p;
	char *path = write_profile(good, 1);
	FILE *f = fopen(path, "r+");

	(void)state;
	fseek(f, 30, SEEK_SET);
	fputc('X', f); /* one byte changed in place */
	fclose(f);
	assert_int_equal(profile_read(&p, path), -1);
	unlink(path);
	free(path);
}

/* A job's reduced profile (version 2): two intervals, each with its record and extremes. */
static const char reduced_head[] =
	"scalegate-profile\t2\n"
	"meta\trank\t-\nmeta\tranks\t16\nmeta\treduced\t16\nmeta\treduced_threads\t2\n"
	"columns\tregion\tid\tname\tfile\tline\n"
	"region\t0\tprogram\t./halo\t0\nregion\t1\tstep\thalo.c\t9\n"
	"columns\tnode\tid\tparent\tregion\ttag\n"
	"node\t0\t-\t0\t-\nnode\t1\t0\t1\t3\n"
	"columns\treduced\tnode\tcount\texec\tfuture\twork_max\n"
	"reduced\t0\t16\t2.5\t7\t2.25\n"
	"reduced\t1\t160\t1.5\t7\t1.25\n"
	"columns\treduced_cmp\tnode\tquantity\tmin\tmin_rank\tmin_thread\tmax\tmax_rank"
	"\tmax_thread\tsum\n";

static char *reduced_body(int nodes, const char *quantity_15)
{
	static const char *const q[] = { "work", "time", "omp_barrier", "omp_lock", "omp_idle",
					  "no_work", "mpi", "mpi_wait", "idle", "interference" };
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, reduced_head);
	for (int n = 0; n < nodes; n++)
		for (int k = 0; k < 10; k++)
			strbuf_addf(&sb, "reduced_cmp\t%d\t%s\t0.5\t3\t1\t%s\t15\t0\t9\n", n,
				    q[k], n == 1 && k == 8 ? quantity_15 : "2");
	return strbuf_detach(&sb);
}

static void test_reduced(void **state)
{
	struct profile p;
	char *body = reduced_body(2, "2"), *path = write_profile(body, 1);

	(void)state;
	assert_int_equal(profile_read(&p, path), 0);
	assert_int_equal(p.reduced_ranks, 16);
	assert_int_equal(p.reduced_threads, 2);
	assert_string_equal(p.nodes[1].path, "program/step[3]");
	assert_true(p.reduced[1].v[PROFILE_RED_COUNT] == 160);
	assert_true(p.reduced[1].v[PROFILE_RED_WORK_MAX] == 1.25);
	assert_true(isnan(p.reduced[1].v[PROFILE_RED_SEQ])); /* a column the file lacks */
	assert_int_equal(p.reduced[1].q[8].max_rank, 15);
	assert_int_equal(p.reduced[1].q[8].min_thread, 1);
	assert_true(p.reduced[1].q[8].sum == 9);
	profile_data_release(&p);
	unlink(path);
	free(path);
	free(body);
	/* an interval without its record, and a value that is no number, are rejected */
	body = reduced_body(1, "2");
	expect_rejected(body, 1);
	free(body);
	body = reduced_body(2, "nan");
	expect_rejected(body, 1);
	free(body);
	/* version 1 files are still read */
	path = write_profile(good, 1);
	assert_int_equal(profile_read(&p, path), 0);
	assert_int_equal(p.version, 1);
	assert_int_equal(p.reduced_ranks, 0);
	profile_data_release(&p);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_no_measurements),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_non_finite),
		cmocka_unit_test(test_reduced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
