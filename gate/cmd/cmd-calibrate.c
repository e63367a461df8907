/* scalegate calibrate: run the matrix N times (or take N result sets) and measure what the rules
 * would make of the noise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/calibrate.h"
#include "cmd/calibrate-inject.h"
#include "cmd/cmds.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "run/runner.h"

static const struct command_usage usage = {
	"calibrate",
	"usage: scalegate calibrate [-c FILE] [-n N] [-o DIR] [--benchmark NAME] [--json FILE] "
	"[RESULTS...]\n"
	"       scalegate calibrate --inject INTERVAL:PCT[,PCT...] -n SETS [-c FILE] [-o DIR]\n"
	"Compares N clean result sets with each other under the current rules: each\n"
	"set in turn is the current results, every other one the baseline. Reports\n"
	"per rule and check the false-positive rate (the share of checks that fail)\n"
	"and the smallest change each tolerance catches at the configured repeats\n"
	"(docs/check.md), so that tolerances can be set from measurement.\n"
	"  RESULTS...          existing results directories instead of -n (at least 2)\n",
	"exit codes: 0 done, 2 usage or configuration error, 3 a run failed\n"};

struct calibrate_options {
	const char *config, *output, *benchmark, *json, *inject;
	int runs;
	char **dirs;
	int nr_dirs;
};

static int parse_runs(const struct option *o, const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < 1 || n > 1000)
		return gate_error(
			"-n: '%s' is not a number of runs from 1 (with --inject; else 2) to 1000",
			v);
	*(int *)o->value = (int)n;
	return 0;
}

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct calibrate_options *o)
{
	const struct option opts[] = {
		OPT_STRING("-c", "--config", &o->config, "FILE",
			   "the configuration (default: scalegate.yml)"),
		OPT_PARSE("-n", NULL, &o->runs, "N",
			  "run the matrix N times (N >= 2) into DIR/1 ... DIR/N", parse_runs),
		OPT_STRING(
			"-o", NULL, &o->output, "DIR",
			"where -n puts its runs (default: the results directory + '-calibrate')"),
		OPT_STRING(NULL, "--benchmark", &o->benchmark, "NAME",
			   "with -n: run only this benchmark"),
		OPT_STRING(NULL, "--json", &o->json, "FILE", "also write the report as JSON"),
		OPT_STRING(NULL, "--inject", &o->inject, "I:P,...",
			   "instead: SETS independent whole gate runs ('ci', adaptive repeats\n"
			   "included) per mode, A/B and against a stored baseline: the\n"
			   "share of clean (A/A) runs that fail, and of runs with interval I\n"
			   "slowed down by each P % (SCALEGATE_INJECT) that are caught,\n"
			   "with 95 % Wilson intervals"),
		OPT_END()};
	int n = options_parse(argc, argv, opts, &usage);

	if (n < 0)
		return n;
	o->dirs = argv; /* options_parse moved the RESULTS to argv[0..n-1] */
	o->nr_dirs = n;
	if (o->inject && (!o->runs || o->nr_dirs || o->json || o->benchmark))
		return gate_error(
			"--inject needs -n SETS, and takes no RESULTS, --json or --benchmark");
	if (!o->inject && o->runs == 1)
		return gate_error("-n: comparing needs at least 2 runs");
	if (!o->inject && (o->runs ? o->nr_dirs > 0 : o->nr_dirs < 2))
		return gate_error("give either -n N or at least 2 results directories");
	return 0;
}

/* Runs the matrix N times into DIR/1 .. DIR/N and adds each; an exit code. */
static int run_sets(const struct calibrate_options *o, struct config *c, struct calibrate *cal)
{
	char *base = o->output ? xstrdup(o->output) : xstrfmt("%s-calibrate", c->results_dir);
	int code = SG_EXIT_PASS;

	for (int k = 1; k <= o->runs && code == SG_EXIT_PASS; k++) {
		char *dir = xstrfmt("%s/%d", base, k);
		struct runner_options opt = { .results_dir = dir, .benchmark = o->benchmark };
		struct runner r;
		long failed;
		fprintf(stderr, "scalegate calibrate: run %d of %d into %s\n", k, o->runs, dir);
		if (runner_init(&r, c, &opt))
			code = SG_EXIT_USAGE;
		else if ((failed = runner_run(&r)) != 0) {
			gate_error("%ld run%s failed in '%s': calibrate needs clean runs",
				   failed < 0 ? 1 : failed, failed == 1 ? "" : "s", dir);
			code = SG_EXIT_RUN_FAILED;
		}
		runner_release(&r);
		if (code == SG_EXIT_PASS && calibrate_add(cal, dir))
			code = SG_EXIT_USAGE;
		free(dir);
	}
	free(base);
	return code;
}

static int add_dirs(const struct calibrate_options *o, struct calibrate *cal)
{
	for (int i = 0; i < o->nr_dirs; i++)
		if (calibrate_add(cal, o->dirs[i]))
			return SG_EXIT_USAGE;
	return SG_EXIT_PASS;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_options o = { .config = "scalegate.yml" };
	struct config c;
	struct rules r;
	struct calibrate cal;
	int code = SG_EXIT_USAGE, ret = parse_options(argc, argv, &o);

	if (ret)
		return ret == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	rules_init(&r);
	calibrate_init(&cal, &r);
	if (config_load(&c, o.config) || rules_load(&r, &c))
		goto out;
	if (o.inject) {
		code = calibrate_inject(o.config, &c, o.inject, o.runs, o.output);
		goto out;
	}
	if (o.runs)
		code = run_sets(&o, &c, &cal);
	else
		code = add_dirs(&o, &cal);
	if (code != SG_EXIT_PASS)
		goto out;
	code = calibrate_run(&cal) ? SG_EXIT_USAGE : SG_EXIT_PASS;
	if (code == SG_EXIT_PASS) {
		calibrate_print(stdout, &cal);
		if (o.json && calibrate_write_json(&cal, o.json))
			code = SG_EXIT_USAGE;
	}
out:
	calibrate_release(&cal);
	rules_release(&r);
	config_release(&c);
	return code;
}
