/*
 * Export to Extra-P's JSON Lines (docs/interop.md; Extra-P's docs/file-formats.md): one line per
 * interval x figure x configuration, the figure's value in every repeat, for Extra-P's modeller.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/matrix.h"
#include "base/escape.h"
#include "base/util.h"
#include "interop/interop.h"

/* Which parameters vary over the benchmark's configurations: Extra-P models the ones given. */
struct extrap_params {
	int ranks_vary, threads_vary, sized;
};

static void find_params(const struct analysis *a, const char *benchmark, struct extrap_params *x)
{
	const struct analysis_config *first = NULL;

	memset(x, 0, sizeof(*x));
	for (size_t i = 0; i < a->nr_configs; i++) {
		const struct analysis_config *c = &a->configs[i];
		if (strcmp(c->benchmark, benchmark))
			continue;
		if (!first)
			first = c;
		x->ranks_vary |= c->ranks != first->ranks;
		x->threads_vary |= c->threads != first->threads;
		x->sized |= strcmp(c->size, "-") != 0;
	}
}

/* "program/solve" as Extra-P's call path, "program->solve". */
static void add_callpath(struct strbuf *sb, const char *path)
{
	struct strbuf cp = STRBUF_INIT;

	for (const char *s = path; *s; s++)
		if (*s == '/')
			strbuf_addstr(&cp, "->");
		else
			strbuf_addch(&cp, *s);
	json_add_string(sb, cp.buf);
	strbuf_release(&cp);
}

static void add_params(struct strbuf *sb, const struct analysis_config *c,
		       const struct extrap_params *x)
{
	strbuf_addstr(sb, "{\"params\": {");
	if (x->ranks_vary && x->threads_vary)
		strbuf_addf(sb, "\"ranks\": %d, \"threads\": %d", c->ranks, c->threads);
	else
		strbuf_addf(sb, "\"p\": %d", c->ranks * c->threads);
	if (x->sized)
		strbuf_addf(sb, ", \"n\": %s", strcmp(c->size, "-") ? c->size : "0");
	strbuf_addstr(sb, "}, ");
}

/* The lines of one interval in one configuration; how many. */
static size_t add_lines(struct strbuf *sb, const struct analysis_config *c, int interval,
			const char *path, const struct extrap_params *x)
{
	double *v = xcalloc(c->nr_runs + 1, sizeof(*v));
	size_t lines = 0;

	for (int f = 0; f < ANALYSIS_NR_FIGURES; f++) {
		size_t n = matrix_samples(c, interval, f, v);
		if (!n)
			continue;
		add_params(sb, c, x);
		strbuf_addstr(sb, "\"callpath\": ");
		add_callpath(sb, path);
		strbuf_addstr(sb, ", \"metric\": ");
		json_add_string(sb, analysis_figure_name(f));
		strbuf_addstr(sb, ", \"value\": [");
		for (size_t i = 0; i < n; i++) {
			strbuf_addstr(sb, i ? ", " : "");
			json_add_number(sb, v[i]);
		}
		strbuf_addstr(sb, "]}\n");
		lines++;
	}
	free(v);
	return lines;
}

/* The one benchmark of the results, or 'benchmark' when it is one of them. */
static const char *pick_benchmark(const struct analysis *a, const char *benchmark)
{
	const char *only = NULL;

	for (size_t i = 0; i < a->nr_configs; i++) {
		const char *b = a->configs[i].benchmark;
		if (benchmark && !strcmp(b, benchmark))
			return b;
		if (!benchmark && only && strcmp(only, b)) {
			gate_error("'%s' holds benchmarks '%s' and '%s': give --benchmark NAME "
				   "(an Extra-P experiment has one set of parameters)", a->dir,
				   only, b);
			return NULL;
		}
		only = only ? only : b;
	}
	if (benchmark)
		gate_error("'%s' holds no results of '%s'", a->dir, benchmark);
	else if (!only)
		gate_error("'%s' holds no results of any benchmark", a->dir);
	return benchmark ? NULL : only;
}

int extrap_export(const char *dir, const char *benchmark, const char *out, size_t *lines)
{
	struct analysis a;
	struct strbuf sb = STRBUF_INIT;
	struct extrap_params x;
	int ret = -1;

	*lines = 0;
	analysis_init(&a);
	if (analysis_load(&a, dir) || !(benchmark = pick_benchmark(&a, benchmark)))
		goto out;
	find_params(&a, benchmark, &x);
	for (size_t i = 0; i < a.nr_intervals; i++) {
		if (strcmp(a.intervals[i].benchmark, benchmark))
			continue;
		for (size_t j = 0; j < a.nr_configs; j++)
			if (!strcmp(a.configs[j].benchmark, benchmark))
				*lines += add_lines(&sb, &a.configs[j], (int)i,
						    a.intervals[i].path, &x);
	}
	ret = write_file_atomic(out, sb.buf, sb.len);
out:
	strbuf_release(&sb);
	analysis_release(&a);
	return ret;
}
