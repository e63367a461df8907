/* scalegate check: judge the results against the rules and the baselines; reports and the exit code. */
#include <stdio.h>
#include <string.h>

#include "judge/check.h"
#include "cmd/cmds.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "judge/judge.h"
#include "report/report.h"

/* The help: the options of the reports come from the registry of report formats. */
static void usage(FILE *out)
{
	fputs("usage: scalegate check [-c FILE] [-r RESULTS] [--baselines DIR] [--all]\n"
	      "                       [--testcase-output] [--validate] [--partial]\n"
	      "                      ", out);
	for (size_t i = 0; report_formats[i]; i++)
		fprintf(out, " [%s FILE]", report_formats[i]->flag);
	fputs("\nJudges every interval x configuration of RESULTS against the rules and the\n"
	      "stored baselines: a regression is a change past the rule's tolerance that is\n"
	      "also significant at its level (docs/check.md). Prints one line per verdict\n"
	      "that is not a pass, then the counts.\n"
	      "  -c FILE           the configuration (default: scalegate.yml)\n"
	      "  -r DIR            the results (default: 'results' of the configuration)\n"
	      "  --baselines DIR   the baselines (default: 'baselines' of the configuration)\n",
	      out);
	for (size_t i = 0; report_formats[i]; i++) {
		char flag[32];
		snprintf(flag, sizeof(flag), "%s FILE", report_formats[i]->flag);
		fprintf(out, "  %-17s %s\n", flag, report_formats[i]->help);
	}
	fputs("  --testcase-output JUnit: each testcase's text in its own <system-out>, with\n"
	      "                    file and line attributes (GitLab; valid against junit10.xsd)\n"
	      "  --all             print the passing checks too\n"
	      "  --validate        only load the configuration and the rules\n"
	      "  --partial         judge results that 'scalegate run' did not finish (warned)\n"
	      "exit codes: 0 pass, 1 regression or rule violated, 2 usage or configuration\n"
	      "error, 3 a benchmark failed to run, the results are incomplete, or something\n"
	      "could not be judged (an unreadable baseline; and nothing regressed)\n", out);
}

struct check_options {
	const char *config, *results, *baselines;
	const char *reports[REPORT_MAX_FORMATS]; /* by row of report_formats */
	int all, validate, partial, testcase_output;
};

static int parse_options(int argc, char **argv, struct check_options *o)
{
	int bad = 0;

	for (int i = 1; i < argc && !bad; i++) {
		size_t k;
		for (k = 0; report_formats[k] && !bad; k++) {
			const char *v = option_value(argc, argv, &i, report_formats[k]->flag, &bad);
			if (v) {
				o->reports[k] = v;
				break;
			}
		}
		if (report_formats[k] || bad)
			continue;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 1;
		} else if (!strcmp(argv[i], "--validate")) {
			o->validate = 1;
		} else if (!strcmp(argv[i], "--testcase-output")) {
			o->testcase_output = 1;
		} else if (!strcmp(argv[i], "--all")) {
			o->all = 1;
		} else if (!strcmp(argv[i], "--partial")) {
			o->partial = 1;
		} else if (option_inputs(argc, argv, &i, &bad, &o->config, &o->results, &o->baselines)) {
			continue;
		} else if (!bad) {
			fprintf(stderr, "scalegate: error: unknown option '%s'\n", argv[i]);
			bad = 1;
		}
	}
	if (bad)
		usage(stderr);
	return bad ? -1 : 0;
}

/* Only loads the configuration and its rules: --validate. */
static int validate(const char *path)
{
	struct config c;
	struct rules r;
	int code = SG_EXIT_USAGE;

	rules_init(&r);
	if (!config_load(&c, path) && !rules_load(&r, &c)) {
		printf("%s: valid, %zu rule%s%s\n", path, r.nr, r.nr == 1 ? "" : "s",
		       r.defaults ? " (the shipped defaults)" : "");
		code = SG_EXIT_PASS;
	}
	rules_release(&r);
	config_release(&c);
	return code;
}

int cmd_check(int argc, char **argv)
{
	struct check_options o = { .config = "scalegate.yml" };
	struct judge j;
	int code = SG_EXIT_USAGE, ret = parse_options(argc, argv, &o);

	if (ret)
		return ret > 0 ? SG_EXIT_PASS : SG_EXIT_USAGE;
	if (o.validate)
		return validate(o.config);
	judge_init(&j);
	j.partial = o.partial;
	if (!judge_load(&j, o.config, o.results, o.baselines)) {
		struct report_input in = { &j, o.reports, o.testcase_output, NULL };

		code = j.vs.exit_code;
		if (report_write_all(&in) && code == SG_EXIT_PASS)
			code = SG_EXIT_USAGE;
		check_print_verdicts(stdout, &j.vs, o.all);
		report_recap(stdout, &j.vs);
		check_print_counts(stdout, &j.vs);
		check_print_exit(stdout, &j.vs, code);
	} else {
		code = j.load_error;
	}
	judge_release(&j);
	return code;
}
