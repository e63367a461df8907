/*
 * The strong-scaling plots of one interval in the HTML report: speedup, efficiency and Karp-Flatt e
 * against p. The current medians with their 95 % intervals, the baseline's too (dashed, open
 * markers, beside them); configurations that share a p (1 rank x 2 threads, 2 ranks x 1 thread)
 * drawn as one series per rank count; a Karp-Flatt value beyond the axis's cap drawn at the edge
 * as a triangle with its real value.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "judge/baseline.h"
#include "judge/check.h"
#include "report/html-priv.h"
#include "analyze/matrix.h"
#include "base/words.h"
#include "stats/stats.h"

#define MAX_P 64       /* distinct processor counts on an axis */
#define MAX_GROUPS 6   /* series per size when configurations share a p */
#define KF_FLOOR (-1.0) /* the Karp-Flatt axis keeps to what e can mean */
#define KF_CAP 2.0


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

static const struct matrix_figure *figure_of(const struct matrix_cell *c, enum html_figure f)
{
	return f == HTML_SPEEDUP      ? &c->speedup
	       : f == HTML_EFFICIENCY ? &c->efficiency
	       : f == HTML_TIME       ? &c->fig[ANALYSIS_EXECUTION_TIME]
				      : &c->karp_flatt;
}

/* The baseline's value of figure f from its speedup at p. */
static double base_value(double speedup, int p, enum html_figure f)
{
	return f == HTML_SPEEDUP      ? speedup
	       : f == HTML_EFFICIENCY ? speedup / p
				      : matrix_karp_flatt(speedup, p);
}

/* the literal is split after the dash's last hex escape, which would take the 'F' into it */
static const char *const figure_names[] = {"speedup", "efficiency",
					   ("Karp\xe2\x80\x93"
					    "Flatt e"),
					   "Execution_time"};

/* A figure in a hover text, as every report shows it (base/units.h). */
static void add_value(struct strbuf *t, enum html_figure f, double v)
{
	char text[48];

	strbuf_addstr(t, unit_format(text, sizeof(text), f == HTML_TIME ? UNIT_SECONDS : UNIT_RATIO,
				     v));
}

/* "size S, " when the section has several sizes, or its only one. */
static void size_prefix(struct strbuf *sb, const struct html_section *sec,
			const struct matrix_series *s)
{
	if (s->size && strcmp(s->size, "-") && sec->nr_sizes > 1)
		strbuf_addf(sb, "size %s, ", s->size);
}

/* "The current times are scaled to the baseline's machine speed by ×0.909": as the checks
 * compared them (docs/check.md, "Machine speed"); the range when the configurations differ. */
static void speed_note(struct strbuf *sb, const struct html_section *sec)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < sec->nr_series; i++)
		for (size_t k = 0; k < sec->series[i]->nr_cells; k++) {
			double f = sec->series[i]->cells[k].speed;
			if (f > 0)
				lo = fmin(lo, f), hi = fmax(hi, f);
		}
	if (!(hi > 0))
		return;
	strbuf_addf(sb, "%sThe current times are ", sb->len ? " " : "");
	html_text(sb, CHECK_SCALED_WORDS);
	if (lo < hi)
		strbuf_addf(sb, "%.3f to \xc3\x97%.3f", lo, hi);
	else
		strbuf_addf(sb, "%.3f", lo);
	strbuf_addstr(sb, ", as the checks compared them.");
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
			strbuf_addf(sb, " (slope %.3g per processor [%.3g, %.3g])",
				    s->karp_flatt_slope.median, s->karp_flatt_slope.lo,
				    s->karp_flatt_slope.hi);
		last = s->trend;
	}
	if (last && sec->nr_sizes <= 1 && !strcmp(last, "flat") &&
	    sec->series[sec->nr_series - 1]->serial_fraction >= 1)
		strbuf_addstr(sb, ": no speedup (e \xe2\x89\xa5 1: more processors were no faster "
				  "than one).");
	else if (last && sec->nr_sizes <= 1 && !strcmp(last, "flat") &&
		 sec->series[sec->nr_series - 1]->serial_fraction < 0)
		strbuf_addstr(sb, ": superlinear speedup (e &lt; 0: efficiency above 1, e.g. cache "
				  "effects).");
	else if (last && sec->nr_sizes <= 1)
		strbuf_addstr(sb, !strcmp(last, "rising")
					  ? ": overhead that grows with p (communication, "
					    "synchronization, start-up)."
				  : !strcmp(last, "flat") ? ": an inherent serial fraction."
							  : ".");
	else if (last)
		strbuf_addstr(
			sb,
			". Rising: overhead that grows with p; flat: an inherent serial fraction.");
}

/* The baseline's Execution_time in configuration c: its median, with the 95 % interval of it. */
static void base_time(const struct html_section *sec, const struct matrix_series *s,
		      const struct analysis_config *c, struct matrix_figure *out)
{
	const struct baseline_cell *bc = baseline_find(sec->base, sec->iv->path,
						       s->size ? s->size : "-", c->ranks,
						       c->threads);
	struct stats_summary st;
	double *x;
	size_t n;

	if (!bc || !bc->n)
		return;
	x = xcalloc(bc->n, sizeof(*x));
	n = baseline_samples(bc, ANALYSIS_EXECUTION_TIME, x);
	if (n && !stats_summarize(x, n, 0.95, &st))
		*out = (struct matrix_figure){ n, st.median, n > 1 ? st.ci_lo : NAN,
					       n > 1 ? st.ci_hi : NAN };
	free(x);
}

/* The baseline's figure at cell j of 's': median T(ref) / median T(p), with the 95 % interval of
 * the median of T(ref) / T_k(p) over the repeats k. NAN without a baseline. */
static void base_figure(const struct html_section *sec, const struct matrix_series *s, size_t j,
			enum html_figure f, struct matrix_figure *out)
{
	const struct analysis_config *ref = s->cells[s->ref].config, *c = s->cells[j].config;
	const struct baseline_cell *bc;
	double t_ref, *x;
	struct stats_summary st;
	size_t n, m = 0;

	*out = (struct matrix_figure){ 0, NAN, NAN, NAN };
	if (!sec->base || (f == HTML_KARP_FLATT && s->cells[j].p <= 1))
		return;
	if (f == HTML_TIME) {
		base_time(sec, s, c, out);
		return;
	}
	t_ref = report_base_median(sec->base, sec->iv->path, s->size, ref->ranks, ref->threads,
				   ANALYSIS_EXECUTION_TIME, 0);
	bc = baseline_find(sec->base, sec->iv->path, s->size ? s->size : "-", c->ranks, c->threads);
	if (!bc || !bc->n || !(t_ref > 0))
		return;
	x = xcalloc(bc->n, sizeof(*x));
	n = baseline_samples(bc, ANALYSIS_EXECUTION_TIME, x);
	for (size_t k = 0; k < n; k++)
		if (x[k] > 0 && isfinite(base_value(t_ref / x[k], s->cells[j].p, f)))
			x[m++] = base_value(t_ref / x[k], s->cells[j].p, f);
	/* the median as every table defines the base's speedup (median T(ref) / median T(p)) */
	if (m && !stats_summarize(x, m, 0.95, &st)) {
		double speedup = report_base_speedup(sec->base, sec->iv->path, s->size, ref, c);
		*out = (struct matrix_figure){ m, base_value(speedup, s->cells[j].p, f),
					       m > 1 ? st.ci_lo : NAN, m > 1 ? st.ci_hi : NAN };
	}
	free(x);
}

/* The range of the current and baseline medians and intervals of figure f, for its axis. */
static void figure_range(const struct html_section *sec, enum html_figure f, double *lo, double *hi,
			 size_t *marks)
{
	*lo = INFINITY, *hi = -INFINITY, *marks = 0;
	for (size_t i = 0; i < sec->nr_series; i++) {
		const struct matrix_series *s = sec->series[i];
		for (size_t j = 0; j < s->nr_cells; j++) {
			const struct matrix_figure *fg = figure_of(&s->cells[j], f);
			struct matrix_figure b;
			if (f == HTML_KARP_FLATT && s->cells[j].p <= 1)
				continue;
			base_figure(sec, s, j, f, &b);
			if (fg->n && isfinite(fg->median)) {
				*lo = fmin(*lo, fmin(isfinite(fg->lo) ? fg->lo : fg->median,
						     fg->median));
				*hi = fmax(*hi, fmax(isfinite(fg->hi) ? fg->hi : fg->median,
						     fg->median));
				(*marks)++;
			}
			if (isfinite(b.median)) {
				*lo = fmin(*lo, isfinite(b.lo) ? b.lo : b.median);
				*hi = fmax(*hi, isfinite(b.hi) ? b.hi : b.median);
			}
		}
	}
}

/* The rank counts that split 's' into series: when two configurations share a p (1 x 2 and 2 x 1),
 * one series per rank count, else one series of all (ranks[0] = 0). */
static size_t rank_groups(const struct matrix_series *s, int *ranks)
{
	int shared = 0;
	size_t n = 0;

	for (size_t i = 0; i < s->nr_cells && !shared; i++)
		for (size_t j = i + 1; j < s->nr_cells; j++)
			shared |= s->cells[i].p == s->cells[j].p;
	if (!shared) {
		ranks[0] = 0;
		return 1;
	}
	for (size_t i = 0; i < s->nr_cells; i++) {
		size_t k = 0;
		while (k < n && ranks[k] != s->cells[i].config->ranks)
			k++;
		if (k == n && n < MAX_GROUPS)
			ranks[n++] = s->cells[i].config->ranks;
	}
	return n;
}

/* x moved sideways by 'slot' steps, so that series and the baseline sharing a p stay apart. */
static double dodge(const struct html_plot *pl, double x, double slot)
{
	if (pl->x.log)
		return x * pow(1.05, slot);
	return x + slot * 0.025 * (pl->x.hi - pl->x.lo);
}

/* A median: on the axis a marker; beyond it a triangle at the edge and its real value beside. */
static int mark(struct html_plot *pl, enum html_figure f, double x, double y, enum html_shape shape,
		const char *colour, const char *hover)
{
	char value[64], text[48];

	if (y <= pl->y.hi && y >= pl->y.lo) {
		html_point(pl, x, y, shape, colour, hover);
		return 0;
	}
	unit_format(text, sizeof(text), f == HTML_TIME ? UNIT_SECONDS : UNIT_RATIO, y);
	snprintf(value, sizeof(value), "%s%s", shape == HTML_RING ? "baseline " : "", text);
	/* the baseline's open, the current filled: an outlined triangle for the baseline */
	html_point(pl, x, y > pl->y.hi ? pl->y.hi : pl->y.lo,
		   shape == HTML_RING ? (y > pl->y.hi ? HTML_UP_OPEN : HTML_DOWN_OPEN)
				      : (y > pl->y.hi ? HTML_UP : HTML_DOWN),
		   colour, hover);
	html_label(pl, x, y > pl->y.hi ? pl->y.hi : pl->y.lo, y > pl->y.hi ? 1 : -1, colour, value);
	return 1;
}

struct series_state {
	const struct html_section *sec;
	const struct matrix_series *s;
	enum html_figure f;
	int ranks;              /* the series' rank count, 0: all */
	const char *colour;
	double slot;            /* its dodge */
	int any_base, offscale;
};

static void hover_text(struct strbuf *t, const struct series_state *st, const struct matrix_cell *c)
{
	char config[96];

	strbuf_reset(t);
	size_prefix(t, st->sec, st->s);
	strbuf_addf(
		t, "p = %d (%s): ", c->p,
		config_words(config, sizeof(config), c->config->ranks, c->config->threads, NULL));
}

/* One series: the baseline (dashed, open, with its interval) just left of the current (solid,
 * filled). */
static void draw_series(struct html_plot *pl, struct series_state *st)
{
	const struct matrix_series *s = st->s;
	double *x = xcalloc(s->nr_cells + 1, sizeof(*x)),
	       *xb = xcalloc(s->nr_cells + 1, sizeof(*xb));
	double *yb = xcalloc(s->nr_cells + 1, sizeof(*yb)),
	       *yc = xcalloc(s->nr_cells + 1, sizeof(*yc));
	struct matrix_figure *b = xcalloc(s->nr_cells + 1, sizeof(*b));
	struct strbuf t = STRBUF_INIT;
	size_t n = 0;

	for (size_t j = 0; j < s->nr_cells; j++) {
		const struct matrix_cell *c = &s->cells[j];
		const struct matrix_figure *fg = figure_of(c, st->f);
		if (st->ranks && c->config->ranks != st->ranks)
			continue;
		base_figure(st->sec, s, j, st->f, &b[n]);
		x[n] = dodge(pl, c->p, st->slot + 0.5);
		xb[n] = dodge(pl, c->p, st->slot - 0.5);
		yb[n] = b[n].median;
		yc[n] = (st->f == HTML_KARP_FLATT && c->p <= 1) || !fg->n ? NAN : fg->median;
		st->any_base |= isfinite(yb[n]);
		n++;
	}
	html_line(pl, xb, yb, n, HTML_BASE, 1, 0, st->sec->base_word);
	html_line(pl, x, yc, n, st->colour, 0, 0, NULL);
	for (size_t j = 0, k = 0; j < s->nr_cells; j++) {
		const struct matrix_cell *c = &s->cells[j];
		const struct matrix_figure *fg = figure_of(c, st->f);
		if (st->ranks && c->config->ranks != st->ranks)
			continue;
		if (isfinite(yb[k])) {
			hover_text(&t, st, c);
			strbuf_addf(&t, "%s %s ", st->sec->base_word, figure_names[st->f]);
			add_value(&t, st->f, yb[k]);
			if (isfinite(b[k].lo) && isfinite(b[k].hi)) {
				strbuf_addstr(&t, " [");
				add_value(&t, st->f, b[k].lo);
				strbuf_addstr(&t, ", ");
				add_value(&t, st->f, b[k].hi);
				strbuf_addf(&t, "], n = %zu", b[k].n);
			}
			html_errorbar(pl, xb[k], fmax(b[k].lo, pl->y.lo), fmin(b[k].hi, pl->y.hi),
				      HTML_BASE);
			st->offscale |= mark(pl, st->f, xb[k], yb[k], HTML_RING, HTML_BASE, t.buf);
		}
		if (isfinite(yc[k])) {
			hover_text(&t, st, c);
			strbuf_addf(&t, "%s ", figure_names[st->f]);
			add_value(&t, st->f, fg->median);
			strbuf_addstr(&t, " [");
			add_value(&t, st->f, fg->lo);
			strbuf_addstr(&t, ", ");
			add_value(&t, st->f, fg->hi);
			strbuf_addf(&t, "], n = %zu", fg->n);
			if (st->f == HTML_TIME && c->speed > 0)
				strbuf_addf(&t, ", " CHECK_SCALED_WORDS "%.3f", c->speed);
			if (isfinite(yb[k])) {
				strbuf_addf(&t, "; %s ", st->sec->base_word);
				add_value(&t, st->f, yb[k]);
			}
			if (st->f == HTML_KARP_FLATT && c->superlinear)
				strbuf_addstr(&t, " (superlinear: e < 0, efficiency above 1)");
			else if (st->f == HTML_KARP_FLATT && fg->median >= 1)
				strbuf_addstr(&t, " (no speedup: e \xe2\x89\xa5 1)");
			html_errorbar(pl, x[k], fmax(fg->lo, pl->y.lo), fmin(fg->hi, pl->y.hi),
				      st->colour);
			st->offscale |= mark(pl, st->f, x[k], yc[k], HTML_DOT, st->colour, t.buf);
		}
		k++;
	}
	strbuf_release(&t);
	free(x), free(xb), free(yb), free(yc), free(b);
}

static void ideal(struct html_plot *pl, enum html_figure f)
{
	double ideal_x[41], ideal_y[41];
	/* speedup = p up to the top of the axis: clamped at the frame, it would draw a false
	 * plateau */
	double x1 = f == HTML_SPEEDUP ? fmin(pl->x.hi, pl->y.hi) : pl->x.hi;

	for (int i = 0; i <= 40; i++) {
		double t = (double)i / 40;
		ideal_x[i] = pl->x.log ? exp(log(pl->x.lo) + t * (log(x1) - log(pl->x.lo)))
				       : pl->x.lo + t * (x1 - pl->x.lo);
		ideal_y[i] = f == HTML_SPEEDUP ? ideal_x[i] : 1;
	}
	html_line(pl, ideal_x, ideal_y, 41, HTML_GREY, 2, 1,
		  f == HTML_SPEEDUP ? "ideal: speedup = p" : "ideal: efficiency 1");
}

int html_scaling_plot(struct strbuf *sb, const struct html_section *sec, enum html_figure f)
{
	double p[MAX_P], lo, hi;
	size_t np = processor_counts(sec, p), marks, nr_keys = 0;
	struct html_plot pl;
	int any_base = 0, offscale = 0, ranks[MAX_GROUPS];
	char desc[96];

	snprintf(desc, sizeof(desc), "medians with 95 %% intervals, the %s dashed with open "
		 "markers, left of each", sec->base_word);
	figure_range(sec, f, &lo, &hi, &marks);
	if (!marks)
		return 0;
	memset(&pl, 0, sizeof(pl));
	pl.x.label = "processors p";
	html_axis_points(&pl.x, p, np);
	if (f == HTML_SPEEDUP)
		hi = fmax(hi, p[np - 1]);
	if (f == HTML_EFFICIENCY)
		hi = fmax(hi, 1);
	/* a noisy e at p = 2 can span [-1, 3]: values beyond are marked at the edge */
	if (f == HTML_KARP_FLATT)
		lo = fmax(lo, KF_FLOOR), hi = fmin(fmax(hi, 0.05), KF_CAP);
	html_axis_linear(&pl.y, lo, hi, 1);
	pl.y.label = f == HTML_SPEEDUP      ? "speedup"
		     : f == HTML_EFFICIENCY ? "efficiency"
		     : f == HTML_TIME       ? "Execution_time (s)"
					    : figure_names[HTML_KARP_FLATT];
	html_plot_begin(&pl, sb,
			f == HTML_SPEEDUP      ? "Speedup vs p"
			: f == HTML_EFFICIENCY ? "Measured efficiency vs p"
			: f == HTML_TIME       ? "Execution time vs p"
					       : "Karp\xe2\x80\x93"
						 "Flatt serial fraction e vs p",
			desc);
	if (f == HTML_SPEEDUP || f == HTML_EFFICIENCY)
		ideal(&pl, f);
	for (size_t i = 0; i < sec->nr_series; i++) {
		size_t ng = rank_groups(sec->series[i], ranks);
		for (size_t g = 0; g < ng; g++) {
			struct series_state st = {sec,
						  sec->series[i],
						  f,
						  ranks[g],
						  html_colour(i * ng + g),
						  1.2 * ((double)g - (double)(ng - 1) / 2),
						  0,
						  0};
			draw_series(&pl, &st);
			any_base |= st.any_base;
			offscale |= st.offscale;
			if (ranks[g] && nr_keys++ < 8)
				html_plot_key(&pl, HTML_KEY_LINE, st.colour,
					      "%s%d rank%s \xc3\x97 threads",
					      sec->nr_sizes > 1 && sec->series[i]->size
						      ? sec->series[i]->size
						      : "",
					      ranks[g], ranks[g] == 1 ? "" : "s");
		}
		if (sec->nr_sizes > 1 && sec->series[i]->size && ng == 1)
			html_plot_key(&pl, HTML_KEY_LINE, html_colour(i), "size %s",
				      sec->series[i]->size);
	}
	if (sec->nr_sizes <= 1 && !nr_keys)
		html_plot_key(&pl, HTML_KEY_LINE, html_colour(0),
			      "current (median, 95 %% interval)");
	html_plot_key(&pl, HTML_KEY_DASHED, HTML_BASE, "%s%s", sec->base_word,
		      any_base ? " (median, 95 % interval)" : ": none recorded");
	if (f == HTML_SPEEDUP || f == HTML_EFFICIENCY)
		html_plot_key(&pl, HTML_KEY_DOTTED, HTML_GREY, "ideal");
	if (offscale)
		strbuf_addf(&pl.notes,
			    "%s\xe2\x96\xb2/\xe2\x96\xbc: beyond the axis (%.3g to %.3g), drawn at "
			    "its edge with the "
			    "value beside. ",
			    pl.notes.len ? " " : "", pl.y.lo, pl.y.hi);
	if (f == HTML_KARP_FLATT)
		trend_note(&pl.notes, sec);
	if (f == HTML_TIME)
		speed_note(&pl.notes, sec);
	html_plot_end(&pl);
	return 1;
}
