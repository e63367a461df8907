/* A check loaded and judged in one call: configuration, rules, results, matrix, baselines and verdicts (check, report, ci). */
#include "judge/judge.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/complete.h"
#include "results/tsv.h"
#include "base/exitcode.h"
#include "base/util.h"

void judge_init(struct judge *j)
{
	memset(j, 0, sizeof(*j));
	j->load_error = SG_EXIT_USAGE;
	rules_init(&j->rules);
	analysis_init(&j->a);
	matrix_init(&j->m);
	verdict_set_init(&j->vs);
}

/* Lines of manifest.tsv per benchmark, or -1 when it cannot be read. */
static long manifest_runs(const char *results, const char *benchmark)
{
	char *path = xstrfmt("%s/manifest.tsv", results), *line, *save = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(benchmark);
	long n = 0;

	if (strbuf_read_file(&sb, path))
		n = -1;
	for (line = n ? NULL : strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		n += !strncmp(line, benchmark, len) && line[len] == '\t';
	strbuf_release(&sb);
	free(path);
	return n;
}

/* One benchmark against the record: 0, or the exit code after error() (or warning()). */
static int check_one(const struct complete *rec, const struct bench_config *b, const char *results,
		     void (*say)(const char *, ...))
{
	const struct complete_entry *e = complete_find(rec, b->name);
	long want = (long)config_matrix_size(b), runs;

	if (!e) {
		say("benchmark '%s' is missing from the results '%s' (not in %s): run 'scalegate run' for it",
		    b->name, results, COMPLETE_FILE);
		return SG_EXIT_USAGE;
	}
	if (e->configurations != want || e->repeat != b->repeat) {
		say("benchmark '%s' in '%s' ran %ld configurations x %ld repeats; the configuration asks %ld x %d: "
		    "run it again", b->name, results, e->configurations, e->repeat, want, b->repeat);
		return SG_EXIT_USAGE;
	}
	if ((runs = manifest_runs(results, b->name)) != e->runs) {
		say("benchmark '%s': '%s/manifest.tsv' holds %ld of its %ld runs: the results are incomplete",
		    b->name, results, runs < 0 ? 0 : runs, e->runs);
		return SG_EXIT_RUN_FAILED;
	}
	return 0;
}

static void say_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say_warning(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	warning("%s (judged anyway: --partial)", sb.buf);
	strbuf_release(&sb);
}

static void say_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s; or judge what is there with --partial", sb.buf);
	strbuf_release(&sb);
}

int judge_check_complete(const struct config *c, const char *results, const char *benchmark, int partial)
{
	void (*say)(const char *, ...) = partial ? say_warning : say_error;
	struct complete rec;
	int code = 0;

	if (complete_read(&rec, results))
		return partial ? 0 : SG_EXIT_RUN_FAILED;
	if (!rec.present) {
		say("the results '%s' are incomplete: no %s (was 'scalegate run' interrupted, or did it fail?)",
		    results, COMPLETE_FILE);
		code = SG_EXIT_RUN_FAILED;
	}
	for (size_t i = 0; rec.present && i < c->nr_benchmarks; i++) {
		int one;
		if (benchmark && strcmp(benchmark, c->benchmarks[i].name))
			continue;
		one = check_one(&rec, &c->benchmarks[i], results, say);
		if (one && (!code || one == SG_EXIT_RUN_FAILED))
			code = one;
	}
	complete_release(&rec);
	return partial ? 0 : code;
}

void judge_release(struct judge *j)
{
	check_release(&j->c);
	verdict_set_release(&j->vs);
	matrix_release(&j->m);
	analysis_release(&j->a);
	rules_release(&j->rules);
	config_release(&j->config);
	memset(j, 0, sizeof(*j));
}

int judge_set_memory(struct matrix *m, const struct config *c)
{
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		if (c->benchmarks[i].memory && matrix_set_memory(m, c->benchmarks[i].name, c->benchmarks[i].memory))
			return -1;
	return 0;
}

char *judge_ab_base(const char *results)
{
	char *marker = xstrfmt("%s/ab.tsv", results), *manifest = xstrfmt("%s/base/manifest.tsv", results);
	int ab = !access(marker, R_OK) && !access(manifest, R_OK);

	free(marker);
	free(manifest);
	return ab ? xstrfmt("%s/base", results) : NULL;
}

int judge_configure(struct judge *j, const char *config)
{
	return config_load(&j->config, config) || rules_load(&j->rules, &j->config) ? -1 : 0;
}

/* Compares 'a' with the base (A/B) or the baselines and judges it into 'vs' through 'c'; 0 or -1. */
int judge_pass(struct judge *j, struct judge_look *look)
{
	char *ab;

	if (judge_set_memory(look->m, &j->config) || analysis_load(look->a, j->results) || matrix_build(look->m, look->a))
		return -1;
	if (look->final) {
		check_describe(look->vs, look->a);
		if (check_run_failures(look->vs, &j->rules, j->results))
			return -1;
		check_annotations(look->vs, look->a);
	}
	check_init(look->c, &j->rules, look->a, look->m, look->vs);
	look->c->alpha_scale = look->scale;
	look->c->second = look->second;
	ab = judge_ab_base(j->results);
	if (ab) {
		struct analysis base;
		analysis_init(&base);
		base.keep = look->a->keep;
		base.keep_arg = look->a->keep_arg;
		if (analysis_load(&base, ab)) {
			analysis_release(&base);
			free(ab);
			return -1;
		}
		check_use_baselines(look->c, &base); /* the base revision, run round by round with the head */
		look->c->ab = 1;
		analysis_release(&base);
		free(ab);
	} else {
		look->c->quiet = !look->final;
		check_load_baselines(look->c, j->baselines);
	}
	check_evaluate(look->c);
	return 0;
}

int judge_evaluate(struct judge *j, const char *results, const char *baselines)
{
	struct judge_look look = { &j->a, &j->m, &j->vs, &j->c, 1, NULL, 1 };
	struct adaptive looks;

	j->results = results ? results : j->config.results_dir;
	j->baselines = baselines ? baselines : j->config.baselines_dir;
	if ((j->load_error = judge_check_complete(&j->config, j->results, NULL, j->partial)))
		return -1;
	j->load_error = SG_EXIT_USAGE;
	if (adaptive_read(&looks, j->results)) {
		j->load_error = SG_EXIT_RUN_FAILED;
		return -1;
	}
	if (looks.present ? judge_two_looks(j, &looks) : judge_pass(j, &look)) {
		adaptive_release(&looks);
		return -1;
	}
	adaptive_release(&looks);
	verdict_set_sources(&j->vs, &j->a);
	if (rules_report_unmatched(&j->rules))
		return -1;
	verdict_set_finish(&j->vs);
	return 0;
}

int judge_load(struct judge *j, const char *config, const char *results, const char *baselines)
{
	return judge_configure(j, config) || judge_evaluate(j, results, baselines) ? -1 : 0;
}
