/* Trend pages: a static site of the history, one page per benchmark, series over commits with their
 * change points. */
#ifndef SG_TREND_H
#define SG_TREND_H

#include "history/detect.h"
#include "history/history.h"

/*
 * Writes DIR/index.html and DIR/bench-<benchmark>.html: self-contained pages with inline SVG (no
 * script, no fetch: they work from file:// and on GitHub or GitLab Pages). 'commit_url' is a
 * template with {commit} for the links of change points (NULL: each links to its row of the page's
 * run table). 0 or error().
 */
int trend_write_site(const char *dir, const struct history_data *d, const struct detect_result *r,
		     const char *commit_url);

#endif
