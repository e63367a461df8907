/* scalegate run: run the benchmark matrix of scalegate.yml and record profiles, a manifest and a fingerprint. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "run/runner.h"
#include "cmd/ab.h"

static const char usage_text[] =
	"usage: scalegate run [-c scalegate.yml] [-o RESULTS] [--benchmark NAME] [--dry-run] [--local]\n"
	"Runs every configuration of every benchmark: warm-up runs, then 'repeat'\n"
	"measured runs interleaved across configurations, each in a scratch\n"
	"directory and a process group of its own, with the timeout enforced.\n"
	"Writes RESULTS/manifest.tsv, RESULTS/fingerprint.tsv and one directory\n"
	"per run with its profiles and output (docs/running.md).\n"
	"  -c FILE           the configuration (default: scalegate.yml)\n"
	"  -o DIR            the results directory (default: 'results' of the configuration)\n"
	"  --benchmark NAME  run only this benchmark; the others' results are kept\n"
	"  --dry-run         print each run's environment and command line, run nothing\n"
	"  --local           run on this machine even when the configuration has a 'slurm:'\n"
	"                    section (without it, the matrix is submitted as a batch job)\n"
	AB_USAGE
	"exit codes: 0 every run ok, 2 usage or configuration error, 3 a run failed\n";

static int parse_options(int argc, char **argv, const char **config, struct runner_options *o,
			 struct ab_options *ab)
{
	int bad = 0;

	for (int i = 1; i < argc && !bad; i++) {
		const char *v;
		int taken = ab_option(argc, argv, &i, ab);
		if (taken) {
			bad = taken < 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 1;
		} else if (!strcmp(argv[i], "--dry-run")) {
			o->dry_run = 1;
		} else if (!strcmp(argv[i], "--local")) {
			o->local = 1;
		} else if ((v = option_value(argc, argv, &i, "-c", &bad)) ||
			   (v = option_value(argc, argv, &i, "--config", &bad))) {
			*config = v;
		} else if ((v = option_value(argc, argv, &i, "-o", &bad)) ||
			   (v = option_value(argc, argv, &i, "--output", &bad))) {
			o->results_dir = v;
		} else if ((v = option_value(argc, argv, &i, "--benchmark", &bad))) {
			o->benchmark = v;
		} else if (!bad) {
			fprintf(stderr, "scalegate: error: unknown option '%s'\n", argv[i]);
			bad = 1;
		}
	}
	if (bad) {
		fputs(usage_text, stderr);
		return -1;
	}
	return 0;
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
		return ret > 0 ? SG_EXIT_PASS : SG_EXIT_USAGE;
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
