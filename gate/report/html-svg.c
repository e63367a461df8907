/* SVG plot primitives of the HTML report: axes with ticks and labels, lines, intervals, markers,
 * bars, legends. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "report/html-priv.h"

/* The size of every plot, in px: small enough for three across a 1280 px window. */
#define SVG_W 380
#define SVG_H 260
#define MARGIN_LEFT 56
#define MARGIN_RIGHT 14
#define MARGIN_TOP 12
#define MARGIN_BOTTOM 44
#define MARGIN_BOTTOM_ROTATED 80

const char *html_colour(size_t i)
{
	static const char *const palette[] = {HTML_BLUE,   HTML_VERMILLION, HTML_GREEN,
					      HTML_PURPLE, HTML_ORANGE,     HTML_SKY};
	return palette[i % ARRAY_SIZE(palette)];
}

void html_text(struct strbuf *sb, const char *s)
{
	xml_add_text(sb, s);
}

void html_attr(struct strbuf *sb, const char *s)
{
	xml_add_attr(sb, s);
}

/* ---- axes ---- */

static void axis_reset(struct html_axis *ax)
{
	const char *label = ax->label;

	memset(ax, 0, sizeof(*ax));
	ax->label = label;
	ax->scale = 1;
	ax->suffix = "";
}

void html_axis_linear(struct html_axis *ax, double lo, double hi, int from_zero)
{
	double raw, mag, r, step, t0, t1;

	axis_reset(ax);
	if (!isfinite(lo) || !isfinite(hi))
		lo = 0, hi = 1;
	if (from_zero) {
		lo = lo < 0 ? lo : 0;
		hi = hi > 0 ? hi : 0;
	}
	if (!(hi > lo)) {
		double pad = fabs(lo) > 0 ? fabs(lo) * 0.1 : 1;
		lo -= from_zero && lo >= 0 ? 0 : pad;
		hi += pad;
	}
	raw = (hi - lo) / 5;
	mag = pow(10, floor(log10(raw)));
	r = raw / mag;
	step = (r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10) * mag;
	t0 = floor(lo / step + 1e-9) * step;
	t1 = ceil(hi / step - 1e-9) * step;
	ax->lo = t0;
	ax->hi = t1;
	for (double t = t0; t <= t1 + step * 1e-6 && ax->nr_ticks < HTML_MAX_TICKS; t += step)
		ax->ticks[ax->nr_ticks++] = fabs(t) < step * 1e-9 ? 0 : t;
}

void html_axis_points(struct html_axis *ax, const double *v, size_t n)
{
	size_t every;

	axis_reset(ax);
	if (!n) {
		html_axis_linear(ax, 0, 1, 1);
		return;
	}
	ax->log = v[0] > 0 && v[n - 1] / v[0] >= 8;
	if (ax->log) {
		ax->lo = v[0] / 1.3;
		ax->hi = v[n - 1] * 1.3;
	} else {
		double pad = v[n - 1] > v[0] ? (v[n - 1] - v[0]) * 0.08 : 0.5;
		ax->lo = v[0] - pad;
		ax->hi = v[n - 1] + pad;
	}
	every = (n + HTML_MAX_TICKS - 3) / (HTML_MAX_TICKS - 2);
	for (size_t i = 0; i < n && ax->nr_ticks < HTML_MAX_TICKS; i++)
		if (i % every == 0 || i == n - 1)
			ax->ticks[ax->nr_ticks++] = v[i];
}

void html_axis_log(struct html_axis *ax, double lo, double hi)
{
	static const double steps[] = { 1, 2, 5 };
	int d0, d1;

	axis_reset(ax);
	if (!(lo > 0) || !(hi >= lo)) {
		html_axis_linear(ax, 0, 1, 1);
		return;
	}
	ax->log = 1;
	ax->lo = lo / 1.5;
	ax->hi = hi * 1.5;
	d0 = (int)floor(log10(ax->lo));
	d1 = (int)ceil(log10(ax->hi));
	for (int pass = 0; pass < 2; pass++) {
		ax->nr_ticks = 0;
		for (int d = d0; d <= d1; d++)
			for (size_t k = 0; k < (pass ? 1 : ARRAY_SIZE(steps)); k++) {
				double t = steps[k] * pow(10, d);
				if (t >= ax->lo && t <= ax->hi && ax->nr_ticks < HTML_MAX_TICKS)
					ax->ticks[ax->nr_ticks++] = t;
			}
		if (ax->nr_ticks <= 7)
			break;
	}
}

void html_axis_categories(struct html_axis *ax, const char *const *names, size_t n)
{
	axis_reset(ax);
	ax->names = names;
	ax->lo = -0.6;
	ax->hi = (double)n - 0.4;
	for (size_t i = 0; i < n && i < HTML_MAX_TICKS * 4; i++)
		if (n <= HTML_MAX_TICKS || i % ((n + HTML_MAX_TICKS - 1) / HTML_MAX_TICKS) == 0)
			if (ax->nr_ticks < HTML_MAX_TICKS)
				ax->ticks[ax->nr_ticks++] = (double)i;
}

static double axis_frac(const struct html_axis *ax, double v)
{
	if (ax->log)
		return v > 0 ? (log(v) - log(ax->lo)) / (log(ax->hi) - log(ax->lo)) : -1;
	return (v - ax->lo) / (ax->hi - ax->lo);
}

/* Clamped a few px past the frame: a value out of range shows at the edge, never across the page.
 */
static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double html_px(const struct html_plot *pl, double x)
{
	return clamp(pl->left + axis_frac(&pl->x, x) * pl->w, pl->left - 4, pl->left + pl->w + 4);
}

static double html_py(const struct html_plot *pl, double y)
{
	return clamp(pl->top + pl->h - axis_frac(&pl->y, y) * pl->h, pl->top - 4,
		     pl->top + pl->h + 4);
}

/* A tick label: "%.4g" (scaled), large values as 2e+05 -> "2e5". */
static void tick_label(struct strbuf *sb, const struct html_axis *ax, double v)
{
	char buf[48], *e;

	if (ax->names) {
		html_text(sb, ax->names[(size_t)v]);
		return;
	}
	v *= ax->scale;
	snprintf(buf, sizeof(buf), fabs(v) >= 1e5 ? "%.3g" : "%.4g", v);
	if ((e = strchr(buf, 'e'))) {
		int exponent = atoi(e + 1);
		*e = '\0';
		strbuf_addf(sb, "%se%d", buf, exponent);
	} else {
		strbuf_addstr(sb, buf);
	}
	strbuf_addstr(sb, ax->suffix);
}

void html_plot_begin(struct html_plot *pl, struct strbuf *sb, const char *title, const char *desc)
{
	size_t longest = 0;
	int rotated;
	double bottom;

	for (size_t i = 0; pl->x.names && i < pl->x.nr_ticks; i++) {
		size_t len = strlen(pl->x.names[(size_t)pl->x.ticks[i]]);
		longest = len > longest ? len : longest;
	}
	/* category names slant when side by side they would not fit (about 6.5 px a character) */
	rotated = pl->x.names && (double)pl->x.nr_ticks * ((double)longest * 6.5 + 8) >
					 SVG_W - MARGIN_LEFT - MARGIN_RIGHT;

	pl->sb = sb;
	pl->left = MARGIN_LEFT;
	pl->top = MARGIN_TOP;
	pl->w = SVG_W - MARGIN_LEFT - MARGIN_RIGHT;
	pl->h = SVG_H - MARGIN_TOP - (rotated ? MARGIN_BOTTOM_ROTATED : MARGIN_BOTTOM);
	bottom = pl->top + pl->h;
	strbuf_init(&pl->notes);
	pl->nr_legend = pl->marks = 0;

	strbuf_addstr(sb, "<figure class=\"plot\"><figcaption>");
	html_text(sb, title);
	strbuf_addf(sb,
		    "</figcaption>\n<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" "
		    "viewBox=\"0 0 %d %d\" "
		    "width=\"%d\" height=\"%d\" role=\"img\"><title>",
		    SVG_W, SVG_H, SVG_W, SVG_H);
	html_text(sb, title);
	if (desc) {
		strbuf_addstr(sb, ": ");
		html_text(sb, desc);
	}
	strbuf_addf(sb,
		    "</title>\n<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		    "height=\"%.1f\"/>\n",
		    pl->left, pl->top, pl->w, pl->h);
	strbuf_addstr(sb, "<g class=\"axis\">");
	for (size_t i = 0; i < pl->y.nr_ticks; i++) {
		double y = html_py(pl, pl->y.ticks[i]);
		strbuf_addf(
			sb,
			"<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
			pl->left, pl->left + pl->w, y, y);
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", pl->left - 6,
			    y + 4);
		tick_label(sb, &pl->y, pl->y.ticks[i]);
		strbuf_addstr(sb, "</text>");
	}
	for (size_t i = 0; i < pl->x.nr_ticks; i++) {
		double x = html_px(pl, pl->x.ticks[i]);
		strbuf_addf(
			sb,
			"<line class=\"tick\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x,
			x, bottom, bottom + 5);
		if (rotated)
			strbuf_addf(sb,
				    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
				    "transform=\"rotate(-35 %.1f %.1f)\">",
				    x, bottom + 16, x, bottom + 16);
		else
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x,
				    bottom + 18);
		tick_label(sb, &pl->x, pl->x.ticks[i]);
		strbuf_addstr(sb, "</text>");
	}
	strbuf_addf(sb, "<text class=\"label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
		    pl->left + pl->w / 2, SVG_H - 6);
	html_text(sb, pl->x.label);
	strbuf_addf(sb,
		    "</text><text class=\"label\" transform=\"rotate(-90)\" x=\"%.1f\" y=\"14\" "
		    "text-anchor=\"middle\">",
		    -(pl->top + pl->h / 2));
	html_text(sb, pl->y.label);
	strbuf_addstr(sb, "</text></g>\n");
}

void html_plot_key(struct html_plot *pl, enum html_key key, const char *colour, const char *fmt,
		   ...)
{
	struct html_legend *l;
	va_list ap;

	if (pl->nr_legend >= ARRAY_SIZE(pl->legend))
		return;
	l = &pl->legend[pl->nr_legend++];
	l->key = key;
	l->colour = colour;
	va_start(ap, fmt);
	vsnprintf(l->label, sizeof(l->label), fmt, ap);
	va_end(ap);
}

void html_plot_end(struct html_plot *pl)
{
	static const char *const keys[] = { "line", "dashed", "dotted", "box", "pale", "mark" };
	struct strbuf *sb = pl->sb;

	strbuf_addstr(sb, "</svg>\n");
	if (pl->nr_legend) {
		strbuf_addstr(sb, "<ul class=\"legend\">");
		for (size_t i = 0; i < pl->nr_legend; i++) {
			strbuf_addf(sb, "<li><span class=\"key k-%s\" style=\"--c:%s\"></span>",
				    keys[pl->legend[i].key], pl->legend[i].colour);
			html_text(sb, pl->legend[i].label);
			strbuf_addstr(sb, "</li>");
		}
		strbuf_addstr(sb, "</ul>\n");
	}
	if (pl->notes.len) {
		strbuf_addstr(sb, "<p class=\"note\">");
		strbuf_add(sb, pl->notes.buf, pl->notes.len);
		strbuf_addstr(sb, "</p>\n");
	}
	strbuf_addstr(sb, "</figure>\n");
	strbuf_release(&pl->notes);
}

/* ---- marks ---- */

static void hover(struct strbuf *sb, const char *text)
{
	if (!text)
		return;
	strbuf_addstr(sb, "<title>");
	html_text(sb, text);
	strbuf_addstr(sb, "</title>");
}

static void polyline(struct html_plot *pl, const char *points, const char *colour, int dash,
		     int guide, const char *text)
{
	static const char *const dashes[] = {"", " stroke-dasharray=\"7 4\"",
					     " stroke-dasharray=\"2 3\""};

	strbuf_addf(pl->sb,
		    "<polyline class=\"%s\" points=\"%s\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"%s\"%s>",
		    guide ? "guide" : "series", points, colour, guide ? "1.5" : "2", dashes[dash]);
	hover(pl->sb, text);
	strbuf_addstr(pl->sb, "</polyline>\n");
	pl->marks += !guide;
}

void html_line(struct html_plot *pl, const double *x, const double *y, size_t n, const char *colour,
	       int dash, int guide, const char *text)
{
	struct strbuf pts = STRBUF_INIT;
	size_t nr = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && isfinite(x[i]) && isfinite(y[i])) {
			strbuf_addf(&pts, "%s%.1f,%.1f", nr ? " " : "", html_px(pl, x[i]),
				    html_py(pl, y[i]));
			nr++;
			continue;
		}
		if (nr >= 2)
			polyline(pl, pts.buf, colour, dash, guide, text);
		strbuf_reset(&pts);
		nr = 0;
	}
	strbuf_release(&pts);
}

void html_errorbar(struct html_plot *pl, double x, double lo, double hi, const char *colour)
{
	double px = html_px(pl, x), y0, y1;

	if (!isfinite(x) || !isfinite(lo) || !isfinite(hi))
		return;
	y0 = html_py(pl, lo);
	y1 = html_py(pl, hi);
	if (fabs(y0 - y1) < 0.5)
		return; /* no spread to show */
	strbuf_addf(pl->sb,
		    "<path class=\"err\" d=\"M%.1f,%.1fV%.1fM%.1f,%.1fH%.1fM%.1f,%.1fH%.1f\" "
		    "stroke=\"%s\" "
		    "stroke-width=\"1.5\" fill=\"none\"/>\n",
		    px, y0, y1, px - 4, y0, px + 4, px - 4, y1, px + 4, colour);
}

void html_point(struct html_plot *pl, double x, double y, enum html_shape shape, const char *colour,
		const char *text)
{
	struct strbuf *sb = pl->sb;
	double px, py;

	if (!isfinite(x) || !isfinite(y))
		return;
	px = html_px(pl, x);
	py = html_py(pl, y);
	switch (shape) {
	case HTML_DOT:
		strbuf_addf(sb,
			    "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" "
			    "stroke=\"#fff\">",
			    px, py, colour);
		break;
	case HTML_RING:
		strbuf_addf(sb,
			    "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#fff\" "
			    "stroke=\"%s\" "
			    "stroke-width=\"2\">",
			    px, py, colour);
		break;
	case HTML_SQUARE:
		strbuf_addf(sb,
			    "<rect class=\"pt\" x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" "
			    "fill=\"#fff\" "
			    "stroke=\"%s\" stroke-width=\"2\">",
			    px - 4, py - 4, colour);
		break;
	case HTML_UP:
	case HTML_DOWN:
	case HTML_UP_OPEN:
	case HTML_DOWN_OPEN: {
		double d = shape == HTML_UP || shape == HTML_UP_OPEN ? -1 : 1;
		int open = shape == HTML_UP_OPEN || shape == HTML_DOWN_OPEN;
		strbuf_addf(sb,
			    "<path class=\"pt\" d=\"M%.1f,%.1fL%.1f,%.1fL%.1f,%.1fZ\" fill=\"%s\" "
			    "stroke=\"%s\" "
			    "stroke-width=\"1.5\">",
			    px, py + 6 * d, px - 5.5, py - 4 * d, px + 5.5, py - 4 * d,
			    open ? "#fff" : colour, colour);
		break;
	}
	}
	hover(sb, text);
	strbuf_addstr(sb, shape == HTML_DOT || shape == HTML_RING ? "</circle>\n" :
			  shape == HTML_SQUARE ? "</rect>\n" : "</path>\n");
	pl->marks++;
}

void html_label(struct html_plot *pl, double x, double y, int side, const char *colour,
		const char *text)
{
	int k, right;

	if (!isfinite(x) || !isfinite(y))
		return;
	/* stacked into the plot from its edge, one line per label: never on top of each other; in
	 * the right half the text goes left of the mark, else it would leave the picture */
	k = pl->nr_labels[side < 0]++;
	right = html_px(pl, x) > pl->left + pl->w / 2;
	strbuf_addf(pl->sb,
		    "<text class=\"offscale\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\" font-size=\"11\" "
		    "text-anchor=\"%s\">",
		    html_px(pl, x) + (right ? -9 : 9),
		    html_py(pl, y) + (side > 0 ? 13 + 12 * k : -5 - 12 * k), colour,
		    right ? "end" : "start");
	html_text(pl->sb, text);
	strbuf_addstr(pl->sb, "</text>\n");
}

void html_bar(struct html_plot *pl, double x, double frac, double y0, double y1, const char *colour,
	      int pale, const char *text)
{
	double half = frac * pl->w / (pl->x.hi - pl->x.lo) / 2, px = html_px(pl, x);
	double top = html_py(pl, y1), bottom = html_py(pl, y0);

	if (!isfinite(y0) || !isfinite(y1))
		return;
	strbuf_addf(pl->sb,
		    "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"%s\"%s>",
		    px - half, top, 2 * half, bottom > top ? bottom - top : 0, colour,
		    pale ? " fill-opacity=\"0.4\" stroke=\"#666\" stroke-width=\"0.6\"" : "");
	hover(pl->sb, text);
	strbuf_addstr(pl->sb, "</rect>\n");
	pl->marks++;
}
