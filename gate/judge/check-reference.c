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

/* The median of a cell's references and the standard error of its log; NAN when fewer than
 * CHECK_REFERENCE_MIN_RUNS runs have one. */
static double reference_median(const struct baseline_cell *c, double *se)
{
	double *x = xmalloc((c->n + 1) * sizeof(double)), med = NAN;
	size_t n = baseline_samples(c, ANALYSIS_REFERENCE_TIME, x), k = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] > 0)
			x[k++] = log(x[i]);
	if (k >= CHECK_REFERENCE_MIN_RUNS) {
		/* a median's standard error, from the sd of the logs: sqrt(pi / 2) sd / sqrt(n) */
		*se = sqrt(M_PI / 2 / (double)k) * stats_sd(x, k);
		med = exp(stats_median(x, k));
	}
	free(x);
	return med;
}

/* Scales one current cell by base / cur of the references' medians, when both have them. */
static void scale_cell(struct baseline_cell *cur, const struct baseline_cell *base)
{
	double se_cur, se_base, rc = reference_median(cur, &se_cur);
	double rb = base ? reference_median(base, &se_base) : NAN, f = rb / rc;

	if (!(f > 0) || !isfinite(f))
		return;
	for (int k = 0; k < ANALYSIS_NR_FIGURES; k++)
		for (size_t i = 0; cur->fig[k] && !is_ratio(k) && i < cur->n; i++)
			cur->fig[k][i] *= f;
	cur->speed = f;
	cur->speed_se = sqrt(se_cur * se_cur + se_base * se_base);
}

void check_reference_scale(struct check_bench *b)
{
	for (size_t i = 0; b->has_base && i < b->cur.nr_cells; i++) {
		struct baseline_cell *c = &b->cur.cells[i];
		scale_cell(c, baseline_find(&b->base, c->interval, c->size, c->ranks, c->threads));
	}
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

void check_describe_reference(struct strbuf *sb, const struct check_cell *cell, double sd)
{
	double f = cell->cur ? cell->cur->speed : 0;

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
