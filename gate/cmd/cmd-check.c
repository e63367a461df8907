/* scalegate check: judge the results against the rules and the baselines; reports and the exit
 * code. */
#include <stdio.h>
#include <string.h>

#include "judge/check.h"
#include "cmd/cmds.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "judge/judge.h"
#include "report/report.h"
#include "base/util.h"
#include "cmd/validate.h"

static const struct command_usage usage = {
	"check",
	"usage: scalegate check [-c FILE] [-r RESULTS] [--baselines DIR] [--FORMAT FILE]...\n"
	"                       [--all] [--testcase-output] [--validate] [--partial]\n"
	"                       [--allow-no-reference]\n"
	"Judges every interval x configuration of RESULTS against the rules and the\n"
	"stored baselines: a regression is a change past the rule's tolerance that is\n"
	"also significant at its level (docs/check.md). Prints each finding (the failed\n"
	"checks of one interval and configuration, with those of enclosing intervals\n"
	"its change explains) and each error, then the counts; --FORMAT FILE writes a\n"
	"report of that format (docs/reports.md).\n",
	"exit codes: 0 pass, 1 regression or rule violated, 2 usage or configuration\n"
	"error, 3 a benchmark failed to run, the results are incomplete, or something\n"
	"could not be judged (no baseline, an unreadable one; and nothing regressed)\n"
};

struct check_options {
	const char *config, *results, *baselines;
	const char *reports[REPORT_MAX_FORMATS]; /* by row of report_formats */
	int all, validate, partial, testcase_output, allow_no_reference;
};

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct check_options *o)
{
	struct option opts[REPORT_MAX_FORMATS + 16] = {
		OPT_INPUTS(&o->config, &o->results, &o->baselines),
	};
	const struct option flags[] = {
		OPT_JUDGING(&o->partial, &o->allow_no_reference, &o->all, &o->testcase_output),
		OPT_FLAG(NULL, "--validate", &o->validate,
			 "only check the configuration, its rules and 'post:'\n"
			 "(exit 0 or 2); read no results"),
		OPT_END()};
	size_t n = 3;

	/* an option per report format, from the registry */
	for (size_t i = 0; report_formats[i]; i++)
		opts[n++] = (struct option)OPT_STRING(NULL, report_formats[i]->flag, &o->reports[i],
						      "FILE", report_formats[i]->help);
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		opts[n++] = flags[i];
	return options_parse_no_args(argc, argv, opts, &usage);
}

int cmd_check(int argc, char **argv)
{
	struct check_options o = { .config = "scalegate.yml" };
	struct judge j;
	int code = SG_EXIT_USAGE, ret = parse_options(argc, argv, &o);

	if (ret)
		return ret == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	if (o.validate)
		return validate_inputs(&(struct validate_options){ .config = o.config, .post = 1 });
	judge_init(&j);
	j.partial = o.partial;
	j.allow_no_reference = o.allow_no_reference;
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
