/* Across a benchmark's sizes: weak-scaling efficiency when the size grows with p, else the
 * isoefficiency series. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/scaling-size.h"
#include "base/util.h"

int matrix_set_memory(struct matrix *m, const char *benchmark, const char *model)
{
	struct memory_model mem;

	if (memory_model_parse(model, &mem))
		return -1;
	for (size_t i = 0; i < m->nr_memory; i++) {
		struct matrix_memory *mm = &m->memory[i];
		if (!mm->benchmark == !benchmark &&
		    (!benchmark || !strcmp(mm->benchmark, benchmark))) {
			free(mm->model);
			mm->model = xstrdup(model);
			return 0;
		}
	}
	ALLOC_GROW(m->memory, m->nr_memory + 1, m->alloc_memory);
	m->memory[m->nr_memory].benchmark = benchmark ? xstrdup(benchmark) : NULL;
	m->memory[m->nr_memory++].model = xstrdup(model);
	return 0;
}

static const char *memory_of(const struct matrix *m, const char *benchmark)
{
	const char *any = NULL;

	for (size_t i = 0; i < m->nr_memory; i++) {
		if (!m->memory[i].benchmark)
			any = m->memory[i].model;
		else if (!strcmp(m->memory[i].benchmark, benchmark))
			return m->memory[i].model;
	}
	return any;
}

/* A size usable on a log scale: a positive number; NAN otherwise ("-"). */
static double size_value(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end != s && !*end && v > 0 && isfinite(v) ? v : NAN;
}

int scaling_size_is_weak(const struct analysis *a, const char *benchmark)
{
	int first_p = 0, several_p = 0;

	for (size_t i = 0; i < a->nr_configs; i++) {
		const struct analysis_config *c = &a->configs[i];
		int p = c->ranks * c->threads;
		if (strcmp(c->benchmark, benchmark))
			continue;
		if (isnan(size_value(c->size)))
			return 0;
		for (size_t j = 0; j < i; j++) {
			const struct analysis_config *d = &a->configs[j];
			if (!strcmp(d->benchmark, benchmark) &&
			    !strcmp(d->size, c->size) != (d->ranks * d->threads == p))
				return 0; /* one size at two p, or two sizes at one p */
		}
		several_p |= first_p && p != first_p;
		first_p = first_p ? first_p : p;
	}
	return several_p;
}

static int cmp_point(const void *x, const void *y)
{
	const struct matrix_weak_point *a = x, *b = y;

	if (a->cell->p != b->cell->p)
		return a->cell->p - b->cell->p;
	return a->cell->config->ranks - b->cell->config->ranks;
}

/* Weak_efficiency T(ref) / T(p) of every point, against the 1x1 point or the smallest p. */
static void weak_efficiency(struct matrix_weak *w)
{
	const struct matrix_cell *ref;
	size_t most = 1, nx, n = 0;
	double *x, *y, *p, *A;

	for (size_t i = 0; i < w->nr_points; i++) {
		if (w->points[i].cell->p == 1 && !w->ref_is_serial)
			w->ref = (int)i, w->ref_is_serial = 1;
		if (w->points[i].cell->config->nr_runs > most)
			most = w->points[i].cell->config->nr_runs;
	}
	ref = w->points[w->ref].cell;
	x = xmalloc((most + 1) * sizeof(double));
	y = xmalloc((most + 1) * sizeof(double));
	p = xmalloc(w->nr_points * sizeof(double));
	A = xmalloc(w->nr_points * sizeof(double));
	nx = matrix_samples(ref->config, w->interval, ANALYSIS_EXECUTION_TIME, x);
	for (size_t i = 0; i < w->nr_points; i++) {
		struct matrix_cell *c = w->points[i].cell;
		size_t ny = matrix_samples(c->config, w->interval, ANALYSIS_EXECUTION_TIME, y);
		if (c == ref)
			c->weak_efficiency = (struct matrix_figure){ nx, 1, 1, 1 };
		else
			matrix_ratio(x, nx, y, ny, &c->weak_efficiency);
		if (c->average_parallelism.n) {
			p[n] = c->p;
			A[n++] = c->average_parallelism.median;
		}
	}
	w->average_parallelism_trend = matrix_parallelism_trend(p, A, n,
								&w->average_parallelism_slope);
	free(x);
	free(y);
	free(p);
	free(A);
}

static void weak_build(struct matrix *m, const char *benchmark, int interval)
{
	struct matrix_weak *w;

	m->weak = xrealloc(m->weak, (m->nr_weak + 1) * sizeof(*m->weak));
	w = memset(&m->weak[m->nr_weak++], 0, sizeof(*w));
	w->benchmark = benchmark;
	w->interval = interval;
	for (size_t i = 0; i < m->nr_series; i++) {
		struct matrix_series *s = &m->series[i];
		if (strcmp(s->benchmark, benchmark) || s->interval != interval)
			continue;
		s->weak = 1;
		w->points = xrealloc(w->points, (w->nr_points + s->nr_cells) * sizeof(*w->points));
		for (size_t k = 0; k < s->nr_cells; k++)
			w->points[w->nr_points++] = (struct matrix_weak_point){s, &s->cells[k],
									       size_value(s->size)};
	}
	qsort(w->points, w->nr_points, sizeof(*w->points), cmp_point);
	weak_efficiency(w);
}

/* The isoefficiency of a benchmark x interval measured at 2 or more sizes; nothing with fewer. */
static void iso_build(struct matrix *m, const char *benchmark, int interval)
{
	const struct matrix_series **series = xcalloc(m->nr_series + 1, sizeof(*series));
	double *sizes = xcalloc(m->nr_series + 1, sizeof(double));
	size_t nr = 0;

	for (size_t i = 0; i < m->nr_series; i++) {
		const struct matrix_series *s = &m->series[i];
		if (strcmp(s->benchmark, benchmark) || s->interval != interval ||
		    isnan(size_value(s->size)))
			continue;
		series[nr] = s;
		sizes[nr++] = size_value(s->size);
	}
	if (nr >= 2) {
		struct isoeff *iso;
		m->iso = xrealloc(m->iso, (m->nr_iso + 1) * sizeof(*m->iso));
		iso = memset(&m->iso[m->nr_iso++], 0, sizeof(*iso));
		iso->benchmark = benchmark;
		iso->interval = interval;
		iso->target = m->target_efficiency > 0 ? m->target_efficiency : ISOEFF_TARGET;
		isoeff_compute(iso, series, sizes, nr, memory_of(m, benchmark));
	}
	free(series);
	free(sizes);
}

int scaling_size_build(struct matrix *m, const struct analysis *a)
{
	if (m->target_efficiency < 0 || m->target_efficiency >= 1)
		return gate_error("target efficiency %g is not between 0 and 1",
				  m->target_efficiency);
	for (size_t i = 0; i < m->nr_series; i++) {
		const struct matrix_series *s = &m->series[i];
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = m->series[j].interval == s->interval &&
			       !strcmp(m->series[j].benchmark, s->benchmark);
		if (seen)
			continue;
		if (scaling_size_is_weak(a, s->benchmark))
			weak_build(m, s->benchmark, s->interval);
		else
			iso_build(m, s->benchmark, s->interval);
	}
	return 0;
}

void scaling_size_release(struct matrix *m)
{
	for (size_t i = 0; i < m->nr_weak; i++)
		free(m->weak[i].points);
	for (size_t i = 0; i < m->nr_iso; i++)
		isoeff_release(&m->iso[i]);
	for (size_t i = 0; i < m->nr_memory; i++) {
		free(m->memory[i].benchmark);
		free(m->memory[i].model);
	}
	free(m->weak);
	free(m->iso);
	free(m->memory);
	m->weak = NULL;
	m->iso = NULL;
	m->memory = NULL;
	m->nr_weak = m->nr_iso = m->nr_memory = m->alloc_memory = 0;
}
