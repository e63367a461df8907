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

static const struct command_usage usage = {
	"check",
	"usage: scalegate check [-c FILE] [-r RESULTS] [--baselines DIR] [--junit FILE]\n"
	"                       [--markdown FILE] [--json FILE] [--html FILE] [--all]\n"
	"                       [--testcase-output] [--validate] [--partial]\n"
	"Judges every interval x configuration of RESULTS against the rules and the\n"
	"stored baselines: a regression is a change past the rule's tolerance that is\n"
	"also significant at its level (docs/check.md). Prints one line per verdict\n"
	"that is not a pass, then the counts.\n",
	"exit codes: 0 pass, 1 regression or rule violated, 2 usage or configuration\n"
	"error, 3 a benchmark failed to run, the results are incomplete, or something\n"
	"could not be judged (an unreadable baseline; and nothing regressed)\n"
};

struct check_options {
	const char *config, *results, *baselines, *junit, *markdown, *json, *html;
	int all, validate, partial, testcase_output;
};

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct check_options *o)
{
	const struct option opts[] = {
		OPT_INPUTS(&o->config, &o->results, &o->baselines),
		OPT_STRING(NULL, "--junit", &o->junit, "FILE", "write a JUnit XML report"),
		OPT_STRING(NULL, "--markdown", &o->markdown, "FILE", "write a Markdown summary"),
		OPT_STRING(NULL, "--json", &o->json, "FILE",
			   "write the JSON summary (the input of 'scalegate post')"),
		OPT_STRING(NULL, "--html", &o->html, "FILE",
			   "write the HTML report with the scaling plots"),
		OPT_FLAG(NULL, "--testcase-output", &o->testcase_output,
			 "JUnit: each testcase's text in its own <system-out>, with\n"
			 "file and line attributes (GitLab; valid against junit10.xsd)"),
		OPT_FLAG(NULL, "--all", &o->all, "print the passing checks too"),
		OPT_FLAG(NULL, "--validate", &o->validate, "only load the configuration and the rules"),
		OPT_FLAG(NULL, "--partial", &o->partial,
			 "judge results that 'scalegate run' did not finish (warned)"),
		OPT_END()
	};
	return options_parse_no_args(argc, argv, opts, &usage);
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
		return ret == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	if (o.validate)
		return validate(o.config);
	judge_init(&j);
	j.partial = o.partial;
	if (!judge_load(&j, o.config, o.results, o.baselines)) {
		struct report_paths paths = { o.junit, o.markdown, o.json, o.html };

		code = j.vs.exit_code;
		if (report_write_all(&j, &paths, o.testcase_output) && code == SG_EXIT_PASS)
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
