/* The batch seam with the tests' own scheduler: its own section of scalegate.yml, parsed through
 * config/config-batch.c, and the generic submit, follow, cancel and collect loop (run/batch.c)
 * driving any struct batch_backend, naming its messages and files after it. */
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
#include "config/config-slurm.h"
#include "run/batch-priv.h"
#include "run/runner.h"

/* The double: a job that waits in the queue, runs and fails; or one that never leaves the queue. */
static struct {
	int polls, cancelled, stuck;
} fake;

/* Its own section: 'fake: { queue: NAME, walltime: SECONDS }' besides the gate's poll and
 * queue_timeout. */
struct fake_config {
	char *queue;
};

static const char *const fake_keys[] = { "queue", "walltime", NULL };

static void *fake_own_new(void)
{
	return xcalloc(1, sizeof(struct fake_config));
}

static void fake_own_free(void *own)
{
	free(((struct fake_config *)own)->queue);
	free(own);
}

static void fake_parse_key(struct yamldoc *d, const struct yamldoc_iter *it,
			   struct batch_section *s)
{
	struct fake_config *f = s->own;
	long long n;

	if (!strcmp(it->key, "queue")) {
		free(f->queue);
		f->queue = xstrdup(yamldoc_get_str(d, it->value, "queue"));
	} else if (!yamldoc_get_int(d, it->value, "walltime", 1, 100000, &n)) {
		s->limits.time = xstrfmt("%llds", n);
		s->limits.time_s = (double)n;
	}
}

static int fake_validate(struct yamldoc *d, struct batch_section *s)
{
	struct fake_config *f = s->own;

	if (!f->queue)
		return yamldoc_error(d, s->node, "'fake' needs a 'queue'");
	s->limits.where = xstrfmt("queue %s", f->queue);
	return 0;
}

static const struct config_scheduler fake_section = {
	.key = "fake",
	.own_keys = fake_keys,
	.own_new = fake_own_new,
	.own_free = fake_own_free,
	.parse_key = fake_parse_key,
	.validate = fake_validate,
};

static char **fake_submit_argv(const struct batch_section *s, const char *script,
			       const char *output)
{
	char **argv = xcalloc(4, sizeof(*argv));

	assert_ptr_equal(s->scheduler, &fake_section);
	assert_string_equal(((const struct fake_config *)s->own)->queue, "q7");
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

static void fake_set(struct batch_job *j, const char *state, enum batch_phase phase,
		     const char *reason)
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
	.section = &fake_section,
	.submit_argv = fake_submit_argv,
	.parse_id = fake_parse_id,
	.query = fake_query,
	.cancel_argv = fake_cancel_argv,
};

static char dir[] = "/tmp/sg-test-batch-XXXXXX";

/* The section 'text' ("fake: {...}") parsed through the seam into *out; 0, or -1 (messages on
 * stderr). 'd' keeps the nodes. */
static int parse_fake(struct yamldoc *d, const char *text, struct batch_section **out)
{
	assert_int_equal(yamldoc_load_text(d, "fake.yml", text, strlen(text)), 0);
	return config_batch_parse(d, yamldoc_map_get(d, yamldoc_root(d), "fake"), &fake_section,
				  out);
}

/* A benchmark of 2 configurations x 2 repeats submitted to the double; the number of failed runs.
 */
static long submit_to_fake(const char *fake_section_text)
{
	char *yml = xstrfmt("%s/scalegate.yml", dir), *results = xstrfmt("%s/results", dir);
	char *text = xstrfmt("results: %s\nbenchmarks:\n  - name: toy\n    command: 'true'\n"
			     "    threads: [1, 2]\n    repeat: 2\n    warmup: 0\n", results);
	struct runner_options opt = { .results_dir = results };
	struct runner r;
	struct config c;
	struct yamldoc d;
	long failed;

	assert_int_equal(write_file_atomic(yml, text, strlen(text)), 0);
	assert_int_equal(config_load(&c, yml), 0);
	assert_null(c.batch);
	assert_int_equal(parse_fake(&d, fake_section_text, &c.batch), 0);
	assert_int_equal(runner_init(&r, &c, &opt), 0);
	failed = batch_run_with(&r, &fake_backend);
	runner_release(&r);
	config_release(&c);
	yamldoc_release(&d);
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
	assert_int_equal(submit_to_fake("fake: { queue: q7, poll: 100ms }"), 4);
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
	assert_int_equal(submit_to_fake("fake: { queue: q7, poll: 100ms, queue_timeout: 300ms }"),
			 4);
	assert_int_equal(fake.cancelled, 1);
	manifest = results_file("manifest.tsv");
	assert_non_null(strstr(manifest, "job 77 still pending after"));
	assert_non_null(strstr(manifest, "(Priority); cancelled (queue_timeout)"));
	free(manifest);
}

/* The section's own keys and checks, the gate's keys beside them, one "did you mean" over both. */
static void test_own_section(void **state)
{
	struct batch_section *s = NULL;
	struct yamldoc d;

	(void)state;
	assert_int_equal(parse_fake(&d, "fake: { queue: q7, walltime: 90, queue_timeout: 2m }", &s),
			 0);
	assert_string_equal(((struct fake_config *)s->own)->queue, "q7");
	assert_string_equal(s->limits.where, "queue q7");
	assert_string_equal(s->limits.time, "90s");
	assert_true(s->limits.time_s == 90 && s->limits.queue_timeout == 120);
	assert_true(s->limits.poll == BATCH_DEFAULT_POLL);
	yamldoc_release(&d);
	assert_int_equal(parse_fake(&d, "fake: { queue: q7, wallclock: 9, pol: 1s }", &s), -1);
	assert_int_equal(d.nr_errors, 2); /* 's' is left as it was */
	assert_string_equal(s->limits.where, "queue q7");
	yamldoc_release(&d);
	assert_int_equal(parse_fake(&d, "fake: { poll: 1s }", &s), -1); /* validate: no queue */
	yamldoc_release(&d);
	config_batch_free(s);
	/* the gate's own section table does not know the double, and knows slurm */
	assert_null(config_scheduler_find("fake"));
	assert_ptr_equal(config_scheduler_find("slurm"), &config_slurm);
	assert_ptr_equal(batch_slurm.section, &config_slurm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_section),
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
