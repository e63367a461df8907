/* scalegate baseline update: record the samples of the current results as the baselines of the
 * benchmarks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/baseline.h"
#include "judge/check.h"
#include "judge/judge.h"
#include "cmd/cmds.h"
#include "results/manifest.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "cmd/options.h"

static const struct command_usage usage = {
	"baseline",
	"usage: scalegate baseline update [-c FILE] [-r RESULTS] [--baselines DIR] [--benchmark "
	"NAME]\n"
	"                                 [--partial] [--force]\n"
	"Writes DIR/<benchmark>.sgbase for every benchmark of the configuration (or\n"
	"only NAME) from RESULTS: the environment fingerprint and, per interval x\n"
	"configuration, the per-repeat samples 'scalegate check' compares with\n"
	"(docs/check.md). Other baselines in DIR are left as they are. A benchmark\n"
	"with a failed run gets no baseline, nor, unless --force, one with runs\n"
	"measured on a busy machine (contention above its max_contention) whose\n"
	"profiles lack the run-queue delay; with it the machine's share is removed.\n",
	"exit codes: 0 written, 2 usage or configuration error, or no results for a\n"
	"benchmark, 3 a benchmark had failed runs or busy ones, or the results are incomplete\n"
	"(no baseline is written)\n"};

struct baseline_options {
	const char *config, *results, *baselines, *benchmark;
	int partial, force;
};

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct baseline_options *o)
{
	const struct option opts[] = {
		OPT_STRING("-c", "--config", &o->config, "FILE",
			   "the configuration (default: scalegate.yml)"),
		OPT_STRING("-r", "--results", &o->results, "DIR",
			   "the results (default: 'results' of the configuration)"),
		OPT_STRING(NULL, "--baselines", &o->baselines, "DIR",
			   "where baselines are kept (default: 'baselines' of the configuration)"),
		OPT_STRING(NULL, "--benchmark", &o->benchmark, "NAME",
			   "update only this benchmark's baseline"),
		OPT_FLAG(NULL, "--partial", &o->partial,
			 "record results that 'scalegate run' did not finish (warned)"),
		OPT_FLAG(NULL, "--force", &o->force,
			 "record busy runs without the run-queue delay too (warned)"),
		OPT_END()
	};
	int n = options_parse(argc, argv, opts, &usage);

	if (n < 0)
		return n;
	if (n == 0)
		return gate_error(
			"'baseline' needs a command: update (see 'scalegate baseline --help')");
	if (strcmp(argv[0], "update"))
		return gate_error("unknown baseline command '%s' (see 'scalegate baseline --help')",
				  argv[0]);
	if (n > 1)
		return gate_error("unexpected argument '%s' (see 'scalegate baseline --help')",
				  argv[1]);
	return 0;
}

/* Runs of 'name' that were not ok, from the check's run-failure verdicts. */
static size_t failed_configurations(const struct verdict_set *failures, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < failures->nr; i++)
		n += !strcmp(failures->v[i].benchmark, name);
	return n;
}

/*
 * The earlier sittings of the baseline being replaced, carried into 'b' when
 * it was recorded on a comparable machine: they measure the shift between
 * sittings that a stored baseline's comparisons allow for (docs/check.md).
 */
static void carry_sittings(struct baseline *b, const char *path)
{
	struct baseline old;
	char *diff;
	int ret = baseline_read(&old, path);

	if (ret > 0)
		return;
	if (ret < 0) {
		warning("the baseline '%s' being replaced cannot be read: its earlier sittings are "
			"not kept",
			path);
		return;
	}
	diff = check_fingerprint_diff(b, &old);
	if (diff)
		printf("%s: recorded on another machine (%s): its sittings are not kept\n", path,
		       diff);
	else
		baseline_carry(b, &old);
	free(diff);
	baseline_release(&old);
}

static int update_one(const struct baseline_options *o, const struct analysis *a,
		      const struct verdict_set *failures, const char *name)
{
	struct baseline b;
	char *path;
	size_t intervals = 0;
	int ret;

	if (failed_configurations(failures, name)) {
		gate_error("benchmark '%s' has failed runs in '%s' (see its manifest.tsv): its "
			   "baseline "
			   "is not "
			   "written",
			   name, o->results);
		return SG_EXIT_RUN_FAILED;
	}
	baseline_from_analysis(&b, a, name);
	if (!b.nr_cells) {
		baseline_release(&b);
		gate_error("no results for benchmark '%s' in '%s': run 'scalegate run' first", name,
			   o->results);
		return SG_EXIT_USAGE;
	}
	for (size_t i = 0; i < b.nr_cells; i++)
		intervals += !i || strcmp(b.cells[i].interval, b.cells[i - 1].interval);
	path = baseline_path(o->baselines, name);
	carry_sittings(&b, path);
	ret = baseline_write(&b, path);
	if (!ret)
		printf("wrote %s: %zu interval%s, %zu interval x configuration cells, %zu "
		       "sitting%s\n",
		       path, intervals, intervals == 1 ? "" : "s", b.nr_cells, b.nr_sittings + 1,
		       b.nr_sittings ? "s" : "");
	free(path);
	baseline_release(&b);
	return ret ? SG_EXIT_USAGE : SG_EXIT_PASS;
}

/* Of two exit codes, the one to return: a usage error first, then a failed run. */
static int worse(int a, int b)
{
	return a == SG_EXIT_USAGE || b == SG_EXIT_USAGE ? SG_EXIT_USAGE : a > b ? a : b;
}

/* Whether a manifest row's run carried the run-queue delay, so its Interference was removed. */
static int run_corrected(const struct analysis *a, const struct manifest_row *r)
{
	for (size_t i = 0; i < a->nr_configs; i++) {
		const struct analysis_config *c = &a->configs[i];
		if (strcmp(c->benchmark, r->benchmark) || strcmp(c->size, r->size) ||
		    c->ranks != r->ranks || c->threads != r->threads)
			continue;
		for (size_t k = 0; k < c->nr_runs; k++) {
			const struct analysis_run *run = &c->runs[k];
			for (size_t p = 0; run->repeat == r->repeat && p < run->nr_points; p++)
				if (run->points[p].present &&
				    !isnan(run->points[p].fig[ANALYSIS_INTERFERENCE]))
					return 1;
		}
	}
	return 0;
}

/*
 * The ok runs of 'b' measured on a busy machine: contention (the cores other
 * processes took beyond those the run left free, docs/running.md) above its
 * max_contention, whose profiles lack the run-queue delay (those that have it are
 * recorded with the machine's share removed). Names them; 1 when the baseline
 * must not be written, else 0.
 */
static int busy_runs(const struct baseline_options *o, const struct bench_config *b,
		     const struct analysis *a)
{
	char *path = xstrfmt("%s/manifest.tsv", o->results);
	struct strbuf sb = STRBUF_INIT;
	struct manifest m;
	size_t n = 0;

	manifest_init(&m);
	if (b->max_contention >= 0 && !manifest_read(&m, path))
		for (size_t i = 0; i < m.nr; i++) {
			const struct manifest_row *r = &m.rows[i];
			if (strcmp(r->benchmark, b->name) || strcmp(r->status, "ok") ||
			    !(r->contention > b->max_contention) || run_corrected(a, r))
				continue;
			if (n++ < 8)
				strbuf_addf(&sb, "%s%s (%.2f cores)", n > 1 ? ", " : "", r->dir,
					    r->contention);
		}
	if (n > 8)
		strbuf_addf(&sb, " and %zu more", n - 8);
	if (n && o->force)
		warning("benchmark '%s': %zu run%s measured on a busy machine (contention above "
			"max_contention %g) without the run-queue delay to remove its share: %s; "
			"recorded anyway (--force)",
			b->name, n, n == 1 ? "" : "s", b->max_contention, sb.buf);
	else if (n)
		gate_error(
			"benchmark '%s': %zu run%s measured on a busy machine (contention above "
			"max_contention %g) without the run-queue delay (rq_wait) to remove its "
			"share: %s; a baseline is what later runs are judged against: run again on "
			"a quiet machine, or --force",
			b->name, n, n == 1 ? "" : "s", b->max_contention, sb.buf);
	manifest_release(&m);
	strbuf_release(&sb);
	free(path);
	return n && !o->force;
}

static int update(const struct baseline_options *o, struct config *c, const struct analysis *a)
{
	struct verdict_set failures;
	int code = SG_EXIT_PASS;

	verdict_set_init(&failures);
	if (check_run_failures(&failures, NULL, o->results)) {
		verdict_set_release(&failures);
		return SG_EXIT_USAGE;
	}
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		if (o->benchmark && strcmp(o->benchmark, c->benchmarks[i].name))
			continue;
		else if (busy_runs(o, &c->benchmarks[i], a))
			code = worse(code, SG_EXIT_RUN_FAILED);
		else
			code = worse(code, update_one(o, a, &failures, c->benchmarks[i].name));
	verdict_set_release(&failures);
	return code;
}

int cmd_baseline(int argc, char **argv)
{
	struct baseline_options o = { .config = "scalegate.yml" };
	struct config c;
	struct analysis a;
	int code = SG_EXIT_USAGE, ret = parse_options(argc, argv, &o), lock;

	if (ret)
		return ret == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	analysis_init(&a);
	if (config_load(&c, o.config))
		goto out;
	if (o.benchmark && !config_find(&c, o.benchmark)) {
		gate_error("no benchmark '%s' in '%s'", o.benchmark, o.config);
		goto out;
	}
	o.results = o.results ? o.results : c.results_dir;
	o.baselines = o.baselines ? o.baselines : c.baselines_dir;
	if ((code = judge_check_complete(&c, o.results, o.benchmark, o.partial)))
		goto out;
	code = SG_EXIT_USAGE;
	if (analysis_load(&a, o.results))
		goto out;
	if ((lock = baseline_lock(o.baselines)) < 0)
		goto out;
	baseline_clean_temporary(o.baselines);
	code = update(&o, &c, &a);
	baseline_unlock(lock);
out:
	analysis_release(&a);
	config_release(&c);
	return code;
}
