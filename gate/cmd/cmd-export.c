/* scalegate export: results for other tools, Extra-P's modeller and Hatchet/Thicket
 * (docs/interop.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "base/yamldoc.h"
#include "cmd/cmds.h"
#include "cmd/options.h"
#include "interop/interop.h"
#include "results/manifest.h"

static const struct command_usage usage = {
	"export",
	"usage: scalegate export extrap RESULTS -o FILE [--benchmark NAME]\n"
	"       scalegate export hatchet RESULTS -o FILE [--benchmark NAME] [--size N]\n"
	"                                [--ranks R] [--threads T] [--repeat K]\n"
	"'extrap': Extra-P's JSON Lines, one line per interval x figure x configuration\n"
	"with the figure in every repeat; parameters p (or ranks and threads when both\n"
	"vary) and n, the problem size, when the benchmark has one. 'hatchet': one run\n"
	"(the first that the options match) as Caliper json-split for Hatchet's\n"
	"from_caliper and Thicket: a node per interval, a row per interval and rank\n"
	"(docs/interop.md).\n",
	"exit codes: 0 written, 2 bad command line or unreadable results\n"
};

static int parse_count(const struct option *o, const char *value)
{
	char *end;
	long v = strtol(value, &end, 10);

	if (*end || end == value || v < 1 || v > 1 << 24)
		return option_bad_value(o, value, "a whole number of at least 1");
	*(int *)o->value = (int)v;
	return 0;
}

static int bad_format(int n, const char *format)
{
	static const char *const formats[] = {"extrap", "hatchet", NULL};
	const char *hint = n ? yamldoc_closest(format, formats) : NULL;

	if (n && (!strcmp(format, "extrap") || !strcmp(format, "hatchet")))
		return 0;
	gate_error("%s%s%s: give 'extrap' or 'hatchet' (see 'scalegate export --help')",
		   n ? "cannot export to '" : "which format?", n ? format : "", n ? "'" : "");
	if (hint)
		fprintf(stderr, "did you mean '%s'?\n", hint);
	return -1;
}

int cmd_export(int argc, char **argv)
{
	const char *out = NULL;
	struct manifest_row pick = { 0 };
	const struct option opts[] = {
		OPT_STRING("-o", "--output", &out, "FILE", "the file to write"),
		OPT_STRING("-b", "--benchmark", &pick.benchmark, "NAME",
			   "the benchmark (default: the only one)"),
		OPT_STRING(NULL, "--size", &pick.size, "N", "hatchet: the run's problem size"),
		OPT_PARSE(NULL, "--ranks", &pick.ranks, "R", "hatchet: the run's ranks",
			  parse_count),
		OPT_PARSE(NULL, "--threads", &pick.threads, "T", "hatchet: the run's threads",
			  parse_count),
		OPT_PARSE(NULL, "--repeat", &pick.repeat, "K", "hatchet: the run's repeat",
			  parse_count),
		OPT_END()
	};
	int n = options_parse(argc, argv, opts, &usage);
	size_t lines;

	if (n == OPTIONS_HELP)
		return SG_EXIT_PASS;
	if (n < 0 || bad_format(n, argv[0]))
		return SG_EXIT_USAGE;
	if (n != 2 || !out) {
		gate_error("%s (see 'scalegate export --help')",
			   n != 2 ? "give one RESULTS directory" : "where to? give -o FILE");
		return SG_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "hatchet"))
		return hatchet_export(argv[1], &pick, out) ? SG_EXIT_USAGE : SG_EXIT_PASS;
	if (extrap_export(argv[1], pick.benchmark, out, &lines))
		return SG_EXIT_USAGE;
	printf("%s: %zu lines\n", out, lines);
	return SG_EXIT_PASS;
}
