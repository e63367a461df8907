/* The strong-scaling plots of one interval in the HTML report: speedup, efficiency and Karp-Flatt against p, the lost time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/baseline.h"
#include "report/html-priv.h"
#include "analyze/matrix.h"
#include "analyze/scaling-size.h"
#include "stats/stats.h"

#define MAX_P 64    /* distinct processor counts on an axis */
#define MAX_BARS 12 /* bars in a lost-time plot */

/* The median of a baseline figure (share: of Total_time) in one configuration, NAN without it. */
double html_base_median(const struct baseline *b, const char *path, const char *size, int ranks, int threads,
			enum analysis_figure f, int share)
{
	const struct baseline_cell *c = b ? baseline_find(b, path, size ? size : "-", ranks, threads) : NULL;
	double *x, med;
	size_t n;

	if (!c || !c->n)
		return NAN;
	x = xcalloc(c->n, sizeof(*x));
	n = share ? baseline_shares(c, f, x) : baseline_samples(c, f, x);
	med = n ? stats_median(x, n) : NAN;
	free(x);
	return med;
}

/* The baseline's speedup of each cell of 's': median T of the reference over median T at the cell. */
static void base_speedup(const struct html_section *sec, const struct matrix_series *s, double *out)
{
	const struct analysis_config *ref = s->cells[s->ref].config;
	double t_ref = html_base_median(sec->base, sec->iv->path, s->size, ref->ranks, ref->threads,
					ANALYSIS_EXECUTION_TIME, 0);

	for (size_t i = 0; i < s->nr_cells; i++) {
		const struct analysis_config *c = s->cells[i].config;
		double t = html_base_median(sec->base, sec->iv->path, s->size, c->ranks, c->threads,
					    ANALYSIS_EXECUTION_TIME, 0);
		out[i] = t > 0 && t_ref > 0 ? t_ref / t : NAN;
	}
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The distinct processor counts of the drawn series, ascending. */
static size_t processor_counts(const struct html_section *sec, double *p)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < sec->nr_series; i++)
		for (size_t j = 0; j < sec->series[i]->nr_cells && n < MAX_P; j++)
			p[n++] = sec->series[i]->cells[j].p;
	qsort(p, n, sizeof(*p), cmp_double);
	for (size_t i = 0; i < n; i++)
		if (!k || p[i] != p[k - 1])
			p[k++] = p[i];
	return k;
}

enum scaling_figure { SPEEDUP, EFFICIENCY, KARP_FLATT };

static const struct matrix_figure *figure_of(const struct matrix_cell *c, enum scaling_figure f)
{
	return f == SPEEDUP ? &c->speedup : f == EFFICIENCY ? &c->efficiency : &c->karp_flatt;
}

/* The baseline's value of figure f from its speedup at p. */
static double base_value(double speedup, int p, enum scaling_figure f)
{
	return f == SPEEDUP ? speedup : f == EFFICIENCY ? speedup / p : matrix_karp_flatt(speedup, p);
}

static const char *const figure_names[] = { "speedup", "efficiency", ("Karp\xe2\x80\x93" "Flatt e") };

/* "size S, " when the section has several sizes, or its only one. */
static void size_prefix(struct strbuf *sb, const struct html_section *sec, const struct matrix_series *s)
{
	if (s->size && strcmp(s->size, "-") && sec->nr_sizes > 1)
		strbuf_addf(sb, "size %s, ", s->size);
}

/* The range of the current intervals and baseline values of figure f, for its axis. */
static void figure_range(const struct html_section *sec, enum scaling_figure f, double *lo, double *hi,
			 size_t *marks)
{
	*lo = INFINITY, *hi = -INFINITY, *marks = 0;
	for (size_t i = 0; i < sec->nr_series; i++) {
		const struct matrix_series *s = sec->series[i];
		double *bs = xcalloc(s->nr_cells + 1, sizeof(*bs));
		base_speedup(sec, s, bs);
		for (size_t j = 0; j < s->nr_cells; j++) {
			const struct matrix_figure *fg = figure_of(&s->cells[j], f);
			double b = base_value(bs[j], s->cells[j].p, f);
			if (f == KARP_FLATT && s->cells[j].p <= 1)
				continue;
			if (fg->n && isfinite(fg->median)) {
				double l = isfinite(fg->lo) ? fg->lo : fg->median, h = isfinite(fg->hi) ? fg->hi : fg->median;
				*lo = fmin(*lo, fmin(l, fg->median));
				*hi = fmax(*hi, fmax(h, fg->median));
				(*marks)++;
			}
			if (isfinite(b)) {
				*lo = fmin(*lo, b);
				*hi = fmax(*hi, b);
			}
		}
		free(bs);
	}
}

/* The Karp-Flatt trend of each drawn size in words. */
static void trend_note(struct strbuf *sb, const struct html_section *sec)
{
	const char *last = NULL;

	for (size_t i = 0; i < sec->nr_series; i++) {
		const struct matrix_series *s = sec->series[i];
		if (!s->trend)
			continue;
		strbuf_addstr(sb, sb->len ? "; " : "Trend over p: ");
		if (sec->nr_sizes > 1) {
			strbuf_addstr(sb, "size ");
			html_text(sb, s->size);
			strbuf_addch(sb, ' ');
		}
		strbuf_addf(sb, "<b>%s</b>", s->trend);
		if (s->karp_flatt_slope.n && sec->nr_sizes <= 1)
			strbuf_addf(sb, " (slope %.3g per processor [%.3g, %.3g])", s->karp_flatt_slope.median,
				    s->karp_flatt_slope.lo, s->karp_flatt_slope.hi);
		last = s->trend;
	}
	if (last && sec->nr_sizes <= 1)
		strbuf_addstr(sb, !strcmp(last, "rising") ?
			      ": overhead that grows with p (communication, synchronization, start-up)." :
			      !strcmp(last, "flat") ? ": an inherent serial fraction." : ".");
	else if (last)
		strbuf_addstr(sb, ". Rising: overhead that grows with p; flat: an inherent serial fraction.");
}

/* One plot of figure f against p: ideal, baseline (dashed, open markers), current (solid, intervals). */
static int scaling_plot(struct strbuf *sb, const struct html_section *sec, enum scaling_figure f)
{
	double p[MAX_P], lo, hi, ideal_x[41], ideal_y[41];
	size_t np = processor_counts(sec, p), marks;
	struct strbuf text = STRBUF_INIT;
	struct html_plot pl;
	int any_base = 0;

	figure_range(sec, f, &lo, &hi, &marks);
	if (!marks)
		return 0;
	memset(&pl, 0, sizeof(pl));
	pl.x.label = "processors p";
	html_axis_points(&pl.x, p, np);
	if (f == SPEEDUP)
		hi = fmax(hi, p[np - 1]);
	if (f == EFFICIENCY)
		hi = fmax(hi, 1);
	if (f == KARP_FLATT) /* a noisy e at p = 2 can span [-1, 3]: the axis keeps to what e can mean */
		lo = fmax(lo, -1), hi = fmin(fmax(hi, 0.05), 2);
	html_axis_linear(&pl.y, lo, hi, 1);
	pl.y.label = f == SPEEDUP ? "speedup" : f == EFFICIENCY ? "efficiency" : "Karp\xe2\x80\x93" "Flatt e";
	html_plot_begin(&pl, sb, f == SPEEDUP ? "Speedup vs p" : f == EFFICIENCY ? "Measured efficiency vs p" :
			"Karp\xe2\x80\x93" "Flatt serial fraction e vs p",
			"medians with 95 % intervals, baseline dashed");
	if (f != KARP_FLATT) {
		/* speedup = p up to the top of the axis: clamped at the frame, it would draw a false plateau */
		double x1 = f == SPEEDUP ? fmin(pl.x.hi, pl.y.hi) : pl.x.hi;
		for (int i = 0; i <= 40; i++) {
			double t = (double)i / 40;
			ideal_x[i] = pl.x.log ? exp(log(pl.x.lo) + t * (log(x1) - log(pl.x.lo))) : pl.x.lo + t * (x1 - pl.x.lo);
			ideal_y[i] = f == SPEEDUP ? ideal_x[i] : 1;
		}
		html_line(&pl, ideal_x, ideal_y, 41, HTML_GREY, 2, 1, f == SPEEDUP ? "ideal: speedup = p" :
			  "ideal: efficiency 1");
	}
	for (size_t i = 0; i < sec->nr_series; i++) {
		const struct matrix_series *s = sec->series[i];
		const char *colour = html_colour(i);
		double *bs = xcalloc(s->nr_cells + 1, sizeof(*bs)), *x = xcalloc(s->nr_cells + 1, sizeof(*x));
		double *yb = xcalloc(s->nr_cells + 1, sizeof(*yb)), *yc = xcalloc(s->nr_cells + 1, sizeof(*yc));
		base_speedup(sec, s, bs);
		for (size_t j = 0; j < s->nr_cells; j++) {
			const struct matrix_figure *fg = figure_of(&s->cells[j], f);
			int skip = f == KARP_FLATT && s->cells[j].p <= 1;
			x[j] = s->cells[j].p;
			yb[j] = skip ? NAN : base_value(bs[j], s->cells[j].p, f);
			yc[j] = skip || !fg->n ? NAN : fg->median;
			any_base |= isfinite(yb[j]);
		}
		html_line(&pl, x, yb, s->nr_cells, colour, 1, 0, "baseline");
		html_line(&pl, x, yc, s->nr_cells, colour, 0, 0, NULL);
		for (size_t j = 0; j < s->nr_cells; j++) {
			const struct matrix_cell *c = &s->cells[j];
			const struct matrix_figure *fg = figure_of(c, f);
			if (isfinite(yb[j])) {
				strbuf_reset(&text);
				size_prefix(&text, sec, s);
				strbuf_addf(&text, "p = %d (%dx%d): baseline %s %.3g", c->p, c->config->ranks,
					    c->config->threads, figure_names[f], yb[j]);
				html_point(&pl, x[j], yb[j], HTML_RING, colour, text.buf);
			}
			if (!isfinite(yc[j]))
				continue;
			html_errorbar(&pl, x[j], fg->lo, fg->hi, colour);
			strbuf_reset(&text);
			size_prefix(&text, sec, s);
			strbuf_addf(&text, "p = %d (%dx%d): %s %.3g [%.3g, %.3g], n = %zu", c->p, c->config->ranks,
				    c->config->threads, figure_names[f], fg->median, fg->lo, fg->hi, fg->n);
			if (isfinite(yb[j]))
				strbuf_addf(&text, "; baseline %.3g", yb[j]);
			if (f == KARP_FLATT && c->superlinear)
				strbuf_addstr(&text, " (superlinear)");
			html_point(&pl, x[j], yc[j], HTML_DOT, colour, text.buf);
		}
		if (sec->nr_sizes > 1 && s->size)
			html_plot_key(&pl, HTML_KEY_LINE, colour, "size %s", s->size);
		free(bs), free(x), free(yb), free(yc);
	}
	if (sec->nr_sizes <= 1)
		html_plot_key(&pl, HTML_KEY_LINE, html_colour(0), "current (median, 95 %% interval)");
	html_plot_key(&pl, HTML_KEY_DASHED, sec->nr_sizes > 1 ? HTML_INK : html_colour(0), "%s",
		      any_base ? "baseline" : "baseline: none recorded");
	if (f != KARP_FLATT)
		html_plot_key(&pl, HTML_KEY_DOTTED, HTML_GREY, "ideal");
	if (f == KARP_FLATT)
		trend_note(&pl.notes, sec);
	html_plot_end(&pl);
	strbuf_release(&text);
	return 1;
}

/* The four terms of Lost_time (DESIGN.md), each a share of Total_time. */
static const struct {
	enum analysis_figure fig;
	const char *colour;
	const char *what;
} lost[] = {
	{ ANALYSIS_INSUFFICIENT_PARALLELISM, HTML_ORANGE, "serial code, idle in parallel regions" },
	{ ANALYSIS_COMMUNICATION, HTML_BLUE, "MPI, not waiting" },
	{ ANALYSIS_IDLE, HTML_PURPLE, "ranks that finished early" },
	{ ANALYSIS_SYNCHRONIZATION, HTML_GREEN, "barriers, locks, MPI waiting" },
};

/* Stacked bars of the lost-time components per configuration, the baseline's total as a dashed level. */
static int lost_plot(struct strbuf *sb, const struct html_section *sec, const struct html_config *bars, size_t nr,
		     const char *note)
{
	const char *names[MAX_BARS];
	double base[MAX_BARS][ARRAY_SIZE(lost)];
	struct strbuf text = STRBUF_INIT;
	struct html_plot pl;
	double top = 0.05;
	int captured[ARRAY_SIZE(lost)] = { 0 }, any_base = 0;

	if (!nr)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		const struct matrix_cell *c = bars[i].cell;
		double total = c->fig[ANALYSIS_TOTAL_TIME].median, sum = 0, bsum = 0;
		names[i] = bars[i].name;
		for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
			if (c->fig[lost[k].fig].n && total > 0)
				sum += fmax(0, c->fig[lost[k].fig].median / total), captured[k] = 1;
			base[i][k] = html_base_median(sec->base, sec->iv->path, bars[i].size, c->config->ranks,
						      c->config->threads, lost[k].fig, 1);
			if (isfinite(base[i][k]))
				bsum += fmax(0, base[i][k]), any_base = 1;
		}
		top = fmax(top, fmax(sum, bsum));
	}
	memset(&pl, 0, sizeof(pl));
	pl.x.label = sec->nr_sizes > 1 || sec->weak ? "configuration (ranks x threads @ size)" :
		     "configuration (ranks x threads)";
	pl.y.label = "share of Total_time";
	html_axis_categories(&pl.x, names, nr);
	html_axis_linear(&pl.y, 0, fmin(top * 1.05, 1), 1);
	pl.y.scale = 100;
	pl.y.suffix = " %";
	html_plot_begin(&pl, sb, "Lost time by cause", "shares of Total_time per configuration, the baseline pale");
	for (size_t i = 0; i < nr; i++) {
		const struct matrix_cell *c = bars[i].cell;
		double total = c->fig[ANALYSIS_TOTAL_TIME].median, y = 0, yb = 0;
		/* with a baseline: its bar pale on the left, the current one on the right */
		double x = any_base ? (double)i + 0.14 : (double)i, w = any_base ? 0.44 : 0.62;
		for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
			const struct matrix_figure *fg = &c->fig[lost[k].fig];
			double share = fg->n && total > 0 ? fmax(0, fg->median / total) : NAN;
			if (isfinite(base[i][k])) {
				strbuf_reset(&text);
				strbuf_addf(&text, "%s (p = %d): baseline %s %.1f %% of Total_time", bars[i].name, c->p,
					    analysis_figure_name(lost[k].fig), 100 * base[i][k]);
				html_bar(&pl, (double)i - 0.25, 0.26, yb, yb + fmax(0, base[i][k]), lost[k].colour, 1,
					 text.buf);
				yb += fmax(0, base[i][k]);
			}
			if (!isfinite(share))
				continue;
			strbuf_reset(&text);
			strbuf_addf(&text, "%s (p = %d): %s %.1f %% of Total_time (%.3g s of %.3g s)", bars[i].name, c->p,
				    analysis_figure_name(lost[k].fig), 100 * share, fg->median, total);
			if (isfinite(base[i][k]))
				strbuf_addf(&text, "; baseline %.1f %%", 100 * base[i][k]);
			html_bar(&pl, x, w, y, y + share, lost[k].colour, 0, text.buf);
			y += share;
		}
	}
	for (size_t k = 0; k < ARRAY_SIZE(lost); k++)
		html_plot_key(&pl, HTML_KEY_BOX, lost[k].colour, "%s%s", analysis_figure_name(lost[k].fig),
			      captured[k] ? "" : " (not captured)");
	if (any_base)
		html_plot_key(&pl, HTML_KEY_PALE, HTML_GREY, "baseline (pale, left)");
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
static size_t bar_configs(const struct html_section *sec, struct html_config *bars, struct strbuf *note)
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
		strbuf_addf(note, "Each size at its largest p (%zu configurations in all, in the figures).", n);
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
		n += (size_t)scaling_plot(sb, sec, SPEEDUP);
		n += (size_t)scaling_plot(sb, sec, EFFICIENCY);
		n += (size_t)scaling_plot(sb, sec, KARP_FLATT);
	}
	nr = bar_configs(sec, bars, &note);
	n += (size_t)lost_plot(sb, sec, bars, nr, note.len ? note.buf : NULL);
	strbuf_release(&note);
	return n;
}
