/* The --json output of 'scalegate analyze': keys as in docs/metrics.md, null where absent (schema:
 * docs/metrics.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/lost-terms.h"
#include "base/escape.h"
#include "base/units.h"
#include "report/protocol.h"
#include "analyze/scaling-size.h"

static void json_string(FILE *out, const char *s)
{
	json_fput_string(out, s);
}

static void json_number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else
		fputs("null", out);
}

/* ', "key": value' after the members before it */
static void json_key_number(FILE *out, const char *key, double v)
{
	fprintf(out, ", \"%s\": ", key);
	json_number(out, v);
}

static void json_key_string(FILE *out, const char *key, const char *s)
{
	fprintf(out, ", \"%s\": ", key);
	json_string(out, s);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* What a figure is in, by its key (docs/reports.md, "Units"): seconds, a count, a share of
 * Total_time, or a ratio. */
static const char *figure_unit(const char *key)
{
	if (!strcmp(key, "Processors") || !strcmp(key, "Count"))
		return "count";
	if (!strcmp(key, "Serial_share"))
		return "share";
	if (ends_with(key, "_time") || ends_with(key, "_time_wall") ||
	    !strcmp(key, "Load_imbalance") || !strcmp(key, "Serialized_work") ||
	    !strcmp(key, "Total_overhead"))
		return "s";
	for (size_t i = 0; i < lost_nr_terms; i++)
		if (!strcmp(key, lost_terms[i].name))
			return "s";
	return unit_name(UNIT_RATIO);
}

static void json_figure(FILE *out, const char *key, const struct matrix_figure *f)
{
	json_string(out, key);
	if (!f->n || !isfinite(f->median)) {
		fputs(": null", out);
		return;
	}
	fprintf(out, ": {\"n\": %zu, \"median\": ", f->n);
	json_number(out, f->median);
	json_key_number(out, "lo", f->lo);
	json_key_number(out, "hi", f->hi);
	json_key_string(out, "unit", figure_unit(key));
	fputc('}', out);
}

static void json_cmp(FILE *out, const struct analysis_cmp *c)
{
	if (isnan(c->mean)) {
		fputs("null", out);
		return;
	}
	fputs("{\"min\": ", out);
	json_number(out, c->min);
	fprintf(out, ", \"min_at\": {\"rank\": %d, \"thread\": %d}, \"max\": ", c->min_rank,
		c->min_thread);
	json_number(out, c->max);
	fprintf(out, ", \"max_at\": {\"rank\": %d, \"thread\": %d}, \"mean\": ", c->max_rank,
		c->max_thread);
	json_number(out, c->mean);
	fputs(", \"unit\": \"s\"}", out);
}

static void json_cell(FILE *out, const struct matrix_cell *c)
{
	fprintf(out, "{\"ranks\": %d, \"threads\": %d, \"p\": %d, \"characteristics\": {",
		c->config->ranks, c->config->threads, c->p);
	for (int f = 0; f < ANALYSIS_NR_FIGURES; f++) {
		fputs(f ? ", " : "", out);
		json_figure(out, analysis_figure_name(f), &c->fig[f]);
	}
	fputs("}, \"comparative\": {", out);
	for (int k = 0; k < ANALYSIS_NR_PQ; k++) {
		fputs(k ? ", " : "", out);
		json_string(out, analysis_pq_name(k));
		fputs(": ", out);
		json_cmp(out, &c->cmp[k]);
	}
	fputs("}", out);
	/* The figures across the matrix, under their JSON keys (docs/metrics.md). */
	const struct { const char *key; const struct matrix_figure *f; } across[] = {
		{ "Speedup", &c->speedup },
		{ "Measured_efficiency", &c->efficiency },
		{ "Karp_Flatt", &c->karp_flatt },
		{ "Computation_scalability", &c->computation_scalability },
		{ "Amdahl_bound", &c->amdahl_bound },
		{ "Gustafson_speedup", &c->gustafson_speedup },
		{ "Average_parallelism", &c->average_parallelism },
		{ "Total_overhead", &c->total_overhead },
		{ "Weak_efficiency", &c->weak_efficiency },
	};
	for (size_t k = 0; k < sizeof(across) / sizeof(across[0]); k++) {
		fputs(", ", out);
		json_figure(out, across[k].key, across[k].f);
	}
	fprintf(out, ", \"superlinear\": %s, \"wait_estimated\": %s, \"inconsistency\": ",
		c->superlinear ? "true" : "false", c->wait_estimated ? "true" : "false");
	if (c->inconsistent)
		json_number(out, c->inconsistency);
	else
		fputs("null", out);
	fputc('}', out);
}

static void json_string_or_null(FILE *out, const char *s)
{
	if (s)
		json_string(out, s);
	else
		fputs("null", out);
}

static void json_trend(FILE *out, const struct matrix_figure *slope, const char *trend)
{
	fputs(", ", out);
	json_figure(out, "Average_parallelism_slope", slope);
	fputs(", \"Average_parallelism_trend\": ", out);
	json_string_or_null(out, trend);
}

static void json_series(FILE *out, const struct analysis *a, const struct matrix_series *s)
{
	const struct analysis_interval *iv = &a->intervals[s->interval];
	const struct matrix_cell *ref = &s->cells[s->ref];

	fputs("{\"benchmark\": ", out);
	json_string(out, s->benchmark);
	json_key_string(out, "size", s->size);
	json_key_string(out, "interval", iv->path);
	json_key_string(out, "file", iv->file);
	fprintf(out,
		", \"line\": %d, \"level\": %d, \"reference\": {\"ranks\": %d, \"threads\": %d, "
		"\"serial\": %s}",
		iv->line, iv->depth, ref->config->ranks, ref->config->threads,
		s->ref_is_serial ? "true" : "false");
	fputs(", \"configurations\": [", out);
	for (size_t i = 0; i < s->nr_cells; i++) {
		fputs(i ? ",\n    " : "\n    ", out);
		json_cell(out, &s->cells[i]);
	}
	fputs("], ", out);
	json_figure(out, "Karp_Flatt_slope", &s->karp_flatt_slope);
	fputs(", \"Karp_Flatt_trend\": ", out);
	if (s->trend)
		json_string(out, s->trend);
	else
		fputs("null", out);
	fputs(", \"Projection\": ", out);
	if (s->projection_refused) {
		fputs("{\"refused\": ", out);
		json_string(out, s->projection_refused);
		fputc('}', out);
	} else {
		fprintf(out, "{\"r2\": ");
		json_number(out, s->projection_r2);
		fputs(", \"points\": [", out);
		for (int k = 0; k < 2; k++) {
			fprintf(out, "%s{\"p\": ", k ? ", " : "");
			json_number(out, s->projection_p[k]);
			json_key_number(out, "Measured_efficiency", s->projection_efficiency[k]);
			fputc('}', out);
		}
		fputs("]}", out);
	}
	json_trend(out, &s->average_parallelism_slope, s->average_parallelism_trend);
	fprintf(out, ", \"weak\": %s}", s->weak ? "true" : "false");
}

static void json_weak(FILE *out, const struct analysis *a, const struct matrix_weak *w)
{
	const struct matrix_cell *ref = w->points[w->ref].cell;

	fputs("{\"benchmark\": ", out);
	json_string(out, w->benchmark);
	json_key_string(out, "interval", a->intervals[w->interval].path);
	fprintf(out,
		", \"reference\": {\"ranks\": %d, \"threads\": %d, \"size\": ", ref->config->ranks,
		ref->config->threads);
	json_number(out, w->points[w->ref].size);
	fprintf(out, ", \"serial\": %s}, \"points\": [", w->ref_is_serial ? "true" : "false");
	for (size_t i = 0; i < w->nr_points; i++) {
		const struct matrix_cell *c = w->points[i].cell;
		fprintf(out, "%s{\"ranks\": %d, \"threads\": %d, \"p\": %d, \"size\": ",
			i ? ",\n    " : "\n    ", c->config->ranks, c->config->threads, c->p);
		json_number(out, w->points[i].size);
		fputs(", ", out);
		json_figure(out, "Execution_time", &c->fig[ANALYSIS_EXECUTION_TIME]);
		fputs(", ", out);
		json_figure(out, "Weak_efficiency", &c->weak_efficiency);
		fputs(", ", out);
		json_figure(out, "Scaled_speedup", &c->gustafson_speedup);
		fputs(", ", out);
		json_figure(out, "Average_parallelism", &c->average_parallelism);
		fputc('}', out);
	}
	fputc(']', out);
	json_trend(out, &w->average_parallelism_slope, w->average_parallelism_trend);
	fputc('}', out);
}

static void json_fit(FILE *out, enum isoeff_growth g, const struct isoeff_fit *f)
{
	fputs("{\"model\": ", out);
	json_string(out, isoeff_growth_name(g));
	json_key_number(out, "C", f->c);
	json_key_number(out, "k", f->k);
	json_key_number(out, "k_lo", f->k_lo);
	json_key_number(out, "k_hi", f->k_hi);
	json_key_number(out, "rms", f->rms);
	json_key_number(out, "r2", f->r2);
	fputc('}', out);
}

static void json_iso_point(FILE *out, const struct isoeff *iso, const struct isoeff_point *pt)
{
	static const char *const where[] = { "inside", "below", "beyond" };

	fprintf(out, "{\"p\": %d, \"where\": \"%s\", \"n\": ", pt->p, where[pt->where]);
	json_number(out, pt->n);
	json_key_number(out, "Measured_efficiency", pt->efficiency);
	fputs(", \"sizes\": [", out);
	for (size_t j = 0; j < iso->nr_sizes; j++) {
		const struct matrix_cell *c = pt->at[j];
		static const struct matrix_figure none;
		fprintf(out, "%s{\"size\": ", j ? ", " : "");
		json_number(out, iso->sizes[j]);
		fprintf(out, ", \"ranks\": %d, \"threads\": %d, ", c ? c->config->ranks : 0,
			c ? c->config->threads : 0);
		json_figure(out, "Measured_efficiency", c ? &c->efficiency : &none);
		fputs(", ", out);
		json_figure(out, "Total_overhead", c ? &c->total_overhead : &none);
		fputc('}', out);
	}
	fputs("]}", out);
}

static void json_scalability(FILE *out, const struct isoeff *iso)
{
	char fn[64];

	if (!iso->has_scalability) {
		fputs(", \"Scalability_function\": null, \"scalability\": null", out);
		return;
	}
	isoeff_function_text(&iso->scalability, fn, sizeof(fn));
	fputs(", \"Scalability_function\": {\"text\": ", out);
	json_string(out, fn);
	json_key_number(out, "p_exponent", iso->scalability.p_exp);
	json_key_number(out, "log_exponent", iso->scalability.log_exp);
	fprintf(out, ", \"loglog_exponent\": %d}, \"scalability\": \"%s\"",
		iso->scalability.loglog_exp, isoeff_verdict_name(iso->scalability.verdict));
}

static void json_iso(FILE *out, const struct analysis *a, const struct isoeff *iso)
{
	fputs("{\"benchmark\": ", out);
	json_string(out, iso->benchmark);
	json_key_string(out, "interval", a->intervals[iso->interval].path);
	json_key_number(out, "target_efficiency", iso->target);
	fputs(", \"sizes\": [", out);
	for (size_t j = 0; j < iso->nr_sizes; j++) {
		fputs(j ? ", " : "", out);
		json_number(out, iso->sizes[j]);
	}
	fputs("], \"points\": [", out);
	for (size_t i = 0; i < iso->nr_points; i++) {
		fputs(i ? ",\n    " : "\n    ", out);
		json_iso_point(out, iso, &iso->points[i]);
	}
	fputs("], \"refused\": ", out);
	json_string_or_null(out, iso->refused);
	fputs(", \"growth\": ", out);
	if (iso->growth >= 0)
		json_fit(out, iso->growth, &iso->fits[iso->growth]);
	else
		fputs("null", out);
	fprintf(out, ", \"fitted_points\": %zu, \"candidates\": [", iso->nr_fitted);
	for (int g = 0, first = 1; g < ISOEFF_NR_GROWTHS; g++)
		if (iso->fits[g].eligible) {
			fputs(first ? "" : ", ", out);
			json_fit(out, g, &iso->fits[g]);
			first = 0;
		}
	fputs("], \"memory\": ", out);
	json_string_or_null(out, iso->memory);
	json_scalability(out, iso);
	json_key_string(out, "explanation", iso->explanation);
	fputc('}', out);
}

void protocol_json_write(FILE *out, const struct analysis *a, const struct matrix *m)
{
	fputs("{\"scalegate_analysis\": 1, \"dir\": ", out);
	json_string(out, a->dir);
	fprintf(out, ", \"single_run\": %s, \"skipped_runs\": %zu, \"fingerprint\": {",
		a->single ? "true" : "false", a->nr_skipped);
	for (size_t i = 0; i + 1 < a->nr_fingerprint; i += 2) {
		fputs(i ? ", " : "", out);
		json_string(out, a->fingerprint[i]);
		fputs(": ", out);
		json_string(out, a->fingerprint[i + 1]);
	}
	fputs("},\n  \"intervals\": [", out);
	for (size_t i = 0; i < m->nr_series; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_series(out, a, &m->series[i]);
	}
	fputs("\n  ],\n  \"weak_scaling\": [", out);
	for (size_t i = 0; i < m->nr_weak; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_weak(out, a, &m->weak[i]);
	}
	fprintf(out, "%s],\n  \"isoefficiency\": [", m->nr_weak ? "\n  " : "");
	for (size_t i = 0; i < m->nr_iso; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_iso(out, a, &m->iso[i]);
	}
	fprintf(out, "%s]}\n", m->nr_iso ? "\n  " : "");
}
