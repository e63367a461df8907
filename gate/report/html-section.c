/* One interval's section of the HTML report: heading, plots (weak scaling and isoefficiency here),
 * the figures table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/words.h"
#include "base/units.h"
#include "report/html-priv.h"
#include "analyze/isoeff.h"
#include "analyze/scaling-size.h"
#include "judge/check.h"
#include "judge/verdict.h"

#define DASH "\xe2\x80\x93"



/* Weak-scaling efficiency T(1, n1) / T(p, np) against p, with the baseline's. */
static int weak_plot(struct strbuf *sb, const struct html_section *sec)
{
	const struct matrix_weak *w = sec->weak;
	const struct matrix_weak_point *ref = &w->points[w->ref];
	double *x = xcalloc(w->nr_points + 1, sizeof(*x)),
	       *yc = xcalloc(w->nr_points + 1, sizeof(*yc));
	double *yb = xcalloc(w->nr_points + 1, sizeof(*yb)),
	       *p = xcalloc(w->nr_points + 1, sizeof(*p));
	double lo = 0, hi = 1, t_ref;
	struct strbuf text = STRBUF_INIT;
	struct html_plot pl;
	size_t np = 0, marks = 0;
	char desc[64];

	t_ref = report_base_median(sec->base, sec->iv->path, ref->series->size,
				   ref->cell->config->ranks, ref->cell->config->threads,
				   ANALYSIS_EXECUTION_TIME, 0);
	for (size_t i = 0; i < w->nr_points; i++) {
		const struct matrix_cell *c = w->points[i].cell;
		const struct matrix_figure *f = &c->weak_efficiency;
		double t = report_base_median(sec->base, sec->iv->path, w->points[i].series->size,
					      c->config->ranks, c->config->threads,
					      ANALYSIS_EXECUTION_TIME, 0);
		x[i] = c->p;
		if (!np || p[np - 1] != c->p)
			p[np++] = c->p;
		yc[i] = f->n ? f->median : NAN;
		yb[i] = t > 0 && t_ref > 0 ? t_ref / t : NAN;
		marks += f->n > 0;
		if (f->n) {
			lo = fmin(lo, isfinite(f->lo) ? f->lo : f->median);
			hi = fmax(hi, isfinite(f->hi) ? f->hi : f->median);
		}
		if (isfinite(yb[i]))
			hi = fmax(hi, yb[i]);
	}
	if (marks) {
		memset(&pl, 0, sizeof(pl));
		pl.x.label = "processors p (size grows with p)";
		pl.y.label = "weak efficiency";
		html_axis_points(&pl.x, p, np);
		html_axis_linear(&pl.y, lo, fmin(hi, 2), 1);
		snprintf(desc, sizeof(desc), "T(1, n1) / T(p, np), %s dashed", sec->base_word);
		html_plot_begin(&pl, sb, "Weak-scaling efficiency vs p", desc);
		html_line(&pl, (double[]){pl.x.lo, pl.x.hi}, (double[]){1, 1}, 2, HTML_GREY, 2, 1,
			  "ideal: 1");
		html_line(&pl, x, yb, w->nr_points, HTML_BASE, 1, 0, sec->base_word);
		html_line(&pl, x, yc, w->nr_points, html_colour(0), 0, 0, NULL);
		for (size_t i = 0; i < w->nr_points; i++) {
			const struct matrix_cell *c = w->points[i].cell;
			const struct matrix_figure *f = &c->weak_efficiency;
			strbuf_reset(&text);
			strbuf_addf(&text, "p = %d (%dx%d), size %s: %s weak efficiency %.3g", c->p,
				    c->config->ranks, c->config->threads, w->points[i].series->size,
				    sec->base_word, yb[i]);
			html_point(&pl, x[i], yb[i], HTML_RING, HTML_BASE, text.buf);
			if (!f->n)
				continue;
			html_errorbar(&pl, x[i], f->lo, f->hi, html_colour(0));
			strbuf_reset(&text);
			strbuf_addf(&text,
				    "p = %d (%dx%d), size %s: weak efficiency %.3g [%.3g, %.3g], n "
				    "= %zu",
				    c->p, c->config->ranks, c->config->threads,
				    w->points[i].series->size, f->median, f->lo, f->hi, f->n);
			html_point(&pl, x[i], yc[i], HTML_DOT, html_colour(0), text.buf);
		}
		html_plot_key(&pl, HTML_KEY_LINE, html_colour(0),
			      "current (median, 95 %% interval)");
		html_plot_key(&pl, HTML_KEY_DASHED, HTML_BASE, "%s%s", sec->base_word,
			      isfinite(t_ref) ? "" : ": none recorded");
		html_plot_key(&pl, HTML_KEY_DOTTED, HTML_GREY, "ideal");
		strbuf_addf(&pl.notes, "Against %dx%d at size ", ref->cell->config->ranks,
			    ref->cell->config->threads);
		html_text(&pl.notes, ref->series->size);
		strbuf_addstr(&pl.notes, ref->cell->p == 1 ? "." : " (no 1x1 configuration).");
		if (w->average_parallelism_trend)
			strbuf_addf(&pl.notes, " Average parallelism over p: %s.",
				    w->average_parallelism_trend);
		html_plot_end(&pl);
	}
	strbuf_release(&text);
	free(x), free(yc), free(yb), free(p);
	return marks > 0;
}

static const int growth_log_exp[] = {
#define X(id, name, alpha, beta) beta,
	ISOEFF_GROWTHS(X)
#undef X
};

/* The isoefficiency n(p): measured crossing points and the fitted growth, over the measured sizes.
 */
static int iso_plot(struct strbuf *sb, const struct html_section *sec)
{
	const struct isoeff *iso = sec->iso;
	double p[64], lo = INFINITY, hi = -INFINITY, fx[41], fy[41];
	struct strbuf text = STRBUF_INIT;
	struct html_plot pl;
	size_t np = 0;
	int kinds[3] = { 0 };

	for (size_t i = 0; i < iso->nr_points && np < ARRAY_SIZE(p); i++)
		if (iso->points[i].n > 0 && (!np || p[np - 1] != iso->points[i].p)) {
			p[np++] = iso->points[i].p;
			lo = fmin(lo, iso->points[i].n);
			hi = fmax(hi, iso->points[i].n);
		}
	if (!np)
		return 0;
	for (size_t i = 0; i < iso->nr_sizes; i++)
		lo = fmin(lo, iso->sizes[i]), hi = fmax(hi, iso->sizes[i]);
	memset(&pl, 0, sizeof(pl));
	pl.x.label = "processors p";
	pl.y.label = "problem size n";
	html_axis_points(&pl.x, p, np);
	html_axis_log(&pl.y, lo, hi);
	strbuf_addf(&text, "Isoefficiency n(p) at %.0f %% efficiency", 100 * iso->target);
	html_plot_begin(&pl, sb, text.buf, "the smallest n that holds the efficiency at each p");
	for (size_t i = 0; i < iso->nr_sizes; i++) {
		strbuf_reset(&text);
		strbuf_addf(&text, "measured size %g", iso->sizes[i]);
		html_line(&pl, (double[]){pl.x.lo, pl.x.hi},
			  (double[]){iso->sizes[i], iso->sizes[i]}, 2, HTML_GREY, 2, 1, text.buf);
	}
	if (iso->growth >= 0) {
		const struct isoeff_fit *fit = &iso->fits[iso->growth];
		char growth[64];
		isoeff_growth_text((enum isoeff_growth)iso->growth, fit->k, growth, sizeof(growth));
		for (int i = 0; i <= 40; i++) {
			fx[i] = p[0] * pow(p[np - 1] / p[0], i / 40.0);
			fy[i] = fit->c * pow(fx[i], fit->k) *
				pow(log(fx[i]), growth_log_exp[iso->growth]);
		}
		strbuf_reset(&text);
		strbuf_addf(&text, "fitted: n ~ %.3g %s (rms %.2g %% in n, R\xc2\xb2 %.3f)", fit->c,
			    growth, 100 * fit->rms, fit->r2);
		html_line(&pl, fx, fy, 41, HTML_VERMILLION, 1, 0, text.buf);
		html_plot_key(&pl, HTML_KEY_DASHED, HTML_VERMILLION, "fitted growth: n ~ %s",
			      growth);
	}
	for (size_t i = 0; i < iso->nr_points; i++) {
		const struct isoeff_point *q = &iso->points[i];
		static const enum html_shape shape[] = { HTML_DOT, HTML_DOWN, HTML_UP };
		static const char *const colour[] = { HTML_BLUE, HTML_GREEN, HTML_ORANGE };
		if (!(q->n > 0))
			continue;
		strbuf_reset(&text);
		if (q->where == ISOEFF_INSIDE)
			strbuf_addf(&text,
				    "p = %d: n = %.4g holds %.0f %% efficiency (interpolated)",
				    q->p, q->n, 100 * iso->target);
		else if (q->where == ISOEFF_BELOW)
			strbuf_addf(
				&text,
				"p = %d: n <= %.4g (efficiency %.3g already at the smallest size)",
				q->p, q->n, q->efficiency);
		else
			strbuf_addf(&text, "p = %d: n > %.4g (efficiency %.3g at the largest size)",
				    q->p, q->n, q->efficiency);
		html_point(&pl, q->p, q->n, shape[q->where], colour[q->where], text.buf);
		kinds[q->where] = 1;
	}
	if (kinds[ISOEFF_INSIDE])
		html_plot_key(&pl, HTML_KEY_MARK, HTML_BLUE, "crossing, interpolated");
	if (kinds[ISOEFF_BELOW])
		html_plot_key(&pl, HTML_KEY_MARK, HTML_GREEN,
			      "reached at the smallest size (n \xe2\x89\xa4)");
	if (kinds[ISOEFF_BEYOND])
		html_plot_key(&pl, HTML_KEY_MARK, HTML_ORANGE,
			      "not reached at the largest size (n >)");
	html_plot_key(&pl, HTML_KEY_DOTTED, HTML_GREY, "measured sizes");
	if (iso->explanation) {
		html_text(&pl.notes, iso->explanation);
		strbuf_addch(&pl.notes, '.');
	}
	html_plot_end(&pl);
	strbuf_release(&text);
	return 1;
}

/* A figure as every report shows it (base/units.h), its interval small; 'speed': the factor a
 * time was scaled by to the stored baseline's machine speed, said beside it (0: as measured). */
static void figure_cell_scaled(struct strbuf *sb, const struct matrix_figure *f, enum unit u,
			       double speed)
{
	char text[48];

	strbuf_addstr(sb, "<td>");
	if (f->n && isfinite(f->median)) {
		html_text(sb, unit_format(text, sizeof(text), u, f->median));
		if (isfinite(f->lo) && isfinite(f->hi) && f->hi > f->lo) {
			strbuf_addstr(sb, " <small>[");
			html_text(sb, unit_format(text, sizeof(text), u, f->lo));
			strbuf_addstr(sb, ", ");
			html_text(sb, unit_format(text, sizeof(text), u, f->hi));
			strbuf_addstr(sb, "]</small>");
		}
		if (speed > 0) {
			strbuf_addstr(sb, " <small>(");
			html_text(sb, CHECK_SCALED_WORDS);
			strbuf_addf(sb, "%.3f)</small>", speed);
		}
	} else {
		strbuf_addstr(sb, DASH);
	}
	strbuf_addstr(sb, "</td>");
}

static void figure_cell(struct strbuf *sb, const struct matrix_figure *f, enum unit u)
{
	figure_cell_scaled(sb, f, u, 0);
}

/* Every configuration's figures, collapsed: the numbers behind the plots. */
static void figures_table(struct strbuf *sb, const struct html_section *sec)
{
	struct html_config cfg[HTML_MAX_ROWS];
	size_t n = html_configs(sec, cfg, ARRAY_SIZE(cfg));

	if (!n)
		return;
	strbuf_addstr(sb, "<details><summary>Figures");
	if (n == ARRAY_SIZE(cfg))
		strbuf_addf(sb, " (the first %zu configurations)", n);
	strbuf_addstr(sb, "</summary><table class=\"figures\"><thead><tr><th>config</th><th>p</th>"
			  "<th>Execution_time</th>");
	strbuf_addstr(sb, sec->weak ? "<th>weak efficiency</th>"
				    : "<th>speedup</th><th>efficiency</th><th>Karp\xe2\x80\x93"
				      "Flatt e</th>");
	strbuf_addstr(sb, "<th>Efficiency (predicted)</th><th>average "
			  "parallelism</th><th>n</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < n; i++) {
		const struct matrix_cell *c = cfg[i].cell;
		strbuf_addstr(sb, "<tr><td>");
		html_text(sb, cfg[i].name);
		strbuf_addf(sb, "</td><td>%d</td>", c->p);
		figure_cell_scaled(sb, &c->fig[ANALYSIS_EXECUTION_TIME], UNIT_SECONDS, c->speed);
		if (sec->weak) {
			figure_cell(sb, &c->weak_efficiency, UNIT_RATIO);
		} else {
			figure_cell(sb, &c->speedup, UNIT_RATIO);
			figure_cell(sb, &c->efficiency, UNIT_RATIO);
			figure_cell(sb, &c->karp_flatt, UNIT_RATIO);
		}
		figure_cell(sb, &c->fig[ANALYSIS_EFFICIENCY], UNIT_RATIO);
		figure_cell(sb, &c->average_parallelism, UNIT_RATIO);
		strbuf_addf(sb, "<td>%zu</td></tr>\n", c->fig[ANALYSIS_EXECUTION_TIME].n);
	}
	strbuf_addstr(sb, "</tbody></table></details>\n");
}

const char *html_word_class(enum report_word w)
{
	static const char *const cls[] = { "none",  "pass", "skipped", "inconclusive",
					    "error", "warn", "fail" };
	return cls[w];
}

/* Level, source, sizes, reference and the series' verdicts in words. */
static void meta(struct strbuf *sb, const struct html_section *sec)
{
	const struct matrix_series *s = sec->nr_series ? sec->series[0] : NULL;

	strbuf_addf(sb, "<p class=\"meta\">level %d", sec->iv->depth);
	if (sec->iv->file && strcmp(sec->iv->file, "-")) {
		strbuf_addstr(sb, " \xc2\xb7 <code>");
		html_text(sb, sec->iv->file);
		if (sec->iv->line > 0)
			strbuf_addf(sb, ":%d", sec->iv->line);
		strbuf_addstr(sb, "</code>");
	}
	if (sec->weak)
		strbuf_addstr(sb, " \xc2\xb7 weak scaling: the size grows with p");
	if (sec->nr_sizes > 1)
		strbuf_addf(sb, " \xc2\xb7 %zu sizes%s", sec->nr_sizes,
			    sec->nr_sizes > sec->nr_series ? ", some drawn (see the figures)" : "");
	if (s && !s->ref_is_serial && s->nr_cells)
		strbuf_addf(sb, " \xc2\xb7 speedup against %dx%d (no 1x1 configuration)",
			    s->cells[s->ref].config->ranks, s->cells[s->ref].config->threads);
	if (s && !s->projection_refused && s->projection_p[0] > 0)
		strbuf_addf(sb, " \xc2\xb7 projected efficiency %.2f at p = %.0f, %.2f at p = %.0f",
			    s->projection_efficiency[0], s->projection_p[0],
			    s->projection_efficiency[1], s->projection_p[1]);
	if (!sec->base)
		strbuf_addstr(sb, " \xc2\xb7 no baseline");
	strbuf_addstr(sb, "</p>\n");
}

size_t html_section_write(struct strbuf *sb, const struct html_section *sec, const char *id)
{
	const char *cls = html_word_class(sec->worst);
	int iso = 0;
	size_t n = 0;

	strbuf_addf(sb,
		    "<section class=\"interval st-%s\" id=\"%s\">\n<h3><span class=\"badge "
		    "%s\">%s</span> ",
		    cls, id, cls, report_word_name(sec->worst));
	html_text(sb, sec->benchmark);
	strbuf_addstr(sb, " <code>");
	html_text(sb, sec->iv->path);
	strbuf_addstr(sb, "</code></h3>\n");
	meta(sb, sec);
	strbuf_addstr(sb, "<div class=\"plots\">\n");
	if (sec->weak)
		n += (size_t)weak_plot(sb, sec);
	n += html_scaling_plots(sb, sec);
	if (sec->iso)
		n += (size_t)(iso = iso_plot(sb, sec));
	strbuf_addstr(sb, "</div>\n");
	if (!n)
		strbuf_addstr(sb, "<p class=\"note\">Nothing to plot: no configuration has this "
				  "interval.</p>\n");
	if (sec->iso && !iso && sec->iso->explanation) {
		strbuf_addstr(sb, "<p class=\"note\">");
		html_text(sb, sec->iso->explanation);
		strbuf_addstr(sb, ".</p>\n");
	}
	figures_table(sb, sec);
	strbuf_addstr(sb, "</section>\n");
	return n;
}
