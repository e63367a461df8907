/* The --json output of 'scalegate analyze': keys as in DESIGN.md, null where absent (schema: docs/metrics.md). */
#include <math.h>
#include <stdio.h>

#include "protocol.h"

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else
		fputs("null", out);
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
	fputs(", \"lo\": ", out);
	json_number(out, f->lo);
	fputs(", \"hi\": ", out);
	json_number(out, f->hi);
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
	fprintf(out, ", \"min_at\": {\"rank\": %d, \"thread\": %d}, \"max\": ", c->min_rank, c->min_thread);
	json_number(out, c->max);
	fprintf(out, ", \"max_at\": {\"rank\": %d, \"thread\": %d}, \"mean\": ", c->max_rank, c->max_thread);
	json_number(out, c->mean);
	fputc('}', out);
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
	fputs("}, ", out);
	json_figure(out, "Speedup", &c->speedup);
	fputs(", ", out);
	json_figure(out, "Measured_efficiency", &c->efficiency);
	fputs(", ", out);
	json_figure(out, "Karp_Flatt", &c->karp_flatt);
	fputs(", ", out);
	json_figure(out, "Computation_scalability", &c->computation_scalability);
	fputs(", ", out);
	json_figure(out, "Amdahl_bound", &c->amdahl_bound);
	fputs(", ", out);
	json_figure(out, "Gustafson_speedup", &c->gustafson_speedup);
	fprintf(out, ", \"superlinear\": %s, \"wait_estimated\": %s, \"inconsistency\": ",
		c->superlinear ? "true" : "false", c->wait_estimated ? "true" : "false");
	if (c->inconsistent)
		json_number(out, c->inconsistency);
	else
		fputs("null", out);
	fputc('}', out);
}

static void json_series(FILE *out, const struct analysis *a, const struct matrix_series *s)
{
	const struct analysis_interval *iv = &a->intervals[s->interval];
	const struct matrix_cell *ref = &s->cells[s->ref];

	fputs("{\"benchmark\": ", out);
	json_string(out, s->benchmark);
	fputs(", \"size\": ", out);
	json_string(out, s->size);
	fputs(", \"interval\": ", out);
	json_string(out, iv->path);
	fputs(", \"file\": ", out);
	json_string(out, iv->file);
	fprintf(out, ", \"line\": %d, \"level\": %d, \"reference\": {\"ranks\": %d, \"threads\": %d, \"serial\": %s}",
		iv->line, iv->depth, ref->config->ranks, ref->config->threads, s->ref_is_serial ? "true" : "false");
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
			fputs(", \"Measured_efficiency\": ", out);
			json_number(out, s->projection_efficiency[k]);
			fputc('}', out);
		}
		fputs("]}", out);
	}
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
	fputs("\n]}\n", out);
}
