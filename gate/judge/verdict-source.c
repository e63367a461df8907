/* Where in the source a verdict points: the file:line of its interval, as the profiles record it.
 */
#include <string.h>

#include "analyze/analysis.h"
#include "judge/check.h"
#include "base/util.h"

void verdict_set_sources(struct verdict_set *vs, const struct analysis *a)
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
}
