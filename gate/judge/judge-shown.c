/* What the reports show of the judged results: in stored mode the current times at the baseline's
 * machine speed, as the checks compared them (docs/reports.md, "One basis for every figure"). */
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"

/* The figures that are not times: a machine speed factor leaves them as they are. */
static int is_time(enum analysis_figure f)
{
	switch (f) {
	case ANALYSIS_PROCESSORS:
	case ANALYSIS_EFFICIENCY:
	case ANALYSIS_LOAD_BALANCE:
	case ANALYSIS_COMMUNICATION_EFFICIENCY:
	case ANALYSIS_PARALLEL_EFFICIENCY:
	case ANALYSIS_SERIAL_SHARE:
	case ANALYSIS_COUNT:
	case ANALYSIS_REFERENCE_TIME:
		return 0;
	default:
		return 1;
	}
}

/* The factor the check scaled one cell's current times by; 0: none. */
static double factor(const struct check *c, const char *benchmark, const char *path,
		     const char *size, int ranks, int threads)
{
	for (size_t i = 0; i < c->nr_bench; i++) {
		const struct baseline_cell *cell;
		if (strcmp(c->bench[i].name, benchmark))
			continue;
		cell = baseline_find(&c->bench[i].cur, path, size ? size : "-", ranks, threads);
		return cell && cell->speed > 0 ? cell->speed : 0;
	}
	return 0;
}

static int any_factor(const struct check *c)
{
	for (size_t i = 0; i < c->nr_bench; i++)
		for (size_t k = 0; k < c->bench[i].cur.nr_cells; k++)
			if (c->bench[i].cur.cells[k].speed > 0)
				return 1;
	return 0;
}

static void scale_point(struct analysis_point *pt, double f)
{
	for (int k = 0; k < ANALYSIS_NR_FIGURES; k++)
		if (is_time((enum analysis_figure)k))
			pt->fig[k] *= f;
	/* the per-processor quantities are all seconds */
	for (int q = 0; q < ANALYSIS_NR_PQ; q++) {
		pt->cmp[q].min *= f;
		pt->cmp[q].max *= f;
		pt->cmp[q].mean *= f;
	}
	pt->inconsistency *= f;
}

static void scale_analysis(struct analysis *a, const struct check *c)
{
	for (size_t i = 0; i < a->nr_configs; i++) {
		struct analysis_config *cfg = &a->configs[i];
		for (size_t k = 0; k < a->nr_intervals; k++) {
			double f = factor(c, cfg->benchmark, a->intervals[k].path, cfg->size,
					  cfg->ranks, cfg->threads);
			for (size_t r = 0; f > 0 && r < cfg->nr_runs; r++)
				if (k < cfg->runs[r].nr_points && cfg->runs[r].points[k].present)
					scale_point(&cfg->runs[r].points[k], f);
		}
	}
}

/* Each cell of the scaled matrix names its factor, for the reports' words. */
static void mark_cells(struct matrix *m, const struct analysis *a, const struct check *c)
{
	for (size_t i = 0; i < m->nr_series; i++) {
		struct matrix_series *s = &m->series[i];
		if (s->interval < 0 || (size_t)s->interval >= a->nr_intervals)
			continue;
		for (size_t k = 0; k < s->nr_cells; k++)
			s->cells[k].speed = factor(c, s->benchmark, a->intervals[s->interval].path,
						   s->size, s->cells[k].config->ranks,
						   s->cells[k].config->threads);
	}
}

void judge_shown_release(struct judge *j)
{
	if (!j->scaled)
		return;
	matrix_release(&j->scaled_m);
	analysis_release(&j->scaled_a);
	j->scaled = 0;
}

/* 0, or -1 (reported). */
int judge_shown(struct judge *j)
{
	judge_shown_release(j);
	if (!any_factor(&j->c))
		return 0;
	analysis_init(&j->scaled_a);
	matrix_init(&j->scaled_m);
	j->scaled = 1;
	j->scaled_a.keep = j->a.keep;
	j->scaled_a.keep_arg = j->a.keep_arg;
	j->scaled_a.keep_going = 1;
	if (judge_set_memory(&j->scaled_m, &j->config) ||
	    analysis_load_results(&j->scaled_a, &j->res))
		return -1;
	scale_analysis(&j->scaled_a, &j->c);
	if (matrix_build(&j->scaled_m, &j->scaled_a))
		return -1;
	mark_cells(&j->scaled_m, &j->scaled_a, &j->c);
	return 0;
}

const struct analysis *judge_shown_analysis(const struct judge *j)
{
	return j->scaled ? &j->scaled_a : &j->a;
}

const struct matrix *judge_shown_matrix(const struct judge *j)
{
	return j->scaled ? &j->scaled_m : &j->m;
}
