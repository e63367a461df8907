/* Trend pages: a static site of the history, one page per benchmark, series over commits with their
 * change points. */
#ifndef SG_TREND_H
#define SG_TREND_H

#include "history/detect.h"
#include "history/history.h"

/* At most this many runs' scaling curves side by side (one colour each). */
#define TREND_MAX_COMPARE 6

struct trend_options {
	/* a template with {commit} for the links of change points (NULL: each links to its row of
	 * the page's run table) */
	const char *commit_url;
	/* the runs (indexes into d->runs) whose scaling curves each interval shows side by side;
	 * none: the newest run and the run before the interval's last regression */
	const size_t *compare;
	size_t nr_compare; /* at most TREND_MAX_COMPARE */
};

/*
 * Writes DIR/index.html and DIR/bench-<benchmark>.html: self-contained pages with inline SVG (no
 * script, no fetch: they work from file:// and on GitHub or GitLab Pages). 0 or gate_error().
 */
int trend_write_site(const char *dir, const struct history_data *d, const struct detect_result *r,
		     const struct trend_options *o);

#endif
