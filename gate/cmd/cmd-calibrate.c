/* scalegate calibrate: run the matrix N times (or take N result sets) and measure what the rules would make of the noise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/calibrate.h"
#include "cmd/cmds.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "run/runner.h"

static const char usage_text[] =
	"usage: scalegate calibrate [-c FILE] [-n N] [-o DIR] [--benchmark NAME] [--json FILE] [RESULTS...]\n"
	"Compares N clean result sets with each other under the current rules: each\n"
	"set in turn is the current results, every other one the baseline. Reports\n"
	"per rule and check the false-positive rate (the share of checks that fail)\n"
	"and the smallest change each tolerance catches at the configured repeats\n"
	"(docs/check.md), so that tolerances can be set from measurement.\n"
	"  -c FILE           the configuration (default: scalegate.yml)\n"
	"  -n N              run the matrix N times (N >= 2) into DIR/1 ... DIR/N\n"
	"  -o DIR            where -n puts its runs (default: the results directory + '-calibrate')\n"
	"  --benchmark NAME  with -n: run only this benchmark\n"
	"  --json FILE       also write the report as JSON\n"
	"  RESULTS...        existing results directories instead of -n (at least 2)\n"
	"exit codes: 0 done, 2 usage or configuration error, 3 a run failed\n";

struct calibrate_options {
	const char *config, *output, *benchmark, *json;
	int runs;
	char **dirs;
	int nr_dirs;
};

static int parse_runs(const char *v, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < 2 || n > 1000)
		return error("-n: '%s' is not a number of runs from 2 to 1000", v);
	*out = (int)n;
	return 0;
}

static int parse_options(int argc, char **argv, struct calibrate_options *o)
{
	int bad = 0;

	o->dirs = argv;
	for (int i = 1; i < argc && !bad; i++) {
		const char *v;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 1;
		} else if ((v = option_value(argc, argv, &i, "-c", &bad)) ||
			   (v = option_value(argc, argv, &i, "--config", &bad))) {
			o->config = v;
		} else if ((v = option_value(argc, argv, &i, "-n", &bad))) {
			bad = parse_runs(v, &o->runs) != 0;
		} else if ((v = option_value(argc, argv, &i, "-o", &bad))) {
			o->output = v;
		} else if ((v = option_value(argc, argv, &i, "--benchmark", &bad))) {
			o->benchmark = v;
		} else if ((v = option_value(argc, argv, &i, "--json", &bad))) {
			o->json = v;
		} else if (!bad && argv[i][0] != '-') {
			o->dirs[o->nr_dirs++] = argv[i]; /* argv[0] is consumed: safe to compact in place */
		} else if (!bad) {
			fprintf(stderr, "scalegate: error: unknown option '%s'\n", argv[i]);
			bad = 1;
		}
	}
	if (!bad && (o->runs ? o->nr_dirs > 0 : o->nr_dirs < 2)) {
		fprintf(stderr, "scalegate: error: give either -n N or at least 2 results directories\n");
		bad = 1;
	}
	if (bad)
		fputs(usage_text, stderr);
	return bad ? -1 : 0;
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
			error("%ld run%s failed in '%s': calibrate needs clean runs", failed < 0 ? 1 : failed,
			      failed == 1 ? "" : "s", dir);
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
		return ret > 0 ? SG_EXIT_PASS : SG_EXIT_USAGE;
	rules_init(&r);
	calibrate_init(&cal, &r);
	if (config_load(&c, o.config) || rules_load(&r, &c))
		goto out;
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
