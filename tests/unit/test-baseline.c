/* The baseline file: what is written reads back the same, and every way a file can be damaged or
 * foreign is refused with its reason (split from test-check.c). */
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
#include "base/util.h"
#include "check-testing.h"

static void test_baseline_roundtrip(void **state)
{
	char path[] = "/tmp/sg-test-check-XXXXXX";
	double exec[] = { 0.5, 0.25, 0.125 }, sync[] = { 0.01, NAN, 0.03 };
	struct baseline b, r;
	struct strbuf one = STRBUF_INIT, two = STRBUF_INIT;
	char *file;

	(void)state;
	assert_non_null(mkdtemp(path));
	file = baseline_path(path, "bench");
	baseline_init(&b);
	b.benchmark = xstrdup("bench");
	b.fingerprint = xcalloc(2, sizeof(char *));
	b.fingerprint[0] = xstrdup("cpu_model");
	b.fingerprint[1] = xstrdup("A\tB\\C");
	b.nr_fingerprint = 1;
	add_cell(&b, "program/solve", 2, 3, exec, ANALYSIS_SYNCHRONIZATION, sync);
	add_cell(&b, "program", 1, 3, exec, ANALYSIS_SYNCHRONIZATION, NULL);
	assert_int_equal(baseline_write(&b, file), 0);
	assert_int_equal(baseline_read(&r, file), 0);
	/* Read back sorted: "program" first; NAN stays absent; escapes survive. */
	assert_int_equal(r.nr_cells, 2);
	assert_string_equal(r.cells[0].interval, "program");
	assert_string_equal(baseline_fingerprint(&r, "cpu_model"), "A\tB\\C");
	assert_true(isnan(r.cells[1].fig[ANALYSIS_SYNCHRONIZATION][1]));
	assert_null(r.cells[0].fig[ANALYSIS_SYNCHRONIZATION]);
	assert_non_null(baseline_find(&r, "program/solve", "-", 1, 2));
	assert_null(baseline_find(&r, "program/solve", "-", 1, 4));
	/* Written twice, the same bytes: stable order. */
	baseline_format(&b, &one);
	baseline_format(&r, &two);
	assert_string_equal(one.buf + strlen("scalegate-baseline\t2\nbenchmark\tbench\n"),
			    two.buf + strlen("scalegate-baseline\t2\nbenchmark\tbench\n"));
	strbuf_release(&one);
	strbuf_release(&two);
	baseline_release(&r);
	baseline_release(&b);
	unlink(file);
	free(file);
	rmdir(path);
}

static void write_text(const char *path, const char *text)
{
	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
}

/* 'text' with the end record a baseline file closes with. */
static void write_sealed(const char *path, const char *text)
{
	char *all = xstrfmt("%send\t%016llx\n", text, fnv1a64(text, strlen(text)));

	write_text(path, all);
	free(all);
}

static void test_baseline_errors(void **state)
{
	char *path = xstrfmt("/tmp/sg-test-check-bad-%ld.sgbase", (long)getpid());
	static const char good[] = "scalegate-baseline\t2\nbenchmark\tx\nsample\tprogram\t-"
				   "\t1\t1\tExecution_time\t1\t2\n";
	struct baseline b;
	char *crlf;

	(void)state;
	assert_int_equal(baseline_read(&b, "/tmp/sg-test-check-no-such.sgbase"), 1);
	write_sealed(path, "scalegate-baseline\t3\nbenchmark\tx\n");
	assert_int_equal(baseline_read(&b, path), -1);
	write_text(path, "hello\n");
	assert_int_equal(baseline_read(&b, path), -1);
	write_text(path, "");
	assert_int_equal(baseline_read(&b, path), -1);
	write_sealed(path, "scalegate-baseline\t2\nbenchmark\tx\nsample\tprogram\t-"
			   "\t1\t1\tExecution_time\t1\t2\n"
			   "sample\tprogram\t-\t1\t1\tTotal_time\t1\n");
	assert_int_equal(baseline_read(&b, path), -1); /* 1 sample where the lines before have 2 */
	write_sealed(path, "scalegate-baseline\t2\nbenchmark\tx\nsample\tprogram\t-"
			   "\t1\t1\tExecution_time\t1\tx\n");
	assert_int_equal(baseline_read(&b, path), -1);
	write_sealed(path, "scalegate-baseline\t2\nbenchmark\tx\nsample\tprogram\t-"
			   "\t1\t1\tExecution_time\t1\tnan\n");
	assert_int_equal(baseline_read(&b, path), -1);
	/* Fail closed: version 1 (no end record), a truncated file, a changed one. */
	write_text(path, "scalegate-baseline\t1\nbenchmark\tx\nsample\tprogram\t-\t1\t1\tExecution_"
			 "time\t1\t2\n");
	assert_int_equal(baseline_read(&b, path), -1);
	write_text(path, good);
	assert_int_equal(baseline_read(&b, path), -1);
	write_sealed(path, good);
	assert_int_equal(baseline_read(&b, path), 0);
	baseline_release(&b);
	{
		struct strbuf sb = STRBUF_INIT;
		assert_int_equal(strbuf_read_file(&sb, path), 0);
		sb.buf[strlen(good) - 2] = '3'; /* a sample changed by hand */
		write_text(path, sb.buf);
		assert_int_equal(baseline_read(&b, path), -1);
		/* Windows line endings: read as the same file. */
		sb.buf[strlen(good) - 2] = '2';
		crlf = xmalloc(2 * sb.len + 1);
		for (size_t i = 0, o = 0; i <= sb.len; i++) {
			if (sb.buf[i] == '\n')
				crlf[o++] = '\r';
			crlf[o++] = sb.buf[i];
		}
		write_text(path, crlf);
		assert_int_equal(baseline_read(&b, path), 0);
		assert_int_equal(b.nr_cells, 1);
		baseline_release(&b);
		free(crlf);
		strbuf_release(&sb);
	}
	/* Unknown metrics and record types of later versions are skipped. */
	write_sealed(path, "scalegate-baseline\t2\nbenchmark\tx\nfuture\tthing\n"
			   "sample\tprogram\t-\t1\t1\tNew_metric\t1\t2\nsample\tprogram\t-"
			   "\t1\t1\tExecution_time\t1\t2\n");
	assert_int_equal(baseline_read(&b, path), 0);
	assert_int_equal(b.nr_cells, 1);
	assert_int_equal(b.cells[0].n, 2);
	baseline_release(&b);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_baseline_roundtrip),
		cmocka_unit_test(test_baseline_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
