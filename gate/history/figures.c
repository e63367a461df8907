/* What a run records: each metric of HISTORY_METRICS per interval and configuration, read from the
 * analysis. */
#include "history/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/matrix.h"
#include "base/util.h"
#include "stats/stats.h"

static const struct {
	const char *name;
	int worse;
} metrics[] = {
#define X(id, name, worse) { name, worse },
	HISTORY_METRICS(X)
#undef X
};

/*
 * How each metric is read: a per-run figure (its repeats are the samples), a share of Total_time
 * per run, or a figure across the matrix (a median and its interval, no samples).
 */
enum source { PER_RUN, SHARE, SPEEDUP, EFFICIENCY };

#define X_TERM(id, key, worse) [HISTORY_##id] = { SHARE, ANALYSIS_##id },
static const struct {
	enum source source;
	enum analysis_figure figure;
} reads[HISTORY_NR_METRICS] = {
	[HISTORY_TIME] = { PER_RUN, ANALYSIS_EXECUTION_TIME },
	[HISTORY_SPEEDUP] = { SPEEDUP, ANALYSIS_EXECUTION_TIME },
	[HISTORY_EFFICIENCY] = { EFFICIENCY, ANALYSIS_EXECUTION_TIME },
	/* every lost-time term: its figure's share of Total_time */
	LOST_TERMS(HISTORY_TERM, HISTORY_PART, X_TERM)
#define X_POP(id, name, worse) [HISTORY_##id] = { PER_RUN, ANALYSIS_##id },
	HISTORY_POP(X_POP)
#undef X_POP
};
#undef X_TERM

int history_metric_find(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(metrics); i++)
		if (!strcmp(name, metrics[i].name))
			return (int)i;
	return -1;
}

const char *history_metric_name(enum history_metric m)
{
	return metrics[m].name;
}

int history_metric_worse(enum history_metric m)
{
	return metrics[m].worse;
}

int history_metric_share(enum history_metric m)
{
	return reads[m].source == SHARE;
}

int history_metric_pop(enum history_metric m)
{
	return m >= HISTORY_LOAD_BALANCE && m <= HISTORY_PARALLEL_EFFICIENCY;
}

static void history_run_release(struct history_run *r)
{
	free(r->commit);
	free(r->parent);
	free(r->branch);
	free(r->date);
	free(r->job_url);
	free(r->machine);
	free(r->config_hash);
	free(r->subject);
	memset(r, 0, sizeof(*r));
	r->reference = NAN;
}

void history_record_init(struct history_record *r)
{
	memset(r, 0, sizeof(*r));
	r->run.reference = NAN;
}

void history_record_release(struct history_record *r)
{
	history_run_release(&r->run);
	for (size_t i = 0; i < r->nr; i++) {
		free(r->points[i].benchmark);
		free(r->points[i].interval);
		free(r->points[i].configuration);
		free(r->points[i].repeat);
		free(r->points[i].sample);
	}
	free(r->points);
	history_record_init(r);
}

void history_series_release(struct history_series *s)
{
	free(s->benchmark);
	free(s->interval);
	free(s->configuration);
	free(s->run);
	free(s->value);
	free(s->lo);
	free(s->hi);
	memset(s, 0, sizeof(*s));
}

void history_data_release(struct history_data *d)
{
	for (size_t i = 0; i < d->nr_runs; i++)
		history_run_release(&d->runs[i]);
	free(d->runs);
	for (size_t i = 0; i < d->nr_series; i++)
		history_series_release(&d->series[i]);
	free(d->series);
	memset(d, 0, sizeof(*d));
}

char *history_configuration(const char *size, int ranks, int threads)
{
	if (!size || !strcmp(size, "-"))
		return xstrfmt("%dx%d", ranks, threads);
	return xstrfmt("%dx%d n=%s", ranks, threads, size);
}

/* The value of metric m in one run of the interval, NAN when it has none. */
static double run_value(const struct analysis_point *pt, enum history_metric m)
{
	double total = pt->fig[ANALYSIS_TOTAL_TIME];

	if (reads[m].source == PER_RUN)
		return pt->fig[reads[m].figure];
	return total > 0 ? pt->fig[reads[m].figure] / total : NAN;
}

/* The repeats' values of a per-run metric or share, and their median with its 95 % interval. */
static void add_samples(struct history_point *p, const struct analysis_config *c, int interval)
{
	struct stats_summary sum;

	p->repeat = xcalloc(c->nr_runs + 1, sizeof(*p->repeat));
	p->sample = xcalloc(c->nr_runs + 1, sizeof(*p->sample));
	for (size_t r = 0; r < c->nr_runs; r++) {
		const struct analysis_run *run = &c->runs[r];
		double v;
		if ((size_t)interval >= run->nr_points || !run->points[interval].present)
			continue;
		v = run_value(&run->points[interval], p->metric);
		if (!isfinite(v))
			continue;
		p->repeat[p->nr_samples] = run->repeat;
		p->sample[p->nr_samples++] = v;
	}
	p->n = p->nr_samples;
	if (p->n && !stats_summarize(p->sample, p->n, MATRIX_LEVEL, &sum)) {
		p->median = sum.median;
		p->lo = sum.ci_lo;
		p->hi = sum.ci_hi;
	}
}

static void add_figure(struct history_point *p, const struct matrix_figure *f)
{
	p->n = f->n;
	p->median = f->median;
	p->lo = f->lo;
	p->hi = f->hi;
}

static void add_point(struct history_record *r, const struct analysis *a,
		      const struct matrix_series *s, const struct matrix_cell *c,
		      enum history_metric m)
{
	struct history_point p = { .metric = m, .median = NAN, .lo = NAN, .hi = NAN };

	if (reads[m].source == SPEEDUP)
		add_figure(&p, &c->speedup);
	else if (reads[m].source == EFFICIENCY)
		add_figure(&p, &c->efficiency);
	else
		add_samples(&p, c->config, s->interval);
	if (!p.n || !isfinite(p.median)) {
		free(p.repeat);
		free(p.sample);
		return;
	}
	p.benchmark = xstrdup(s->benchmark);
	p.interval = xstrdup(a->intervals[s->interval].path);
	p.configuration = history_configuration(s->size, c->config->ranks, c->config->threads);
	ALLOC_GROW(r->points, r->nr + 1, r->alloc);
	r->points[r->nr++] = p;
}

/* The machine speed reference of the runs of 'a' (each run's, from its manifest row): their
 * median, NAN when none has one. */
static double reference_of(const struct analysis *a)
{
	double *x = NULL, med;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < a->nr_configs; i++)
		for (size_t k = 0; k < a->configs[i].nr_runs; k++) {
			const struct analysis_run *run = &a->configs[i].runs[k];
			for (size_t p = 0; p < run->nr_points; p++) {
				double v = run->points[p].fig[ANALYSIS_REFERENCE_TIME];
				if (!run->points[p].present)
					continue;
				if (isfinite(v) && v > 0) {
					ALLOC_GROW(x, n + 1, alloc);
					x[n++] = v;
				}
				break; /* the run's reference is on each of its intervals */
			}
		}
	med = n ? stats_median(x, n) : NAN;
	free(x);
	return med;
}

void history_record_add(struct history_record *r, const struct analysis *a, const struct matrix *m)
{
	r->run.reference = reference_of(a);
	for (size_t i = 0; i < m->nr_series; i++) {
		const struct matrix_series *s = &m->series[i];
		for (size_t j = 0; j < s->nr_cells; j++)
			for (int k = 0; k < HISTORY_NR_METRICS; k++)
				add_point(r, a, s, &s->cells[j], (enum history_metric)k);
	}
}
