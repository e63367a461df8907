/* The stored baseline's or the base revision's figures, as the reports show them beside the current
 * ones. */
#include <math.h>
#include <stdlib.h>

#include "judge/baseline.h"
#include "judge/check.h"
#include "report/report-priv.h"
#include "stats/stats.h"

/* The median of a baseline figure (share: of Total_time) in one configuration, NAN without it. */
double report_base_median(const struct baseline *b, const char *path, const char *size, int ranks,
			  int threads, enum analysis_figure f, int share)
{
	const struct baseline_cell *c = b ? baseline_find(b, path, size ? size : "-", ranks,
							  threads)
					  : NULL;
	double *x, med;
	size_t n;

	if (!c || !c->n)
		return NAN;
	x = xcalloc(c->n, sizeof(*x));
	n = share ? baseline_shares(c, f, x) : baseline_samples(c, f, x);
	med = n ? stats_median(x, n) : NAN;
	free(x);
	return med;
}

const char *report_base_word(const struct verdict_set *s)
{
	return s->ab ? "base" : "baseline";
}

const struct baseline **report_bases(const struct check *c, size_t *n)
{
	const struct baseline **base = xcalloc(c->nr_bench + 1, sizeof(*base));

	*n = 0;
	for (size_t i = 0; i < c->nr_bench; i++)
		if (c->bench[i].has_base)
			base[(*n)++] = &c->bench[i].base;
	return base;
}
