/* What 'scalegate calibrate' prints: per rule and check, the false-positive rate and the smallest
 * change caught. */
#include <math.h>
#include <string.h>

#include "judge/calibrate.h"
#include "judge/check-priv.h"
#include "base/escape.h"
#include "stats/stats.h"

static const struct check_metric *metric_named(const char *name)
{
	for (int i = 0; i < RULES_NR_METRICS; i++)
		if (!strcmp(check_metrics[i].name, name))
			return &check_metrics[i];
	return NULL;
}

/* The change needed in every comparison: the one farthest in the metric's worse direction. */
static double every(const struct calibrate_row *row)
{
	double v = NAN;

	for (size_t i = 0; i < row->nr_detect; i++)
		if (isnan(v) || fabs(row->detect[i]) > fabs(v))
			v = row->detect[i];
	return v;
}

static void format_change(char *buf, size_t size, const struct calibrate_row *row, double v)
{
	const struct check_metric *m = metric_named(row->metric);

	if (m)
		check_format_change(buf, size, m, v, row->relative);
	else
		snprintf(buf, size, "%+.3g", v);
}

static void print_row(FILE *out, const struct calibrate_row *row)
{
	size_t total = row->judged + row->skipped;
	char e[48], med[48];

	fprintf(out, "%s  %s  %s\n", row->kind, row->metric, row->origin);
	fprintf(out, "    false positives: %zu of %zu checks fail (%.1f %%), %zu warn", row->fail,
		row->judged, row->judged ? 100.0 * row->fail / row->judged : 0.0, row->warn);
	if (row->skipped)
		fprintf(out, "; %zu of %zu skipped: %s", row->skipped, total, row->skip_reason);
	fputc('\n', out);
	if (!strncmp(row->kind, "tolerance.", 10) && (row->nr_detect || row->undetectable)) {
		format_change(e, sizeof(e), row, every(row));
		format_change(med, sizeof(med), row, stats_median(row->detect, row->nr_detect));
		if (row->nr_detect)
			fprintf(out,
				"    smallest change caught in every comparison: %s (median %s; "
				"%zu comparisons), "
				"largest needed at %s\n",
				e, med, row->nr_detect, row->worst);
		if (row->nr_detect && row->slowdown)
			fprintf(out,
				"    as a slowdown of T(p): %.1f %% caught in every comparison "
				"(median %.1f %%)\n",
				100 * stats_max(row->shift, row->nr_detect),
				100 * stats_median(row->shift, row->nr_detect));
		if (row->undetectable)
			fprintf(out,
				"    %zu comparisons catch no change at all within the search "
				"limit\n",
				row->undetectable);
	}
}

/*
 * The shift between the sets taken as sittings, in the order given, as a
 * stored baseline that was updated from each in turn would measure it
 * (baseline-history.c): what the stored mode allows for.
 */
static void print_shift(FILE *out, const struct calibrate *cal, const char *benchmark)
{
	struct baseline prev, cur;
	struct baseline_shift s;

	baseline_from_analysis(&prev, &cal->sets[0].a, benchmark);
	for (size_t k = 1; k < cal->nr_sets; k++) {
		baseline_from_analysis(&cur, &cal->sets[k].a, benchmark);
		baseline_carry(&cur, &prev);
		baseline_release(&prev);
		prev = cur;
	}
	baseline_measure_shift(&prev, &s);
	if (isfinite(s.time) && s.sittings >= CHECK_SITTINGS_MEASURED)
		fprintf(out,
			"  %s: shift between the sets as sittings: sd %.2g %% in time, %.2g %% in "
			"speedup (%zu sets with "
			"distinct dates)\n",
			benchmark, 100 * s.time, 100 * s.speedup, s.sittings);
	else
		fprintf(out,
			"  %s: shift between the sets as sittings: needs %d sets with distinct "
			"dates (%zu here)\n",
			benchmark, CHECK_SITTINGS_MEASURED, s.sittings);
	baseline_release(&prev);
}

void calibrate_print(FILE *out, const struct calibrate *cal)
{
	fprintf(out,
		"scalegate calibrate: %zu result sets, %zu comparisons (each set as the current "
		"results "
		"against every other as the baseline)\n",
		cal->nr_sets, cal->comparisons);
	for (size_t i = 0; i < cal->nr_sets; i++)
		fprintf(out, "  set %zu: %s\n", i + 1, cal->sets[i].dir);
	for (size_t i = 0; cal->nr_sets && i < cal->sets[0].a.nr_configs; i++) {
		const struct analysis_config *configs = cal->sets[0].a.configs;
		size_t k = 0;
		while (k < i && strcmp(configs[k].benchmark, configs[i].benchmark))
			k++;
		if (k == i) /* the benchmark's first configuration */
			print_shift(out, cal, configs[i].benchmark);
	}
	for (size_t i = 0; i < cal->nr_rows; i++)
		print_row(out, &cal->rows[i]);
	if (!cal->nr_rows)
		fputs("no rule compared anything: the rules set no tolerance or bound that "
		      "applies\n",
		      out);
}

static void json_row(struct strbuf *sb, const struct calibrate_row *row)
{
	strbuf_addstr(sb, "{\"rule\":");
	json_add_string(sb, row->origin);
	strbuf_addstr(sb, ",\"kind\":");
	json_add_string(sb, row->kind);
	strbuf_addstr(sb, ",\"metric\":");
	json_add_string(sb, row->metric);
	strbuf_addf(sb,
		    ",\"judged\":%zu,\"fail\":%zu,\"warn\":%zu,\"skipped\":%zu,\"false_positive_"
		    "rate\":",
		    row->judged, row->fail, row->warn, row->skipped);
	json_add_number(sb, row->judged ? (double)row->fail / row->judged : NAN);
	strbuf_addstr(sb, ",\"skip_reason\":");
	json_add_string(sb, row->skip_reason);
	strbuf_addf(sb,
		    ",\"detectable\":{\"relative\":%s,\"comparisons\":%zu,\"undetectable\":%zu,"
		    "\"every\":",
		    row->relative ? "true" : "false", row->nr_detect, row->undetectable);
	json_add_number(sb, every(row));
	strbuf_addstr(sb, ",\"median\":");
	json_add_number(sb, row->nr_detect ? stats_median(row->detect, row->nr_detect) : NAN);
	strbuf_addstr(sb, ",\"slowdown_every\":");
	json_add_number(sb, row->slowdown && row->nr_detect ? stats_max(row->shift, row->nr_detect)
							    : NAN);
	strbuf_addstr(sb, ",\"largest_at\":");
	json_add_string(sb, row->worst);
	strbuf_addstr(sb, "}}");
}

int calibrate_write_json(const struct calibrate *cal, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "{\"scalegate_calibrate\":1,\"comparisons\":%zu,\"sets\":[",
		    cal->comparisons);
	for (size_t i = 0; i < cal->nr_sets; i++) {
		if (i)
			strbuf_addch(&sb, ',');
		json_add_string(&sb, cal->sets[i].dir);
	}
	strbuf_addstr(&sb, "],\"checks\":[");
	for (size_t i = 0; i < cal->nr_rows; i++) {
		if (i)
			strbuf_addch(&sb, ',');
		json_row(&sb, &cal->rows[i]);
	}
	strbuf_addstr(&sb, "]}\n");
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
