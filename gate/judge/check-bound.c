/* Absolute bounds: a metric's median against the rule's _min or _max, with its 95 % interval. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/check-priv.h"
#include "stats/stats.h"

/* The current value of a metric in a cell (n == 0: absent or undefined here). */
static void current_figure(const struct check_cell *cell, const struct check_metric *m,
			   struct matrix_figure *f)
{
	struct stats_summary s;
	double *x;
	size_t n;

	memset(f, 0, sizeof(*f));
	switch (m->kind) {
	case CHECK_PER_RUN:
	case CHECK_SHARE:
	case CHECK_RATIO:
		x = xmalloc(((cell->cur ? cell->cur->n : 0) + 1) * sizeof(double));
		n = check_samples(cell->cur, m, x);
		if (n && !stats_summarize(x, n, MATRIX_LEVEL, &s))
			*f = (struct matrix_figure){ n, s.median, s.ci_lo, s.ci_hi };
		free(x);
		break;
	case CHECK_DERIVED:
		*f = m->id == RULES_SPEEDUP ? cell->mc->speedup :
		     m->id == RULES_EFFICIENCY ? cell->mc->efficiency : cell->mc->karp_flatt;
		break;
	case CHECK_SLOPE:
		*f = cell->series->karp_flatt_slope;
		break;
	case CHECK_WEAK:
		*f = cell->mc->weak_efficiency;
		break;
	case CHECK_GROWTH:
		break; /* check-growth.c */
	}
}

static char *bound_kind(const struct check_metric *m, int is_max)
{
	if (m->kind == CHECK_SHARE && is_max)
		return xstrfmt("share_max.%s", m->key);
	return xstrfmt("%s_%s", m->key, is_max ? "max" : "min");
}

static void describe(struct verdict *v, const struct check_metric *m, const struct matrix_figure *f,
		     const char *kind, double bound, int is_max, int certain)
{
	char val[160], b[48], by[48];

	unit_format_interval(val, sizeof(val), check_unit(m), f->median, f->lo, f->hi);
	check_format_value(b, sizeof(b), m, bound);
	check_format_change(by, sizeof(by), m, fabs(f->median - bound), 0);
	if (by[0] == '+')
		memmove(by, by + 1, strlen(by));
	if (v->status == VERDICT_PASS) {
		verdict_set_message(v, "%s %s (n=%zu) within %s %s", m->name, val, f->n, kind, b);
		return;
	}
	verdict_set_message(
		v, "%s %s (n=%zu) is %s %s %s by %s%s", m->name, val, f->n,
		is_max ? "above" : "below", kind, b, by,
		certain ? "" : "; its 95 % interval reaches back past the bound: not certain");
}

void check_bound(struct check_cell *cell, const struct check_metric *m, int is_max)
{
	const struct rules_settings *set = cell->set;
	const struct rules_policy *pol = &set->bound_policy[m->id];
	double bound = is_max ? set->max[m->id].value : set->min[m->id].value;
	char *kind = bound_kind(m, is_max), *why;
	struct matrix_figure f;
	struct verdict *v;
	int past, certain;

	current_figure(cell, m, &f);
	if (!f.n) {
		if (m->kind == CHECK_PER_RUN || m->kind == CHECK_SHARE || m->kind == CHECK_RATIO) {
			v = check_verdict(cell, VERDICT_SKIPPED, kind, m, set->bound_from[m->id]);
			verdict_set_message(v, "%s not captured in these runs", m->name);
		}
		/* derived figures are undefined here (e.g. Karp-Flatt at p = 1): nothing to judge
		 */
		free(kind);
		return;
	}
	if ((why = check_unreachable((size_t)-1, f.n, pol))) {
		v = check_verdict(cell, VERDICT_SKIPPED, kind, m, set->bound_from[m->id]);
		verdict_set_message(v, "%s", why);
		free(why);
		free(kind);
		return;
	}
	past = is_max ? f.median > bound : f.median < bound;
	/* false when the interval is unknown (NAN) */
	certain = is_max ? f.lo > bound : f.hi < bound;
	v = check_verdict(cell,
			  !past     ? VERDICT_PASS
			  : certain ? VERDICT_FAIL
				    : VERDICT_WARN,
			  kind, m, set->bound_from[m->id]);
	if (v->status == VERDICT_FAIL && pol->level == RULES_LEVEL_WARN)
		v->status = VERDICT_WARN;
	v->n = f.n;
	v->value = f.median;
	v->lo = f.lo;
	v->hi = f.hi;
	v->baseline = bound;
	v->change = f.median - bound;
	describe(v, m, &f, kind, bound, is_max, certain);
	if (past && pol->level == RULES_LEVEL_WARN)
		verdict_set_message(v, "%s (level warn)", v->message);
	check_add_cause(cell, v);
	free(kind);
}
