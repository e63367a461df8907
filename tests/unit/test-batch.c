/* The batch seam with the tests' own scheduler: the generic submit, follow, cancel and collect loop
 * (run/batch.c) drives any struct batch_backend, and names its messages and files after it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "config/config.h"
#include "run/batch-priv.h"
#include "run/runner.h"

/* The double: a job that waits in the queue, runs and fails; or one that never leaves the queue. */
static struct {
	int polls, cancelled, stuck;
} fake;

static char **fake_submit_argv(const struct batch_config *c, const char *script, const char *output)
{
	char **argv = xcalloc(4, sizeof(*argv));

	(void)c;
	assert_non_null(strstr(output, "/.fake/job.out"));
	argv[0] = xstrdup("sh");
	argv[1] = xstrdup("-c");
	/* the generic part writes the script before it submits */
	argv[2] = xstrfmt("test -x '%s' && echo 'fake: queued' && echo 77", script);
	return argv;
}

static char *fake_parse_id(const char *out)
{
	const char *last = strrchr(out, '\n') ? strrchr(out, '\n') + 1 : out;

	return xstrdup(last);
}

static void fake_set(struct batch_job *j, const char *state, enum batch_phase phase, const char *reason)
{
	free(j->state);
	free(j->reason);
	j->state = xstrdup(state);
	j->reason = reason ? xstrdup(reason) : NULL;
	j->phase = phase;
}

static int fake_query(struct batch_job *j, struct strbuf *err)
{
	(void)err;
	fake.polls++;
	if (fake.cancelled)
		fake_set(j, "GONE", BATCH_ENDED, NULL);
	else if (fake.stuck || fake.polls == 1)
		fake_set(j, "WAITING", BATCH_QUEUED, "Priority");
	else if (fake.polls == 2)
		fake_set(j, "GOING", BATCH_RUNNING, NULL);
	else {
		fake_set(j, "CRASHED", BATCH_ENDED, "NodeFail");
		free(j->exit_code);
		j->exit_code = xstrdup("2:0");
	}
	return 0;
}

static char **fake_cancel_argv(const struct batch_job *j)
{
	char **argv = xcalloc(2, sizeof(*argv));

	assert_string_equal(j->id, "77");
	fake.cancelled = 1;
	argv[0] = xstrdup("true");
	return argv;
}

static const struct batch_backend fake_backend = {
	.name = "fake",
	.title = "Fake",
	.submit_argv = fake_submit_argv,
	.parse_id = fake_parse_id,
	.query = fake_query,
	.cancel_argv = fake_cancel_argv,
};

static char dir[] = "/tmp/sg-test-batch-XXXXXX";

/* A benchmark of 2 configurations x 2 repeats submitted to the double; the number of failed runs. */
static long submit_to_fake(const char *slurm_section)
{
	char *yml = xstrfmt("%s/scalegate.yml", dir), *results = xstrfmt("%s/results", dir);
	char *text = xstrfmt("results: %s\nslurm: %s\nbenchmarks:\n  - name: toy\n    command: 'true'\n"
			     "    threads: [1, 2]\n    repeat: 2\n    warmup: 0\n", results, slurm_section);
	struct runner_options opt = { .results_dir = results };
	struct runner r;
	struct config c;
	long failed;

	assert_int_equal(write_file_atomic(yml, text, strlen(text)), 0);
	assert_int_equal(config_load(&c, yml), 0);
	assert_int_equal(runner_init(&r, &c, &opt), 0);
	failed = batch_run_with(&r, &fake_backend);
	runner_release(&r);
	config_release(&c);
	free(text);
	free(results);
	free(yml);
	return failed;
}

static char *results_file(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/results/%s", dir, name);

	assert_int_equal(strbuf_read_file(&sb, path), 0);
	free(path);
	return strbuf_detach(&sb);
}

static void test_job_fails(void **state)
{
	char *manifest, *job;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	assert_int_equal(submit_to_fake("{ poll: 100ms }"), 4);
	assert_int_equal(fake.cancelled, 0);
	manifest = results_file("manifest.tsv");
	assert_non_null(strstr(manifest, "\tjob-failed\t"));
	assert_non_null(strstr(manifest, "fake job 77 CRASHED NodeFail, exit code 2:0; see "));
	job = results_file("fake.tsv");
	assert_non_null(strstr(job, "job_id\t77\nstate\tCRASHED\n"));
	free(job);
	job = xstrfmt("%s/results/slurm.tsv", dir);
	assert_int_equal(access(job, F_OK), -1); /* files are named after the scheduler */
	free(job);
	free(manifest);
}

static void test_queue_timeout_cancels(void **state)
{
	char *manifest;

	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.stuck = 1;
	assert_int_equal(submit_to_fake("{ poll: 100ms, queue_timeout: 300ms }"), 4);
	assert_int_equal(fake.cancelled, 1);
	manifest = results_file("manifest.tsv");
	assert_non_null(strstr(manifest, "job 77 still pending after"));
	assert_non_null(strstr(manifest, "(Priority); cancelled (queue_timeout)"));
	free(manifest);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_fails),
		cmocka_unit_test(test_queue_timeout_cancels),
	};
	int ret;

	if (!mkdtemp(dir))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	if (system(xstrfmt("rm -rf '%s'", dir)))
		ret = 1;
	return ret;
}
