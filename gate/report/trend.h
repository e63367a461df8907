/* Trend pages: a static site of the history, series over commits with their change points, an
 * index of every interval and configuration with its state. */
#ifndef SG_TREND_H
#define SG_TREND_H

#include "history/detect.h"
#include "history/history.h"

/* At most this many runs' scaling curves side by side (one colour each). */
#define TREND_MAX_COMPARE 6
/* The most a page holds by default, in bytes: a browser opens it in a few seconds. */
#define TREND_PAGE_BYTES 5000000

struct trend_options {
	/* a template with {commit} for the links of change points (NULL: each links to its row of
	 * the page's run table) */
	const char *commit_url;
	/* the runs (indexes into d->runs) whose scaling curves each interval shows side by side;
	 * none: the newest run and the run before the interval's last regression */
	const size_t *compare;
	size_t nr_compare; /* at most TREND_MAX_COMPARE */
	/* the most a page of plots holds (0: TREND_PAGE_BYTES); a benchmark whose intervals do
	 * not fit on its page gets pages of their own, split between intervals */
	size_t page_bytes;
};

/*
 * Writes DIR/index.html (every benchmark x interval x configuration and its state), DIR/runs.html
 * and DIR/bench-<benchmark>.html with, when its intervals do not fit there,
 * bench-<benchmark>.K.html: self-contained pages with inline SVG (no script, no fetch: they work
 * from file:// and on GitHub or GitLab Pages). 0 or gate_error().
 */
int trend_write_site(const char *dir, const struct history_data *d, const struct detect_result *r,
		     const struct trend_options *o);

#endif
