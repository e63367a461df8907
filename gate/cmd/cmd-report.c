/* scalegate report: load and judge the results as 'check' does, and write the HTML report. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "judge/judge.h"
#include "report/report.h"

static const char usage_text[] =
	"usage: scalegate report --html FILE [-c FILE] [-r RESULTS] [--baselines DIR]\n"
	"Judges RESULTS as 'scalegate check' does and writes the HTML report: the\n"
	"outcome, the regressions and warnings, and per interval the speedup,\n"
	"efficiency and Karp-Flatt plots against the baseline, the lost time, weak\n"
	"scaling and isoefficiency (docs/reports.md). One self-contained file.\n"
	"  --html FILE       the report to write\n"
	"  -c FILE           the configuration (default: scalegate.yml)\n"
	"  -r DIR            the results (default: 'results' of the configuration)\n"
	"  --baselines DIR   the baselines (default: 'baselines' of the configuration)\n"
	"exit codes: 0 written (whatever the verdicts: 'scalegate check' is the gate),\n"
	"2 usage or configuration error, or the report could not be written\n";

struct report_options {
	const char *config, *results, *baselines, *html;
};

static int parse_options(int argc, char **argv, struct report_options *o)
{
	int bad = 0;

	for (int i = 1; i < argc && !bad; i++) {
		const char *v;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 1;
		} else if (option_inputs(argc, argv, &i, &bad, &o->config, &o->results, &o->baselines)) {
			continue;
		} else if ((v = option_value(argc, argv, &i, "--html", &bad))) {
			o->html = v;
		} else if (!bad) {
			fprintf(stderr, "scalegate: error: unknown option '%s'\n", argv[i]);
			bad = 1;
		}
	}
	if (!bad && !o->html) {
		fprintf(stderr, "scalegate: error: nothing to write: give --html FILE\n");
		bad = 1;
	}
	if (bad)
		fputs(usage_text, stderr);
	return bad ? -1 : 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_options o = { .config = "scalegate.yml" };
	struct judge j;
	int code = SG_EXIT_USAGE, ret = parse_options(argc, argv, &o);

	if (ret)
		return ret > 0 ? SG_EXIT_PASS : SG_EXIT_USAGE;
	judge_init(&j);
	j.partial = 1; /* a picture of what is there, incomplete or not (warned) */
	if (!judge_load(&j, o.config, o.results, o.baselines) && !report_write_html(&j.c, &j.vs, o.html)) {
		printf("wrote %s: %s\n", o.html, j.vs.exit_code == SG_EXIT_PASS ? "pass" :
		       j.vs.exit_code == SG_EXIT_REGRESSION ? "regression" :
		       "a benchmark failed to run or a check could not be judged");
		code = SG_EXIT_PASS;
	}
	judge_release(&j);
	return code;
}
