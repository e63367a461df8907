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

/* Whose loss a term is (base/lost-table.h, 'judged'). */
enum lost_judged {
	LOST_PROGRAM, /* a share of the program's Total_time, as the checks judge it */
	LOST_MACHINE, /* Interference: a share of Total_time_wall, never judged */
};

/* The terms of Lost_time (base/lost-table.h). */
#define TERM(A, id, name, needs, key, colour, key_when, cause, formula, judged) \
	{ ANALYSIS_##id, HTML_##colour, LOST_KEY_##key_when, LOST_##judged },
#define PART(A, ...)
static const struct {
	enum analysis_figure fig;
	const char *colour;
	enum lost_key key_when;
	enum lost_judged judged;
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

/*
 * One configuration's shares, each side on one basis (docs/reports.md, "One basis for every
 * figure"): the
 * program's terms of its Total_time as the checks form them (the median of the per-repeat
 * shares), so that a side's stack is of one total; the machine's Interference of Total_time_wall,
 * as the causes give it, drawn beside the stack. NAN: none.
 */
struct lost_bar {
	double cur[ARRAY_SIZE(lost)], base[ARRAY_SIZE(lost)];
	double cur_sum, base_sum;
};

static void lost_shares(const struct html_section *sec, const struct html_config *bar,
			struct lost_bar *out, int *captured)
{
	const struct matrix_cell *c = bar->cell;

	out->cur_sum = out->base_sum = 0;
	for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
		int machine = lost[k].judged == LOST_MACHINE;
		out->cur[k] = machine ? report_cell_machine(c)
				      : report_cell_share(c, sec->interval, lost[k].fig);
		out->base[k] = machine ? report_base_machine(sec->base, sec->iv->path, bar->size,
							     c->config->ranks, c->config->threads)
				       : report_base_median(sec->base, sec->iv->path, bar->size,
							    c->config->ranks, c->config->threads,
							    lost[k].fig, 1);
		if (isfinite(out->cur[k]))
			captured[k] |= lost_key_shown(k, c);
		if (!machine) {
			out->cur_sum += isfinite(out->cur[k]) ? fmax(0, out->cur[k]) : 0;
			out->base_sum += isfinite(out->base[k]) ? fmax(0, out->base[k]) : 0;
		}
	}
}

/* Where a side's bars stand in their category: the stack, and the machine's bar beside it. */
struct lost_place {
	double stack, stack_w, machine, machine_w;
};

static struct lost_place lost_place(int base, int with_base, int with_machine)
{
	if (!with_base)
		return with_machine ? (struct lost_place){ -0.08, 0.46, 0.25, 0.14 }
				    : (struct lost_place){ 0, 0.62, 0, 0 };
	if (base)
		return with_machine ? (struct lost_place){ -0.30, 0.22, -0.14, 0.08 }
				    : (struct lost_place){ -0.25, 0.26, 0, 0 };
	return with_machine ? (struct lost_place){ 0.08, 0.30, 0.30, 0.10 }
			    : (struct lost_place){ 0.14, 0.44, 0, 0 };
}

/* The hover text of one bar: "<config> (p = 2): base Synchronization 4.7 % of Total_time". */
static void lost_text(struct strbuf *text, const struct html_section *sec,
		      const struct html_config *bar, size_t k, double share, int base)
{
	strbuf_reset(text);
	strbuf_addf(text, "%s (p = %d): %s%s", bar->name, bar->cell->p, base ? sec->base_word : "",
		    base ? " " : "");
	if (lost[k].judged == LOST_MACHINE)
		strbuf_addf(text, "Interference: the machine took %.1f %% of Total_time_wall "
			    "(wall, with the machine's share; not judged)", 100 * share);
	else
		strbuf_addf(text, "%s %.1f %% of Total_time", analysis_figure_name(lost[k].fig),
			    100 * share);
}

/* One side's bars in category i: the base's pale, or the current results'. */
static void lost_side(struct html_plot *pl, const struct html_section *sec,
		      const struct html_config *bar, double i, const struct lost_bar *sh, int base,
		      struct lost_place at)
{
	const double *share = base ? sh->base : sh->cur;
	struct strbuf text = STRBUF_INIT;
	double y = 0;

	for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
		int machine = lost[k].judged == LOST_MACHINE;
		if (!isfinite(share[k]) || (machine && !(at.machine_w > 0 && share[k] > 0)))
			continue;
		lost_text(&text, sec, bar, k, share[k], base);
		if (!base && isfinite(sh->base[k]))
			strbuf_addf(&text, "; %s %.1f %%", sec->base_word, 100 * sh->base[k]);
		if (machine) {
			html_bar(pl, i + at.machine, at.machine_w, 0, fmax(0, share[k]),
				 lost[k].colour, base, text.buf);
		} else {
			html_bar(pl, i + at.stack, at.stack_w, y, y + fmax(0, share[k]),
				 lost[k].colour, base, text.buf);
			y += fmax(0, share[k]);
		}
	}
	strbuf_release(&text);
}

/* Only what applies: no Communication key for a program without MPI. */
static void lost_keys(struct html_plot *pl, const int *captured, int any_base, int any_machine,
		      const char *base_word)
{
	for (size_t k = 0; k < ARRAY_SIZE(lost); k++)
		if (lost[k].judged == LOST_MACHINE && any_machine)
			html_plot_key(pl, HTML_KEY_BOX, lost[k].colour,
				      "%s: the machine's share of Total_time_wall",
				      analysis_figure_name(lost[k].fig));
		else if (captured[k] && lost[k].judged == LOST_PROGRAM)
			html_plot_key(pl, HTML_KEY_BOX, lost[k].colour, "%s",
				      analysis_figure_name(lost[k].fig));
	if (any_base)
		html_plot_key(pl, HTML_KEY_PALE, HTML_GREY, "%s (pale, left)", base_word);
}

/* What the bars show, and the axis they need. */
struct lost_view {
	struct lost_bar shares[MAX_BARS];
	int captured[ARRAY_SIZE(lost)], any_base, any_machine;
	double top;
};

static void lost_collect(const struct html_section *sec, const struct html_config *bars,
			 size_t nr, struct lost_view *v)
{
	memset(v, 0, sizeof(*v));
	v->top = 0.05;
	for (size_t i = 0; i < nr; i++) {
		const struct lost_bar *sh = &v->shares[i];
		lost_shares(sec, &bars[i], &v->shares[i], v->captured);
		v->top = fmax(v->top, fmax(sh->cur_sum, sh->base_sum));
		for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
			v->any_base |= isfinite(sh->base[k]);
			if (lost[k].judged != LOST_MACHINE)
				continue;
			v->any_machine |= sh->cur[k] > 0 || sh->base[k] > 0;
			v->top = fmax(v->top, fmax(sh->cur[k], sh->base[k]));
		}
	}
}

/* Stacked bars of the program's lost-time terms per configuration, the machine's beside them, the
 * base's pale on the left. */
static int lost_plot(struct strbuf *sb, const struct html_section *sec,
		     const struct html_config *bars, size_t nr, const char *note)
{
	const char *names[MAX_BARS];
	struct lost_view v;
	struct html_plot pl;
	char sub[240];

	if (!nr)
		return 0;
	lost_collect(sec, bars, nr, &v);
	memset(&pl, 0, sizeof(pl));
	pl.x.label = sec->nr_sizes > 1 || sec->weak
			     ? "configuration (ranks \xc3\x97 threads @ size)"
			     : "configuration (ranks \xc3\x97 threads)";
	pl.y.label = "share of Total_time";
	for (size_t i = 0; i < nr; i++)
		names[i] = bars[i].tick;
	html_axis_categories(&pl.x, names, nr);
	html_axis_linear(&pl.y, 0, fmin(v.top * 1.05, 1), 1);
	pl.y.scale = 100;
	pl.y.suffix = " %";
	snprintf(sub, sizeof(sub),
		 "the program's losses as shares of its Total_time, as the checks judge them%s%s%s",
		 v.any_machine ? "; grey beside: the machine's share of Total_time_wall "
				 "(Interference, not judged)"
			       : "",
		 v.any_base ? "; the pale bars: the " : "", v.any_base ? sec->base_word : "");
	html_plot_begin(&pl, sb, "Lost time by cause", sub);
	for (size_t i = 0; i < nr; i++) {
		if (v.any_base)
			lost_side(&pl, sec, &bars[i], (double)i, &v.shares[i], 1,
				  lost_place(1, 1, v.any_machine));
		lost_side(&pl, sec, &bars[i], (double)i, &v.shares[i], 0,
			  lost_place(0, v.any_base, v.any_machine));
	}
	lost_keys(&pl, v.captured, v.any_base, v.any_machine, sec->base_word);
	if (note)
		strbuf_addstr(&pl.notes, note);
	html_plot_end(&pl);
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
