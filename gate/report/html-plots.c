/* The strong-scaling plots of one interval in the HTML report: speedup, efficiency and Karp-Flatt
 * against p, the lost time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/words.h"
#include "judge/baseline.h"
#include "report/html-priv.h"
#include "analyze/matrix.h"
#include "analyze/scaling-size.h"
#include "stats/stats.h"

#define MAX_BARS 12 /* bars in a lost-time plot */


/* When the plot's key names a term (base/lost-table.h, 'key_when'). */
enum lost_key {
	LOST_KEY_ALWAYS,
	LOST_KEY_RANKS,         /* Idle is ranks that finished early: with one rank it cannot be */
	LOST_KEY_RANKS_OR_SEEN, /* Communication is 0 in a program without MPI (docs/metrics.md) */
	LOST_KEY_SEEN,          /* Interference: only where other processes took a share */
};

/* The terms of Lost_time (base/lost-table.h), each a share of the wall's Total_time. */
#define TERM(A, id, name, needs, key, colour, key_when, ...) \
	{ ANALYSIS_##id, HTML_##colour, LOST_KEY_##key_when },
#define PART(A, ...)
static const struct {
	enum analysis_figure fig;
	const char *colour;
	enum lost_key key_when;
} lost[] = { LOST_TERMS(TERM, PART, _) };
#undef TERM
#undef PART

/* A key for the term only where it can be, or is. */
static int lost_key_shown(size_t k, const struct matrix_cell *c)
{
	switch (lost[k].key_when) {
	case LOST_KEY_RANKS:
		return c->config->ranks > 1;
	case LOST_KEY_RANKS_OR_SEEN:
		return c->config->ranks > 1 || c->fig[lost[k].fig].median > 0;
	case LOST_KEY_SEEN:
		return c->fig[lost[k].fig].median > 0;
	case LOST_KEY_ALWAYS:
		break;
	}
	return 1;
}

static const char *size_name(const char *size)
{
	return size && strcmp(size, "-") ? size : NULL;
}

size_t html_configs(const struct html_section *sec, struct html_config *out, size_t max)
{
	size_t n = 0;

	if (sec->weak) {
		for (size_t i = 0; i < sec->weak->nr_points && n < max; i++, n++) {
			const struct matrix_weak_point *w = &sec->weak->points[i];
			out[n].cell = w->cell;
			out[n].size = w->series->size;
			config_words(out[n].name, sizeof(out[n].name), w->cell->config->ranks,
				     w->cell->config->threads, w->series->size);
			snprintf(out[n].tick, sizeof(out[n].tick), "%d\xc3\x97%d @%s",
				 w->cell->config->ranks, w->cell->config->threads, w->series->size);
		}
		return n;
	}
	for (size_t i = 0; i < sec->nr_series; i++)
		for (size_t j = 0; j < sec->series[i]->nr_cells && n < max; j++, n++) {
			const struct matrix_cell *c = &sec->series[i]->cells[j];
			const char *size = size_name(sec->series[i]->size);
			out[n].cell = c;
			out[n].size = sec->series[i]->size;
			config_words(out[n].name, sizeof(out[n].name), c->config->ranks,
				     c->config->threads, size && sec->nr_sizes > 1 ? size : NULL);
			if (size && sec->nr_sizes > 1)
				snprintf(out[n].tick, sizeof(out[n].tick), "%d\xc3\x97%d @%s",
					 c->config->ranks, c->config->threads, size);
			else
				snprintf(out[n].tick, sizeof(out[n].tick), "%d\xc3\x97%d",
					 c->config->ranks, c->config->threads);
		}
	return n;
}

/* Stacked bars of the lost-time components per configuration, the baseline's total as a dashed
 * level. */
static int lost_plot(struct strbuf *sb, const struct html_section *sec,
		     const struct html_config *bars, size_t nr, const char *note)
{
	const char *names[MAX_BARS];
	double base[MAX_BARS][ARRAY_SIZE(lost)];
	struct strbuf text = STRBUF_INIT;
	struct html_plot pl;
	double top = 0.05;
	int captured[ARRAY_SIZE(lost)] = { 0 }, any_base = 0;
	char sub[160];

	if (!nr)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		const struct matrix_cell *c = bars[i].cell;
		double total = c->fig[ANALYSIS_TOTAL_TIME_WALL].median, sum = 0, bsum = 0;
		names[i] = bars[i].tick;
		for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
			if (c->fig[lost[k].fig].n && total > 0)
				sum += fmax(0, c->fig[lost[k].fig].median / total),
				captured[k] |= lost_key_shown(k, c);
			base[i][k] = report_base_median(sec->base, sec->iv->path, bars[i].size,
							c->config->ranks, c->config->threads,
							lost[k].fig, 1);
			if (isfinite(base[i][k]))
				bsum += fmax(0, base[i][k]), any_base = 1;
		}
		top = fmax(top, fmax(sum, bsum));
	}
	memset(&pl, 0, sizeof(pl));
	pl.x.label = sec->nr_sizes > 1 || sec->weak
			     ? "configuration (ranks \xc3\x97 threads @ size)"
			     : "configuration (ranks \xc3\x97 threads)";
	pl.y.label = "share of Total_time";
	html_axis_categories(&pl.x, names, nr);
	html_axis_linear(&pl.y, 0, fmin(top * 1.05, 1), 1);
	pl.y.scale = 100;
	pl.y.suffix = " %";
	snprintf(sub, sizeof(sub),
		 "shares of the wall's Total_time per configuration (Interference: "
		 "the machine's), the %s pale",
		 sec->base_word);
	html_plot_begin(&pl, sb, "Lost time by cause", sub);
	for (size_t i = 0; i < nr; i++) {
		const struct matrix_cell *c = bars[i].cell;
		double total = c->fig[ANALYSIS_TOTAL_TIME_WALL].median, y = 0, yb = 0;
		/* with a baseline: its bar pale on the left, the current one on the right */
		double x = any_base ? (double)i + 0.14 : (double)i, w = any_base ? 0.44 : 0.62;
		for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
			const struct matrix_figure *fg = &c->fig[lost[k].fig];
			double share = fg->n && total > 0 ? fmax(0, fg->median / total) : NAN;
			if (isfinite(base[i][k])) {
				strbuf_reset(&text);
				strbuf_addf(&text, "%s (p = %d): %s %s %.1f %% of Total_time",
					    bars[i].name, c->p, sec->base_word,
					    analysis_figure_name(lost[k].fig), 100 * base[i][k]);
				html_bar(&pl, (double)i - 0.25, 0.26, yb, yb + fmax(0, base[i][k]),
					 lost[k].colour, 1, text.buf);
				yb += fmax(0, base[i][k]);
			}
			if (!isfinite(share))
				continue;
			strbuf_reset(&text);
			strbuf_addf(&text,
				    "%s (p = %d): %s %.1f %% of Total_time (%.3g s of %.3g s)",
				    bars[i].name, c->p, analysis_figure_name(lost[k].fig),
				    100 * share, fg->median, total);
			if (isfinite(base[i][k]))
				strbuf_addf(&text, "; %s %.1f %%", sec->base_word,
					    100 * base[i][k]);
			html_bar(&pl, x, w, y, y + share, lost[k].colour, 0, text.buf);
			y += share;
		}
	}
	/* only what applies: no Communication key for a program without MPI */
	for (size_t k = 0; k < ARRAY_SIZE(lost); k++)
		if (captured[k])
			html_plot_key(&pl, HTML_KEY_BOX, lost[k].colour, "%s",
				      analysis_figure_name(lost[k].fig));
	if (any_base)
		html_plot_key(&pl, HTML_KEY_PALE, HTML_GREY, "%s (pale, left)", sec->base_word);
	if (note)
		strbuf_addstr(&pl.notes, note);
	html_plot_end(&pl);
	strbuf_release(&text);
	return 1;
}

/*
 * The bars of the lost-time plot: every configuration while they fit; else,
 * with several sizes, each size at its largest p (how the losses shrink as the
 * problem grows), or evenly spread with the first and the last kept.
 */
static size_t bar_configs(const struct html_section *sec, struct html_config *bars,
			  struct strbuf *note)
{
	size_t total = sec->weak ? sec->weak->nr_points : 0, n;
	struct html_config *all;

	for (size_t i = 0; i < sec->nr_series; i++)
		total += sec->series[i]->nr_cells;
	all = xcalloc(total + 1, sizeof(*all));
	n = html_configs(sec, all, total);
	if (n <= MAX_BARS) {
		memcpy(bars, all, n * sizeof(*all));
	} else if (sec->nr_series > 1) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			if (i + 1 == n || all[i + 1].size != all[i].size)
				bars[k++] = all[i];
		strbuf_addf(
			note,
			"Each size at its largest p (%zu configurations in all, in the figures).",
			n);
		n = k;
	} else {
		for (size_t i = 0; i < MAX_BARS; i++)
			bars[i] = all[i * (n - 1) / (MAX_BARS - 1)];
		strbuf_addf(note, "%d of %zu configurations (all in the figures).", MAX_BARS, n);
		n = MAX_BARS;
	}
	free(all);
	return n;
}

size_t html_scaling_plots(struct strbuf *sb, const struct html_section *sec)
{
	struct html_config bars[MAX_BARS];
	struct strbuf note = STRBUF_INIT;
	size_t n = 0, nr;

	if (sec->nr_series) {
		/* the time first: the metric that fails most */
		n += (size_t)html_scaling_plot(sb, sec, HTML_TIME);
		n += (size_t)html_scaling_plot(sb, sec, HTML_SPEEDUP);
		n += (size_t)html_scaling_plot(sb, sec, HTML_EFFICIENCY);
		n += (size_t)html_scaling_plot(sb, sec, HTML_KARP_FLATT);
	}
	nr = bar_configs(sec, bars, &note);
	n += (size_t)lost_plot(sb, sec, bars, nr, note.len ? note.buf : NULL);
	strbuf_release(&note);
	return n;
}
