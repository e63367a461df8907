/* The stored baseline's or the base revision's figures, as the reports show them beside the current
 * ones. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/baseline.h"
#include "analyze/matrix.h"
#include "judge/check.h"
#include "report/report-priv.h"
#include "stats/stats.h"

/* The baseline's cell of this interval and configuration, or NULL. */
static const struct baseline_cell *base_cell(const struct baseline *b, const char *path,
					     const char *size, int ranks, int threads)
{
	return b ? baseline_find(b, path, size ? size : "-", ranks, threads) : NULL;
}

/* The median of a baseline figure (share: of Total_time) in one configuration, NAN without it. */
double report_base_median(const struct baseline *b, const char *path, const char *size, int ranks,
			  int threads, enum analysis_figure f, int share)
{
	return baseline_median(base_cell(b, path, size, ranks, threads), f, share);
}

double report_cell_share(const struct matrix_cell *c, int interval, enum analysis_figure f)
{
	const struct analysis_config *cfg = c->config;
	double *x = xcalloc(cfg->nr_runs + 1, sizeof(*x)), med;
	size_t n = 0;

	for (size_t r = 0; interval >= 0 && r < cfg->nr_runs; r++) {
		const struct analysis_point *pt = (size_t)interval < cfg->runs[r].nr_points
							  ? &cfg->runs[r].points[interval]
							  : NULL;
		double num = pt && pt->present ? pt->fig[f] : NAN;
		double den = pt && pt->present ? pt->fig[ANALYSIS_TOTAL_TIME] : NAN;
		if (isfinite(num) && isfinite(den) && den > 0)
			x[n++] = num / den;
	}
	med = n ? stats_median(x, n) : NAN;
	free(x);
	return med;
}

double report_cell_machine(const struct matrix_cell *c)
{
	const struct matrix_figure *in = &c->fig[ANALYSIS_INTERFERENCE];
	double wall = c->fig[ANALYSIS_TOTAL_TIME_WALL].median;

	return in->n && isfinite(in->median) && wall > 0 ? in->median / wall : NAN;
}

double report_base_machine(const struct baseline *b, const char *path, const char *size,
			   int ranks, int threads)
{
	return baseline_machine_share(base_cell(b, path, size, ranks, threads));
}

double report_base_speedup(const struct baseline *b, const char *path, const char *size,
			   const struct analysis_config *ref, const struct analysis_config *c)
{
	double t_ref = report_base_median(b, path, size, ref->ranks, ref->threads,
					  ANALYSIS_EXECUTION_TIME, 0);
	double t = report_base_median(b, path, size, c->ranks, c->threads, ANALYSIS_EXECUTION_TIME,
				      0);

	return t_ref > 0 && t > 0 ? t_ref / t : NAN;
}

const char *report_figure_text(char *buf, size_t size, enum unit u, const struct matrix_figure *f,
			       const char *none)
{
	if (!f->n || !isfinite(f->median))
		snprintf(buf, size, "%s", none);
	else
		unit_format_interval(buf, size, u, f->median, f->lo, f->hi);
	return buf;
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

const char *report_value_text(char *buf, size_t size, const struct verdict *v, const char *none)
{
	size_t len;

	if (!isfinite(v->value)) {
		snprintf(buf, size, "%s", none);
		return buf;
	}
	unit_format_interval(buf, size, v->unit, v->value, v->lo, v->hi);
	len = strlen(buf);
	if (v->speed > 0 && len < size)
		snprintf(buf + len, size - len, " (" CHECK_SCALED_WORDS "%.3f)", v->speed);
	return buf;
}

const char *report_baseline_text(char *buf, size_t size, const struct verdict *v,
				 const char *none)
{
	const char *ref = report_reference(v);
	char value[48];

	if (!isfinite(v->baseline)) {
		snprintf(buf, size, "%s", none);
		return buf;
	}
	snprintf(buf, size, "%s%s",
		 !strcmp(ref, "min") ? "\xe2\x89\xa5 " : !strcmp(ref, "max") ? "\xe2\x89\xa4 " : "",
		 unit_format(value, sizeof(value), v->unit, v->baseline));
	return buf;
}

const char *report_change_text(char *buf, size_t size, const struct verdict *v, const char *none)
{
	if (!isfinite(v->change))
		snprintf(buf, size, "%s", none);
	else
		unit_format_change(buf, size, v->change_unit, v->change);
	return buf;
}

const char *report_p_text(char *buf, size_t size, double p, const char *none)
{
	if (!isfinite(p))
		snprintf(buf, size, "%s", none);
	else
		unit_format_p(buf, size, p);
	return buf;
}
