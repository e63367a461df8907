/* Across repeats and configurations: every figure as median [CI], scaling figures by bootstrap
 * (docs/metrics.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/matrix.h"
#include "analyze/scaling-size.h"
#include "stats/stats.h"
#include "base/util.h"

void matrix_init(struct matrix *m)
{
	memset(m, 0, sizeof(*m));
}

void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->nr_series; i++)
		free(m->series[i].cells);
	free(m->series);
	scaling_size_release(m);
	matrix_init(m);
}

double matrix_karp_flatt(double psi, double p)
{
	if (!(p > 1) || !(psi > 0))
		return NAN;
	return (1 / psi - 1 / p) / (1 - 1 / p);
}

/* The trend rule of docs/metrics.md for a slope of e over [p_min, p_max] with interval [lo, hi]. */
static const char *matrix_classify(double slope, double lo, double hi, double p_min,
				   double p_max, double mean_e)
{
	double rise = slope * (p_max - p_min), threshold = 0.1 * fabs(mean_e);

	if (threshold < 0.005)
		threshold = 0.005;
	if (rise > threshold && !(lo <= 0))
		return "rising";
	if (rise < -threshold && !(hi >= 0))
		return "falling";
	return "flat";
}

void matrix_trend_describe(struct strbuf *sb, const struct matrix_series *s)
{
	if (!s->trend)
		return;
	if (!strcmp(s->trend, "rising"))
		strbuf_addstr(sb, "rising: overhead grows with p");
	else if (!strcmp(s->trend, "falling"))
		strbuf_addstr(sb,
			      "falling: efficiency improves with p (cache or superlinear effects)");
	else if (s->serial_fraction >= 1)
		/* e >= 1 is no fraction: the parallel runs were no faster than the serial one */
		strbuf_addf(sb,
			    "flat at e ~ %.3g >= 1: no speedup, more processors made the interval "
			    "slower",
			    s->serial_fraction);
	else if (s->serial_fraction < 0)
		strbuf_addf(sb,
			    "flat at e ~ %.3g < 0: superlinear speedup (efficiency above 1, e.g. "
			    "cache effects)",
			    s->serial_fraction);
	else
		strbuf_addf(sb, "flat: limited parallelism (inherent serial fraction ~ %.3g)",
			    s->serial_fraction);
}

/* The median and its interval; with 'median_only' the median alone (no bootstrap). */
static void summarize(const double *x, size_t n, int median_only, struct matrix_figure *out)
{
	struct stats_summary s;

	memset(out, 0, sizeof(*out));
	if (n && median_only) {
		*out = (struct matrix_figure){ n, stats_median(x, n), NAN, NAN };
		return;
	}
	if (!n || stats_summarize(x, n, MATRIX_LEVEL, &s))
		return;
	*out = (struct matrix_figure){ n, s.median, s.ci_lo, s.ci_hi };
}

/* A decreasing function of a figure: the interval ends swap. */
static struct matrix_figure decreasing(struct matrix_figure in, double (*fn)(double, double),
				       double arg)
{
	struct matrix_figure out = { in.n, fn(in.median, arg), fn(in.hi, arg), fn(in.lo, arg) };

	if (!in.n || isnan(out.median))
		memset(&out, 0, sizeof(out));
	return out;
}

static double amdahl(double f, double p)
{
	return 1 / (f + (1 - f) / p);
}

static double gustafson(double s, double p)
{
	return p + (1 - p) * s;
}

/* Productive_time / Execution_time of each repeat: the processors doing useful work on average. */
static void cell_parallelism(struct matrix_cell *cell, const struct analysis_config *c,
			     int interval, double *x, int medians_only)
{
	size_t n = 0;

	for (size_t r = 0; r < c->nr_runs; r++) {
		const struct analysis_point *pt;
		double A;
		if ((size_t)interval >= c->runs[r].nr_points ||
		    !(pt = &c->runs[r].points[interval])->present)
			continue;
		A = pt->fig[ANALYSIS_PRODUCTIVE_TIME] / pt->fig[ANALYSIS_EXECUTION_TIME];
		if (isfinite(A))
			x[n++] = A;
	}
	summarize(x, n, medians_only, &cell->average_parallelism);
}

static void cell_repeats(struct matrix_cell *cell, const struct analysis_config *c, int interval,
			 double *x, int medians_only)
{
	size_t best = 0, n = matrix_samples(c, interval, ANALYSIS_EXECUTION_TIME, x);
	double med = stats_median(x, n), dist = INFINITY;

	for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
		summarize(x, matrix_samples(c, interval, (enum analysis_figure)f, x), medians_only,
			  &cell->fig[f]);
	for (size_t r = 0; r < c->nr_runs; r++) {
		const struct analysis_point *pt;
		if ((size_t)interval >= c->runs[r].nr_points ||
		    !(pt = &c->runs[r].points[interval])->present)
			continue;
		cell->wait_estimated |= pt->wait_estimated;
		cell->inconsistent |= pt->inconsistent;
		if (pt->inconsistency > cell->inconsistency)
			cell->inconsistency = pt->inconsistency;
		if (isinf(dist) || fabs(pt->fig[ANALYSIS_EXECUTION_TIME] - med) < dist) {
			dist = fabs(pt->fig[ANALYSIS_EXECUTION_TIME] - med);
			best = r;
		}
	}
	memcpy(cell->cmp, c->runs[best].points[interval].cmp, sizeof(cell->cmp));
	cell_parallelism(cell, c, interval, x, medians_only);
}

static double overhead_fn(const double *m, size_t k, void *ctx)
{
	(void)k;
	return *(const double *)ctx * m[1] - m[0];
}

/* T0 = p T(p) - T(1) (x: the reference's times, y: the cell's). */
static void cell_overhead(struct matrix_cell *cell, int is_ref, const double *x, size_t nx,
			  const double *y, size_t ny)
{
	struct stats_group g[2] = { { x, nx }, { y, ny } };
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;
	double p = cell->p;

	memset(&cell->total_overhead, 0, sizeof(cell->total_overhead));
	if (is_ref)
		cell->total_overhead = (struct matrix_figure){ ny, 0, 0, 0 };
	else if (nx && ny && stats_bootstrap_exact(g, 2, overhead_fn, &p, MATRIX_LEVEL, &bs) == 0)
		cell->total_overhead = (struct matrix_figure){nx < ny ? nx : ny, bs.estimate, bs.lo,
							      bs.hi};
}

/* Speedup and what follows from it, relative to the reference cell (p' = p / p_ref). */
static void cell_scaling(struct matrix_series *s, struct matrix_cell *cell, int interval, double *x,
			 double *y, int medians_only)
{
	const struct matrix_cell *ref = &s->cells[s->ref];
	double rp = (double)cell->p / ref->p;
	size_t nx, ny;

	nx = matrix_samples(ref->config, interval, ANALYSIS_EXECUTION_TIME, x);
	ny = matrix_samples(cell->config, interval, ANALYSIS_EXECUTION_TIME, y);
	if (cell == ref)
		cell->speedup = (struct matrix_figure){ nx, 1, 1, 1 };
	else
		matrix_ratio(x, nx, y, ny, &cell->speedup);
	if (s->ref_is_serial && !medians_only)
		cell_overhead(cell, cell == ref, x, nx, y, ny);
	if (cell->speedup.n) {
		cell->efficiency = (struct matrix_figure){
			cell->speedup.n, cell->speedup.median / rp, cell->speedup.lo / rp,
			cell->speedup.hi / rp};
		if (rp > 1)
			cell->karp_flatt = decreasing(cell->speedup, matrix_karp_flatt, rp);
		cell->superlinear = cell->speedup.median > rp * (1 + 1e-9);
	}
	nx = matrix_samples(ref->config, interval, ANALYSIS_PRODUCTIVE_TIME, x);
	ny = matrix_samples(cell->config, interval, ANALYSIS_PRODUCTIVE_TIME, y);
	if (!medians_only)
		matrix_ratio(x, nx, y, ny, &cell->computation_scalability);
	if (s->ref_is_serial)
		cell->amdahl_bound = decreasing(ref->fig[ANALYSIS_SERIAL_SHARE], amdahl, cell->p);
	cell->gustafson_speedup = decreasing(cell->fig[ANALYSIS_SERIAL_SHARE], gustafson, cell->p);
	if (cell->p == 1)
		cell->gustafson_speedup =
			cell->fig[ANALYSIS_SERIAL_SHARE].n
				? (struct matrix_figure){cell->fig[ANALYSIS_SERIAL_SHARE].n, 1, 1,
							 1}
				: (struct matrix_figure){0};
}

/* Karp-Flatt slope over the cells with p > p_ref: medians in, slope out. */
struct slope_ctx {
	const double *rp;
	size_t n;
};

static double slope_of(const double *rp, const double *e, size_t n)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0;

	for (size_t i = 0; i < n; i++) {
		mx += rp[i] / n;
		my += e[i] / n;
	}
	for (size_t i = 0; i < n; i++) {
		sxx += (rp[i] - mx) * (rp[i] - mx);
		sxy += (rp[i] - mx) * (e[i] - my);
	}
	return sxx > 0 ? sxy / sxx : NAN;
}

double matrix_karp_flatt_slope(const double *rp, const double *t, size_t k)
{
	double e[256];

	if (k > 256)
		return NAN;
	for (size_t i = 0; i < k; i++)
		e[i] = matrix_karp_flatt(t[1 + i] > 0 ? t[0] / t[1 + i] : NAN, rp[i]);
	return slope_of(rp, e, k);
}

static double slope_fn(const double *m, size_t k, void *ctx)
{
	const struct slope_ctx *sc = ctx;

	(void)k;
	return matrix_karp_flatt_slope(sc->rp, m, sc->n);
}

static void series_slope(struct matrix_series *s, int skip_trend)
{
	const struct matrix_cell *ref = &s->cells[s->ref];
	struct stats_group g[257];
	double rp[256], e[256], *buf = NULL, pmin = INFINITY, pmax = 0, mean = 0;
	size_t n = 0, used = 0, total = 0;
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;

	for (size_t i = 0; i < s->nr_cells; i++)
		total += s->cells[i].config->nr_runs;
	buf = xmalloc((total + 1) * sizeof(double));
	g[0].x = buf;
	g[0].n = matrix_samples(ref->config, s->interval, ANALYSIS_EXECUTION_TIME, buf);
	used = g[0].n;
	for (size_t i = 0; i < s->nr_cells && n < 256; i++) {
		const struct matrix_cell *c = &s->cells[i];
		if (c->p <= ref->p || !c->karp_flatt.n)
			continue;
		rp[n] = (double)c->p / ref->p;
		e[n] = c->karp_flatt.median;
		g[n + 1].x = buf + used;
		g[n + 1].n = matrix_samples(c->config, s->interval, ANALYSIS_EXECUTION_TIME,
					    buf + used);
		used += g[n + 1].n;
		pmin = rp[n] < pmin ? rp[n] : pmin;
		pmax = rp[n] > pmax ? rp[n] : pmax;
		mean += e[n];
		n++;
	}
	if (n >= 2 && pmax > pmin && g[0].n && !skip_trend) {
		struct slope_ctx sc = { rp, n };
		double slope = slope_of(rp, e, n);
		int ok = stats_bootstrap_exact(g, n + 1, slope_fn, &sc, MATRIX_LEVEL, &bs) == 0;
		s->karp_flatt_slope = (struct matrix_figure){g[0].n, slope, ok ? bs.lo : NAN,
							     ok ? bs.hi : NAN};
		s->serial_fraction = mean / n;
		s->trend = matrix_classify(slope, s->karp_flatt_slope.lo, s->karp_flatt_slope.hi,
					   pmin, pmax, mean / n);
	}
	free(buf);
}

/* Fits T(p) = sigma + phi/p + kappa p to the medians; refuses with fewer than 4 distinct p. */
static void series_projection(struct matrix_series *s)
{
	double p[256], t[256], pmax = 0;
	size_t n = 0, distinct = 0;
	struct stats_lsq fit;
	const struct matrix_cell *ref = &s->cells[s->ref];

	for (size_t i = 0; i < s->nr_cells && n < 256; i++) {
		if (!s->cells[i].fig[ANALYSIS_EXECUTION_TIME].n)
			continue;
		p[n] = s->cells[i].p;
		t[n] = s->cells[i].fig[ANALYSIS_EXECUTION_TIME].median;
		distinct += !n || p[n] != p[n - 1];
		pmax = p[n] > pmax ? p[n] : pmax;
		n++;
	}
	if (distinct < 4) {
		s->projection_refused = "needs at least 4 distinct processor counts";
		return;
	}
	if (stats_fit_scaling(p, t, NULL, n, &fit)) {
		s->projection_refused = "the model could not be fitted";
		return;
	}
	s->projection_r2 = fit.r2;
	for (int k = 0; k < 2; k++) {
		double q = pmax * (k ? 4 : 2), tq = fit.coef[0] + fit.coef[1] / q + fit.coef[2] * q;
		s->projection_p[k] = q;
		s->projection_efficiency[k] = tq > 0 ? ref->fig[ANALYSIS_EXECUTION_TIME].median *
							       ref->p / (q * tq)
						     : NAN;
	}
}

static void series_parallelism(struct matrix_series *s)
{
	double *p = xmalloc((s->nr_cells + 1) * sizeof(double)),
	       *A = xmalloc((s->nr_cells + 1) * sizeof(double));
	size_t n = 0;

	for (size_t i = 0; i < s->nr_cells; i++)
		if (s->cells[i].average_parallelism.n) {
			p[n] = s->cells[i].p;
			A[n++] = s->cells[i].average_parallelism.median;
		}
	s->average_parallelism_trend = matrix_parallelism_trend(p, A, n,
								&s->average_parallelism_slope);
	free(p);
	free(A);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct matrix_cell *x = a, *y = b;

	if (x->p != y->p)
		return x->p - y->p;
	return x->config->ranks - y->config->ranks;
}

static void series_build(struct matrix_series *s, const struct analysis *a,
			 const struct analysis_config *first, const struct matrix *m)
{
	size_t most = 1;
	double *x, *y;

	s->benchmark = first->benchmark;
	s->size = first->size;
	for (size_t i = 0; i < a->nr_configs; i++) {
		const struct analysis_config *c = &a->configs[i];
		if (strcmp(c->benchmark, s->benchmark) || strcmp(c->size, s->size))
			continue;
		if (c->nr_runs > most)
			most = c->nr_runs;
		x = xmalloc((c->nr_runs + 1) * sizeof(double));
		if (matrix_samples(c, s->interval, ANALYSIS_EXECUTION_TIME, x)) {
			struct matrix_cell *cell;
			s->cells = xrealloc(s->cells, (s->nr_cells + 1) * sizeof(*s->cells));
			cell = memset(&s->cells[s->nr_cells++], 0, sizeof(*cell));
			cell->config = c;
			cell->p = c->ranks * c->threads;
		}
		free(x);
	}
	if (!s->nr_cells)
		return; /* the interval belongs to another benchmark or size */
	qsort(s->cells, s->nr_cells, sizeof(*s->cells), cmp_cell);
	for (size_t i = 0; i < s->nr_cells; i++)
		if (s->cells[i].p == 1)
			s->ref = (int)i, s->ref_is_serial = 1;
	x = xmalloc((most + 1) * sizeof(double));
	y = xmalloc((most + 1) * sizeof(double));
	for (size_t i = 0; i < s->nr_cells; i++)
		cell_repeats(&s->cells[i], s->cells[i].config, s->interval, x, m->medians_only);
	for (size_t i = 0; i < s->nr_cells; i++)
		cell_scaling(s, &s->cells[i], s->interval, x, y, m->medians_only);
	free(x);
	free(y);
	series_slope(s, m->skip_trend);
	series_projection(s);
	series_parallelism(s);
}

int matrix_build(struct matrix *m, const struct analysis *a)
{
	for (size_t i = 0; i < a->nr_configs; i++) {
		const struct analysis_config *c = &a->configs[i];
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(a->configs[j].benchmark, c->benchmark) &&
			       !strcmp(a->configs[j].size, c->size);
		if (seen)
			continue;
		for (size_t k = 0; k < a->nr_intervals; k++) {
			struct matrix_series *s;
			ALLOC_GROW(m->series, m->nr_series + 1, m->alloc_series);
			s = memset(&m->series[m->nr_series], 0, sizeof(*s));
			s->interval = (int)k;
			series_build(s, a, c, m);
			if (s->nr_cells)
				m->nr_series++;
			else
				free(s->cells);
		}
	}
	return scaling_size_build(m, a);
}
