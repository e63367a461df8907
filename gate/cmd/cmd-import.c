/* scalegate import: other tools' measurements (TALP, Caliper) as a results directory that every
 * stage reads like the runner's (docs/interop.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "base/yamldoc.h"
#include "cmd/cmds.h"
#include "cmd/options.h"
#include "interop/interop.h"

static const struct command_usage usage = {
	"import",
	"usage: scalegate import talp FILE|DIR... -o RESULTS [--benchmark NAME] [--size N]\n"
	"       scalegate import caliper FILE... -o RESULTS [--benchmark NAME] [--size N]\n"
	"Writes the measurements of another tool as a results directory that analyze,\n"
	"check, baseline, history record and report read like those of 'scalegate run':\n"
	"one profile per process, one run per file. 'talp': TALP's JSON as DLB 3.4 to\n"
	"3.7 write it (a directory: its *.json files), the configuration read from its\n"
	"'resources'. 'caliper': Caliper's json-split, one row per region (and rank).\n"
	"Files of the same configuration are its repeats, in the order given\n"
	"(docs/interop.md).\n",
	"exit codes: 0 imported, 2 bad command line or a malformed input file\n"
};

/* A problem size as the manifest holds it: a whole number, or '-' for none. */
static int parse_size(const struct option *o, const char *value)
{
	char *end;

	if (strcmp(value, "-") && (strtoll(value, &end, 10) < 0 || *end || end == value))
		return option_bad_value(o, value, "a whole number (or '-': no size)");
	*(const char **)o->value = value;
	return 0;
}

/* A benchmark name becomes a directory of RESULTS: no '/', no '.' or '..'. */
static int bad_benchmark(const char *name)
{
	if (!*name || strchr(name, '/') || strchr(name, '\t') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return gate_error("'%s' cannot be a benchmark name (a directory of the results)",
				  name);
	return 0;
}

static int import_files(const char *format, char **files, int n, const char *out,
			const char *benchmark, const char *size)
{
	struct import_set s;
	int ret = 0;

	import_set_init(&s);
	for (int i = 0; i < n && !ret; i++) {
		if (!strcmp(format, "talp"))
			ret = talp_import(&s, files[i], benchmark, size);
		else
			ret = caliper_import(&s, files[i], benchmark, size);
	}
	if (!ret)
		ret = import_write(&s, out);
	if (!ret)
		printf("%s: %zu runs imported from %s\n", out, s.nr, s.origin);
	import_set_release(&s);
	return ret ? SG_EXIT_USAGE : SG_EXIT_PASS;
}

int cmd_import(int argc, char **argv)
{
	static const char *const formats[] = {"talp", "caliper", NULL};
	const char *out = NULL, *benchmark = NULL, *size = "-";
	const struct option opts[] = {
		OPT_STRING("-o", "--output", &out, "RESULTS",
			   "the results directory to write (must not hold results yet)"),
		OPT_STRING("-b", "--benchmark", &benchmark, "NAME",
			   "the benchmark's name in the results (default: the format's)"),
		OPT_PARSE(NULL, "--size", &size, "N",
			  "the problem size of every run (default: none)", parse_size),
		OPT_END()
	};
	int n = options_parse(argc, argv, opts, &usage);

	if (n == OPTIONS_HELP)
		return SG_EXIT_PASS;
	if (n < 0)
		return SG_EXIT_USAGE;
	if (n == 0 || (strcmp(argv[0], "talp") && strcmp(argv[0], "caliper"))) {
		const char *hint = n ? yamldoc_closest(argv[0], formats) : NULL;
		gate_error("%s%s%s: give 'talp' or 'caliper' (see 'scalegate import --help')",
			   n ? "cannot import '" : "which format?", n ? argv[0] : "", n ? "'" : "");
		if (hint)
			fprintf(stderr, "did you mean '%s'?\n", hint);
		return SG_EXIT_USAGE;
	}
	if (n == 1)
		gate_error("which files? give at least one after '%s' (see 'scalegate import "
			   "--help')", argv[0]);
	else if (!out)
		gate_error("where to? give -o RESULTS (see 'scalegate import --help')");
	if (n == 1 || !out || bad_benchmark(benchmark ? benchmark : argv[0]))
		return SG_EXIT_USAGE;
	return import_files(argv[0], argv + 1, n - 1, out, benchmark ? benchmark : argv[0],
			    size);
}
