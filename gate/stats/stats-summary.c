/* The summary of one sample: median, mean, spread, and the median's interval from order statistics,
 * or from the exact bootstrap (stats-exact.c) when the sample is too small for them. */
#include "stats/stats.h"
#include "stats/stats-priv.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Largest j (1-based) such that [x(j), x(n-j+1)] covers the median with
 * probability >= level, i.e. 1 - 2 P(Bin(n, 1/2) <= j - 1) >= level; 0 if none.
 */
static size_t order_statistic_index(size_t n, double level)
{
	double cdf = 0;
	size_t j;

	for (j = 0; j < (n + 1) / 2; j++) {
		cdf += exp(lgamma(n + 1.0) - lgamma(j + 1.0) - lgamma(n - j + 1.0) - n * log(2.0));
		if (1 - 2 * cdf < level - 1e-12)
			break;
	}
	return j;
}

static double first_median(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[0];
}

int stats_summarize(const double *x, size_t n, double level, struct stats_summary *s)
{
	double *sorted;
	size_t j;

	if (stats_check_sample("summary", x, n) || stats_check_level("summary", level))
		return -1;
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), stats_cmp_double);
	s->n = n;
	s->median = stats_median(sorted, n);
	s->mean = stats_mean(x, n);
	s->sd = stats_sd(x, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	j = order_statistic_index(n, level);
	if (j) {
		s->ci_lo = sorted[j - 1];
		s->ci_hi = sorted[n - j];
	} else if (n == 1) {
		s->ci_lo = s->ci_hi = x[0];
	} else {
		struct stats_group g = { x, n };
		struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;

		if (stats_bootstrap_exact(&g, 1, first_median, NULL, level, &bs)) {
			free(sorted);
			return -1;
		}
		s->ci_lo = bs.lo;
		s->ci_hi = bs.hi;
	}
	free(sorted);
	return 0;
}
