/* Trend pages' plots: inline SVG of series over the runs with their change points, the POP factors
 * and the scaling curves of chosen runs (trend.c writes the pages around them). */
#include "report/trend-priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

/* One plot, in px: small enough for three across a 1280 px window. */
#define PLOT_W 400
#define PLOT_H 230
#define PLOT_LEFT 60
#define PLOT_RIGHT 12
#define PLOT_TOP 10
#define PLOT_BOTTOM 36
#define MAX_LINES 6

#define REGRESSION_COLOUR "#D55E00"
#define IMPROVEMENT_COLOUR "#009E73"

static const char *const palette[] = { "#0072B2", "#E69F00", "#009E73",
				       "#CC79A7", "#56B4E9", "#D55E00" };

struct scale {
	double x1;	     /* runs - 1 */
	double y0, y1, step; /* the value axis, widened to its ticks */
};

static double px(const struct scale *s, double x)
{
	return PLOT_LEFT + (s->x1 > 0 ? x / s->x1 : 0.5) * (PLOT_W - PLOT_LEFT - PLOT_RIGHT);
}

static double py(const struct scale *s, double y)
{
	return PLOT_TOP + (s->y1 - y) / (s->y1 - s->y0) * (PLOT_H - PLOT_TOP - PLOT_BOTTOM);
}

/* Ticks at 1-2-5 steps, the range widened to them. */
static void nice_axis(struct scale *s, double lo, double hi)
{
	double span, mag, f;

	if (!isfinite(lo) || !isfinite(hi))
		lo = 0, hi = 1;
	if (hi - lo < 1e-12 * (fabs(hi) + 1e-300)) {
		double pad = lo != 0 ? fabs(lo) * 0.05 : 1;
		lo -= pad;
		hi += pad;
	}
	span = (hi - lo) / 5;
	mag = pow(10, floor(log10(span)));
	f = span / mag;
	s->step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	s->y0 = floor(lo / s->step) * s->step;
	s->y1 = ceil(hi / s->step) * s->step;
	if (s->y1 <= s->y0)
		s->y1 = s->y0 + s->step;
}

static char *short_commit(const char *c)
{
	return xstrndup(
		c, strlen(c) > 10 && strspn(c, "0123456789abcdef") == strlen(c) ? 8 : strlen(c));
}

static void axes(struct strbuf *sb, const struct history_data *d, const struct scale *s,
		 double scale)
{
	size_t every = d->nr_runs > 6 ? (d->nr_runs + 5) / 6 : 1;

	strbuf_addf(sb, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		    PLOT_LEFT, PLOT_TOP, PLOT_W - PLOT_LEFT - PLOT_RIGHT,
		    PLOT_H - PLOT_TOP - PLOT_BOTTOM);
	for (double y = s->y0; y <= s->y1 + s->step / 2; y += s->step) {
		strbuf_addf(sb,
			    "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>",
			    PLOT_LEFT, PLOT_W - PLOT_RIGHT, py(s, y), py(s, y));
		strbuf_addf(sb, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n",
			    PLOT_LEFT - 5, py(s, y) + 4, fabs(y) < s->step / 1e6 ? 0 : y * scale);
	}
	for (size_t i = 0; i < d->nr_runs; i += every) {
		char *c = short_commit(d->runs[i].commit);
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			    px(s, (double)i), PLOT_H - 20);
		xml_add_text(sb, c);
		strbuf_addstr(sb, "</text>");
		free(c);
	}
	strbuf_addf(sb,
		    "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">commit (record order)</text>\n",
		    (PLOT_LEFT + PLOT_W) / 2, PLOT_H - 4);
}

static void line(struct strbuf *sb, const struct history_data *d, const struct history_series *hs,
		 const struct scale *s, const char *colour, double scale)
{
	strbuf_addf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
		    colour);
	for (size_t i = 0; i < hs->n; i++)
		strbuf_addf(sb, "%s%.1f,%.1f", i ? " " : "", px(s, (double)hs->run[i]),
			    py(s, hs->value[i]));
	strbuf_addstr(sb, "\"/>\n");
	for (size_t i = 0; i < hs->n; i++) {
		double x = px(s, (double)hs->run[i]);
		if (isfinite(hs->lo[i]) && isfinite(hs->hi[i]))
			strbuf_addf(sb,
				    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				    "stroke=\"%s\" "
				    "stroke-opacity=\"0.35\"/>",
				    x, x, py(s, hs->lo[i]), py(s, hs->hi[i]), colour);
		strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"%s\"><title>", x,
			    py(s, hs->value[i]), colour);
		xml_add_text(sb, d->runs[hs->run[i]].commit);
		strbuf_addf(sb, " %s: %.4g</title></circle>", hs->configuration,
			    hs->value[i] * scale);
	}
	strbuf_addch(sb, '\n');
}

/* A change point: a dashed vertical line between its two runs, linked to the commit. */
static void mark(struct strbuf *sb, const struct history_data *d, const struct detect_change *c,
		 const struct scale *s, const char *commit_url)
{
	const struct history_series *hs = &d->series[c->series];
	double x = (px(s, (double)c->previous) + px(s, (double)c->run)) / 2;

	trend_commit_link(sb, commit_url, d->runs[c->run].commit, c->run);
	strbuf_addf(
		sb,
		"<line class=\"change\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
		"stroke-width=\"2.5\" stroke-dasharray=\"6 3\"><title>change point at ",
		x, x, PLOT_TOP, PLOT_H - PLOT_BOTTOM,
		c->regression ? REGRESSION_COLOUR : IMPROVEMENT_COLOUR);
	xml_add_text(sb, d->runs[c->run].commit);
	strbuf_addf(sb, ": %s %s %+.1f %%</title></line></a>\n", hs->configuration,
		    history_metric_name(hs->metric), c->change * 100);
}

/* One plot of the series sel[0..n): value axis over their points and intervals, the change points
 * marked. */
static void plot(struct strbuf *sb, const struct history_data *d, const struct detect_result *r,
		 const struct history_series *const *sel, const char *const *names, size_t n,
		 const char *title, double scale, const char *commit_url)
{
	struct scale s = { .x1 = d->nr_runs > 1 ? (double)(d->nr_runs - 1) : 1 };
	double lo = INFINITY, hi = -INFINITY;

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < sel[k]->n; i++) {
			lo = fmin(lo, fmin(sel[k]->value[i],
					   isfinite(sel[k]->lo[i]) ? sel[k]->lo[i] : INFINITY));
			hi = fmax(hi, fmax(sel[k]->value[i],
					   isfinite(sel[k]->hi[i]) ? sel[k]->hi[i] : -INFINITY));
		}
	nice_axis(&s, lo, hi);
	strbuf_addstr(sb, "<figure><figcaption>");
	xml_add_text(sb, title);
	strbuf_addf(sb,
		    "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d "
		    "%d\" width=\"%d\" "
		    "height=\"%d\" role=\"img\"><title>",
		    PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	xml_add_text(sb, title);
	strbuf_addstr(sb, " over commits</title>\n");
	axes(sb, d, &s, scale);
	for (size_t k = 0; k < n; k++)
		line(sb, d, sel[k], &s, palette[k % ARRAY_SIZE(palette)], scale);
	for (size_t i = 0; i < r->nr; i++)
		for (size_t k = 0; k < n; k++)
			if (&d->series[r->changes[i].series] == sel[k] &&
			    r->changes[i].kind != CHANGEPOINT_SUSPECT)
				mark(sb, d, &r->changes[i], &s, commit_url);
	strbuf_addstr(sb, "</svg>\n<ul class=\"legend\">");
	for (size_t k = 0; k < n; k++) {
		strbuf_addf(sb, "<li><span class=\"key\" style=\"--c:%s\"></span>",
			    palette[k % ARRAY_SIZE(palette)]);
		xml_add_text(sb, names[k]);
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ul></figure>\n");
}

/* The series of one benchmark and interval: [first, end) of d->series. */
/* The POP factors of the largest configuration over the runs, one line per factor. */
static void pop_plot(struct strbuf *sb, const struct history_data *d, const struct detect_result *r,
		     struct trend_group g, const char *config, const char *commit_url)
{
	const struct history_series *sel[MAX_LINES];
	const char *names[MAX_LINES];
	size_t n = 0;
	char *title;

	for (size_t i = g.first; i < g.end && n < MAX_LINES; i++)
		if (!strcmp(d->series[i].configuration, config) &&
		    history_metric_pop(d->series[i].metric)) {
			names[n] = history_metric_name(d->series[i].metric);
			sel[n++] = &d->series[i];
		}
	if (!n)
		return;
	title = xstrfmt("POP factors, %s", config);
	strbuf_addstr(sb, "<div class=\"pop\">");
	plot(sb, d, r, sel, names, n, title, 1, commit_url);
	strbuf_addstr(sb, "</div>");
	free(title);
}

/* The scaling curves: speedup or efficiency over processors of some runs, side by side. */
struct scaling {
	size_t run[TREND_MAX_COMPARE];
	const char *label[TREND_MAX_COMPARE];
	size_t n;
};

/* Processors of a configuration "RxT[ n=SIZE]": R x T, or 0. */
static int processors(const char *configuration)
{
	int ranks, threads;

	return sscanf(configuration, "%dx%d", &ranks, &threads) == 2 ? ranks * threads : 0;
}

/* The value of series hs in run 'run', NAN when it has none. */
static double value_at(const struct history_series *hs, size_t run)
{
	for (size_t i = 0; i < hs->n; i++)
		if (hs->run[i] == run)
			return hs->value[i];
	return NAN;
}

struct xy {
	double x, y;
};

static int cmp_xy(const void *a, const void *b)
{
	const struct xy *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/* One run's curve, its points in the order of processors. */
static void scaling_curve(struct strbuf *sb, const struct history_data *d, struct trend_group g,
			  enum history_metric metric, size_t run, const struct scale *s,
			  int pmin, const char *colour)
{
	struct xy *pt = xcalloc(g.end - g.first, sizeof(*pt));
	size_t n = 0;

	for (size_t i = g.first; i < g.end; i++) {
		double v = value_at(&d->series[i], run);
		int p = processors(d->series[i].configuration);
		if (d->series[i].metric == metric && isfinite(v) && p > 0)
			pt[n++] = (struct xy){ p - pmin, v };
	}
	qsort(pt, n, sizeof(*pt), cmp_xy);
	strbuf_addf(sb, "<polyline class=\"scaling\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"2\" points=\"", colour);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%.1f,%.1f", i ? " " : "", px(s, pt[i].x), py(s, pt[i].y));
	strbuf_addstr(sb, "\"/>\n");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"%s\"/>",
			    px(s, pt[i].x), py(s, pt[i].y), colour);
	free(pt);
}

static void scaling_plot(struct strbuf *sb, const struct history_data *d, struct trend_group g,
			 enum history_metric metric, const struct scaling *sc)
{
	int pmin = 0, pmax = 0;
	double lo = INFINITY, hi = -INFINITY;
	struct scale s;

	for (size_t i = g.first; i < g.end; i++) {
		int p = processors(d->series[i].configuration);
		if (d->series[i].metric != metric || p <= 0)
			continue;
		pmin = pmin && pmin < p ? pmin : p;
		pmax = pmax > p ? pmax : p;
		for (size_t k = 0; k < sc->n; k++) {
			double v = value_at(&d->series[i], sc->run[k]);
			lo = isfinite(v) ? fmin(lo, v) : lo;
			hi = isfinite(v) ? fmax(hi, v) : hi;
		}
	}
	if (!isfinite(lo) || pmax <= pmin)
		return;
	s.x1 = pmax - pmin;
	nice_axis(&s, lo, hi);
	strbuf_addf(sb, "<figure class=\"scaling\"><figcaption>%s over processors</figcaption>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		    "height=\"%d\" role=\"img\"><title>scaling curves</title>\n",
		    metric == HISTORY_SPEEDUP ? "Speedup" : "Efficiency", PLOT_W, PLOT_H, PLOT_W,
		    PLOT_H);
	strbuf_addf(sb, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		    PLOT_LEFT, PLOT_TOP, PLOT_W - PLOT_LEFT - PLOT_RIGHT,
		    PLOT_H - PLOT_TOP - PLOT_BOTTOM);
	for (double y = s.y0; y <= s.y1 + s.step / 2; y += s.step)
		strbuf_addf(sb, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>",
			    PLOT_LEFT - 5, py(&s, y) + 4, fabs(y) < s.step / 1e6 ? 0 : y);
	for (int p = pmin; p <= pmax; p += (pmax - pmin + 7) / 8)
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>",
			    px(&s, p - pmin), PLOT_H - 20, p);
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">processors</text>\n",
		    (PLOT_LEFT + PLOT_W) / 2, PLOT_H - 4);
	for (size_t k = 0; k < sc->n; k++)
		scaling_curve(sb, d, g, metric, sc->run[k], &s, pmin, palette[k]);
	strbuf_addstr(sb, "</svg>\n<ul class=\"legend\">");
	for (size_t k = 0; k < sc->n; k++) {
		strbuf_addf(sb, "<li><span class=\"key\" style=\"--c:%s\"></span>", palette[k]);
		xml_add_text(sb, d->runs[sc->run[k]].commit);
		strbuf_addf(sb, " (%s)</li>", sc->label[k]);
	}
	strbuf_addstr(sb, "</ul></figure>\n");
}

/* The runs compared (o->compare), else the newest run and the run before the group's last
 * regression change point when there is one. */
static void scaling_plots(struct strbuf *sb, const struct history_data *d,
			  const struct detect_result *r, struct trend_group g,
			  const struct trend_options *o)
{
	struct scaling sc = { .run = { d->nr_runs - 1 }, .label = { "newest" }, .n = 1 };
	size_t last = 0;
	int found = 0;

	if (o->nr_compare) {
		for (sc.n = 0; sc.n < o->nr_compare && sc.n < TREND_MAX_COMPARE; sc.n++) {
			sc.run[sc.n] = o->compare[sc.n];
			sc.label[sc.n] = d->runs[o->compare[sc.n]].date;
		}
		scaling_plot(sb, d, g, HISTORY_SPEEDUP, &sc);
		scaling_plot(sb, d, g, HISTORY_EFFICIENCY, &sc);
		return;
	}
	for (size_t i = 0; i < r->nr; i++)
		if (r->changes[i].regression && r->changes[i].kind != CHANGEPOINT_SUSPECT &&
		    r->changes[i].series >= g.first &&
		    r->changes[i].series < g.end && (!found || r->changes[i].run > last)) {
			last = r->changes[i].run;
			sc.run[1] = r->changes[i].previous;
			found = 1;
		}
	if (found && sc.run[1] != sc.run[0]) {
		sc.label[1] = "before the last regression";
		sc.n = 2;
	}
	scaling_plot(sb, d, g, HISTORY_SPEEDUP, &sc);
	scaling_plot(sb, d, g, HISTORY_EFFICIENCY, &sc);
}

void trend_interval_section(struct strbuf *sb, const struct history_data *d,
			    const struct detect_result *r, struct trend_group g,
			    const struct trend_options *o)
{
	const char *commit_url = o->commit_url;
	static const enum history_metric per_config[] = { HISTORY_TIME, HISTORY_SPEEDUP,
							  HISTORY_EFFICIENCY };
	static const char *const titles[] = { "Execution time (s)", "Speedup", "Efficiency" };
	const struct history_series
		*sel[HISTORY_NR_METRICS > MAX_LINES ? HISTORY_NR_METRICS : MAX_LINES];
	const char *names[ARRAY_SIZE(sel)];
	const char *last_config = d->series[g.end - 1].configuration;
	size_t n;

	strbuf_addstr(sb, "<section><h2>");
	xml_add_text(sb, d->series[g.first].interval);
	strbuf_addstr(sb, "</h2>\n<div class=\"plots\">\n");
	for (size_t k = 0; k < ARRAY_SIZE(per_config); k++) {
		n = 0;
		for (size_t i = g.first; i < g.end && n < MAX_LINES; i++)
			if (d->series[i].metric == per_config[k]) {
				names[n] = d->series[i].configuration;
				sel[n++] = &d->series[i];
			}
		if (n)
			plot(sb, d, r, sel, names, n, titles[k], 1, commit_url);
	}
	/* the lost-time shares of the largest configuration, one line per component */
	n = 0;
	for (size_t i = g.first; i < g.end; i++)
		if (!strcmp(d->series[i].configuration, last_config) &&
		    history_metric_share(d->series[i].metric) && n < ARRAY_SIZE(sel)) {
			names[n] = history_metric_name(d->series[i].metric);
			sel[n++] = &d->series[i];
		}
	if (n) {
		char *title = xstrfmt("Lost-time shares (%% of Total_time), %s", last_config);
		plot(sb, d, r, sel, names, n, title, 100, commit_url);
		free(title);
	}
	pop_plot(sb, d, r, g, last_config, commit_url);
	if (d->nr_runs)
		scaling_plots(sb, d, r, g, o);
	strbuf_addstr(sb, "</div></section>\n");
}
