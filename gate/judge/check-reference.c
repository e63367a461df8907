/* Stored mode: the current runs' times brought to the baseline's machine speed, measured by the
 * reference loop the runner times beside each run (docs/check.md, "Machine speed"). */
#include <math.h>
#include <stdlib.h>

#include "judge/check-priv.h"
#include "stats/stats.h"

/* The stored figures that are not times: ratios, kept as they are. */
static int is_ratio(enum analysis_figure f)
{
	return f == ANALYSIS_EFFICIENCY || f == ANALYSIS_LOAD_BALANCE ||
	       f == ANALYSIS_PARALLEL_EFFICIENCY || f == ANALYSIS_REFERENCE_TIME;
}

/* The median of the logs of a cell's figure f and its standard error; NAN when fewer than 'min'
 * runs have one. */
static double log_median(const struct baseline_cell *c, enum analysis_figure f, size_t min,
			 double *se)
{
	double *x = xmalloc((c->n + 1) * sizeof(double)), med = NAN;
	size_t n = baseline_samples(c, f, x), k = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] > 0)
			x[k++] = log(x[i]);
	if (k >= min && k >= 2) {
		/* a median's standard error, from the sd of the logs: sqrt(pi / 2) sd / sqrt(n) */
		*se = sqrt(M_PI / 2 / (double)k) * stats_sd(x, k);
		med = stats_median(x, k);
	}
	free(x);
	return med;
}

/* The median of a cell's references; NAN when fewer than CHECK_REFERENCE_MIN_RUNS runs have one. */
static double reference_median(const struct baseline_cell *c, double *se)
{
	return exp(log_median(c, ANALYSIS_REFERENCE_TIME, CHECK_REFERENCE_MIN_RUNS, se));
}

/* The factor base / cur of one cell's references' medians and the se of its log; NAN when either
 * side has too few. */
static double cell_factor(const struct baseline_cell *cur, const struct baseline_cell *base,
			  double *se)
{
	double se_cur = 0, se_base = 0, rc = reference_median(cur, &se_cur);
	double rb = base ? reference_median(base, &se_base) : NAN, f = rb / rc;

	*se = sqrt(se_cur * se_cur + se_base * se_base);
	return f > 0 && isfinite(f) ? f : NAN;
}

/*
 * A cell the program left unchanged by its own noise (its times within 2 se of the baseline's)
 * that the factor would move past 2 se: the factor contradicts it. -1: not comparable.
 */
static int contradicts(const struct baseline_cell *cur, const struct baseline_cell *base, double f)
{
	double se_c, se_b, lc = log_median(cur, ANALYSIS_EXECUTION_TIME, 2, &se_c),
	       lb = log_median(base, ANALYSIS_EXECUTION_TIME, 2, &se_b), d, z;

	if (isnan(lc) || isnan(lb))
		return -1;
	d = lc - lb;
	z = 2 * sqrt(se_c * se_c + se_b * se_b);
	return fabs(d) <= z && fabs(d + log(f)) > z;
}

static void scale_cell(struct baseline_cell *cur, double f, double se)
{
	for (int k = 0; k < ANALYSIS_NR_FIGURES; k++)
		for (size_t i = 0; cur->fig[k] && !is_ratio(k) && i < cur->n; i++)
			cur->fig[k][i] *= f;
	cur->speed = f;
	cur->speed_se = se;
}

/* Counts the cells a plausible factor contradicts; refuses the ones outside the plausible range. */
static void cross_check(struct check_bench *b, const double *f)
{
	b->speed_compared = b->speed_contradicted = 0;
	for (size_t i = 0; i < b->cur.nr_cells; i++) {
		struct baseline_cell *c = &b->cur.cells[i];
		int k;
		if (isnan(f[i]))
			continue;
		if (f[i] < CHECK_SPEED_MIN || f[i] > CHECK_SPEED_MAX) {
			c->speed_refused = f[i];
			continue;
		}
		k = contradicts(c, baseline_find(&b->base, c->interval, c->size, c->ranks,
						 c->threads), f[i]);
		b->speed_compared += k >= 0;
		b->speed_contradicted += k > 0;
	}
}

void check_reference_scale(struct check_bench *b)
{
	double *f = xmalloc((b->cur.nr_cells + 1) * sizeof(double));
	double *se = xmalloc((b->cur.nr_cells + 1) * sizeof(double));
	int refuse;

	for (size_t i = 0; b->has_base && i < b->cur.nr_cells; i++) {
		struct baseline_cell *c = &b->cur.cells[i];
		f[i] = cell_factor(c, baseline_find(&b->base, c->interval, c->size, c->ranks,
						    c->threads), &se[i]);
	}
	if (b->has_base)
		cross_check(b, f);
	refuse = 2 * b->speed_contradicted > b->speed_compared;
	for (size_t i = 0; b->has_base && i < b->cur.nr_cells; i++) {
		struct baseline_cell *c = &b->cur.cells[i];
		if (isnan(f[i]) || c->speed_refused > 0)
			continue;
		if (refuse)
			c->speed_refused = f[i];
		else
			scale_cell(c, f[i], se[i]);
	}
	free(f);
	free(se);
}

double check_reference_sd(const struct check_cell *cell, const struct check_metric *m)
{
	double cur = cell->cur ? cell->cur->speed_se : 0;
	double ref = cell->cur_ref ? cell->cur_ref->speed_se : 0;

	switch (m->kind) {
	case CHECK_PER_RUN:
		return is_ratio(m->fig) ? 0 : cur;
	case CHECK_DERIVED:
		return cell->cur == cell->cur_ref ? 0 : sqrt(cur * cur + ref * ref);
	default:
		return 0; /* shares and ratios of one run's times: the factor cancels */
	}
}

/* A factor not applied: outside the plausible range, or contradicted by the program's intervals. */
static void describe_refused(struct strbuf *sb, const struct check_cell *cell, double f)
{
	strbuf_addf(sb, "%smachine speed factor x%.3f (scalegate's reference loop ran %.1f %% %s "
		    "here than when the baseline was recorded) ",
		    sb->len ? "\n" : "", f, 100 * fabs(1 / f - 1), f < 1 ? "slower" : "faster");
	if (f < CHECK_SPEED_MIN || f > CHECK_SPEED_MAX)
		strbuf_addf(sb, "is outside %g-%g", CHECK_SPEED_MIN, CHECK_SPEED_MAX);
	else
		strbuf_addf(sb, "contradicted by %zu of %zu intervals", cell->b->speed_contradicted,
			    cell->b->speed_compared);
	strbuf_addstr(sb, "; not applied: the times are as measured (docs/check.md)");
}

void check_describe_reference(struct strbuf *sb, const struct check_cell *cell, double sd)
{
	double f = cell->cur ? cell->cur->speed : 0;

	if (cell->cur && cell->cur->speed_refused > 0)
		describe_refused(sb, cell, cell->cur->speed_refused);
	if (!(f > 0))
		return;
	strbuf_addf(sb, "%smachine speed: scalegate's reference loop ran %.1f %% %s here than when "
		    "the baseline was recorded; the times here are scaled by %.3f to its speed",
		    sb->len ? "\n" : "", 100 * fabs(1 / f - 1), f < 1 ? "slower" : "faster", f);
	if (sd > 0)
		strbuf_addf(sb, ", which adds sd %.2g %% to the change (docs/check.md)", 100 * sd);
	else
		strbuf_addstr(sb, " (docs/check.md)");
}
