/* The trend pages' findings: the change points of one cell (interval x configuration) at one
 * commit are one cause, whatever metrics they moved and whichever way (a step that slows an
 * interval's work shrinks its waiting's share); and a cell's change that a descendant interval
 * shows at the same commit is that descendant's cause, counted once. */
#include "report/trend-priv.h"

#include <stdlib.h>
#include <string.h>

/* The site of the sort below (qsort takes no argument). */
static const struct trend_site *sorting;

static enum trend_kind kind_of(const struct detect_change *c)
{
	if (c->kind == CHANGEPOINT_SUSPECT)
		return TREND_SUSPECT;
	if (c->tolerated)
		return TREND_TOLERATED;
	return c->regression ? TREND_REGRESSION : TREND_IMPROVEMENT;
}

/* Change points by interval, configuration and run. */
static int cmp_change(const void *pa, const void *pb)
{
	const struct detect_change *a = &sorting->r->changes[*(const size_t *)pa],
				   *b = &sorting->r->changes[*(const size_t *)pb];
	size_t ia = sorting->interval_of[a->series], ib = sorting->interval_of[b->series];
	int c;

	if (ia != ib)
		return ia < ib ? -1 : 1;
	c = strcmp(sorting->d->series[a->series].configuration,
		   sorting->d->series[b->series].configuration);
	return c ? c : (a->run > b->run) - (a->run < b->run);
}

/* Findings by interval, configuration and run. */
static int cmp_finding(const void *pa, const void *pb)
{
	const struct trend_finding *a = pa, *b = pb;
	int c;

	if (a->interval != b->interval)
		return a->interval < b->interval ? -1 : 1;
	c = strcmp(a->configuration, b->configuration);
	return c ? c : (a->run > b->run) - (a->run < b->run);
}

/* Whether change c belongs to finding f: its cell, within a run of it. */
static int joins(const struct trend_site *s, const struct trend_finding *f,
		 const struct detect_change *c)
{
	return f->interval == s->interval_of[c->series] &&
	       !strcmp(f->configuration, s->d->series[c->series].configuration) &&
	       c->run <= f->run + 1;
}

/* The stronger of a finding's kinds: a regression, an improvement, a suspect, a tolerated one. */
static enum trend_kind stronger(enum trend_kind a, enum trend_kind b)
{
	static const int rank[] = { [TREND_REGRESSION] = 3, [TREND_IMPROVEMENT] = 2,
				    [TREND_SUSPECT] = 1, [TREND_TOLERATED] = 0 };

	return rank[b] > rank[a] ? b : a;
}

/* Each finding that a descendant interval's finding of the same configuration and commit (within
 * a run) shows again: the deepest such descendant is the cause. */
static void link_inner(struct trend_site *s)
{
	for (size_t i = 0; i < s->nr_f; i++) {
		struct trend_finding *f = &s->f[i];
		int depth = -1;
		for (size_t k = 0; k < s->nr_f; k++) {
			const struct trend_finding *g = &s->f[k];
			if (trend_interval_within(s, g->interval, f->interval) &&
			    !strcmp(g->configuration, f->configuration) && g->run + 1 >= f->run &&
			    g->run <= f->run + 1 && trend_interval_depth(s, g->interval) > depth) {
				f->inner = (long)k;
				depth = trend_interval_depth(s, g->interval);
			}
		}
	}
}

void trend_findings_build(struct trend_site *s)
{
	size_t *order = xmalloc((s->r->nr + 1) * sizeof(*order)), alloc = 0;

	for (size_t i = 0; i < s->r->nr; i++)
		order[i] = i;
	sorting = s;
	qsort(order, s->r->nr, sizeof(*order), cmp_change);
	for (size_t i = 0; i < s->r->nr; i++) {
		const struct detect_change *c = &s->r->changes[order[i]];
		struct trend_finding *f = s->nr_f ? &s->f[s->nr_f - 1] : NULL;
		if (f && joins(s, f, c)) {
			f->kind = stronger(f->kind, kind_of(c));
			f->worse |= c->regression;
			f->nr_changes++;
			continue;
		}
		ALLOC_GROW(s->f, s->nr_f + 1, alloc);
		s->f[s->nr_f++] = (struct trend_finding){
			s->interval_of[c->series], s->d->series[c->series].configuration,
			c->run, c->previous, kind_of(c), 1, c->regression, -1 };
	}
	qsort(s->f, s->nr_f, sizeof(*s->f), cmp_finding);
	link_inner(s);
	free(order);
}

void trend_cell_findings(const struct trend_site *s, size_t interval, const char *configuration,
			 size_t *first, size_t *end)
{
	size_t lo = 0, hi = s->nr_f;

	while (lo < hi) { /* the interval's first finding */
		size_t mid = lo + (hi - lo) / 2;
		if (s->f[mid].interval < interval)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo < s->nr_f && s->f[lo].interval == interval &&
	       strcmp(s->f[lo].configuration, configuration) < 0)
		lo++;
	for (hi = lo; hi < s->nr_f && s->f[hi].interval == interval &&
		      !strcmp(s->f[hi].configuration, configuration);
	     hi++)
		;
	*first = lo;
	*end = hi;
}

int trend_cell_state(const struct trend_site *s, size_t first, size_t end)
{
	for (size_t i = end; i > first; i--)
		if (s->f[i - 1].kind != TREND_TOLERATED)
			return (int)s->f[i - 1].kind;
	return -1;
}

const char *trend_kind_name(int kind)
{
	switch (kind) {
	case TREND_REGRESSION:
		return "regression";
	case TREND_SUSPECT:
		return "suspect";
	case TREND_IMPROVEMENT:
		return "improvement";
	case TREND_TOLERATED:
		return "tolerated";
	default:
		return "quiet";
	}
}
