/* scalegate report: load and judge the results as 'check' does, and write the HTML report. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "judge/judge.h"
#include "report/report.h"

static const struct command_usage usage = {
	"report",
	"usage: scalegate report --html FILE [-c FILE] [-r RESULTS] [--baselines DIR]\n"
	"Judges RESULTS as 'scalegate check' does and writes the HTML report: the\n"
	"outcome, the regressions and warnings, and per interval the speedup,\n"
	"efficiency and Karp-Flatt plots against the baseline, the lost time, weak\n"
	"scaling and isoefficiency (docs/reports.md). One self-contained file.\n",
	"exit codes: 0 written (whatever the verdicts: 'scalegate check' is the gate),\n"
	"2 usage or configuration error, or the report could not be written\n"
};

struct report_options {
	const char *config, *results, *baselines, *html;
};

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct report_options *o)
{
	const struct option opts[] = {
		OPT_STRING(NULL, "--html", &o->html, "FILE", "the report to write"),
		OPT_INPUTS(&o->config, &o->results, &o->baselines),
		OPT_END()
	};
	int ret = options_parse_no_args(argc, argv, opts, &usage);

	if (!ret && !o->html)
		return gate_error("nothing to write: give --html FILE");
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_options o = { .config = "scalegate.yml" };
	struct judge j;
	int code = SG_EXIT_USAGE, ret = parse_options(argc, argv, &o);

	if (ret)
		return ret == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	judge_init(&j);
	j.partial = 1; /* a picture of what is there, incomplete or not (warned) */
	if (!judge_load(&j, o.config, o.results, o.baselines) &&
	    !report_write_html(&j, o.html)) {
		printf("wrote %s: %s\n", o.html, j.vs.exit_code == SG_EXIT_PASS ? "pass" :
		       j.vs.exit_code == SG_EXIT_REGRESSION ? "regression" :
		       "a benchmark failed to run or a check could not be judged");
		code = SG_EXIT_PASS;
	}
	judge_release(&j);
	return code;
}
