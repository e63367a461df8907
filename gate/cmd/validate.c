/* --validate of 'check' and 'ci': every input they would read, checked in one pass; none runs. */
#include "cmd/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "cmd/ci.h"
#include "judge/baseline.h"
#include "post/post.h"
#include "rules/rules.h"
#include "run/runner.h"

/* What the reference of 'ci' would be: stored baselines found and missing. */
struct validate_reference {
	size_t found, missing;
};

/* The 'post:' section, as 'ci' reads it before anything runs; 0 or -1 (reported). */
static int validate_post(struct config *c)
{
	struct post_options po;
	int ret;

	if (!c->post)
		return 0;
	post_options_init(&po);
	ret = post_config_parse(&c->doc, c->post, c->dir, &po);
	post_options_release(&po);
	return ret ? -1 : 0;
}

/* Where a benchmark's 'workdir' was written: in it, else in 'defaults'; NULL for the default. */
static yaml_node_t *workdir_node(struct config *c, const struct bench_config *b)
{
	yaml_node_t *n = yamldoc_map_get(&c->doc, (yaml_node_t *)b->node, "workdir");
	yaml_node_t *defaults = yamldoc_map_get(&c->doc, yamldoc_root(&c->doc), "defaults");

	return n ? n : yamldoc_map_get(&c->doc, defaults, "workdir");
}

/* What the runs need before they start: each workdir a directory, each 'preload: true' its
 * library (as 'ci' checks before running). 0 or -1 (reported). */
static int validate_runs(struct config *c)
{
	struct runner_options ro = { .dry_run = 1 };
	struct runner r;
	int ret = 0;

	for (size_t i = 0; i < c->nr_benchmarks; i++) {
		const struct bench_config *b = &c->benchmarks[i];
		yaml_node_t *at = workdir_node(c, b);
		struct stat st;

		if (!stat(b->workdir, &st) && S_ISDIR(st.st_mode))
			continue;
		if (at)
			ret = yamldoc_error(&c->doc, at,
					    "benchmark '%s': workdir '%s' is not a directory",
					    b->name, b->workdir);
		else
			ret = gate_error("benchmark '%s': workdir '%s' is not a directory", b->name,
					 b->workdir);
	}
	if (runner_init(&r, c, &ro))
		ret = -1;
	runner_release(&r);
	return ret;
}

/* One benchmark's stored baseline: readable, its own, with samples; a missing one is counted
 * (and warned about unless absolute rules alone are accepted). 0 or -1 (reported). */
static int validate_baseline(const char *dir, const char *name, int allow_none,
			     struct validate_reference *ref)
{
	char *path = baseline_path(dir, name);
	struct baseline b;
	int ret;

	baseline_init(&b);
	ret = baseline_read(&b, path);
	if (ret == 1) {
		ref->missing++;
		if (!allow_none)
			warning("benchmark '%s' has no baseline '%s': 'ci' would compare nothing "
				"for it and exit 3 (could not be judged); record one with "
				"'scalegate baseline update', compare with --against REV, or "
				"accept its absolute rules alone with --allow-no-reference",
				name, path);
		ret = 0;
	} else if (!ret && strcmp(b.benchmark, name)) {
		ret = gate_error("'%s' is the baseline of benchmark '%s', not of '%s'", path,
				 b.benchmark, name);
	} else if (!ret && !b.nr_cells) {
		ret = gate_error("the baseline '%s' holds no samples; record it again with "
				 "'scalegate baseline update'",
				 path);
	} else if (!ret) {
		ref->found++;
	}
	baseline_release(&b);
	free(path);
	return ret < 0 ? -1 : 0;
}

/* The base revision (--against) or tree (--against-dir), else every stored baseline. */
static int validate_reference(struct validate_options *o, struct config *c,
			      struct validate_reference *ref)
{
	const char *dir = o->baselines ? o->baselines : c->baselines_dir;
	int ret = 0;

	if (ab_wanted(o->ab))
		return ab_locate(o->ab, c);
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		if (validate_baseline(dir, c->benchmarks[i].name,
				      o->allow_no_reference || c->allow_no_reference, ref))
			ret = -1;
	return ret;
}

/* What 'ci' would do with it: the line after "valid". */
static void print_ci(const struct validate_options *o, const struct config *c,
		     const struct ci_reports *rep, const struct validate_reference *ref)
{
	const char *dir = o->baselines ? o->baselines : c->baselines_dir;

	fputs("ci would compare with ", stdout);
	if (o->ab->against)
		printf("the base revision %s", o->ab->against);
	else if (o->ab->against_dir)
		printf("the base tree %s", o->ab->against_dir);
	else
		printf("%zu stored baseline%s in %s", ref->found, ref->found == 1 ? "" : "s", dir);
	if (!ab_wanted(o->ab) && ref->missing)
		printf(" (%zu benchmark%s without one)", ref->missing,
		       ref->missing == 1 ? "" : "s");
	printf(", write its reports into %s and %s; nothing ran\n", rep->dir,
	       o->post && c->post ? "post the summary" : "post nothing");
}

int validate_inputs(struct validate_options *o)
{
	struct validate_reference ref = { 0, 0 };
	struct ci_reports rep;
	struct config c;
	struct rules r;
	int code = SG_EXIT_USAGE, ret;

	rules_init(&r);
	ci_reports_init(&rep);
	/* every error of the file in one pass: its own (slurm: included), the rules', post's */
	ret = config_parse(&c, o->config);
	if (ret != -2) {
		ret |= rules_load(&r, &c);
		if (o->post)
			ret |= validate_post(&c);
		if (o->ci)
			ret |= ci_reports_load(&rep, &c, o->reports_dir);
	}
	/* what needs a valid file: the benchmarks' directories and libraries, the reference */
	if (!ret && o->ci)
		ret = validate_runs(&c) | validate_reference(o, &c, &ref);
	if (!ret) {
		printf("%s: valid, %zu rule%s%s\n", o->config, r.nr, r.nr == 1 ? "" : "s",
		       r.defaults ? " (the shipped defaults)" : "");
		if (o->ci)
			print_ci(o, &c, &rep, &ref);
		code = SG_EXIT_PASS;
	}
	ci_reports_release(&rep);
	rules_release(&r);
	config_release(&c);
	return code;
}
