/* scalegate analyze: characteristics per interval, configuration and across the matrix, as text or
 * JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "cmd/cmds.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "analyze/matrix.h"
#include "report/protocol.h"
#include "base/util.h"
#include "cmd/options.h"

static const struct command_usage usage = {
	"analyze",
	"usage: scalegate analyze [--json] [--efficiency E] [--memory [BENCH=]MODEL] [-c FILE] "
	"DIR\n"
	"DIR is a results directory written by 'scalegate run' (manifest.tsv) or a\n"
	"directory of profiles from one run of a program. Prints per interval the\n"
	"main characteristics (median [95 % interval] over repeats), the per-processor\n"
	"comparative characteristics, the scaling table, weak scaling and\n"
	"isoefficiency (docs/metrics.md).\n",
	NULL};

struct analyze_options {
	int json;
	double efficiency;
	const char *dir, *config;
	const char **memory; /* [BENCH=]MODEL, in order */
	size_t nr_memory;
};

static int parse_efficiency(const struct option *o, const char *s)
{
	char *end;
	double e = strtod(s, &end);

	if (end == s || *end || !(e > 0 && e < 1))
		return gate_error("--efficiency needs a number between 0 and 1, got '%s'", s);
	*(double *)o->value = e;
	return 0;
}

static int parse_memory(const struct option *opt, const char *s)
{
	struct analyze_options *o = opt->value;

	o->memory[o->nr_memory++] = s;
	return 0;
}

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct analyze_options *o)
{
	const struct option opts[] = {
		OPT_FLAG(NULL, "--json", &o->json, "the documented JSON instead of text"),
		OPT_PARSE(NULL, "--efficiency", &o->efficiency, "E",
			  "target efficiency of the isoefficiency (0 < E < 1; default 0.8)",
			  parse_efficiency),
		OPT_PARSE(NULL, "--memory", o, "[BENCH=]MODEL",
			  "memory as a function of the size n (n, n^2, n^3, n log n, ...)\n"
			  "for benchmark BENCH, or for all: gives the scalability function",
			  parse_memory),
		OPT_STRING("-c", "--config", &o->config, "FILE",
			   "take each benchmark's 'memory' from this scalegate.yml"),
		OPT_END()};
	int n = options_parse(argc, argv, opts, &usage);

	if (n < 0)
		return n;
	if (n == 0)
		return gate_error("no results directory given (see 'scalegate analyze --help')");
	if (n > 1)
		return gate_error("unexpected argument '%s' (see 'scalegate analyze --help')",
				  argv[1]);
	o->dir = argv[0];
	return 0;
}

/* The memory models of the configuration file, then those of the command line (they win). */
static int set_memory(struct matrix *m, const struct analyze_options *o)
{
	int ret = 0;

	if (o->config) {
		struct config c;
		ret = config_load(&c, o->config);
		for (size_t i = 0; !ret && i < c.nr_benchmarks; i++)
			if (c.benchmarks[i].memory)
				ret = matrix_set_memory(m, c.benchmarks[i].name,
							c.benchmarks[i].memory);
		config_release(&c);
	}
	for (size_t i = 0; !ret && i < o->nr_memory; i++) {
		const char *eq = strchr(o->memory[i], '=');
		char *bench = eq ? xstrndup(o->memory[i], (size_t)(eq - o->memory[i])) : NULL;
		ret = matrix_set_memory(m, bench, eq ? eq + 1 : o->memory[i]);
		free(bench);
	}
	return ret;
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_options o = { 0 };
	struct analysis a;
	struct matrix m;
	int code = SG_EXIT_PASS, r;

	o.memory = xcalloc((size_t)argc + 1, sizeof(*o.memory));
	r = parse_options(argc, argv, &o);
	if (r) {
		free(o.memory);
		return r == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	}
	analysis_init(&a);
	matrix_init(&m);
	m.target_efficiency = o.efficiency;
	if (set_memory(&m, &o) || analysis_load(&a, o.dir) || matrix_build(&m, &a))
		code = SG_EXIT_USAGE;
	else if (o.json)
		protocol_json_write(stdout, &a, &m);
	else
		protocol_write(stdout, &a, &m);
	matrix_release(&m);
	analysis_release(&a);
	free(o.memory);
	return code;
}
