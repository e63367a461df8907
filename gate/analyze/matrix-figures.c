/* The figures of one cell of the matrix that size scaling shares: its samples, a ratio of two
 * sample sets, the parallelism trend. */
#include <math.h>
#include <string.h>

#include "analyze/matrix.h"
#include "stats/stats.h"

size_t matrix_samples(const struct analysis_config *c, int interval, enum analysis_figure f,
		      double *x)
{
	size_t n = 0;

	for (size_t r = 0; r < c->nr_runs; r++) {
		const struct analysis_run *run = &c->runs[r];
		if ((size_t)interval < run->nr_points && run->points[interval].present &&
		    isfinite(run->points[interval].fig[f]))
			x[n++] = run->points[interval].fig[f];
	}
	return n;
}

static double ratio_fn(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[1] > 0 ? m[0] / m[1] : NAN;
}

void matrix_ratio(const double *a, size_t na, const double *b, size_t nb, struct matrix_figure *out)
{
	struct stats_group g[2] = { { a, na }, { b, nb } };
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;

	memset(out, 0, sizeof(*out));
	if (!na || !nb || stats_bootstrap_exact(g, 2, ratio_fn, NULL, MATRIX_LEVEL, &bs) ||
	    isnan(bs.estimate))
		return;
	*out = (struct matrix_figure){ na < nb ? na : nb, bs.estimate, bs.lo, bs.hi };
}

const char *matrix_parallelism_trend(const double *p, const double *A, size_t n,
				     struct matrix_figure *slope)
{
	struct stats_line l;
	int distinct = 0;

	memset(slope, 0, sizeof(*slope));
	for (size_t i = 1; i < n; i++)
		distinct |= p[i] != p[0];
	if (n < 2 || !distinct || stats_line_fit(p, A, n, MATRIX_LEVEL, &l))
		return NULL;
	*slope = (struct matrix_figure){ n, l.b, l.b_lo, l.b_hi };
	if (l.b >= 0.5)
		return "growing";
	if (l.b >= 0.1)
		return "saturating";
	return l.b > -0.1 ? "flat" : "falling";
}
