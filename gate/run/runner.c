/* The matrix runner: warm-up, then measured runs interleaved round-robin across configurations
 * (docs/running.md). */
#include "run/runner-priv.h"

#include <stdlib.h>
#include <string.h>

#include "run/runner-exec.h"
#include "run/batch.h"

int runner_init(struct runner *r, struct config *c, const struct runner_options *opt)
{
	int ret = runner_init_side(r, c, opt);

	if (ret <= 0)
		return ret;
	return opt->base_root ? runner_ab_init(r) : 0;
}

void runner_release(struct runner *r)
{
	if (r->base) {
		runner_release(r->base);
		free(r->base);
	}
	if (r->ab)
		fclose(r->ab);
	if (r->partial)
		fclose(r->partial);
	complete_release(&r->complete);
	if (r->scratch)
		rmdir(r->scratch); /* only when empty */
	free(r->results);
	free(r->scratch);
	free(r->lib_dir);
	memset(r, 0, sizeof(*r));
}

static void print_plan_run(const struct runner *r, const struct bench_run *br, size_t pt,
			   int repeat, int warm)
{
	const struct config_point *p = &br->points[pt].p;
	char *out = repeat ? xstrfmt("%s/%s/%s/%d", r->results, br->b->name, br->points[pt].name,
				     repeat)
			   : xstrfmt("%s/.scratch/warmup-XXXXXX", r->results);
	char **env = runner_run_env(br, p, out), *line = runner_command_line(br, p, repeat, env);

	if (repeat)
		printf("%s %s repeat %d:", br->b->name, br->points[pt].name, repeat);
	else
		printf("%s %s warmup %d:", br->b->name, br->points[pt].name, warm);
	if (runner_uses_launcher(br->b, p))
		runner_drop_preload(env);
	for (char **e = env; *e; e++)
		printf(" %s", *e);
	printf(" /bin/sh -c '%s'\n", line);
	runner_free_env(env);
	free(line);
	free(out);
}

static void print_plan(const struct runner *r, const struct bench_run *br)
{
	const struct bench_config *b = br->b;

	printf("# %s: %zu configurations, warmup %d, repeat %d, timeout %g s, workdir %s\n",
	       b->name, br->nr_points, b->warmup, b->repeat, b->timeout, br->workdir);
	if (b->build)
		printf("%s build: cd %s && %s\n", b->name, br->workdir, b->build);
	for (int w = 1; w <= b->warmup; w++)
		for (size_t pt = 0; pt < br->nr_points; pt++)
			print_plan_run(r, br, pt, 0, w);
	for (int repeat = 1; repeat <= b->repeat; repeat++)
		for (size_t pt = 0; pt < br->nr_points; pt++)
			print_plan_run(r, br, pt, repeat, 0);
}

/* Warm-up runs, then the measured ones round-robin: repeat 1 of every configuration, then repeat 2,
 * ... */
static int run_matrix(struct runner *r, struct bench_run *br)
{
	const struct bench_config *b = br->b;

	for (int w = 1; w <= b->warmup; w++)
		for (size_t pt = 0; pt < br->nr_points; pt++) {
			runner_progress(r, br, pt, 0, w);
			if (runner_one(r, br, pt, 0))
				return -1;
		}
	for (int repeat = 1; repeat <= b->repeat; repeat++)
		for (size_t pt = 0; pt < br->nr_points; pt++) {
			runner_progress(r, br, pt, repeat, 0);
			if (runner_one(r, br, pt, repeat))
				return -1;
		}
	return 0;
}

static int run_bench(struct runner *r, struct bench_run *br)
{
	if (r->opt.dry_run) {
		print_plan(r, br);
		return 0;
	}
	if (r->opt.extend)
		return runner_extend_bench(r, br);
	if (r->base)
		return runner_ab_bench(r, br);
	if (br->b->build && runner_build(r, br))
		return -1;
	if (br->build_failed) {
		r->total_runs -= br->nr_points * (size_t)(br->b->warmup + br->b->repeat);
		return runner_record_build_failed(r, br);
	}
	return run_matrix(r, br);
}

static void bench_release_all(struct runner *r, struct bench_run *br)
{
	if (r->base)
		runner_ab_release(br);
	runner_bench_release(br);
}

/* The manifest lines of a benchmark: its matrix, and the extra rounds of its adaptive cells. */
static long complete_runs(const struct runner *r, const struct bench_run *br)
{
	long n = 0;

	for (size_t pt = 0; pt < br->nr_points; pt++)
		n += br->points[pt].last;
	(void)r;
	return n;
}

long runner_run(struct runner *r)
{
	struct bench_run *runs;
	int ret = 0;

	if (batch_wanted(r) && !r->opt.dry_run)
		return batch_run(r);
	if (batch_wanted(r))
		batch_print_plan(r);
	runs = xcalloc(r->c->nr_benchmarks, sizeof(*runs));
	interrupt_catch();
	if (r->opt.inject && !r->base)
		setenv("SCALEGATE_INJECT", r->opt.inject, 1); /* every run is the head's */
	for (size_t i = 0; i < r->c->nr_benchmarks && !ret; i++)
		if (runner_selected(r, &r->c->benchmarks[i]) &&
		    (runner_bench_setup(r, &r->c->benchmarks[i], &runs[i]) ||
		     (r->base && runner_ab_setup(r, &runs[i]))))
			ret = -1;
	for (size_t i = 0; i < r->c->nr_benchmarks; i++)
		r->total_runs += r->opt.extend
					 ? runner_extend_runs(r, &r->c->benchmarks[i])
					 : runs[i].nr_points *
						   (size_t)(r->c->benchmarks[i].warmup +
							    r->c->benchmarks[i].repeat) *
						   (r->base ? 2 : 1); /* A/B: the base's runs too */
	for (size_t i = 0; i < r->c->nr_benchmarks && !ret; i++)
		if (runs[i].b)
			ret = run_bench(r, &runs[i]);
	runner_clear_line(r);
	if (r->busy_runs)
		warning("%zu run%s measured on a busy machine; %s figures may be off (see the "
			"contention column of manifest.tsv)",
			r->busy_runs, r->busy_runs == 1 ? " was" : "s were",
			r->busy_runs == 1 ? "its" : "their");
	if (!r->opt.dry_run && r->base && runner_manifest_finish(r->base))
		ret = -1;
	if (interrupt_signal)
		ret = gate_error(
			"interrupted by %s; manifest.tsv holds the runs that finished, and "
			"without complete.tsv "
			"the results are refused as incomplete (--partial judges them)",
			exec_signal_name(interrupt_signal));
	if (!r->opt.dry_run && runner_manifest_finish(r))
		ret = -1;
	/* Last, and only when every run of the selected benchmarks ended. */
	for (size_t i = 0; i < r->c->nr_benchmarks && !ret && !r->opt.dry_run; i++)
		if (runs[i].b)
			complete_set(&r->complete, runs[i].b->name, (long)runs[i].nr_points,
				     runs[i].b->repeat, complete_runs(r, &runs[i]));
	if (!ret && !r->opt.dry_run && complete_write(&r->complete, r->results))
		ret = -1;
	for (size_t i = 0; i < r->c->nr_benchmarks; i++)
		if (runs[i].b)
			bench_release_all(r, &runs[i]);
	free(runs);
	return ret ? -1 : (long)r->failed_runs;
}
