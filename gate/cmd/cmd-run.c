/* scalegate run: run the benchmark matrix of scalegate.yml and record profiles, a manifest and a
 * fingerprint. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "run/runner.h"
#include "cmd/ab.h"

static const struct command_usage usage = {
	"run",
	"usage: scalegate run [-c scalegate.yml] [-o RESULTS] [--benchmark NAME] [--dry-run] "
	"[--local]\n"
	"                     [-q|--quiet]\n"
	"Runs every configuration of every benchmark: warm-up runs, then 'repeat'\n"
	"measured runs interleaved across configurations, each in a scratch\n"
	"directory and a process group of its own, with the timeout enforced.\n"
	"Writes RESULTS/manifest.tsv, RESULTS/fingerprint.tsv and one directory\n"
	"per run with its profiles and output (docs/running.md).\n",
	"exit codes: 0 every run ok, 2 usage or configuration error, 3 a run failed,\n"
	"130/143 interrupted (128 + SIGINT/SIGTERM)\n"};

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, const char **config, struct runner_options *o,
			 struct ab_options *ab)
{
	const struct option opts[] = {
		OPT_STRING("-c", "--config", config, "FILE",
			   "the configuration (default: scalegate.yml)"),
		OPT_STRING("-o", "--output", &o->results_dir, "DIR",
			   "the results directory (default: 'results' of the configuration)"),
		OPT_STRING(NULL, "--benchmark", &o->benchmark, "NAME",
			   "run only this benchmark; the others' results are kept"),
		OPT_FLAG(NULL, "--dry-run", &o->dry_run,
			 "print each run's environment and command line, run nothing"),
		OPT_FLAG("-q", "--quiet", &o->quiet,
			 "no progress: only warnings, errors and failed runs"),
		OPT_FLAG(NULL, "--local", &o->local,
			 "run on this machine even when the configuration has a 'slurm:'\n"
			 "section (without it, the matrix is submitted as a batch job)"),
		AB_OPTIONS(ab),
		OPT_END()};
	int ret = options_parse_no_args(argc, argv, opts, &usage);

	return ret ? ret : ab_check(ab);
}

int cmd_run(int argc, char **argv)
{
	const char *path = "scalegate.yml";
	struct runner_options opt = { 0 };
	struct ab_options ab = { 0 };
	struct config c;
	struct runner r = { 0 };
	int code = SG_EXIT_USAGE, ret = parse_options(argc, argv, &path, &opt, &ab);
	long failed;

	if (ret)
		return ret == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	if (config_load(&c, path)) {
		config_release(&c);
		return SG_EXIT_USAGE;
	}
	if (ab_prepare(&ab, &c, opt.results_dir ? opt.results_dir : c.results_dir, &opt) ||
	    runner_init(&r, &c, &opt))
		goto out;
	failed = runner_run(&r);
	if (failed < 0 && runner_caught_signal())
		code = SG_EXIT_SIGNAL + runner_caught_signal(); /* 130 Ctrl-C, 143 SIGTERM */
	else if (failed < 0)
		code = SG_EXIT_RUN_FAILED;
	else if (failed > 0) {
		fprintf(stderr, "scalegate: %ld run%s failed; see %s/manifest.tsv\n", failed,
			failed == 1 ? "" : "s", r.results);
		code = SG_EXIT_RUN_FAILED;
	} else
		code = SG_EXIT_PASS;
out:
	runner_release(&r);
	ab_finish(&ab);
	config_release(&c);
	return code;
}
