/* The sittings a baseline remembers: the medians of earlier baseline updates, and the shift between
 * sittings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/baseline.h"
#include "stats/stats.h"

/* The variance of a sample median is about pi/2 times that of a sample mean (normal noise). */
#define MEDIAN_VARIANCE_FACTOR 1.5707963267948966

/* The median of a cell's finite Execution_time samples in this sitting, NAN without any. */
static double sitting_median(const struct baseline_cell *c)
{
	double *x, m;
	size_t n;

	if (!c || !c->fig[ANALYSIS_EXECUTION_TIME] || !c->n)
		return NAN;
	x = xmalloc(c->n * sizeof(*x));
	n = baseline_samples(c, ANALYSIS_EXECUTION_TIME, x);
	m = n ? stats_median(x, n) : NAN;
	free(x);
	return m;
}

void baseline_carry(struct baseline *b, const struct baseline *old)
{
	const char *date = baseline_fingerprint(old, "date"),
		   *now = baseline_fingerprint(b, "date");
	/* The same results recorded again are the same sitting: only its earlier ones are carried.
	 */
	int again = date && now && !strcmp(date, now);
	size_t room = again ? BASELINE_MAX_SITTINGS : BASELINE_MAX_SITTINGS - 1;
	size_t keep = old->nr_sittings < room ? old->nr_sittings : room,
	       skip = old->nr_sittings - keep;

	b->nr_sittings = keep + !again;
	if (!b->nr_sittings)
		return;
	b->sittings = xmalloc(b->nr_sittings * sizeof(*b->sittings));
	for (size_t k = 0; k < keep; k++)
		b->sittings[k] = xstrdup(old->sittings[skip + k]);
	if (!again)
		b->sittings[keep] = xstrdup(date ? date : "-");
	for (size_t i = 0; i < b->nr_cells; i++) {
		struct baseline_cell *c = &b->cells[i];
		const struct baseline_cell *o = baseline_find(old, c->interval, c->size, c->ranks,
							      c->threads);
		free(c->earlier);
		c->earlier = xmalloc(b->nr_sittings * sizeof(*c->earlier));
		for (size_t k = 0; k < keep; k++)
			c->earlier[k] = o && o->earlier ? o->earlier[skip + k] : NAN;
		if (!again)
			c->earlier[keep] = sitting_median(o);
	}
}

/* The noise variance of log(median) of a cell's samples in the last sitting, NAN with fewer than 2.
 */
static double median_noise(const struct baseline_cell *c)
{
	double *x = xmalloc((c->n ? c->n : 1) * sizeof(*x)), s = 0, mean = 0, var;
	size_t n = baseline_samples(c, ANALYSIS_EXECUTION_TIME, x), k = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] > 0) {
			x[k] = log(x[i]);
			mean += x[k++];
		}
	if (k < 2) {
		free(x);
		return NAN;
	}
	mean /= (double)k;
	for (size_t i = 0; i < k; i++)
		s += (x[i] - mean) * (x[i] - mean);
	var = s / (double)(k - 1);
	free(x);
	return MEDIAN_VARIANCE_FACTOR * var / (double)k;
}

/* Pooled between-sitting spread: sums of squares about each series' mean, their df, and the median
 * noise. */
struct pool {
	double ss, noise;
	size_t df, series;
};

/* One series of per-sitting log values (NAN where absent), with the noise variance of its values.
 */
static void pool_add(struct pool *p, const double *x, size_t k, double noise)
{
	double mean = 0, ss = 0;
	size_t n = 0;

	for (size_t i = 0; i < k; i++)
		if (isfinite(x[i])) {
			mean += x[i];
			n++;
		}
	if (n < 2 || !isfinite(noise))
		return;
	mean /= (double)n;
	for (size_t i = 0; i < k; i++)
		if (isfinite(x[i]))
			ss += (x[i] - mean) * (x[i] - mean);
	p->ss += ss;
	p->df += n - 1;
	p->noise += noise * (double)(n - 1);
	p->series++;
}

static double pool_sd(const struct pool *p)
{
	double between;

	if (!p->df)
		return NAN;
	between = (p->ss - p->noise) / (double)p->df;
	return between > 0 ? sqrt(between) : 0;
}

/* log median per sitting (the earlier ones, then the last); out has room for nr_sittings + 1. */
static void log_medians(const struct baseline *b, const struct baseline_cell *c, double *out)
{
	double last = sitting_median(c);

	for (size_t k = 0; k < b->nr_sittings; k++)
		out[k] = c->earlier && c->earlier[k] > 0 ? log(c->earlier[k]) : NAN;
	out[b->nr_sittings] = last > 0 ? log(last) : NAN;
}

/* The index of the reference cell of c's interval and size: the fewest processors (ranks x
 * threads). */
static size_t reference(const struct baseline *b, const struct baseline_cell *c)
{
	size_t ref = b->nr_cells;

	for (size_t i = 0; i < b->nr_cells; i++) {
		const struct baseline_cell *x = &b->cells[i];
		if (strcmp(x->interval, c->interval) || strcmp(x->size, c->size))
			continue;
		if (ref == b->nr_cells ||
		    x->ranks * x->threads < b->cells[ref].ranks * b->cells[ref].threads)
			ref = i;
	}
	return ref;
}

void baseline_measure_shift(const struct baseline *b, struct baseline_shift *out)
{
	size_t k = b->nr_sittings + 1, n = b->nr_cells;
	struct pool time = { 0 }, speedup = { 0 };
	double *lm, *noise, *y;

	out->sittings = k;
	out->time = out->speedup = NAN;
	if (b->nr_sittings < 1)
		return; /* one sitting: nothing to measure (two give one df, pooled by the check) */
	/* each cell's log medians (k per cell) and the noise of its last median, once */
	lm = xmalloc(n * k * sizeof(*lm));
	noise = xmalloc(n * sizeof(*noise));
	y = xmalloc(k * sizeof(*y));
	for (size_t i = 0; i < n; i++) {
		log_medians(b, &b->cells[i], lm + i * k);
		noise[i] = median_noise(&b->cells[i]);
		pool_add(&time, lm + i * k, k, noise[i]);
	}
	for (size_t i = 0; i < n; i++) {
		size_t ref = reference(b, &b->cells[i]);
		if (ref == i || ref == n)
			continue;
		for (size_t j = 0; j < k; j++)
			y[j] = lm[ref * k + j] - lm[i * k + j];
		pool_add(&speedup, y, k, noise[i] + noise[ref]);
	}
	out->time = pool_sd(&time);
	out->speedup = pool_sd(&speedup);
	free(lm);
	free(noise);
	free(y);
}
