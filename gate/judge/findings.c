/* Findings: one per cause, built once from the verdicts; every report iterates them. */
#include "judge/findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The checks of one cell, before folding. */
struct group {
	size_t *checks;
	size_t nr, alloc;
	enum verdict_status status;
	double grew;  /* the cell's Execution_time median change in seconds, NAN unknown */
	long into;    /* the group it is folded into, -1 none */
};

static int same(const char *x, const char *y)
{
	return !strcmp(x ? x : "", y ? y : "");
}

static int same_cell(const struct verdict *a, const struct verdict *b)
{
	return same(a->benchmark, b->benchmark) && same(a->interval, b->interval) &&
	       same(a->size, b->size) && a->ranks == b->ranks && a->threads == b->threads;
}

/* Failed checks and warnings that found something; an inconclusive one found nothing. */
static int is_evidence(const struct verdict *v)
{
	return v->status == VERDICT_FAIL || (v->status == VERDICT_WARN && !v->inconclusive);
}

static double growth(const struct verdict *v)
{
	return v->seconds > 0 && isfinite(v->base_seconds) ? v->seconds - v->base_seconds : NAN;
}

static size_t depth(const char *path)
{
	size_t d = 0;

	for (; path && *path; path++)
		d += *path == '/';
	return d;
}

/* 'inner' is an interval inside 'outer' (intervals nest by their paths, analyze/intervals.c). */
static int inside(const char *outer, const char *inner)
{
	size_t n = outer ? strlen(outer) : 0;

	return n && inner && !strncmp(outer, inner, n) && inner[n] == '/';
}

static size_t make_groups(const struct verdict_set *vs, struct group **out, size_t *out_alloc)
{
	struct group *g = NULL;
	size_t nr = 0, alloc = 0;

	for (size_t i = 0; i < vs->nr; i++) {
		const struct verdict *v = &vs->v[i];
		size_t k;
		if (!is_evidence(v))
			continue;
		for (k = 0; k < nr && !same_cell(&vs->v[g[k].checks[0]], v); k++)
			;
		if (k == nr) {
			ALLOC_GROW(g, nr + 1, alloc);
			g[nr++] = (struct group){ .status = VERDICT_WARN, .grew = NAN, .into = -1 };
		}
		ALLOC_GROW(g[k].checks, g[k].nr + 1, g[k].alloc);
		g[k].checks[g[k].nr++] = i;
		if (v->status == VERDICT_FAIL)
			g[k].status = VERDICT_FAIL;
		if (isnan(g[k].grew))
			g[k].grew = growth(v);
	}
	*out = g;
	*out_alloc = alloc;
	return nr;
}

/* Whether group g has a check of 'metric'. */
static int has_metric(const struct verdict_set *vs, const struct group *g, const char *metric)
{
	for (size_t k = 0; k < g->nr; k++)
		if (same(vs->v[g->checks[k]].metric, metric))
			return 1;
	return 0;
}

/* A lost-time share of the enclosing interval (its own serial code, its own waiting) that the inner
 * group 'c' does not share is the enclosing interval's own change: no inner growth explains it. */
static int own_share(const struct verdict_set *vs, const struct verdict *v, const struct group *c)
{
	return v->unit == UNIT_SHARE && v->metric && !has_metric(vs, c, v->metric);
}

static void add_to(struct group *g, const struct verdict_set *vs, size_t i)
{
	ALLOC_GROW(g->checks, g->nr + 1, g->alloc);
	g->checks[g->nr++] = i;
	if (vs->v[i].status == VERDICT_FAIL)
		g->status = VERDICT_FAIL;
}

/* A folded group's own lost-time shares become a group of their own, a finding with its own
 * cause; the rest stays folded. The new groups are appended; returns the count. */
static size_t split_own(const struct verdict_set *vs, struct group **g, size_t nr,
			size_t *alloc)
{
	size_t n = nr;

	for (size_t i = 0; i < nr; i++) {
		struct group own = { .status = VERDICT_WARN, .grew = NAN, .into = -1 };
		struct group rest = own;
		if ((*g)[i].into < 0)
			continue;
		for (size_t k = 0; k < (*g)[i].nr; k++) {
			size_t x = (*g)[i].checks[k];
			add_to(own_share(vs, &vs->v[x], &(*g)[(*g)[i].into]) ? &own : &rest, vs, x);
		}
		if (!own.nr || !rest.nr) { /* all folded, or all its own: one group as before */
			free(own.checks);
			free(rest.checks);
			(*g)[i].into = rest.nr ? (*g)[i].into : -1;
			continue;
		}
		free((*g)[i].checks);
		rest.into = (*g)[i].into;
		rest.grew = own.grew = (*g)[i].grew;
		(*g)[i] = rest;
		ALLOC_GROW(*g, n + 1, *alloc);
		(*g)[n++] = own;
	}
	return n;
}

/* Whether the inner group 'c' explains the enclosing group 'p': it grew by at least
 * FINDINGS_EXPLAINED of p's growth (or p did not grow), and it is no milder. */
static int explains(const struct verdict_set *vs, const struct group *p, const struct group *c)
{
	const struct verdict *pv = &vs->v[p->checks[0]], *cv = &vs->v[c->checks[0]];

	if (!inside(pv->interval, cv->interval) || !same(pv->benchmark, cv->benchmark) ||
	    !same(pv->size, cv->size) || pv->ranks != cv->ranks || pv->threads != cv->threads)
		return 0;
	if (p->status == VERDICT_FAIL && c->status != VERDICT_FAIL)
		return 0;
	return isfinite(p->grew) && isfinite(c->grew) &&
	       c->grew >= FINDINGS_EXPLAINED * (p->grew > 0 ? p->grew : 0);
}

/* Each group into the deepest inner group that explains it (the one that grew most of equals). */
static void fold(const struct verdict_set *vs, struct group *g, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		long best = -1;
		size_t best_depth = 0;
		for (size_t k = 0; k < nr; k++) {
			size_t d;
			if (k == i || !explains(vs, &g[i], &g[k]))
				continue;
			d = depth(vs->v[g[k].checks[0]].interval);
			if (best < 0 || d > best_depth ||
			    (d == best_depth && g[k].grew > g[best].grew))
				best = (long)k, best_depth = d;
		}
		g[i].into = best;
	}
}

/* The group a folded one ends in: each fold goes one level deeper, so the chain ends. */
static size_t final(const struct group *g, size_t i)
{
	while (g[i].into >= 0)
		i = (size_t)g[i].into;
	return i;
}

static void add_checks(struct finding *f, const struct verdict_set *vs, const struct group *g)
{
	f->checks = xrealloc(f->checks, (f->nr_checks + g->nr) * sizeof(*f->checks));
	for (size_t k = 0; k < g->nr; k++) {
		f->checks[f->nr_checks++] = g->checks[k];
		if (vs->v[g->checks[k]].status == VERDICT_FAIL)
			f->failed++;
		else
			f->warned++;
	}
}

static size_t cause_of(const struct verdict_set *vs, const struct finding *f)
{
	for (size_t k = 0; k < f->nr_own; k++)
		if (vs->v[f->checks[k]].cause)
			return f->checks[k];
	return f->checks[0];
}

/* Findings in the order of their first check. */
static int by_first_check(const void *x, const void *y)
{
	size_t a = ((const struct finding *)x)->checks[0];
	size_t b = ((const struct finding *)y)->checks[0];

	return a < b ? -1 : a > b;
}

void findings_build(struct findings *fs, const struct verdict_set *vs)
{
	struct group *g;
	size_t alloc, nr = make_groups(vs, &g, &alloc);

	memset(fs, 0, sizeof(*fs));
	fold(vs, g, nr);
	nr = split_own(vs, &g, nr, &alloc);
	for (size_t i = 0; i < nr; i++) {
		struct finding *f;
		if (g[i].into >= 0)
			continue;
		ALLOC_GROW(fs->f, fs->nr + 1, fs->alloc);
		f = &fs->f[fs->nr++];
		memset(f, 0, sizeof(*f));
		f->status = g[i].status;
		add_checks(f, vs, &g[i]);
		f->nr_own = f->nr_checks;
		for (size_t k = 0; k < nr; k++)
			if (k != i && g[k].into >= 0 && final(g, k) == i)
				add_checks(f, vs, &g[k]);
		f->cause = cause_of(vs, f);
		if (f->status == VERDICT_FAIL)
			fs->regressions++, fs->failed += f->failed;
		else
			fs->warnings++, fs->warned += f->warned;
	}
	for (size_t i = 0; i < nr; i++)
		free(g[i].checks);
	free(g);
	qsort(fs->f, fs->nr, sizeof(*fs->f), by_first_check);
}

void findings_release(struct findings *fs)
{
	for (size_t i = 0; i < fs->nr; i++)
		free(fs->f[i].checks);
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}

const struct verdict *finding_where(const struct verdict_set *vs, const struct finding *f)
{
	return &vs->v[f->checks[0]];
}

const char *finding_cause(const struct verdict_set *vs, const struct finding *f)
{
	return vs->v[f->cause].cause;
}

int finding_folded(const struct finding *f, size_t k)
{
	return k >= f->nr_own;
}

int finding_first_of_interval(const struct verdict_set *vs, const struct finding *f, size_t k)
{
	if (!k || k == f->nr_own)
		return 1;
	return !same(vs->v[f->checks[k]].interval, vs->v[f->checks[k - 1]].interval);
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

void findings_add_regressions(struct strbuf *sb, const struct findings *fs)
{
	strbuf_addf(sb, "%zu regression%s (%zu check%s failed)", fs->regressions,
		    plural(fs->regressions), fs->failed, plural(fs->failed));
}

void findings_add_warnings(struct strbuf *sb, const struct findings *fs)
{
	strbuf_addf(sb, "%zu warning%s", fs->warnings, plural(fs->warnings));
	if (fs->warnings)
		strbuf_addf(sb, " (%zu check%s)", fs->warned, plural(fs->warned));
}

const char *finding_severity(const struct finding *f)
{
	return f->status == VERDICT_FAIL ? "regression" : "warning";
}
