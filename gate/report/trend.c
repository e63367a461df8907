/* Trend pages: a static site of the history, one page per benchmark, series over commits with their
 * change points. */
#include "report/trend.h"

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

static const char css[] =
	"body{font:14px/1.45 'DejaVu "
	"Sans',system-ui,sans-serif;color:#222;background:#f6f6f4;margin:0}\n"
	"main{max-width:1700px;margin:0 auto;padding:12px 16px}h1{font-size:22px;margin:6px 0}"
	"h2{font-size:17px;margin:22px 0 6px}code{font:13px 'DejaVu Sans Mono',monospace}\n"
	"table{border-collapse:collapse;background:#fff;font-size:13px;margin:6px 0}"
	"th,td{border:1px solid #ddd;padding:3px "
	"7px;text-align:left}th{background:#efefec}td.num{text-align:right}\n"
	".regression{color:#B84A00;font-weight:600}.improvement{color:#00785A}\n"
	"section{background:#fff;border:1px solid #ddd;margin:12px 0;padding:10px 14px}\n"
	".plots{display:flex;flex-wrap:wrap;gap:8px 18px}figure{margin:4px 0;width:400px}"
	"figcaption{font-weight:600;font-size:13px}\n"
	"svg text{font:11px 'DejaVu "
	"Sans',sans-serif;fill:#333}.frame{fill:#fff;stroke:#999}.grid{stroke:#e6e6e6}\n"
	"ul.legend{list-style:none;padding:0;margin:2px "
	"0;font-size:12px;display:flex;flex-wrap:wrap;gap:2px 12px}\n"
	".key{display:inline-block;width:22px;border-top:2.5px solid "
	"var(--c);vertical-align:middle;margin-right:5px}\n"
	".meta{color:#555;font-size:13px}\n";

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

static void add_commit_link(struct strbuf *sb, const char *commit_url, const char *commit,
			    size_t run)
{
	const char *at = commit_url ? strstr(commit_url, "{commit}") : NULL;
	struct strbuf url = STRBUF_INIT;

	if (at) {
		strbuf_add(&url, commit_url, (size_t)(at - commit_url));
		strbuf_addstr(&url, commit);
		strbuf_addstr(&url, at + 8);
	} else {
		strbuf_addf(&url, "#run-%zu", run + 1);
	}
	strbuf_addstr(sb, "<a href=\"");
	xml_add_attr(sb, url.buf);
	strbuf_addstr(sb, "\">");
	strbuf_release(&url);
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

	add_commit_link(sb, commit_url, d->runs[c->run].commit, c->run);
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
			if (&d->series[r->changes[i].series] == sel[k])
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
struct group {
	size_t first, end;
};

/* The POP factors of the largest configuration over the runs, one line per factor. */
static void pop_plot(struct strbuf *sb, const struct history_data *d, const struct detect_result *r,
		     struct group g, const char *config, const char *commit_url)
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
static void scaling_curve(struct strbuf *sb, const struct history_data *d, struct group g,
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

static void scaling_plot(struct strbuf *sb, const struct history_data *d, struct group g,
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
			  const struct detect_result *r, struct group g,
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
		if (r->changes[i].regression && r->changes[i].series >= g.first &&
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

static void interval_section(struct strbuf *sb, const struct history_data *d,
			     const struct detect_result *r, struct group g,
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

static void page_head(struct strbuf *sb, const char *title)
{
	strbuf_addstr(
		sb,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	xml_add_text(sb, title);
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", css);
}

static void changes_table(struct strbuf *sb, const struct history_data *d,
			  const struct detect_result *r, const char *benchmark,
			  const char *commit_url)
{
	size_t shown = 0;

	for (size_t i = 0; i < r->nr; i++) {
		const struct detect_change *c = &r->changes[i];
		const struct history_series *s = &d->series[c->series];
		if (strcmp(s->benchmark, benchmark))
			continue;
		if (!shown++)
			strbuf_addstr(
				sb,
				"<h2>Change points</h2>\n<table><tr><th>commit</th><th>after</th>"
				"<th>interval</th><th>configuration</th><th>metric</th><th>before</"
				"th>"
				"<th>after</th><th>change</th><th>p</th><th></th></tr>\n");
		strbuf_addstr(sb, "<tr><td><code>");
		add_commit_link(sb, commit_url, d->runs[c->run].commit, c->run);
		xml_add_text(sb, d->runs[c->run].commit);
		strbuf_addstr(sb, "</a></code></td><td><code>");
		xml_add_text(sb, d->runs[c->previous].commit);
		strbuf_addstr(sb, "</code></td><td>");
		xml_add_text(sb, s->interval);
		strbuf_addstr(sb, "</td><td>");
		xml_add_text(sb, s->configuration);
		strbuf_addf(sb,
			    "</td><td>%s</td><td class=\"num\">%.4g</td><td class=\"num\">%.4g</td>"
			    "<td class=\"num\">%+.1f %%</td><td class=\"num\">%.2g</td><td "
			    "class=\"%s\">%s</td></tr>\n",
			    history_metric_name(s->metric), c->before, c->after, c->change * 100,
			    c->p, c->regression ? "regression" : "improvement",
			    c->regression ? "regression" : "improvement");
	}
	if (shown)
		strbuf_addstr(sb, "</table>\n");
	else
		strbuf_addstr(sb, "<p class=\"meta\">No change point.</p>\n");
}

static void runs_table(struct strbuf *sb, const struct history_data *d)
{
	strbuf_addstr(
		sb,
		"<h2>Runs</h2>\n<table><tr><th>#</th><th>commit</th><th>date</th><th>branch</th>"
		"<th>job</th></tr>\n");
	for (size_t i = 0; i < d->nr_runs; i++) {
		const struct history_run *run = &d->runs[i];
		strbuf_addf(sb, "<tr id=\"run-%zu\"><td class=\"num\">%zu</td><td><code>", i + 1,
			    i + 1);
		xml_add_text(sb, run->commit);
		strbuf_addstr(sb, "</code></td><td>");
		xml_add_text(sb, run->date);
		strbuf_addstr(sb, "</td><td>");
		xml_add_text(sb, run->branch ? run->branch : "");
		strbuf_addstr(sb, "</td><td>");
		if (run->job_url) {
			strbuf_addstr(sb, "<a href=\"");
			xml_add_attr(sb, run->job_url);
			strbuf_addstr(sb, "\">job</a>");
		}
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* Which commits the scaling curves compare, when chosen. */
static void compared_line(struct strbuf *sb, const struct history_data *d,
			  const struct trend_options *o)
{
	if (!o->nr_compare)
		return;
	strbuf_addstr(sb, "<p class=\"meta compare\">The scaling curves compare ");
	for (size_t k = 0; k < o->nr_compare && k < TREND_MAX_COMPARE; k++) {
		strbuf_addstr(sb, k ? ", <code>" : "<code>");
		xml_add_text(sb, d->runs[o->compare[k]].commit);
		strbuf_addstr(sb, "</code>");
	}
	strbuf_addstr(sb, ", side by side.</p>\n");
}

/* The benchmark of d->series[first..): its page; returns the end of its series. */
static size_t benchmark_page(struct strbuf *sb, const struct history_data *d,
			     const struct detect_result *r, size_t first,
			     const struct trend_options *o)
{
	const char *name = d->series[first].benchmark;
	size_t end = first;
	char *title = xstrfmt("scalegate history: %s", name);

	while (end < d->nr_series && !strcmp(d->series[end].benchmark, name))
		end++;
	page_head(sb, title);
	strbuf_addstr(sb, "<p class=\"meta\"><a href=\"index.html\">all benchmarks</a></p>\n<h1>");
	xml_add_text(sb, title);
	strbuf_addf(sb,
		    "</h1>\n<p class=\"meta\">%zu runs. Dashed vertical lines are change points "
		    "(<span class=\"regression\">regressions</span>, <span "
		    "class=\"improvement\">improvements"
		    "</span>), linked to their commit; bars are the 95 %% intervals of the "
		    "medians.</p>\n",
		    d->nr_runs);
	compared_line(sb, d, o);
	changes_table(sb, d, r, name, o->commit_url);
	for (size_t i = first; i < end;) {
		struct group g = { i, i };
		while (g.end < end && !strcmp(d->series[g.end].interval, d->series[i].interval))
			g.end++;
		interval_section(sb, d, r, g, o);
		i = g.end;
	}
	runs_table(sb, d);
	strbuf_addstr(sb, "</main>\n</body>\n</html>\n");
	free(title);
	return end;
}

static size_t count_changes(const struct history_data *d, const struct detect_result *r,
			    const char *benchmark, int regression)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr; i++)
		n += !strcmp(d->series[r->changes[i].series].benchmark, benchmark) &&
		     r->changes[i].regression == regression;
	return n;
}

int trend_write_site(const char *dir, const struct history_data *d, const struct detect_result *r,
		     const struct trend_options *o)
{
	struct strbuf index = STRBUF_INIT, page = STRBUF_INIT;
	int ret = mkdir_p(dir);

	page_head(&index, "scalegate history");
	strbuf_addf(&index,
		    "<h1>scalegate history</h1>\n<p class=\"meta\">%zu runs, %zu series.</p>\n"
		    "<table><tr><th>benchmark</th><th>regressions</th><th>improvements</th></tr>\n",
		    d->nr_runs, d->nr_series);
	for (size_t i = 0; !ret && i < d->nr_series;) {
		const char *name = d->series[i].benchmark;
		char *path = xstrfmt("%s/bench-%s.html", dir, name);
		strbuf_reset(&page);
		i = benchmark_page(&page, d, r, i, o);
		ret = write_file_atomic(path, page.buf, page.len);
		strbuf_addstr(&index, "<tr><td><a href=\"bench-");
		xml_add_attr(&index, name);
		strbuf_addstr(&index, ".html\">");
		xml_add_text(&index, name);
		strbuf_addf(&index,
			    "</a></td><td class=\"num\">%zu</td><td class=\"num\">%zu</td></tr>\n",
			    count_changes(d, r, name, 1), count_changes(d, r, name, 0));
		free(path);
	}
	strbuf_addstr(&index, "</table>\n</main>\n</body>\n</html>\n");
	if (!ret) {
		char *path = xstrfmt("%s/index.html", dir);
		ret = write_file_atomic(path, index.buf, index.len);
		free(path);
	}
	strbuf_release(&index);
	strbuf_release(&page);
	return ret;
}
