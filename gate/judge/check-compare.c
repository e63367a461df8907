/* Tolerances against the baseline: past the tolerance and significant fails, past it alone warns
 * (docs/check.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/check-priv.h"
#include "stats/stats.h"

/*
 * A provisional verdict for the test: its status and message are decided by
 * check_adjust() with every other test of the run (the whole-run error control).
 */
static struct verdict *finish(struct check_cell *cell, const struct check_metric *m,
			      const char *kind, const struct check_test *t)
{
	const struct rules_settings *set = cell->set;
	struct verdict *v = check_verdict(cell, t->past ? VERDICT_WARN : VERDICT_PASS, kind, m,
					  set->tolerance_from[m->id]);

	v->n = t->n_cur;
	v->value = t->cur;
	v->lo = t->lo;
	v->hi = t->hi;
	v->n_base = t->n_base;
	v->baseline = t->base;
	v->change = t->change;
	if (set->tolerance[m->id].relative)
		v->change_unit = UNIT_RELATIVE;
	v->p_value = t->p;
	v->mdc = t->mdc;
	if (v->unit == UNIT_SECONDS && cell->cur && cell->cur->speed > 0)
		v->speed = cell->cur->speed; /* the samples compared were scaled */
	check_add_cause(cell, v); /* kept only if the adjustment leaves a warning or a failure */
	check_defer(cell, (size_t)(v - cell->c->vs->v), m, t);
	return v;
}

/* "label: 0.123 0.125 ...": the samples behind a verdict, for its details. */
static void add_samples(struct strbuf *sb, const char *label, const double *x, size_t n,
			double scale)
{
	strbuf_addf(sb, "%s%s:", sb->len ? "\n" : "", label);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, " %.6g", scale * x[i]);
}

static void set_details(struct verdict *v, struct strbuf *sb)
{
	verdict_set_details(v, "%s", sb->buf ? sb->buf : "");
	strbuf_release(sb);
}

static void skip(struct check_cell *cell, const struct check_metric *m, const char *kind,
		 const char *why)
{
	struct verdict *v = check_verdict(cell, VERDICT_SKIPPED, kind, m,
					  cell->set->tolerance_from[m->id]);

	verdict_set_message(v, "%s", why);
}

static void skip_unreachable(struct check_cell *cell, const struct check_metric *m,
			     const char *kind, size_t nb, size_t nc, int *skipped)
{
	char *why = check_unreachable(nb, nc, &cell->set->tolerance_policy[m->id]);

	*skipped = why != NULL;
	if (why)
		skip(cell, m, kind, why);
	free(why);
}

/*
 * In A/B, the samples of the rounds both sides have, paired by round number
 * into xb and xc (0 when fewer than 2 pairs: then tested unpaired).
 */
static size_t pair_samples(const struct check_cell *cell, const struct check_metric *m, double *xb,
			   double *xc, size_t cap)
{
	double *sb = xmalloc(cap * sizeof(double)), *sc = xmalloc(cap * sizeof(double));
	int *rb = xmalloc(cap * sizeof(int)), *rc = xmalloc(cap * sizeof(int));
	size_t nb = check_samples_rounds(cell->base, m, sb, rb);
	size_t nc = check_samples_rounds(cell->cur, m, sc, rc);
	size_t n = check_pair_rounds(sb, rb, nb, sc, rc, nc, xb, xc, NULL);

	free(sb);
	free(sc);
	free(rb);
	free(rc);
	return n >= 2 ? n : 0;
}

static void compare_samples(struct check_cell *cell, const struct check_metric *m, const char *kind)
{
	size_t cap = (cell->cur->n > cell->base->n ? cell->cur->n : cell->base->n) + 1, nb, nc,
	       np = 0;
	double *xb = xmalloc(cap * sizeof(double)), *xc = xmalloc(cap * sizeof(double));
	struct check_test t;
	int skipped;
	double df;

	nb = check_samples(cell->base, m, xb);
	nc = check_samples(cell->cur, m, xc);
	if (cell->c->ab && nb && nc && (np = pair_samples(cell, m, xb, xc, cap)))
		nb = nc = np;
	/* fewer than 2 rounds pair: unpaired, on every sample */
	else if (cell->c->ab && nb && nc) {
		nb = check_samples(cell->base, m, xb);
		nc = check_samples(cell->cur, m, xc);
	}
	if (!nb && !nc) {
		/* captured on neither side (an OpenMP program's Communication): nothing to compare,
		 * nothing to say */
	} else if (!nb || !nc) {
		char *why = xstrfmt("%s not captured in the %s", m->name,
				    !nc ? "results" : "baseline");
		skip(cell, m, kind, why);
		free(why);
	} else {
		skip_unreachable(cell, m, kind, nb, nc, &skipped);
		struct check_test_opts o = {
			m->worse,
			&cell->set->tolerance[m->id],
			check_alpha(cell, m),
			np > 0,
			check_sitting_sd(cell, m, cell->set->tolerance[m->id].relative, &df),
			cell->set->tolerance_policy[m->id].margin,
			0};
		o.sitting_df = df;
		if (!skipped && !check_test_samples(xb, nb, xc, nc, &o, &t)) {
			struct verdict *v = finish(cell, m, kind, &t);
			struct strbuf sb = STRBUF_INIT;
			double loads = m->id == RULES_TIME ? check_loads_sd(cell, m, NULL, NULL)
							   : 0;
			/* the same test without the allowance for loads apart: did it decide? */
			o.sitting_sd = sqrt(fmax(0, o.sitting_sd * o.sitting_sd - loads * loads));
			if (loads > 0 && !check_test_samples(xb, nb, xc, nc, &o, &t))
				check_defer_loads(cell, v, &t);
			double scale = m->kind == CHECK_SHARE ? 100 : 1;
			const char *what = np ? " paired by round" : "";
			char *lb = xstrfmt("baseline samples%s%s",
					   m->kind == CHECK_SHARE ? " (%)" : "", what);
			char *lc = xstrfmt("current samples%s%s",
					   m->kind == CHECK_SHARE ? " (%)" : "", what);
			add_samples(&sb, lb, xb, nb, scale);
			add_samples(&sb, lc, xc, nc, scale);
			free(lb);
			free(lc);
			check_describe_sitting(&sb, cell, m, cell->set->tolerance[m->id].relative);
			set_details(v, &sb);
		}
	}
	free(xb);
	free(xc);
}

/* The Execution_time samples of a cell, allocated; *n their count. */
static double *times(const struct baseline_cell *bc, size_t *n)
{
	double *x = xmalloc(((bc ? bc->n : 0) + 1) * sizeof(double));

	*n = baseline_samples(bc, ANALYSIS_EXECUTION_TIME, x);
	return x;
}

/* A cell's Execution_time samples and their rounds, allocated; *n their count. */
static double *times_rounds(const struct baseline_cell *bc, int **round, size_t *n)
{
	size_t cap = (bc ? bc->n : 0) + 1;
	double *x = xmalloc(cap * sizeof(double));

	*round = xmalloc(cap * sizeof(int));
	*n = check_samples_rounds(bc, &check_metrics[RULES_TIME], x, *round);
	return x;
}

/*
 * The metric per round on one side, from T(ref) and T(p) of the same round
 * number (the runner measures every configuration once per round; a failed
 * run drops its round only): the values and their rounds, allocated, *n their
 * count (0 when fewer than 2, or one is undefined).
 */
static double *per_round(const struct baseline_cell *ref, const struct baseline_cell *cp,
			 enum rules_metric m, double rp, int **round, size_t *n)
{
	int *rr, *rq;
	size_t nr, nq;
	double *xr = times_rounds(ref, &rr, &nr), *xq = times_rounds(cp, &rq, &nq);
	double *out = xmalloc((nr + 1) * sizeof(double)), *tp = xmalloc((nr + 1) * sizeof(double));

	*round = xmalloc((nr + 1) * sizeof(int));
	*n = check_pair_rounds(xr, rr, nr, xq, rq, nq, out, tp, *round);
	for (size_t i = 0; i < *n; i++) {
		out[i] = check_derived_value(m, out[i], tp[i], rp);
		if (!isfinite(out[i]))
			*n = 0;
	}
	if (*n < 2)
		*n = 0;
	free(xr);
	free(xq);
	free(rr);
	free(rq);
	free(tp);
	return out;
}

/* The derived metric tested round by round (A/B: paired by round): 0, 1 it cannot be, -1 error. */
static int test_rounds(struct check_cell *cell, const struct check_metric *m,
		       const struct baseline_cell *const cells[4], double rp, struct check_test *t)
{
	const struct rules_value *tol = &cell->set->tolerance[m->id];
	struct check_test_opts o = { m->worse, tol, check_alpha(cell, m), 0, 0,
				     cell->set->tolerance_policy[m->id].margin, 0 };
	int *rb, *rc, ret = 1;
	size_t nb, nc, np = 0;
	double *xb = per_round(cells[0], cells[1], m->id, rp, &rb, &nb);
	double *xc = per_round(cells[2], cells[3], m->id, rp, &rc, &nc);
	double *pb = xmalloc((nb + 1) * sizeof(double)), *pc = xmalloc((nb + 1) * sizeof(double));

	o.sitting_sd = check_sitting_sd(cell, m, tol->relative, &o.sitting_df);
	if (cell->c->ab && nb && nc)
		np = check_pair_rounds(xb, rb, nb, xc, rc, nc, pb, pc, NULL);
	if (np >= 2) {
		o.paired = 1;
		ret = check_test_samples(pb, np, pc, np, &o, t);
	} else if (nb && nc) {
		ret = check_test_samples(xb, nb, xc, nc, &o, t);
	}
	free(xb);
	free(xc);
	free(rb);
	free(rc);
	free(pb);
	free(pc);
	return ret;
}

static void derived_details(struct verdict *v, const struct check_groups *g,
			    const struct check_cell *cell, const struct check_metric *m)
{
	static const char *const labels[4] = {
		"baseline Execution_time at the reference", "baseline Execution_time",
		"current Execution_time at the reference", "current Execution_time",
	};
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < 4; i++)
		add_samples(&sb, labels[i], g->x[i], g->n[i], 1);
	check_describe_sitting(&sb, cell, m, cell->set->tolerance[m->id].relative);
	set_details(v, &sb);
}

/* Speedup, efficiency, Karp-Flatt against the series' reference; Weak_efficiency against the weak
 * reference. */
static void compare_derived(struct check_cell *cell, const struct check_metric *m, const char *kind)
{
	int weak = m->kind == CHECK_WEAK;
	const struct matrix_cell *ref = weak ? cell->weak_ref
					     : &cell->series->cells[cell->series->ref];
	const char *ref_size = weak ? cell->weak_ref_size : cell->series->size;
	const struct baseline_cell *base_ref = weak ? cell->weak_base_ref : cell->base_ref;
	const struct baseline_cell *cur_ref = weak ? cell->weak_cur_ref : cell->cur_ref;
	const struct baseline_cell *cells[4] = { base_ref, cell->base, cur_ref, cell->cur };
	struct check_groups g = { .rp = weak ? 1 : cell->rp };
	double *x[4];
	struct check_test t;
	int skipped = 0, ret;

	if (m->id == RULES_KARP_FLATT && !(cell->rp > 1))
		return; /* undefined at the reference's processor count */
	if (!base_ref) {
		char name[96], *why;
		check_config_name(name, sizeof(name), ref_size, ref->config->ranks,
				  ref->config->threads);
		why = xstrfmt(
			"no baseline for the reference configuration %s: %s cannot be compared",
			name, m->name);
		skip(cell, m, kind, why);
		free(why);
		return;
	}
	for (int i = 0; i < 4; i++) {
		x[i] = times(cells[i], &g.n[i]);
		g.x[i] = x[i];
	}
	skip_unreachable(cell, m, kind, g.n[0] < g.n[1] ? g.n[0] : g.n[1],
			 g.n[2] < g.n[3] ? g.n[2] : g.n[3], &skipped);
	if (!skipped) {
		g.seed = stats_seed_of(kind);
		g.margin = cell->set->tolerance_policy[m->id].margin;
		ret = weak ? 1 : test_rounds(cell, m, cells, g.rp, &t);
		if (ret > 0)
			ret = check_test_derived(&g, m->id, &cell->set->tolerance[m->id],
						 check_alpha(cell, m), &t);
		else if (!ret) /* tested round by round, shown as every report shows it */
			ret = check_derived_figures(&g, m->id, &t);
		if (!ret)
			derived_details(finish(cell, m, kind, &t), &g, cell, m);
		else if (ret > 0)
			skip(cell, m, kind,
			     "undefined in the baseline or the results (a time of 0?)");
	}
	for (int i = 0; i < 4; i++)
		free(x[i]);
}

void check_tolerance(struct check_cell *cell, const struct check_metric *m)
{
	char *kind = xstrfmt("tolerance.%s", m->key);

	if (m->kind == CHECK_PER_RUN || m->kind == CHECK_SHARE || m->kind == CHECK_RATIO) {
		compare_samples(cell, m, kind);
	} else if (m->kind == CHECK_DERIVED || m->kind == CHECK_WEAK) {
		compare_derived(cell, m, kind);
	}
	free(kind);
}

/* ---- the Karp-Flatt slope of a series ---- */

static void compare_slope(struct check_cell *cell, const struct check_metric *m, const char *kind)
{
	const struct matrix_series *s = cell->series;
	const struct matrix_cell *ref = &s->cells[s->ref];
	size_t ng = 0, k = 0, nb = (size_t)-1, nc = (size_t)-1;
	const struct baseline_cell **bc = xcalloc(2 * s->nr_cells + 2, sizeof(*bc));
	const double **x = xcalloc(2 * s->nr_cells + 2, sizeof(*x));
	size_t *n = xcalloc(2 * s->nr_cells + 2, sizeof(*n));
	double *rp = xcalloc(s->nr_cells + 1, sizeof(*rp));
	struct check_test t;
	int skipped = 0;

	for (size_t i = 0; i < s->nr_cells; i++) {
		const struct analysis_config *c = s->cells[i].config;
		const struct baseline_cell *b = baseline_find(&cell->b->base, cell->interval,
							      s->size, c->ranks, c->threads);
		const struct baseline_cell *cur = baseline_find(&cell->b->cur, cell->interval,
								s->size, c->ranks, c->threads);
		if (s->cells[i].p <= ref->p || !b || !cur)
			continue;
		bc[1 + k] = b;
		bc[s->nr_cells + 2 + k] = cur;
		rp[k++] = (double)s->cells[i].p / ref->p;
	}
	bc[0] = cell->base_ref;
	bc[k + 1] = cell->cur_ref;
	for (size_t i = 0; i < k; i++)
		bc[k + 2 + i] = bc[s->nr_cells + 2 + i];
	if (k < 2 || !bc[0]) {
		skip(cell, m, kind,
		     "needs a baseline with the reference and at least 2 larger processor counts");
		goto out;
	}
	for (ng = 0; ng < 2 * k + 2; ng++) {
		x[ng] = times(bc[ng], &n[ng]);
		size_t *side = ng <= k ? &nb : &nc;
		*side = n[ng] < *side ? n[ng] : *side;
	}
	skip_unreachable(cell, m, kind, nb, nc, &skipped);
	if (!skipped) {
		struct check_slope_groups g = { x, n, rp, k, stats_seed_of(cell->interval),
						cell->set->tolerance_policy[m->id].margin };
		int ret = check_test_slope(&g, &cell->set->tolerance[m->id],
					   check_alpha(cell, m), &t);
		if (!ret)
			finish(cell, m, kind, &t);
	}
out:
	for (size_t i = 0; i < ng; i++)
		free((double *)x[i]);
	free(x);
	free(n);
	free(rp);
	free(bc);
}

void check_slope(struct check_cell *cell)
{
	const struct rules_settings *set = cell->set;
	const struct check_metric *m = &check_metrics[RULES_KARP_FLATT_SLOPE];

	if (set->max[m->id].set && set->bound_policy[m->id].level != RULES_LEVEL_OFF)
		check_bound(cell, m, 1);
	if (!set->tolerance[m->id].set || set->tolerance_policy[m->id].level == RULES_LEVEL_OFF ||
	    !cell->b->has_base)
		return;
	if (cell->b->fingerprint_diff && !set->tolerance_policy[m->id].across_fingerprints) {
		enum verdict_status st = set->tolerance_policy[m->id].level == RULES_LEVEL_WARN
						 ? VERDICT_WARN
						 : VERDICT_ERROR;
		struct verdict *v = check_verdict(cell, st, "fingerprint", m,
						  set->tolerance_from[m->id]);
		verdict_set_message(
			v,
			"%s not compared: the baseline was recorded in another environment (%s); "
			"its rule does not compare across machines (across_fingerprints)",
			m->name, cell->b->fingerprint_diff);
	} else {
		char *kind = xstrfmt("tolerance.%s", m->key);
		compare_slope(cell, m, kind);
		free(kind);
	}
}
