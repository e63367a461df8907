/* Where in the source a verdict points: the file:line of its interval, as the profiles record it,
 * and each benchmark's program for the intervals that have no line of their own. */
#include <string.h>

#include "analyze/analysis.h"
#include "config/config.h"
#include "judge/check.h"
#include "base/util.h"

/* The executable of a benchmark's whole program: the file of its level-0 interval. */
static const char *program_file(const struct analysis *a, const char *benchmark)
{
	for (size_t k = 0; k < a->nr_intervals; k++) {
		const struct analysis_interval *in = &a->intervals[k];
		if (in->benchmark && in->file && !strcmp(in->benchmark, benchmark) &&
		    !strcmp(in->path, "program"))
			return in->file;
	}
	return NULL;
}

void verdict_set_sources(struct verdict_set *vs, const struct analysis *a, const struct config *c)
{
	for (size_t i = 0; i < vs->nr; i++) {
		struct verdict *v = &vs->v[i];
		if (!v->benchmark || !v->interval || v->file)
			continue;
		for (size_t k = 0; k < a->nr_intervals; k++) {
			const struct analysis_interval *in = &a->intervals[k];
			if (!in->file || !in->benchmark || strcmp(in->path, v->interval) ||
			    strcmp(in->benchmark, v->benchmark))
				continue;
			v->file = xstrdup(in->file);
			v->line = in->line;
			break;
		}
	}
	for (size_t i = 0; c && i < c->nr_benchmarks; i++)
		verdict_set_program(vs, c->benchmarks[i].name, c->benchmarks[i].command,
				    program_file(a, c->benchmarks[i].name));
}
