/* Change points over every series of the history, false discoveries controlled across them
 * (Benjamini-Hochberg). */
#include "history/detect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "history/changepoint.h"
#include "stats/stats.h"

void detect_result_release(struct detect_result *r)
{
	free(r->changes);
	memset(r, 0, sizeof(*r));
}

static void series_options(const struct history_series *s, const struct detect_options *o,
			   struct changepoint_options *co)
{
	double v;
	int relative;

	changepoint_options_init(co);
	if (o->min_change && o->min_change(o->arg, s, &v, &relative) && v >= 0) {
		co->min_change = v;
		co->relative = relative;
	}
}

/* The candidates of one series (p not yet adjusted), appended to out. */
static void detect_series(const struct history_data *d, size_t si, const struct detect_options *o,
			  struct detect_result *out, struct changepoint *cp)
{
	const struct history_series *s = &d->series[si];
	struct changepoint_options co;
	size_t k;

	series_options(s, o, &co);
	k = changepoint_find(s->value, s->n, &co, cp);
	for (size_t j = 0; j < k; j++) {
		struct detect_change *c;
		ALLOC_GROW(out->changes, out->nr + 1, out->alloc);
		c = &out->changes[out->nr++];
		c->series = si;
		c->previous = s->run[cp[j].index - 1];
		c->run = s->run[cp[j].index];
		c->before = cp[j].before;
		c->after = cp[j].after;
		c->change = cp[j].before != 0 ? cp[j].after / cp[j].before - 1 : NAN;
		c->p = cp[j].p;
		c->regression = (cp[j].after - cp[j].before) * history_metric_worse(s->metric) > 0;
	}
}

void detect_run(const struct history_data *d, const struct detect_options *o,
		struct detect_result *out)
{
	struct changepoint *cp = NULL;
	size_t longest = 0, m, kept = 0;
	double fdr = o->fdr > 0 ? o->fdr : DETECT_FDR, *p, *adj;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < d->nr_series; i++)
		longest = d->series[i].n > longest ? d->series[i].n : longest;
	cp = xmalloc((longest + 1) * sizeof(*cp));
	for (size_t i = 0; i < d->nr_series; i++)
		detect_series(d, i, o, out, cp);
	free(cp);
	/* One hypothesis per change point found, and at least one per series: a series without any
	 * still counted as tested, so that many quiet series make a lone noisy one harder to pass.
	 */
	m = out->nr > d->nr_series ? out->nr : d->nr_series;
	p = xcalloc(m + 1, sizeof(*p));
	adj = xcalloc(m + 1, sizeof(*adj));
	for (size_t i = 0; i < m; i++)
		p[i] = i < out->nr ? out->changes[i].p : 1;
	stats_bh(p, m, adj);
	for (size_t i = 0; i < out->nr; i++) {
		if (!(adj[i] <= fdr))
			continue;
		out->changes[kept] = out->changes[i];
		out->changes[kept++].p = adj[i];
	}
	out->nr = kept;
	free(p);
	free(adj);
}

int detect_regression_within(const struct history_data *d, const struct detect_result *r,
			     size_t window)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->changes[i].regression && r->changes[i].run + window >= d->nr_runs)
			return 1;
	return 0;
}

/* Regression change points per series of r, counted into count[0..nr_series). */
static void count_regressions(const struct detect_result *r, size_t *count)
{
	for (size_t i = 0; i < r->nr; i++)
		count[r->changes[i].series] += r->changes[i].regression;
}

int detect_regression_arrived(const struct history_data *d, const struct detect_options *o,
			      const struct detect_result *r, size_t window)
{
	struct history_data before = *d;
	struct detect_result rb;
	size_t *now, *then;
	int arrived = 0;

	if (detect_regression_within(d, r, window))
		return 1;
	for (size_t i = 0; i < r->nr && !arrived; i++)
		arrived = r->changes[i].regression;
	if (!arrived || window >= d->nr_runs)
		return 0; /* no regression at all; or nothing before the window to compare with */
	arrived = 0;
	/* the same series, each cut before the window: a view of d's points, nothing copied */
	before.nr_runs = d->nr_runs - window;
	before.series = xcalloc(d->nr_series + 1, sizeof(*before.series));
	for (size_t i = 0; i < d->nr_series; i++) {
		before.series[i] = d->series[i];
		while (before.series[i].n && before.series[i].run[before.series[i].n - 1] >=
						    before.nr_runs)
			before.series[i].n--;
	}
	detect_run(&before, o, &rb);
	now = xcalloc(d->nr_series + 1, sizeof(*now));
	then = xcalloc(d->nr_series + 1, sizeof(*then));
	count_regressions(r, now);
	count_regressions(&rb, then);
	for (size_t i = 0; i < d->nr_series && !arrived; i++)
		arrived = now[i] > then[i];
	free(now);
	free(then);
	detect_result_release(&rb);
	free(before.series);
	return arrived;
}
