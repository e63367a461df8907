/* Trend pages' plots: inline SVG of series over the runs with their change points (and, thinner,
 * those of the intervals within), the POP factors and the scaling curves of chosen runs
 * (trend-pages.c puts the sections on pages). */
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

/* Ticks at 1-2-5 steps, the range widened to them; from 0 for what cannot be negative (a share
 * of Total_time: all zero drew an axis from -100 %). */
static void nice_axis(struct scale *s, double lo, double hi, int from_zero)
{
	double span, mag, f;

	if (!isfinite(lo) || !isfinite(hi))
		lo = 0, hi = 1;
	if (from_zero) {
		lo = 0;
		hi = hi > 0 ? hi : 0.01;
	}
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

/* A series: its line, its medians' intervals as one path, its points with their values. */
static void line(struct strbuf *sb, const struct history_data *d, const struct history_series *hs,
		 const struct scale *s, const char *colour, double scale)
{
	int bars = 0;

	strbuf_addf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
		    colour);
	for (size_t i = 0; i < hs->n; i++)
		strbuf_addf(sb, "%s%.1f,%.1f", i ? " " : "", px(s, (double)hs->run[i]),
			    py(s, hs->value[i]));
	strbuf_addstr(sb, "\"/>\n");
	for (size_t i = 0; hs->lo && i < hs->n; i++) {
		if (!isfinite(hs->lo[i]) || !isfinite(hs->hi[i]))
			continue;
		if (!bars++)
			strbuf_addf(sb, "<path stroke=\"%s\" stroke-opacity=\"0.35\" d=\"", colour);
		strbuf_addf(sb, "M%.1f %.1fV%.1f", px(s, (double)hs->run[i]), py(s, hs->lo[i]),
			    py(s, hs->hi[i]));
	}
	if (bars)
		strbuf_addstr(sb, "\"/>\n");
	strbuf_addf(sb, "<g fill=\"%s\">", colour);
	for (size_t i = 0; i < hs->n; i++) {
		strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\"><title>",
			    px(s, (double)hs->run[i]), py(s, hs->value[i]));
		xml_add_text(sb, d->runs[hs->run[i]].commit);
		strbuf_addch(sb, ' ');
		xml_add_text(sb, hs->configuration);
		strbuf_addf(sb, ": %.4g</title></circle>", hs->value[i] * scale);
	}
	strbuf_addstr(sb, "</g>\n");
}

/* What one plot over the runs draws: the series sel[0..n) named names[k], values times 'scale',
 * the value axis from 0 when they cannot be negative. */
struct plot_set {
	const struct history_series *sel[HISTORY_NR_METRICS > MAX_LINES ? HISTORY_NR_METRICS
									   : MAX_LINES];
	const char *names[HISTORY_NR_METRICS > MAX_LINES ? HISTORY_NR_METRICS : MAX_LINES];
	size_t n;
	const char *title;
	double scale;
	int from_zero;
};

/* A change point: a vertical line between its two runs, linked to the commit; dashed for the
 * plot's own series, thin and dotted for an interval within ('inner': its path). */
static void mark(struct strbuf *sb, const struct trend_site *site, const struct detect_change *c,
		 const struct scale *s, const char *inner)
{
	const struct history_series *hs = &site->d->series[c->series];
	const struct history_run *run = &site->d->runs[c->run];
	double x = (px(s, (double)c->previous) + px(s, (double)c->run)) / 2;

	trend_commit_link(sb, site->o->commit_url, run->commit, c->run);
	strbuf_addf(sb,
		    "<line class=\"change%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
		    "stroke=\"%s\" stroke-width=\"%s\" stroke-dasharray=\"%s\"><title>change point "
		    "at ",
		    inner ? " inner" : "", x, x, PLOT_TOP, PLOT_H - PLOT_BOTTOM,
		    c->regression ? REGRESSION_COLOUR : IMPROVEMENT_COLOUR, inner ? "1.2" : "2.5",
		    inner ? "2 3" : "6 3");
	xml_add_text(sb, run->commit);
	if (inner) {
		strbuf_addstr(sb, " in ");
		xml_add_text(sb, inner);
	}
	strbuf_addstr(sb, ": ");
	xml_add_text(sb, hs->configuration);
	strbuf_addf(sb, " %s %+.1f %%", history_metric_name(hs->metric), c->change * 100);
	if (run->subject) {
		strbuf_addstr(sb, " (");
		xml_add_text(sb, run->subject);
		strbuf_addch(sb, ')');
	}
	strbuf_addstr(sb, "</title></line></a>\n");
}

/* The first change point of a series at or after 'series' (they are by series, then run). */
static size_t changes_from(const struct detect_result *r, size_t series)
{
	size_t lo = 0, hi = r->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->changes[mid].series < series)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The plot's series that change c's metric and configuration are drawn in, or -1. */
static int drawn_in(const struct trend_site *site, const struct plot_set *ps,
		    const struct detect_change *c)
{
	const struct history_series *hs = &site->d->series[c->series];

	for (size_t k = 0; k < ps->n; k++)
		if (ps->sel[k] == hs || (ps->sel[k]->metric == hs->metric &&
					 !strcmp(ps->sel[k]->configuration, hs->configuration)))
			return (int)k;
	return -1;
}

/* A change point drawn in a plot, or to be: one line per commit and direction. */
struct drawn {
	const struct detect_change *c;
	size_t at; /* its interval */
};

/* The slot of c's commit and direction among drawn[0..n), or n. */
static size_t drawn_at(const struct drawn *drawn, size_t n, const struct detect_change *c)
{
	size_t k = 0;

	while (k < n && (drawn[k].c->run != c->run || drawn[k].c->regression != c->regression))
		k++;
	return k;
}

/* The change points of the plot's series; then, one per commit and direction the plot has none
 * of, the deepest interval's within it in the same metrics and configurations. No suspect. */
static void marks(struct strbuf *sb, const struct trend_site *site, size_t interval,
		  const struct plot_set *ps, const struct scale *s)
{
	const struct trend_bench *b = &site->bench[site->iv[interval].bench];
	struct drawn drawn[64];
	size_t own = 0, n = 0, last = site->iv[b->end - 1].end;

	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			own = n; /* drawn[0..own): the plot's own */
		for (size_t i = changes_from(site->r, site->iv[b->first].first);
		     i < site->r->nr && site->r->changes[i].series < last; i++) {
			const struct detect_change *c = &site->r->changes[i];
			size_t at = site->interval_of[c->series], k = drawn_at(drawn, n, c);
			if (c->kind == CHANGEPOINT_SUSPECT || drawn_in(site, ps, c) < 0 ||
			    (pass ? !trend_interval_within(site, at, interval) : at != interval))
				continue;
			if (!pass) {
				mark(sb, site, c, s, NULL);
				if (k == n && n < ARRAY_SIZE(drawn))
					drawn[n++] = (struct drawn){ c, at };
			} else if (k == n && n < ARRAY_SIZE(drawn)) {
				drawn[n++] = (struct drawn){ c, at };
			} else if (k >= own && k < n && trend_interval_depth(site, at) >
							 trend_interval_depth(site, drawn[k].at)) {
				drawn[k] = (struct drawn){ c, at };
			}
		}
	}
	for (size_t k = own; k < n; k++)
		mark(sb, site, drawn[k].c, s, trend_interval_path(site, drawn[k].at));
}

/* One plot of ps's series over the runs: the value axis over their points and intervals, the
 * change points marked. */
static void plot(struct strbuf *sb, const struct trend_site *site, size_t interval,
		 const struct plot_set *ps)
{
	const struct history_data *d = site->d;
	struct scale s = { .x1 = d->nr_runs > 1 ? (double)(d->nr_runs - 1) : 1 };
	double lo = INFINITY, hi = -INFINITY;

	for (size_t k = 0; k < ps->n; k++)
		for (size_t i = 0; i < ps->sel[k]->n; i++) {
			const struct history_series *hs = ps->sel[k];
			lo = fmin(lo, fmin(hs->value[i],
					   hs->lo && isfinite(hs->lo[i]) ? hs->lo[i] : INFINITY));
			hi = fmax(hi, fmax(hs->value[i],
					   hs->hi && isfinite(hs->hi[i]) ? hs->hi[i] : -INFINITY));
		}
	nice_axis(&s, lo, hi, ps->from_zero);
	strbuf_addstr(sb, "<figure><figcaption>");
	xml_add_text(sb, ps->title);
	strbuf_addf(sb,
		    "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d "
		    "%d\" width=\"%d\" height=\"%d\" role=\"img\"><title>",
		    PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	xml_add_text(sb, ps->title);
	strbuf_addstr(sb, " over commits</title>\n");
	axes(sb, d, &s, ps->scale);
	for (size_t k = 0; k < ps->n; k++)
		line(sb, d, ps->sel[k], &s, palette[k % ARRAY_SIZE(palette)], ps->scale);
	marks(sb, site, interval, ps, &s);
	strbuf_addstr(sb, "</svg>\n<ul class=\"legend\">");
	for (size_t k = 0; k < ps->n; k++) {
		strbuf_addf(sb, "<li><span class=\"key\" style=\"--c:%s\"></span>",
			    palette[k % ARRAY_SIZE(palette)]);
		xml_add_text(sb, ps->names[k]);
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ul></figure>\n");
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
static void scaling_curve(struct strbuf *sb, const struct history_data *d,
			  const struct trend_interval *g, enum history_metric metric, size_t run,
			  const struct scale *s, int pmin, const char *colour)
{
	struct xy *pt = xcalloc(g->end - g->first, sizeof(*pt));
	size_t n = 0;

	for (size_t i = g->first; i < g->end; i++) {
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

static void scaling_plot(struct strbuf *sb, const struct history_data *d,
			 const struct trend_interval *g, enum history_metric metric,
			 const struct scaling *sc)
{
	int pmin = 0, pmax = 0;
	double lo = INFINITY, hi = -INFINITY;
	struct scale s;

	for (size_t i = g->first; i < g->end; i++) {
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
	nice_axis(&s, lo, hi, 0);
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

/* The runs compared (o->compare), else the newest run and the run before the interval's last
 * regression change point when there is one. */
static void scaling_plots(struct strbuf *sb, const struct trend_site *site,
			  const struct trend_interval *g)
{
	const struct history_data *d = site->d;
	const struct trend_options *o = site->o;
	const struct detect_result *r = site->r;
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
	for (size_t i = changes_from(r, g->first); i < r->nr && r->changes[i].series < g->end; i++)
		if (r->changes[i].regression && r->changes[i].kind != CHANGEPOINT_SUSPECT &&
		    (!found || r->changes[i].run > last)) {
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

/* The series of the interval of metric m (per_config: each configuration's), or of those that
 * 'which' selects in configuration 'config'. */
static void select_series(const struct trend_site *site, const struct trend_interval *g,
			  struct plot_set *ps, int (*which)(enum history_metric), int m,
			  const char *config)
{
	const struct history_data *d = site->d;

	ps->n = 0;
	for (size_t i = g->first; i < g->end && ps->n < ARRAY_SIZE(ps->sel); i++) {
		const struct history_series *hs = &d->series[i];
		if (which ? !which(hs->metric) || strcmp(hs->configuration, config)
			  : (int)hs->metric != m)
			continue;
		if (!which && ps->n == MAX_LINES)
			break;
		ps->names[ps->n] = which ? history_metric_name(hs->metric) : hs->configuration;
		ps->sel[ps->n++] = hs;
	}
}

/* The interval's own findings, one line each: kind, commit, subject, what moved. */
static void changes_list(struct strbuf *sb, const struct trend_site *site, size_t interval)
{
	const struct trend_interval *g = &site->iv[interval];
	const struct detect_result *r = site->r;
	size_t shown = 0;

	for (size_t f = 0; f < site->nr_f; f++) {
		const struct trend_finding *fi = &site->f[f];
		int first = 1;
		if (fi->interval != interval)
			continue;
		strbuf_addf(sb, "%s<li><span class=\"%s\">%s</span> at ",
			    shown++ ? "" : "<ul class=\"changes\">", trend_kind_name((int)fi->kind),
			    trend_kind_name((int)fi->kind));
		trend_commit(sb, site, fi->run);
		strbuf_addstr(sb, ": ");
		xml_add_text(sb, fi->configuration);
		for (size_t i = changes_from(r, g->first); i < r->nr; i++) {
			const struct detect_change *c = &r->changes[i];
			if (c->series >= g->end)
				break;
			if (strcmp(site->d->series[c->series].configuration, fi->configuration) ||
			    c->run < fi->run || c->run > fi->run + 1)
				continue;
			strbuf_addf(sb, "%s %s %+.1f %%", first ? "" : ",",
				    history_metric_name(site->d->series[c->series].metric),
				    c->change * 100);
			first = 0;
		}
		strbuf_addstr(sb, "</li>\n");
	}
	if (shown)
		strbuf_addstr(sb, "</ul>\n");
}

void trend_interval_section(struct strbuf *sb, const struct trend_site *site, size_t interval)
{
	static const enum history_metric per_config[] = { HISTORY_TIME, HISTORY_SPEEDUP,
							  HISTORY_EFFICIENCY };
	static const char *const titles[] = { "Execution time (s)", "Speedup", "Efficiency" };
	const struct trend_interval *g = &site->iv[interval];
	const char *last_config = site->d->series[g->end - 1].configuration;
	struct plot_set ps = { .scale = 1 };

	strbuf_addf(sb, "<section id=\"i%zu\"><h2>", interval);
	xml_add_text(sb, trend_interval_path(site, interval));
	strbuf_addstr(sb, "</h2>\n");
	changes_list(sb, site, interval);
	strbuf_addstr(sb, "<div class=\"plots\">\n");
	for (size_t k = 0; k < ARRAY_SIZE(per_config); k++) {
		select_series(site, g, &ps, NULL, (int)per_config[k], NULL);
		ps.title = titles[k];
		if (ps.n)
			plot(sb, site, interval, &ps);
	}
	/* the lost-time shares of the largest configuration, one line per component, from 0 */
	ps = (struct plot_set){ .scale = 100, .from_zero = 1 };
	select_series(site, g, &ps, history_metric_share, -1, last_config);
	if (ps.n) {
		char *title = xstrfmt("Lost-time shares (%% of Total_time), %s", last_config);
		ps.title = title;
		plot(sb, site, interval, &ps);
		free(title);
	}
	/* the POP factors of the largest configuration */
	ps = (struct plot_set){ .scale = 1 };
	select_series(site, g, &ps, history_metric_pop, -1, last_config);
	if (ps.n) {
		char *title = xstrfmt("POP factors, %s", last_config);
		ps.title = title;
		strbuf_addstr(sb, "<div class=\"pop\">");
		plot(sb, site, interval, &ps);
		strbuf_addstr(sb, "</div>");
		free(title);
	}
	if (site->d->nr_runs)
		scaling_plots(sb, site, g);
	strbuf_addstr(sb, "</div></section>\n");
}
