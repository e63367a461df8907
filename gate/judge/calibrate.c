/* Calibration: every result set against every other with the current rules, and the smallest change
 * each tolerance catches. */
#include "judge/calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/check-priv.h"

/* Bisection steps of the detection search: Mann-Whitney is cheap, the bootstrap is not. */
#define STEPS_MWU 24
#define STEPS_BOOTSTRAP 14

void calibrate_init(struct calibrate *cal, struct rules *r)
{
	memset(cal, 0, sizeof(*cal));
	cal->rules = r;
}

void calibrate_release(struct calibrate *cal)
{
	for (size_t i = 0; i < cal->nr_sets; i++) {
		free(cal->sets[i].dir);
		matrix_release(&cal->sets[i].m);
		analysis_release(&cal->sets[i].a);
	}
	for (size_t i = 0; i < cal->nr_rows; i++) {
		struct calibrate_row *row = &cal->rows[i];
		free(row->origin);
		free(row->kind);
		free(row->metric);
		free(row->skip_reason);
		free(row->detect);
		free(row->shift);
		free(row->worst);
	}
	free(cal->sets);
	free(cal->rows);
	calibrate_init(cal, NULL);
}

int calibrate_add(struct calibrate *cal, const char *dir)
{
	struct calibrate_set *s;

	cal->sets = xrealloc(cal->sets, (cal->nr_sets + 1) * sizeof(*cal->sets));
	s = &cal->sets[cal->nr_sets];
	s->dir = xstrdup(dir);
	analysis_init(&s->a);
	matrix_init(&s->m);
	cal->nr_sets++;
	if (analysis_load(&s->a, dir) || matrix_build(&s->m, &s->a))
		return -1;
	if (!s->a.nr_configs)
		return gate_error("no successful run in '%s'", dir);
	return 0;
}

static struct calibrate_row *row_get(struct calibrate *cal, const char *origin, const char *kind,
				     const char *metric)
{
	struct calibrate_row *row;

	for (size_t i = 0; i < cal->nr_rows; i++)
		if (!strcmp(cal->rows[i].origin, origin) && !strcmp(cal->rows[i].kind, kind))
			return &cal->rows[i];
	ALLOC_GROW(cal->rows, cal->nr_rows + 1, cal->alloc_rows);
	row = memset(&cal->rows[cal->nr_rows++], 0, sizeof(*row));
	row->origin = xstrdup(origin);
	row->kind = xstrdup(kind);
	row->metric = xstrdup(metric ? metric : "-");
	return row;
}

/* Only the checks of rules count: not run failures, missing baselines or interval notes. */
static int counted(const struct verdict *v)
{
	return v->metric && v->rule_origin && strcmp(v->kind, "fingerprint");
}

static void count(struct calibrate *cal, const struct verdict_set *vs)
{
	for (size_t i = 0; i < vs->nr; i++) {
		const struct verdict *v = &vs->v[i];
		struct calibrate_row *row;
		if (!counted(v))
			continue;
		row = row_get(cal, v->rule_origin, v->kind, v->metric);
		if (v->status == VERDICT_SKIPPED) {
			row->skipped++;
			if (!row->skip_reason)
				row->skip_reason = xstrdup(v->message);
			continue;
		}
		row->judged++;
		row->fail += v->status == VERDICT_FAIL;
		row->warn += v->status == VERDICT_WARN;
	}
}

/* ---- the smallest change a tolerance catches ---- */

struct probe {
	const struct check_metric *m;
	const struct rules_value *tol;
	double alpha;
	const double *xb, *xc;    /* per-run samples */
	size_t nb, nc;
	struct check_groups g;    /* derived: T(ref), T(p) of baseline and current */
	double *work;
};

/* Whether the check fails when the current samples are made worse by s; the test's change then. */
static int probe_fails(const struct probe *p, double s, double *change)
{
	struct check_test t;
	int worse = p->m->worse;

	if (p->m->kind == CHECK_DERIVED) {
		struct check_groups g = p->g;
		for (size_t k = 0; k < g.n[3]; k++)
			p->work[k] = p->g.x[3][k] * (1 + s); /* a slowdown of the configuration */
		g.x[3] = p->work;
		if (check_test_derived(&g, p->m->id, p->tol, p->alpha, &t))
			return 0;
	} else {
		for (size_t k = 0; k < p->nc; k++)
			p->work[k] = p->tol->relative ? p->xc[k] * (1 + worse * s)
						      : p->xc[k] + worse * s;
		struct check_test_opts o = { worse, p->tol, p->alpha, 0, 0, 0, 0 };
		if (check_test_samples(p->xb, p->nb, p->work, p->nc, &o, &t))
			return 0;
	}
	*change = t.change;
	return t.significant;
}

/* The smallest failing change by bisection over the shift (*shift); NAN when even 'limit' passes.
 */
static double search(const struct probe *p, double limit, int steps, double *shift)
{
	double lo = 0, hi = limit, change = NAN, c;

	*shift = NAN;
	if (!probe_fails(p, hi, &change))
		return NAN;
	*shift = 0;
	if (probe_fails(p, 0, &c))
		return c;
	for (int i = 0; i < steps; i++) {
		double mid = 0.5 * (lo + hi);
		if (probe_fails(p, mid, &c))
			hi = mid, change = c;
		else
			lo = mid;
	}
	*shift = hi;
	return change;
}

static double shift_limit(const struct probe *p)
{
	if (p->m->kind == CHECK_DERIVED)
		return 10; /* up to 11 times slower */
	if (p->tol->relative)
		return p->m->worse > 0 ? 10 : 0.99;
	if (p->m->kind == CHECK_PER_RUN && p->m->fig == ANALYSIS_EXECUTION_TIME)
		return 10 * fabs(p->xb[0]) + 1e-9;
	if (p->m->kind == CHECK_RATIO)
		/* Average_parallelism: it can drop by all of itself */
		return fabs(p->xb[0]) + 1e-9;
	return 1; /* shares and efficiencies live in [0, 1] */
}

static void record(struct calibrate *cal, const struct check_cell *cell,
		   const struct check_metric *m, const struct probe *p, double change, double shift)
{
	char *origin = check_rule_origin(cell->set->tolerance_from[m->id]);
	char *kind = xstrfmt("tolerance.%s", m->key), name[96];
	struct calibrate_row *row = row_get(cal, origin, kind, m->name);

	row->relative = p->tol->relative;
	if (isnan(change)) {
		row->undetectable++;
	} else {
		double worst = row->nr_detect ? row->detect[0] : 0;
		for (size_t i = 0; i < row->nr_detect; i++)
			worst = fabs(row->detect[i]) > fabs(worst) ? row->detect[i] : worst;
		ALLOC_GROW(row->detect, row->nr_detect + 1, row->alloc_detect);
		row->shift = xrealloc(row->shift, row->alloc_detect * sizeof(double));
		row->shift[row->nr_detect] = shift;
		row->detect[row->nr_detect++] = change;
		row->slowdown = m->kind == CHECK_DERIVED;
		if (!row->worst || fabs(change) > fabs(worst)) {
			check_config_name(name, sizeof(name), cell->series->size,
					  cell->mc->config->ranks, cell->mc->config->threads);
			free(row->worst);
			row->worst = xstrfmt("%s %s %s", cell->b->name, cell->interval, name);
		}
	}
	free(origin);
	free(kind);
}

static double *times(const struct baseline_cell *bc, size_t *n)
{
	double *x = xmalloc(((bc ? bc->n : 0) + 1) * sizeof(double));

	*n = baseline_samples(bc, ANALYSIS_EXECUTION_TIME, x);
	return x;
}

static void detect(struct calibrate *cal, const struct check_cell *cell,
		   const struct check_metric *m)
{
	const struct rules_policy *pol = &cell->set->tolerance_policy[m->id];
	struct probe p = {.m = m, .tol = &cell->set->tolerance[m->id], .alpha = pol->significance};
	const struct baseline_cell *cells[4] = {cell->base_ref, cell->base, cell->cur_ref,
						cell->cur};
	double *x[4] = { NULL }, *xb = NULL, *xc = NULL;
	char *why = NULL;

	if (m->kind == CHECK_DERIVED) {
		if (!cell->base_ref || (m->id == RULES_KARP_FLATT && !(cell->rp > 1)))
			return;
		for (int i = 0; i < 4; i++)
			p.g.x[i] = x[i] = times(cells[i], &p.g.n[i]);
		p.g.rp = cell->rp;
		why = check_unreachable(p.g.n[0] < p.g.n[1] ? p.g.n[0] : p.g.n[1],
					p.g.n[2] < p.g.n[3] ? p.g.n[2] : p.g.n[3], pol);
		p.work = xmalloc((p.g.n[3] + 1) * sizeof(double));
	} else {
		xb = xmalloc((cell->base->n + 1) * sizeof(double));
		xc = xmalloc((cell->cur->n + 1) * sizeof(double));
		p.xb = xb, p.xc = xc;
		p.nb = check_samples(cell->base, m, xb);
		p.nc = check_samples(cell->cur, m, xc);
		why = p.nb && p.nc ? check_unreachable(p.nb, p.nc, pol) : xstrdup("not captured");
		p.work = xmalloc((p.nc + 1) * sizeof(double));
	}
	if (!why) {
		double shift,
			change = search(&p, shift_limit(&p),
					m->kind == CHECK_DERIVED ? STEPS_BOOTSTRAP : STEPS_MWU,
					&shift);
		record(cal, cell, m, &p, change, shift);
	}
	free(why);
	for (int i = 0; i < 4; i++)
		free(x[i]);
	free(xb);
	free(xc);
	free(p.work);
}

static void detect_pair(struct calibrate *cal, struct check *c)
{
	struct rules_settings set;
	struct check_cell cell;

	for (size_t k = 0; k < c->m->nr_series; k++) {
		const struct matrix_series *s = &c->m->series[k];
		for (size_t b = 0; b < c->nr_bench; b++) {
			if (strcmp(c->bench[b].name, s->benchmark) || !c->bench[b].has_base)
				continue;
			for (size_t i = 0; i < s->nr_cells; i++) {
				check_cell_init(&cell, c, &c->bench[b], s, i, &set);
				for (int mi = 0; mi < RULES_NR_METRICS && cell.base && cell.cur;
				     mi++) {
					const struct check_metric *m = &check_metrics[mi];
					if (!set.tolerance[mi].set ||
					    set.tolerance_policy[mi].level == RULES_LEVEL_OFF ||
					    m->kind == CHECK_SLOPE || m->kind == CHECK_WEAK ||
					    m->kind == CHECK_GROWTH ||
					    (m->kind == CHECK_DERIVED && (int)i == s->ref))
						continue;
					detect(cal, &cell, m);
				}
			}
		}
	}
}

static void compare(struct calibrate *cal, size_t cur, size_t base, int probe)
{
	struct verdict_set vs;
	struct check c;

	verdict_set_init(&vs);
	check_init(&c, cal->rules, &cal->sets[cur].a, &cal->sets[cur].m, &vs);
	c.quiet = 1;
	check_use_baselines(&c, &cal->sets[base].a);
	check_evaluate(&c);
	count(cal, &vs);
	if (probe)
		detect_pair(cal, &c);
	check_release(&c);
	verdict_set_release(&vs);
}

int calibrate_run(struct calibrate *cal)
{
	for (size_t i = 0; i < cal->nr_sets; i++)
		for (size_t j = 0; j < cal->nr_sets; j++) {
			if (i == j)
				continue;
			compare(cal, i, j, j == (i + 1) % cal->nr_sets);
			cal->comparisons++;
		}
	return rules_report_unmatched(cal->rules);
}
