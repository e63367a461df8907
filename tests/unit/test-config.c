/* config_load() over tests/data/config/<case>/: scalegate.yml in, 'expected' stderr or dump out. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/config-slurm.h"
#include "datacase.h"
#include "base/util.h"
#include "base/interrupt.h"
#include "base/yamldoc.h"

/* Relative, as the gate is run: the messages must carry the paths the expected files show. */
#define CASES_DIR "tests/data/config"

static void dump_ints(struct strbuf *sb, const char *key, const int *v, size_t nr)
{
	strbuf_addf(sb, "  %s", key);
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(sb, " %d", v[i]);
	strbuf_addch(sb, '\n');
}

/* NULL and "" differ in a bench_config: show which. */
static const char *or_dash(const char *s)
{
	return !s ? "-" : !*s ? "\"\"" : s;
}

static const char *kind(const yaml_node_t *n)
{
	return !n ? "-" : yamldoc_is_map(n) ? "mapping" : "list";
}

static void dump_matrix(struct strbuf *sb, const struct bench_config *b)
{
	for (size_t i = 0; i < config_matrix_size(b); i++) {
		struct config_point p;
		char *cmd;

		config_matrix_point(b, i, &p);
		cmd = config_expand_command(b, p.threads, p.ranks, p.size, 1);
		strbuf_addf(sb, "  run %zu: threads=%d ranks=%d size=%lld: %s\n",
			    i, p.threads, p.ranks, p.size, cmd);
		free(cmd);
	}
}

static void dump_bench(struct strbuf *sb, const struct bench_config *b)
{
	strbuf_addf(sb, "benchmark %s\n  command %s\n  build %s\n", b->name, b->command,
		    or_dash(b->build));
	dump_ints(sb, "threads", b->threads, b->nr_threads);
	dump_ints(sb, "ranks", b->ranks, b->nr_ranks);
	strbuf_addstr(sb, "  sizes");
	for (size_t i = 0; i < b->nr_sizes; i++)
		strbuf_addf(sb, " %lld", b->sizes[i]);
	strbuf_addf(sb, "\n  size_per_processor %lld\n  repeat %d\n  warmup %d\n  timeout %g\n",
		    b->size_per_processor, b->repeat, b->warmup, b->timeout);
	for (size_t i = 0; i < b->nr_env; i++)
		strbuf_addf(sb, "  env %s=%s\n", b->env[i].name, b->env[i].value);
	dump_ints(sb, "expect_exit", b->expect_exit, b->nr_expect_exit);
	strbuf_addf(sb, "  workdir %s\n  preload %d\n  launcher %s\n  mpi %d\n  memory %s\n",
		    b->workdir, b->preload, or_dash(b->launcher), b->mpi, or_dash(b->memory));
	if (b->max_contention < 0)
		strbuf_addstr(sb, "  max_contention off\n");
	else
		strbuf_addf(sb, "  max_contention %g\n", b->max_contention);
	strbuf_addf(sb, "  contention_retries %d\n", b->contention_retries);
	dump_matrix(sb, b);
}

static void dump_config(struct strbuf *sb, const struct config *c)
{
	strbuf_addf(sb, "ok\nresults %s\nbaselines %s\nrules %s\npost %s\nreports %s\n",
		    c->results_dir, c->baselines_dir, kind(c->rules), kind(c->post),
		    kind(c->reports));
	if (c->batch) {
		const struct slurm_config *s = c->batch->own;
		const struct batch_limits *l = &c->batch->limits;
		assert_ptr_equal(c->batch->scheduler, &config_slurm);
		strbuf_addf(sb,
			    "slurm partition %s account %s time %s (%gs) nodes %d exclusive %d "
			    "queue_timeout %g poll %g\n",
			    or_dash(s->partition), or_dash(s->account), or_dash(l->time), l->time_s,
			    s->nodes, s->exclusive, l->queue_timeout, l->poll);
		for (size_t i = 0; i < s->nr_options; i++)
			strbuf_addf(sb, "  option %s\n", s->options[i]);
	}
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		dump_bench(sb, &c->benchmarks[i]);
}

struct load_job {
	struct config *c;
	const char *path;
};

static int load_fn(void *arg)
{
	struct load_job *job = arg;

	return config_load(job->c, job->path);
}

static void test_case(void **state)
{
	const char *name = *state;
	char *yml = xstrfmt("%s/%s/scalegate.yml", CASES_DIR, name);
	struct strbuf actual = STRBUF_INIT;
	struct config c;
	struct load_job job = { &c, yml };
	int ret;

	ret = datacase_capture(load_fn, &job, &actual);
	if (ret == 0)
		dump_config(&actual,
			    &c); /* after anything printed: a valid file must load silently */
	datacase_expect(CASES_DIR, name, &actual, ret);
	config_release(&c);
	config_release(&c); /* released twice, or after a failed load: harmless */
	strbuf_release(&actual);
	free(yml);
}

static void test_expand(void **state)
{
	char *s;

	(void)state;
	s = config_expand(
		"a {threads} {ranks} {size} {repeat} ${HOME} \\{threads} {other} {x y} {{1}", 4, 2,
		100, 3);
	assert_string_equal(s, "a 4 2 100 3 ${HOME} \\{threads} {other} {x y} {{1}");
	free(s);
	s = config_expand("n={size}.", 1, 1, CONFIG_NO_SIZE, 0);
	assert_string_equal(s, "n=.");
	free(s);
	s = config_expand("", 1, 1, 0, 0);
	assert_string_equal(s, "");
	free(s);
}

static void test_expand_command(void **state)
{
	int threads[] = { 4 }, ranks[] = { 2 };
	struct bench_config b = {
		.command = "./a {threads} {repeat}",
		.launcher = "mpirun -np {ranks} -x T={threads}",
		.threads = threads,
		.nr_threads = 1,
		.ranks = ranks,
		.nr_ranks = 1,
	};
	char *s;

	(void)state;
	s = config_expand_command(&b, 4, 1, CONFIG_NO_SIZE, 0);
	assert_string_equal(s, "./a 4 0"); /* one rank: no launcher */
	free(s);
	s = config_expand_command(&b, 4, 2, CONFIG_NO_SIZE, 3);
	assert_string_equal(s, "mpirun -np 2 -x T=4 ./a 4 3");
	free(s);
	b.launcher = "";
	s = config_expand_command(&b, 4, 2, CONFIG_NO_SIZE, 3);
	assert_string_equal(s, "./a 4 3");
	free(s);
}

static void test_matrix(void **state)
{
	int threads[] = { 1, 2, 4 }, ranks[] = { 1, 2 };
	long long sizes[] = { 10, 20 };
	struct bench_config b = {
		.threads = threads, .nr_threads = 3, .ranks = ranks, .nr_ranks = 2,
		.sizes = sizes, .nr_sizes = 2,
	};
	struct config_point p;

	(void)state;
	assert_int_equal(config_matrix_size(&b), 12);
	config_matrix_point(&b, 0, &p);
	assert_true(p.threads == 1 && p.ranks == 1 && p.size == 10);
	config_matrix_point(&b, 4, &p);
	assert_true(p.threads == 2 && p.ranks == 2 && p.size == 10);
	config_matrix_point(&b, 11, &p);
	assert_true(p.threads == 4 && p.ranks == 2 && p.size == 20);
	b.nr_sizes = 0;
	b.size_per_processor = 1000;
	assert_int_equal(config_matrix_size(&b), 6);
	config_matrix_point(&b, 5, &p);
	assert_true(p.threads == 4 && p.ranks == 2 && p.size == 8000);
	b.size_per_processor = 0;
	config_matrix_point(&b, 5, &p);
	assert_true(p.size == CONFIG_NO_SIZE);
}

static void test_missing_file(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct config c;
	struct load_job job = { &c, CASES_DIR "/no-such-case/scalegate.yml" };

	(void)state;
	assert_int_equal(datacase_capture(load_fn, &job, &err), -1);
	assert_string_equal(err.buf, "scalegate: error: cannot open '" CASES_DIR
			    "/no-such-case/scalegate.yml': No such file or directory\n");
	config_release(&c);
	strbuf_release(&err);
}

/* The accessors the config loader does not use, for the rules loader to rely on. */
static void test_yamldoc_accessors(void **state)
{
	static const char text[] =
		"d: 2.5\nt: [30, 30s, 2m, 500ms, 1.5h]\nb: [yes, Off, TRUE]\n"
		"l: [a, \"b c\", 3]\nm: {x: 1, y: two}\nbad: [1, x]\n";
	static const double seconds[] = { 30, 30, 120, 0.5, 5400 };
	static const char *const known[] = { "threads", "ranks", "sizes", NULL };
	char path[] = "/tmp/test-config-XXXXXX";
	int fd = mkstemp(path), flag;
	struct yamldoc d;
	struct yamldoc_iter it;
	struct yamldoc_strpair *pairs;
	const char **strs;
	yaml_node_t *root;
	double v;
	size_t nr;

	(void)state;
	assert_true(fd >= 0 && write(fd, text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
	close(fd);
	assert_int_equal(yamldoc_load(&d, path), 0);
	root = yamldoc_root(&d);
	assert_int_equal(yamldoc_get_double(&d, yamldoc_map_get(&d, root, "d"), "d", 0, 10, &v), 0);
	assert_true(v == 2.5);
	yamldoc_list_iter(&it, &d, yamldoc_map_get(&d, root, "t"));
	while (yamldoc_list_next(&it)) {
		assert_int_equal(yamldoc_get_duration(&d, it.value, "t", &v), 0);
		assert_true(v == seconds[it.index]);
	}
	yamldoc_list_iter(&it, &d, yamldoc_map_get(&d, root, "b"));
	while (yamldoc_list_next(&it)) {
		assert_int_equal(yamldoc_get_bool(&d, it.value, "b", &flag), 0);
		assert_int_equal(flag, it.index != 1);
	}
	assert_int_equal(yamldoc_get_str_list(&d, yamldoc_map_get(&d, root, "l"), "l", &strs, &nr),
			 0);
	assert_true(nr == 3 && !strcmp(strs[1], "b c") && !strcmp(strs[2], "3"));
	free(strs);
	assert_int_equal(yamldoc_get_str_map(&d, yamldoc_map_get(&d, root, "m"), "m", &pairs, &nr),
			 0);
	assert_true(nr == 2 && !strcmp(pairs[1].key, "y") && !strcmp(pairs[1].value, "two"));
	free(pairs);
	assert_int_equal(d.nr_errors, 0);
	assert_string_equal(yamldoc_closest("Thread", known), "threads");
	assert_null(yamldoc_closest("x", known));
	assert_null(yamldoc_closest("size_of", known));
	yamldoc_release(&d);
	unlink(path);
}

/* "Did you mean": a key the word begins wins over one two edits away ("time" is 2 from "name"),
 * then one edit, then a word of a key; a word inside another ("mpi" of "compile") is no hint. */
static void test_closest(void **state)
{
	static const char *const keys[] = { "name", "timeout", "max_contention", "max_repeat",
					    "mpi", "threads", NULL };
	static const char *const formats[] = { "json", "github", "gitlab", NULL };
	char all[64];

	(void)state;
	assert_string_equal(yamldoc_closest("time", keys), "timeout");
	assert_string_equal(yamldoc_closest("nmae", keys), "name");
	assert_string_equal(yamldoc_closest("max", keys), "max_repeat");
	assert_string_equal(yamldoc_closest("contention", keys), "max_contention");
	assert_string_equal(yamldoc_closest("threads_per_rank", keys), "threads");
	assert_null(yamldoc_closest("compile", keys));
	assert_null(yamldoc_closest("ti", keys));
	assert_string_equal(yamldoc_closest("githb", formats), "github");
	assert_null(yamldoc_closest("xml", formats));
	assert_string_equal(yamldoc_choices(all, sizeof(all), formats), "json, github or gitlab");
	assert_string_equal(yamldoc_choices(all, sizeof(all), formats + 2), "gitlab");
}

/* Regular files only, never blocking, bounded; nothing left allocated on an error (it leaked 8
 * bytes). */
static void test_read_file_bounded(void **state)
{
	char dir[] = "/tmp/sg-read-XXXXXX", *fifo, *file;
	struct strbuf sb = STRBUF_INIT;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fifo = xstrfmt("%s/fifo", dir);
	file = xstrfmt("%s/file", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(strbuf_read_file(&sb, dir), -1);
	assert_null(sb.buf);
	assert_int_equal(strbuf_read_file(&sb, fifo), -1); /* would block in open() or read() */
	assert_null(sb.buf);
	assert_int_equal(strbuf_read_file(&sb, "/dev/zero"), -1);
	assert_null(sb.buf);
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("12345678", f);
	fclose(f);
	assert_int_equal(strbuf_read_file_limit(&sb, file, 7), -1);
	assert_null(sb.buf);
	assert_int_equal(strbuf_read_file_limit(&sb, file, 8), 0);
	assert_string_equal(sb.buf, "12345678");
	strbuf_release(&sb);
	unlink(fifo);
	unlink(file);
	rmdir(dir);
	free(fifo);
	free(file);
}

/* The points of a matrix in one walk are those of the walk point by point. */
static void test_matrix_points(void **state)
{
	int threads[] = { 1, 2, 4 }, ranks[] = { 1, 2 };
	struct config_exclude ex = { .threads = 2, .ranks = 1, .size = CONFIG_NO_SIZE };
	struct bench_config b = {.threads = threads,
				 .nr_threads = 3,
				 .ranks = ranks,
				 .nr_ranks = 2,
				 .exclude = &ex,
				 .nr_exclude = 1};
	struct config_point *all, p;
	size_t nr;

	(void)state;
	all = config_matrix_points(&b, &nr);
	assert_int_equal(nr, 5);
	assert_int_equal(config_matrix_size(&b), 5);
	for (size_t i = 0; i < nr; i++) {
		config_matrix_point(&b, i, &p);
		assert_int_equal(p.threads, all[i].threads);
		assert_int_equal(p.ranks, all[i].ranks);
		assert_true(!(all[i].threads == 2 && all[i].ranks == 1));
	}
	free(all);
}

static void test_slurm_time(void **state)
{
	(void)state;
	assert_true(config_slurm_time("30") == 1800);
	assert_true(config_slurm_time("30:15") == 1815);
	assert_true(config_slurm_time("1:00:00") == 3600);
	assert_true(config_slurm_time("2-0") == 2 * 86400);
	assert_true(config_slurm_time("1-2:30") == 86400 + 2 * 3600 + 30 * 60);
	assert_true(config_slurm_time("1-00:00:05") == 86405);
	assert_true(config_slurm_time("0") == 0);
	assert_true(config_slurm_time("") < 0);
	assert_true(config_slurm_time("1:2:3:4") < 0);
	assert_true(config_slurm_time("1-2:3:4:5") < 0);
	assert_true(config_slurm_time("x") < 0);
	assert_true(config_slurm_time("1:") < 0);
	assert_true(config_slurm_time("-1") < 0);
	assert_true(config_slurm_time("1e3") < 0);
	assert_true(config_slurm_time("9999999999") < 0);
}

/* An interrupt stops a configuration's load (event by event: a 10 MB file within a second). */
static void test_load_interrupted(void **state)
{
	const char *text = "benchmarks:\n  - name: a\n    command: ./a\n";
	struct yamldoc d;

	(void)state;
	interrupt_signal = SIGINT;
	assert_int_equal(yamldoc_load_text(&d, "x.yml", text, strlen(text)), -1);
	interrupt_signal = 0;
	assert_int_equal(yamldoc_load_text(&d, "x.yml", text, strlen(text)), 0);
	yamldoc_release(&d);
}

int main(void)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_expand_command),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_yamldoc_accessors),
		cmocka_unit_test(test_closest),
		cmocka_unit_test(test_slurm_time),
		cmocka_unit_test(test_read_file_bounded),
		cmocka_unit_test(test_matrix_points),
		cmocka_unit_test(test_load_interrupted),
	};

	return datacase_main("config", unit, ARRAY_SIZE(unit), CASES_DIR, test_case);
}
