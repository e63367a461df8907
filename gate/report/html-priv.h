/* Private to the HTML report: the SVG plot primitives (html-svg.c) and the sections (html-plots.c)
 * that html.c puts on the page. */
#ifndef SG_HTML_PRIV_H
#define SG_HTML_PRIV_H

#include <stddef.h>

#include "analyze/analysis.h"
#include "report/report-priv.h"
#include "base/util.h"

struct analysis_interval;
struct isoeff;
struct matrix_series;
struct matrix_weak;

/* The Okabe-Ito palette: told apart with every common colour-vision deficiency. */
#define HTML_BLUE "#0072B2"
#define HTML_ORANGE "#E69F00"
#define HTML_GREEN "#009E73"
#define HTML_PURPLE "#CC79A7"
#define HTML_SKY "#56B4E9"
#define HTML_VERMILLION "#D55E00"
#define HTML_YELLOW "#F0E442"
#define HTML_GREY "#8a8a8a"
#define HTML_INK "#222222"
/* The base revision's or the stored baseline's marks and lines: a colour no series has */
#define HTML_BASE HTML_INK

/* The page's style sheet (html-css.c). */
extern const char html_css[];

#define HTML_MAX_SIZES 5   /* sizes drawn per interval, one colour each */
#define HTML_MAX_TICKS 12

/* Colour of the i-th size (or series) of a plot. */
const char *html_colour(size_t i);

/* One axis: linear or logarithmic, numeric ticks, or categories (bars). */
struct html_axis {
	double lo, hi;
	int log;
	double ticks[HTML_MAX_TICKS];
	size_t nr_ticks;
	double scale;            /* tick labels show value x scale (100 for percent) */
	const char *suffix;      /* after each tick label, e.g. " %" */
	const char *const *names; /* categories: tick i at i, named names[i] */
	const char *label;
};

/* Ticks at 1-2-5 steps over [lo, hi], the range widened to them; 'from_zero' includes 0. */
void html_axis_linear(struct html_axis *ax, double lo, double hi, int from_zero);
/* Ticks at the values v (sorted, distinct, positive: processor counts), log2 when they span 8x or
 * more. */
void html_axis_points(struct html_axis *ax, const double *v, size_t n);
/* Logarithmic over [lo, hi] (both > 0), ticks at 1-2-5 or at powers of ten. */
void html_axis_log(struct html_axis *ax, double lo, double hi);
/* n categories at 0 .. n-1. */
void html_axis_categories(struct html_axis *ax, const char *const *names, size_t n);

enum html_key {
	HTML_KEY_LINE,    /* solid line with a filled marker: the current results */
	HTML_KEY_DASHED,  /* dashed line with an open marker: the baseline */
	HTML_KEY_DOTTED,  /* the ideal */
	HTML_KEY_BOX,     /* a bar segment */
	HTML_KEY_PALE,    /* a pale bar segment: the baseline */
	HTML_KEY_MARK,    /* a marker alone */
};

struct html_legend {
	enum html_key key;
	const char *colour;
	char label[96];
};

/* One plot: an <svg class="plot"> in a <figure> with its caption, legend and notes. */
struct html_plot {
	struct strbuf *sb;
	struct html_axis x, y;
	double left, top, w, h;  /* the plotting area, in px */
	struct html_legend legend[12];
	size_t nr_legend;
	struct strbuf notes;     /* HTML under the legend */
	size_t marks;            /* data marks drawn */
	int nr_labels[2];        /* off-scale labels at the bottom and top edges, stacked */
};

/* Opens the figure: caption 'title' (plain text), axes, grid and tick labels; x and y set before.
 */
void html_plot_begin(struct html_plot *pl, struct strbuf *sb, const char *title, const char *desc);
/* Closes the svg, writes the legend and the notes. */
void html_plot_end(struct html_plot *pl);
void html_plot_key(struct html_plot *pl, enum html_key key, const char *colour, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));

/* A polyline through the finite points (broken at NaN); 'dash': 0 solid, 1 dashed, 2 dotted; a mark
 * unless 'guide'. */
void html_line(struct html_plot *pl, const double *x, const double *y, size_t n, const char *colour,
	       int dash, int guide, const char *hover);
/* A vertical interval [lo, hi] at x with caps. */
void html_errorbar(struct html_plot *pl, double x, double lo, double hi, const char *colour);

enum html_shape {
	HTML_DOT,
	HTML_RING,
	HTML_SQUARE,
	HTML_UP,
	HTML_DOWN,
	HTML_UP_OPEN,
	HTML_DOWN_OPEN
};
/* A marker with its hover text (plain text, escaped here). */
void html_point(struct html_plot *pl, double x, double y, enum html_shape shape, const char *colour,
		const char *hover);
/* A short text beside the point (x, y): above it for 'side' -1, below for 1 (an off-scale value).
 */
void html_label(struct html_plot *pl, double x, double y, int side, const char *colour,
		const char *text);
/* A bar segment of width 'frac' (of a category) from y0 to y1 at category x; 'pale': the
 * baseline's. */
void html_bar(struct html_plot *pl, double x, double frac, double y0, double y1, const char *colour,
	      int pale, const char *hover);

/* Plain text as HTML character data, and as an attribute value. */
void html_text(struct strbuf *sb, const char *s);
void html_attr(struct strbuf *sb, const char *s);

/* ---- sections (html-plots.c) ---- */

/* One benchmark x interval, with everything drawn for it. */
struct html_section {
	const char *benchmark;
	int interval;
	const struct analysis_interval *iv;
	/* strong scaling, one per size, ascending */
	const struct matrix_series *series[HTML_MAX_SIZES];
	size_t nr_series, nr_sizes;                         /* drawn, and how many there are */
	const struct matrix_weak *weak;
	const struct isoeff *iso;
	const struct baseline *base;                        /* NULL without one */
	const char *base_word;                              /* "base" (A/B) or "baseline" */
	enum report_word worst;                             /* of the interval's verdicts */
	size_t first;                                       /* order of appearance in the matrix */
};

/* The strong-scaling plots (html-scaling.c): figure f against p; 0 when there is nothing to draw.
 */
enum html_figure { HTML_SPEEDUP, HTML_EFFICIENCY, HTML_KARP_FLATT, HTML_TIME };
int html_scaling_plot(struct strbuf *sb, const struct html_section *sec, enum html_figure f);

/* The CSS class of a verdict word's badge and section: "fail", "warn", "inconclusive", ... */
const char *html_word_class(enum report_word w);

/* Writes the section's heading, plots and figures table; returns the number of plots drawn. */
size_t html_section_write(struct strbuf *sb, const struct html_section *sec, const char *id);


#define HTML_MAX_ROWS 64 /* configurations in a section's figures table */
/* One configuration of a section: a bar of its lost-time plot, a row of its figures. */
struct html_config {
	const struct matrix_cell *cell;
	const char *size;
	char name[64];   /* "1 rank × 2 threads", or "1 rank × 2 threads, size 4000" */
	char tick[40];   /* on a crowded axis titled "ranks × threads": "1×2", or "1×2 @4000" */
};
/* The section's configurations, at most 'max' (html-section.c); returns how many. */
size_t html_configs(const struct html_section *sec, struct html_config *out, size_t max);
/* Speedup, efficiency, Karp-Flatt and lost time (html-plots.c); returns the plots drawn. */
size_t html_scaling_plots(struct strbuf *sb, const struct html_section *sec);

#endif
