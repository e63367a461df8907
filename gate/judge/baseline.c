/* Baselines in memory: the per-repeat samples of one benchmark, from an analysis or a file
 * (baseline-file.c). */
#include "judge/baseline.h"
#include "results/manifest.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void baseline_init(struct baseline *b)
{
	memset(b, 0, sizeof(*b));
}

void baseline_release(struct baseline *b)
{
	for (size_t i = 0; i < b->nr_cells; i++) {
		struct baseline_cell *c = &b->cells[i];
		free(c->interval);
		free(c->size);
		for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
			free(c->fig[f]);
		free(c->earlier);
		free(c->round);
	}
	for (size_t i = 0; i < b->nr_sittings; i++)
		free(b->sittings[i]);
	free(b->sittings);
	for (size_t i = 0; i < 2 * b->nr_fingerprint; i++)
		free(b->fingerprint[i]);
	free(b->fingerprint);
	free(b->cells);
	free(b->benchmark);
	baseline_init(b);
}

int baseline_cell_cmp(const struct baseline_cell *x, const struct baseline_cell *y)
{
	int c = strcmp(x->interval, y->interval);

	if (!c)
		c = manifest_size_cmp(x->size, y->size);
	if (!c)
		c = (x->ranks > y->ranks) - (x->ranks < y->ranks);
	if (!c)
		c = (x->threads > y->threads) - (x->threads < y->threads);
	return c;
}

static int cell_qsort_cmp(const void *a, const void *b)
{
	return baseline_cell_cmp(a, b);
}

static const enum analysis_figure stored[] = {
#define X(id) ANALYSIS_##id,
	BASELINE_FIGURES(X)
#undef X
};

static void add_cell(struct baseline *b, const struct analysis_config *c, int interval,
		     const char *path)
{
	struct baseline_cell *cell;
	size_t n = 0;

	for (size_t r = 0; r < c->nr_runs; r++)
		n += (size_t)interval < c->runs[r].nr_points && c->runs[r].points[interval].present;
	if (!n)
		return;
	ALLOC_GROW(b->cells, b->nr_cells + 1, b->alloc_cells);
	cell = memset(&b->cells[b->nr_cells++], 0, sizeof(*cell));
	cell->interval = xstrdup(path);
	cell->size = xstrdup(c->size);
	cell->ranks = c->ranks;
	cell->threads = c->threads;
	for (size_t k = 0; k < ARRAY_SIZE(stored); k++)
		cell->fig[stored[k]] = xmalloc(n * sizeof(double));
	cell->round = xmalloc(n * sizeof(*cell->round)); /* A/B pairs base and head by round */
	for (size_t r = 0; r < c->nr_runs; r++) {
		const struct analysis_point *pt;
		if ((size_t)interval >= c->runs[r].nr_points ||
		    !(pt = &c->runs[r].points[interval])->present)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(stored); k++)
			cell->fig[stored[k]][cell->n] = pt->fig[stored[k]];
		cell->round[cell->n] = c->runs[r].repeat;
		cell->n++;
	}
}

void baseline_from_analysis(struct baseline *b, const struct analysis *a, const char *benchmark)
{
	baseline_init(b);
	b->benchmark = xstrdup(benchmark);
	b->nr_fingerprint = a->nr_fingerprint / 2;
	b->fingerprint = xcalloc(a->nr_fingerprint + 1, sizeof(char *));
	for (size_t i = 0; i < a->nr_fingerprint; i++)
		b->fingerprint[i] = xstrdup(a->fingerprint[i]);
	for (size_t i = 0; i < a->nr_configs; i++) {
		const struct analysis_config *c = &a->configs[i];
		if (strcmp(c->benchmark, benchmark))
			continue;
		for (size_t k = 0; k < a->nr_intervals; k++)
			add_cell(b, c, (int)k, a->intervals[k].path);
	}
	if (b->nr_cells)
		qsort(b->cells, b->nr_cells, sizeof(*b->cells), cell_qsort_cmp);
}

const struct baseline_cell *baseline_find(const struct baseline *b, const char *interval,
					  const char *size, int ranks, int threads)
{
	struct baseline_cell key = { .interval = (char *)interval, .size = (char *)size,
				     .ranks = ranks, .threads = threads };

	if (!b || !b->nr_cells)
		return NULL;
	return bsearch(&key, b->cells, b->nr_cells, sizeof(*b->cells), cell_qsort_cmp);
}

int baseline_has_interval(const struct baseline *b, const char *interval, const char *size)
{
	for (size_t i = 0; b && i < b->nr_cells; i++)
		if (!strcmp(b->cells[i].interval, interval) && !strcmp(b->cells[i].size, size))
			return 1;
	return 0;
}

const char *baseline_fingerprint(const struct baseline *b, const char *key)
{
	for (size_t i = 0; i < b->nr_fingerprint; i++)
		if (!strcmp(b->fingerprint[2 * i], key))
			return b->fingerprint[2 * i + 1];
	return NULL;
}

size_t baseline_samples(const struct baseline_cell *c, enum analysis_figure f, double *out)
{
	size_t n = 0;

	for (size_t i = 0; c && c->fig[f] && i < c->n; i++)
		if (isfinite(c->fig[f][i]))
			out[n++] = c->fig[f][i];
	return n;
}

size_t baseline_ratios(const struct baseline_cell *c, enum analysis_figure num,
		       enum analysis_figure den, double *out)
{
	const double *total = c ? c->fig[den] : NULL;
	size_t n = 0;

	for (size_t i = 0; total && c->fig[num] && i < c->n; i++)
		if (isfinite(c->fig[num][i]) && isfinite(total[i]) && total[i] > 0)
			out[n++] = c->fig[num][i] / total[i];
	return n;
}

size_t baseline_shares(const struct baseline_cell *c, enum analysis_figure f, double *out)
{
	return baseline_ratios(c, f, ANALYSIS_TOTAL_TIME, out);
}

double baseline_median(const struct baseline_cell *c, enum analysis_figure f, int share)
{
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

double baseline_machine_share(const struct baseline_cell *c)
{
	double *x, med;
	size_t n;

	if (!c || !c->n)
		return NAN;
	x = xcalloc(c->n, sizeof(*x));
	/* per repeat Interference / Total_time; of Total_time_wall, their sum: x / (1 + x) */
	n = baseline_ratios(c, ANALYSIS_INTERFERENCE, ANALYSIS_TOTAL_TIME, x);
	for (size_t i = 0; i < n; i++)
		x[i] /= 1 + x[i];
	med = n ? stats_median(x, n) : NAN;
	free(x);
	return med;
}
