/* The text protocol of 'scalegate analyze', laid out like the DVM performance analyzer's. */
#include <math.h>
#include <stdio.h>

#include "protocol.h"

/* Main characteristics, with components indented under their total. */
static const struct {
	enum analysis_figure f;
	int indent;
} main_lines[] = {
	{ ANALYSIS_EXECUTION_TIME, 0 },
	{ ANALYSIS_PROCESSORS, 0 },
	{ ANALYSIS_TOTAL_TIME, 0 },
	{ ANALYSIS_PRODUCTIVE_TIME, 1 },
	{ ANALYSIS_LOST_TIME, 1 },
	{ ANALYSIS_INSUFFICIENT_PARALLELISM, 2 },
	{ ANALYSIS_SEQ, 3 },
	{ ANALYSIS_PAR, 3 },
	{ ANALYSIS_COMMUNICATION, 2 },
	{ ANALYSIS_IDLE, 2 },
	{ ANALYSIS_SYNCHRONIZATION, 2 },
	{ ANALYSIS_SYNC_OMP, 3 },
	{ ANALYSIS_SYNC_MPI, 3 },
	{ ANALYSIS_EFFICIENCY, 0 },
	{ ANALYSIS_LOAD_IMBALANCE, 0 },
	{ ANALYSIS_LOAD_BALANCE, 0 },
	{ ANALYSIS_COMMUNICATION_EFFICIENCY, 0 },
	{ ANALYSIS_PARALLEL_EFFICIENCY, 0 },
};

static void figure(FILE *out, const struct matrix_figure *f)
{
	if (!f->n)
		fputs("not captured", out);
	else
		fprintf(out, "%.6g [%.6g, %.6g] (n=%zu)", f->median, f->lo, f->hi, f->n);
}

static void cell_main(FILE *out, const struct matrix_cell *c)
{
	fprintf(out, "  configuration %d ranks x %d threads (p = %d), %zu repeats\n",
		c->config->ranks, c->config->threads, c->p, c->fig[ANALYSIS_EXECUTION_TIME].n);
	for (size_t i = 0; i < sizeof(main_lines) / sizeof(main_lines[0]); i++) {
		enum analysis_figure f = main_lines[i].f;
		fprintf(out, "    %*s%-*s ", 2 * main_lines[i].indent, "", 30 - 2 * main_lines[i].indent,
			analysis_figure_name(f));
		figure(out, &c->fig[f]);
		if (f == ANALYSIS_SYNC_MPI && c->wait_estimated && c->fig[f].n)
			fputs("  (estimated from the ranks' times)", out);
		fputc('\n', out);
	}
	if (c->inconsistent)
		fprintf(out, "    inconsistency: terms clamped to 0 by up to %.6g s (> 1 %% of Total_time)\n",
			c->inconsistency);
}

static void cell_comparative(FILE *out, const struct matrix_cell *c)
{
	fprintf(out, "    comparative (run with the median Execution_time)\n      %-12s %-12s %-14s %-12s %-14s %s\n",
		"", "min", "at", "max", "at", "mean");
	for (int k = 0; k < ANALYSIS_NR_PQ; k++) {
		const struct analysis_cmp *q = &c->cmp[k];
		char at_min[32], at_max[32];
		if (isnan(q->mean)) {
			fprintf(out, "      %-12s not captured\n", analysis_pq_name(k));
			continue;
		}
		snprintf(at_min, sizeof(at_min), "rank %d th %d", q->min_rank, q->min_thread);
		snprintf(at_max, sizeof(at_max), "rank %d th %d", q->max_rank, q->max_thread);
		fprintf(out, "      %-12s %-12.6g %-14s %-12.6g %-14s %.6g\n", analysis_pq_name(k),
			q->min, at_min, q->max, at_max, q->mean);
	}
}

static void scaling_value(FILE *out, const struct matrix_figure *f)
{
	char buf[64];

	if (!f->n)
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "%.3g [%.3g, %.3g]", f->median, f->lo, f->hi);
	fprintf(out, " %-26s", buf);
}

static void series_scaling(FILE *out, const struct matrix_series *s)
{
	const struct matrix_cell *ref = &s->cells[s->ref];

	fprintf(out, "  scaling (reference %dx%d%s)\n", ref->config->ranks, ref->config->threads,
		s->ref_is_serial ? "" : ": no 1x1 configuration, speedups are relative to the smallest p");
	fprintf(out, "    %4s %-9s %-12s %-26s %-26s %-26s %-26s %s\n", "p", "RxT", "T", "Speedup",
		"Measured_efficiency", "Karp_Flatt", "Amdahl_bound", "Gustafson_speedup");
	for (size_t i = 0; i < s->nr_cells; i++) {
		const struct matrix_cell *c = &s->cells[i];
		char rxt[32];
		snprintf(rxt, sizeof(rxt), "%dx%d", c->config->ranks, c->config->threads);
		fprintf(out, "    %4d %-9s %-12.6g", c->p, rxt, c->fig[ANALYSIS_EXECUTION_TIME].median);
		scaling_value(out, &c->speedup);
		scaling_value(out, &c->efficiency);
		scaling_value(out, &c->karp_flatt);
		scaling_value(out, &c->amdahl_bound);
		scaling_value(out, &c->gustafson_speedup);
		if (c->superlinear)
			fputs("  superlinear: speedup > p", out);
		fputc('\n', out);
	}
	if (s->trend) {
		fputs("    Karp_Flatt_slope ", out);
		figure(out, &s->karp_flatt_slope);
		if (s->trend[0] == 'f' && s->trend[1] == 'l')
			fprintf(out, ": flat: limited parallelism (inherent serial fraction ~ %.3g)\n", s->serial_fraction);
		else if (s->trend[0] == 'r')
			fputs(": rising: overhead grows with p\n", out);
		else
			fputs(": falling: efficiency improves with p (cache or superlinear effects)\n", out);
	}
	if (s->projection_refused)
		fprintf(out, "    projection: none (%s)\n", s->projection_refused);
	else
		fprintf(out, "    projection: Measured_efficiency %.3g at p = %g, %.3g at p = %g (fit R^2 = %.3f)\n",
			s->projection_efficiency[0], s->projection_p[0], s->projection_efficiency[1],
			s->projection_p[1], s->projection_r2);
}

void protocol_write(FILE *out, const struct analysis *a, const struct matrix *m)
{
	fprintf(out, "scalegate analyze: %s (%s)\n", a->dir, a->single ? "profiles of one run" : "results directory");
	if (a->nr_skipped)
		fprintf(out, "note: %zu runs did not succeed and are left out\n", a->nr_skipped);
	for (size_t i = 0; i < m->nr_series; i++) {
		const struct matrix_series *s = &m->series[i];
		const struct analysis_interval *iv = &a->intervals[s->interval];
		const struct matrix_figure *count = &s->cells[s->ref].fig[ANALYSIS_COUNT];
		fprintf(out, "\n== %s  %s  %s:%d  level %d  count %.0f  [size %s]\n", s->benchmark, iv->path,
			iv->file, iv->line, iv->depth, count->n ? count->median : 0, s->size);
		for (size_t k = 0; k < s->nr_cells; k++) {
			cell_main(out, &s->cells[k]);
			cell_comparative(out, &s->cells[k]);
		}
		if (s->nr_cells > 1 || !a->single)
			series_scaling(out, s);
	}
}
