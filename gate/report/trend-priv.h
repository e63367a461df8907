/* Private to the trend pages: trend.c writes the pages, trend-plot.c their plots. */
#ifndef SG_TREND_PRIV_H
#define SG_TREND_PRIV_H

#include "base/util.h"
#include "report/trend.h"

/* The series d->series[first..end) of one interval. */
struct trend_group {
	size_t first, end;
};

/* An <a href> opening to the commit of run 'run' (commit_url with {commit}), else to its row. */
void trend_commit_link(struct strbuf *sb, const char *commit_url, const char *commit, size_t run);

/* The interval's section: its plots over the runs, its POP factors and its scaling curves. */
void trend_interval_section(struct strbuf *sb, const struct history_data *d,
			    const struct detect_result *r, struct trend_group g,
			    const struct trend_options *o);

#endif
