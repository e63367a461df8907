/* scalegate analyze: characteristics per interval, configuration and across the matrix, as text or JSON. */
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

static const char usage_text[] =
	"usage: scalegate analyze [--json] [--efficiency E] [--memory [BENCH=]MODEL] [-c FILE] DIR\n"
	"DIR is a results directory written by 'scalegate run' (manifest.tsv) or a\n"
	"directory of profiles from one run of a program. Prints per interval the\n"
	"main characteristics (median [95 %% interval] over repeats), the per-processor\n"
	"comparative characteristics, the scaling table, weak scaling and\n"
	"isoefficiency (docs/metrics.md).\n"
	"  --json                   the documented JSON instead of text\n"
	"  --efficiency E           target efficiency of the isoefficiency (0 < E < 1; default 0.8)\n"
	"  --memory [BENCH=]MODEL   memory as a function of the size n (n, n^2, n^3, n log n, ...)\n"
	"                           for benchmark BENCH, or for all: gives the scalability function\n"
	"  -c FILE                  take each benchmark's 'memory' from this scalegate.yml\n";

struct analyze_options {
	int json;
	double efficiency;
	const char *dir, *config;
	const char **memory; /* [BENCH=]MODEL, in order */
	size_t nr_memory;
};

static int parse_efficiency(const char *s, double *e)
{
	char *end;

	*e = s ? strtod(s, &end) : 0;
	if (!s || end == s || *end || !(*e > 0 && *e < 1))
		return error("--efficiency needs a number between 0 and 1, got '%s'", s ? s : "");
	return 0;
}

/* 0, 1 for --help, -1 on a usage error (message printed). */
static int parse_options(int argc, char **argv, struct analyze_options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(arg, "--json"))
			o->json = 1;
		else if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			return 1;
		else if (!strcmp(arg, "--efficiency")) {
			if (parse_efficiency(val, &o->efficiency))
				return -1;
			i++;
		} else if ((!strcmp(arg, "--memory") || !strcmp(arg, "-c") || !strcmp(arg, "--config")) && !val)
			return error("%s needs a value", arg);
		else if (!strcmp(arg, "--memory"))
			o->memory[o->nr_memory++] = argv[++i];
		else if (!strcmp(arg, "-c") || !strcmp(arg, "--config"))
			o->config = argv[++i];
		else if (arg[0] == '-' || o->dir)
			return error("unexpected argument '%s'", arg);
		else
			o->dir = arg;
	}
	return o->dir ? 0 : error("no results directory given");
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
				ret = matrix_set_memory(m, c.benchmarks[i].name, c.benchmarks[i].memory);
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
		fprintf(r > 0 ? stdout : stderr, usage_text);
		free(o.memory);
		return r > 0 ? SG_EXIT_PASS : SG_EXIT_USAGE;
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
