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

/* The rules' tolerance of a series, looked up once for it: value < 0 when it has none. */
struct tolerance {
	double value;
	int relative;
};

static struct tolerance tolerance_of(const struct history_series *s,
				     const struct detect_options *o)
{
	struct tolerance t = { -1, 1 };

	if (!o->tolerance || !o->tolerance(o->arg, s, &t.value, &t.relative) || !(t.value >= 0))
		t = (struct tolerance){ -1, 1 };
	return t;
}

/* The smallest change series 's' reports (detect.h, DETECT_NOISE_FACTOR), in the units of its
 * tolerance. */
static double min_change_of(const struct history_series *s, const struct tolerance *t)
{
	double m = DETECT_NOISE_FACTOR * changepoint_noise(s->value, s->n, t->relative);

	m = isfinite(m) ? m : 0;
	m = fmax(m, t->value / 2);
	return t->relative ? fmax(m, DETECT_MIN_CHANGE_FLOOR) : m;
}

static void add_change(const struct history_data *d, size_t si, const struct changepoint *cp,
		       double min_change, const struct tolerance *t, struct detect_result *out)
{
	const struct history_series *s = &d->series[si];
	struct detect_change *c;

	ALLOC_GROW(out->changes, out->nr + 1, out->alloc);
	c = &out->changes[out->nr++];
	c->series = si;
	c->previous = s->run[cp->index - 1];
	c->run = s->run[cp->index];
	c->before = cp->before;
	c->after = cp->after;
	c->change = cp->before != 0 ? cp->after / cp->before - 1 : NAN;
	c->p = cp->p;
	c->min_change = min_change;
	c->kind = cp->kind;
	c->regression = (cp->after - cp->before) * history_metric_worse(s->metric) > 0;
	c->tolerated = t->value >= 0 &&
		       changepoint_magnitude(cp->before, cp->after, t->relative) < t->value;
}

/* The candidates of series si's first n points (p not yet adjusted), appended to out. */
static void detect_series(const struct history_data *d, size_t si, size_t n,
			  const struct detect_options *o, struct detect_result *out,
			  struct changepoint *cp)
{
	struct history_series s = d->series[si];
	struct changepoint_options co;
	struct tolerance t;
	size_t k;

	s.n = n;
	t = tolerance_of(&s, o);
	changepoint_options_init(&co);
	co.relative = t.relative;
	co.min_change = min_change_of(&s, &t);
	k = changepoint_find(s.value, n, &co, cp);
	for (size_t j = 0; j < k; j++)
		add_change(d, si, &cp[j], co.min_change, &t, out);
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
		detect_series(d, i, d->series[i].n, o, out, cp);
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

const char *detect_change_word(const struct detect_change *c)
{
	if (c->kind == CHANGEPOINT_SUSPECT)
		return "suspect";
	return c->regression ? "regression" : "improvement";
}

static int alarm(const struct detect_change *c)
{
	return c->regression && !c->tolerated && c->kind != CHANGEPOINT_SUSPECT;
}

int detect_regression_within(const struct history_data *d, const struct detect_result *r,
			     size_t window)
{
	for (size_t i = 0; i < r->nr; i++)
		if (alarm(&r->changes[i]) && r->changes[i].run + window >= d->nr_runs)
			return 1;
	return 0;
}

/* Whether series c->series held a regression change point within two runs of c's in the runs
 * before the last 'window' (the raw candidates of that series alone: what was known). */
static int known_before(const struct history_data *d, const struct detect_options *o,
			const struct detect_change *c, size_t window, struct changepoint *cp)
{
	const struct history_series *s = &d->series[c->series];
	struct detect_result then = { 0 };
	size_t n = s->n;
	int known = 0;

	while (n && s->run[n - 1] + window >= d->nr_runs)
		n--;
	detect_series(d, c->series, n, o, &then, cp);
	for (size_t i = 0; i < then.nr && !known; i++) {
		const struct detect_change *t = &then.changes[i];
		known = t->regression && t->kind != CHANGEPOINT_SUSPECT &&
			t->run + 2 >= c->run && c->run + 2 >= t->run;
	}
	detect_result_release(&then);
	return known;
}

int detect_regression_arrived(const struct history_data *d, const struct detect_options *o,
			      const struct detect_result *r, size_t window)
{
	struct changepoint *cp = NULL;
	int arrived = 0;

	for (size_t i = 0; i < r->nr && !arrived; i++) {
		const struct detect_change *c = &r->changes[i];
		if (!alarm(c))
			continue;
		cp = cp ? cp : xmalloc((d->nr_runs + 1) * sizeof(*cp));
		arrived = !known_before(d, o, c, window, cp);
	}
	free(cp);
	return arrived;
}
