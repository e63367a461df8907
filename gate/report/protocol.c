/* The text protocol of 'scalegate analyze', laid out like the DVM performance analyzer's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/units.h"
#include "base/words.h"
#include "report/protocol.h"
#include "analyze/scaling-size.h"
#include "base/util.h"
#include "judge/judge.h"
#include "report/report.h"

/* Main characteristics, with components indented under their total: the lost-time terms of
 * base/lost-table.h under Lost_time, their parts under them. */
#define TERM(A, id, ...) { ANALYSIS_##id, 2 },
#define PART(A, id, ...) { ANALYSIS_##id, 3 },
static const struct {
	enum analysis_figure f;
	int indent;
} main_lines[] = {
	{ ANALYSIS_EXECUTION_TIME, 0 },
	{ ANALYSIS_EXECUTION_TIME_WALL, 1 },
	{ ANALYSIS_PROCESSORS, 0 },
	{ ANALYSIS_TOTAL_TIME_WALL, 0 },
	{ ANALYSIS_PRODUCTIVE_TIME, 1 },
	{ ANALYSIS_LOST_TIME, 1 },
	LOST_TERMS(TERM, PART, _)
	{ ANALYSIS_TOTAL_TIME, 0 },
	{ ANALYSIS_EFFICIENCY, 0 },
	{ ANALYSIS_LOAD_IMBALANCE, 0 },
	{ ANALYSIS_LOAD_BALANCE, 0 },
	{ ANALYSIS_COMMUNICATION_EFFICIENCY, 0 },
	{ ANALYSIS_PARALLEL_EFFICIENCY, 0 },
	{ ANALYSIS_SERIALIZED_WORK, 0 },
};
#undef TERM
#undef PART

static void figure(FILE *out, const struct matrix_figure *f)
{
	if (!f->n)
		fputs("not captured", out);
	else
		fprintf(out, "%.6g [%.6g, %.6g] (n=%zu)", f->median, f->lo, f->hi, f->n);
}

static void cell_main(FILE *out, const struct matrix_cell *c)
{
	char words[96], share[48];

	fprintf(out, "  configuration %s (p = %d), %zu repeats\n",
		config_words(words, sizeof(words), c->config->ranks, c->config->threads, NULL),
		c->p, c->fig[ANALYSIS_EXECUTION_TIME].n);
	for (size_t i = 0; i < sizeof(main_lines) / sizeof(main_lines[0]); i++) {
		enum analysis_figure f = main_lines[i].f;
		fprintf(out, "    %*s%-*s ", 2 * main_lines[i].indent, "",
			30 - 2 * main_lines[i].indent, analysis_figure_name(f));
		figure(out, &c->fig[f]);
		if (f == ANALYSIS_SYNC_MPI && c->wait_estimated && c->fig[f].n)
			fputs("  (estimated from the ranks' times)", out);
		if (f == ANALYSIS_INTERFERENCE && c->fig[f].n && c->fig[f].median > 0 &&
		    c->fig[ANALYSIS_TOTAL_TIME_WALL].median > 0)
			fprintf(out, "  (the machine took %s of Total_time_wall from this "
				"interval)",
				unit_format(share, sizeof(share), UNIT_SHARE,
					    c->fig[f].median /
						    c->fig[ANALYSIS_TOTAL_TIME_WALL].median));
		if (f == ANALYSIS_TOTAL_TIME)
			fputs("  (the program's: Total_time_wall - Interference)", out);
		fputc('\n', out);
		if (f == ANALYSIS_PROCESSORS) {
			fprintf(out, "    %-30s ", "Average_parallelism");
			figure(out, &c->average_parallelism);
			fputc('\n', out);
		}
	}
	if (c->inconsistent)
		fprintf(out,
			"    inconsistency: terms clamped to 0 by up to %.6g s (> 1 %% of "
			"Total_time)\n",
			c->inconsistency);
}

static void cell_comparative(FILE *out, const struct matrix_cell *c)
{
	fprintf(out,
		"    comparative (run with the median Execution_time)\n      %-12s %-12s %-14s "
		"%-12s %-14s %s\n",
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

static void parallelism_trend(FILE *out, const struct matrix_figure *slope, const char *trend)
{
	if (!trend)
		return;
	fprintf(out, "    Average_parallelism_slope %.3g", slope->median);
	if (isfinite(slope->lo))
		fprintf(out, " [%.3g, %.3g]", slope->lo, slope->hi);
	fprintf(out, " (n=%zu): %s: %s\n", slope->n, trend,
		trend[0] == 'g'   ? "each added processor adds useful work"
		: trend[0] == 's' ? "added processors add little useful work"
		: trend[1] == 'l' ? "added processors add no useful work"
				  : "fewer processors work as p grows");
}

static void series_scaling(FILE *out, const struct matrix_series *s)
{
	const struct matrix_cell *ref = &s->cells[s->ref];

	fprintf(out, "  scaling (reference %dx%d%s)\n", ref->config->ranks, ref->config->threads,
		s->ref_is_serial
			? ""
			: ": no 1x1 configuration, speedups are relative to the smallest p");
	fprintf(out, "    %4s %-9s %-12s %-26s %-26s %-26s %-26s %-26s %-26s %s\n", "p", "RxT", "T",
		"Speedup", "Measured_efficiency", "Karp_Flatt", "Amdahl_bound", "Gustafson_speedup",
		"Average_parallelism", "Total_overhead");
	for (size_t i = 0; i < s->nr_cells; i++) {
		const struct matrix_cell *c = &s->cells[i];
		char rxt[32];
		snprintf(rxt, sizeof(rxt), "%dx%d", c->config->ranks, c->config->threads);
		fprintf(out, "    %4d %-9s %-12.6g", c->p, rxt,
			c->fig[ANALYSIS_EXECUTION_TIME].median);
		scaling_value(out, &c->speedup);
		scaling_value(out, &c->efficiency);
		scaling_value(out, &c->karp_flatt);
		scaling_value(out, &c->amdahl_bound);
		scaling_value(out, &c->gustafson_speedup);
		scaling_value(out, &c->average_parallelism);
		scaling_value(out, &c->total_overhead);
		if (c->superlinear)
			fputs("  superlinear: speedup > p (efficiency > 1, Karp_Flatt < 0)", out);
		else if (c->karp_flatt.n && c->karp_flatt.median >= 1)
			fputs("  no speedup: Karp_Flatt >= 1", out);
		fputc('\n', out);
	}
	if (s->trend) {
		fputs("    Karp_Flatt_slope ", out);
		figure(out, &s->karp_flatt_slope);
		struct strbuf sb = STRBUF_INIT;
		matrix_trend_describe(&sb, s);
		fprintf(out, ": %s\n", sb.buf);
		strbuf_release(&sb);
	}
	parallelism_trend(out, &s->average_parallelism_slope, s->average_parallelism_trend);
	if (s->projection_refused)
		fprintf(out, "    projection: none (%s)\n", s->projection_refused);
	else
		fprintf(out,
			"    projection: Measured_efficiency %.3g at p = %g, %.3g at p = %g (fit "
			"R^2 = %.3f)\n",
			s->projection_efficiency[0], s->projection_p[0],
			s->projection_efficiency[1], s->projection_p[1], s->projection_r2);
}

static void weak_section(FILE *out, const struct analysis *a, const struct matrix_weak *w)
{
	const struct matrix_weak_point *ref = &w->points[w->ref];

	fprintf(out,
		"\n== %s  %s  weak scaling: the size grows with p (reference %dx%d, size "
		"%.10g%s)\n",
		w->benchmark, a->intervals[w->interval].path, ref->cell->config->ranks,
		ref->cell->config->threads, ref->size,
		w->ref_is_serial
			? ""
			: ": no 1x1 configuration, efficiencies are relative to the smallest p");
	fprintf(out, "    %4s %-9s %-12s %-12s %-12s %-26s %-26s %s\n", "p", "RxT", "size",
		"size/p", "T", "Weak_efficiency", "Scaled_speedup", "Average_parallelism");
	for (size_t i = 0; i < w->nr_points; i++) {
		const struct matrix_cell *c = w->points[i].cell;
		char rxt[32];
		snprintf(rxt, sizeof(rxt), "%dx%d", c->config->ranks, c->config->threads);
		fprintf(out, "    %4d %-9s %-12.10g %-12.6g %-12.6g", c->p, rxt, w->points[i].size,
			w->points[i].size / c->p, c->fig[ANALYSIS_EXECUTION_TIME].median);
		scaling_value(out, &c->weak_efficiency);
		scaling_value(out, &c->gustafson_speedup);
		scaling_value(out, &c->average_parallelism);
		fputc('\n', out);
	}
	parallelism_trend(out, &w->average_parallelism_slope, w->average_parallelism_trend);
	fputs("    isoefficiency: none (each size is measured at one p only: it needs T(n, 1) at 2 "
	      "or more sizes, "
	      "from a benchmark with 'sizes')\n",
	      out);
}

static void iso_point(FILE *out, const struct isoeff *iso, const struct isoeff_point *pt)
{
	char n[64];

	if (pt->where == ISOEFF_INSIDE)
		snprintf(n, sizeof(n), "%.6g (interpolated)", pt->n);
	else
		snprintf(n, sizeof(n), "%s %.6g (%.3g)",
			 pt->where == ISOEFF_BELOW ? "<=" : "beyond", pt->n, pt->efficiency);
	fprintf(out, "    %4d %-26s", pt->p, n);
	for (size_t j = 0; j < iso->nr_sizes; j++) {
		if (pt->at[j])
			fprintf(out, " %-8.3g", pt->at[j]->efficiency.median);
		else
			fprintf(out, " %-8s", "-");
	}
	fputs("  ", out);
	for (size_t j = 0; j < iso->nr_sizes; j++) {
		if (pt->at[j] && pt->at[j]->total_overhead.n)
			fprintf(out, " %-10.4g", pt->at[j]->total_overhead.median);
		else
			fprintf(out, " %-10s", "-");
	}
	fputc('\n', out);
}

static void iso_growth(FILE *out, const struct isoeff *iso)
{
	const struct isoeff_fit *f = &iso->fits[iso->growth];
	char g[64], fn[64];

	isoeff_growth_text(iso->growth, f->k, g, sizeof(g));
	fprintf(out,
		"    growth: n ~ %.4g %s over %zu processor counts (fit on ln n: rms %.3g %% in n, "
		"R^2 %.3f",
		f->c, iso->growth == ISOEFF_CONSTANT ? "" : g, iso->nr_fitted, 100 * expm1(f->rms),
		f->r2);
	if (iso->growth == ISOEFF_POWER && isfinite(f->k_lo))
		fprintf(out, ", k in [%.3g, %.3g]", f->k_lo, f->k_hi);
	for (int k = 0, first = 1; k < ISOEFF_NR_GROWTHS; k++)
		if (k != iso->growth && iso->fits[k].eligible) {
			fprintf(out, "%s%s %.3g %%", first ? "; rms of the others: " : ", ",
				isoeff_growth_name(k), 100 * expm1(iso->fits[k].rms));
			first = 0;
		}
	fputs(")\n", out);
	if (iso->has_scalability) {
		isoeff_function_text(&iso->scalability, fn, sizeof(fn));
		fprintf(out, "    scalability function M(f(p))/p with memory %s: %s (%s)\n",
			iso->memory, fn, isoeff_verdict_name(iso->scalability.verdict));
	}
}

static void iso_section(FILE *out, const struct analysis *a, const struct isoeff *iso)
{
	fprintf(out, "\n== %s  %s  isoefficiency at %.0f %% efficiency (sizes", iso->benchmark,
		a->intervals[iso->interval].path, 100 * iso->target);
	for (size_t j = 0; j < iso->nr_sizes; j++)
		fprintf(out, "%s%.10g", j ? ", " : " ", iso->sizes[j]);
	fprintf(out, "%s)\n", iso->nr_sizes ? "" : " none with a 1x1 configuration");
	if (iso->nr_points) {
		fprintf(out, "    %4s %-26s %-*s   %s\n", "p", "n for efficiency >= E",
			(int)(9 * iso->nr_sizes), "Measured_efficiency", "Total_overhead (s)");
		for (size_t i = 0; i < iso->nr_points; i++)
			iso_point(out, iso, &iso->points[i]);
	}
	if (iso->growth >= 0)
		iso_growth(out, iso);
	fprintf(out, "    %s\n", iso->explanation);
}

void protocol_write(FILE *out, const struct analysis *a, const struct matrix *m)
{
	fprintf(out, "scalegate analyze: %s (%s)\n", a->dir,
		a->single ? "profiles of one run" : "results directory");
	if (a->nr_skipped)
		fprintf(out, "note: %zu runs did not succeed and are left out\n", a->nr_skipped);
	for (size_t i = 0; i < m->nr_series; i++) {
		const struct matrix_series *s = &m->series[i];
		const struct analysis_interval *iv = &a->intervals[s->interval];
		const struct matrix_figure *count = &s->cells[s->ref].fig[ANALYSIS_COUNT];
		fprintf(out, "\n== %s  %s  %s:%d  level %d  count %.0f  [size %s]\n", s->benchmark,
			iv->path, iv->file, iv->line, iv->depth, count->n ? count->median : 0,
			s->size);
		for (size_t k = 0; k < s->nr_cells; k++) {
			cell_main(out, &s->cells[k]);
			cell_comparative(out, &s->cells[k]);
		}
		if ((s->nr_cells > 1 || !a->single) && !s->weak)
			series_scaling(out, s);
	}
	for (size_t i = 0; i < m->nr_weak; i++)
		weak_section(out, a, &m->weak[i]);
	for (size_t i = 0; i < m->nr_iso; i++)
		iso_section(out, a, &m->iso[i]);
}

/* The protocol of the judged results, as 'scalegate analyze' prints it: gathered in memory, then
 * written atomically like every report. */
static int write_protocol(const struct report_input *in, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int ret;

	if (!out)
		return gate_error("cannot write '%s': out of memory", path);
	protocol_write(out, &in->j->a, &in->j->m);
	if (fclose(out))
		ret = gate_error("cannot write '%s': out of memory", path);
	else
		ret = write_file_atomic(path, buf, len);
	free(buf);
	return ret;
}

const struct report_format report_protocol = {
	"protocol", NULL, "--protocol",
	"write the text protocol of the analysis, as 'scalegate analyze'", write_protocol,
};
