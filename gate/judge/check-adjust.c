/* The whole run's error control: a weighted Holm over the error-level tolerance tests in cells,
 * each cell's time check first, Benjamini-Hochberg for warnings, three outcomes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "judge/check-priv.h"
#include "stats/family.h"
#include "stats/stats.h"

/* p-values are exact fractions computed in floating point: 1/20 must count as 0.05. */
#define ALPHA_SLACK (1 + 1e-9)

struct check_pending {
	size_t verdict;
	const struct check_metric *m;
	struct check_test t;
	struct rules_value tol;
	struct rules_policy pol;
	/* loads apart (check_defer_loads()): the test without their allowance, the machine's
	 * shares here and in the baseline, and whether more rounds may close the gap */
	struct check_test bare;
	int has_bare, loads_close;
	double loads_here, loads_base, loads_sd;
	const char *loads_would; /* "fail", "pass" without the allowance, or NULL */
};

double check_alpha(const struct check_cell *cell, const struct check_metric *m)
{
	double scale = cell->c->alpha_scale > 0 ? cell->c->alpha_scale : 1;

	return cell->set->tolerance_policy[m->id].significance * scale;
}

void check_defer(struct check_cell *cell, size_t verdict, const struct check_metric *m,
		 const struct check_test *t)
{
	struct check *c = cell->c;
	struct check_pending *pd;

	ALLOC_GROW(c->pending, c->nr_pending + 1, c->alloc_pending);
	pd = &c->pending[c->nr_pending++];
	/* realloc()ed: no test without the loads allowance until check_defer_loads() adds one */
	memset(pd, 0, sizeof(*pd));
	pd->verdict = verdict;
	pd->m = m;
	pd->t = *t;
	pd->t.extend_past = check_may_extend_past(cell);
	if ((pd->t.busy = check_busy(cell)))
		pd->t.more = -1; /* more rounds on a busy machine would not decide it either */
	pd->tol = cell->set->tolerance[m->id];
	pd->pol = cell->set->tolerance_policy[m->id];
	pd->pol.significance = check_alpha(cell, m);
}

void check_defer_loads(struct check_cell *cell, const struct verdict *v,
		       const struct check_test *bare)
{
	struct check *c = cell->c;
	struct check_pending *pd = c->nr_pending ? &c->pending[c->nr_pending - 1] : NULL;

	/* only the time test check_defer() just deferred for v */
	if (!pd || pd->verdict != (size_t)(v - c->vs->v) || pd->m->id != RULES_TIME)
		return;
	pd->bare = *bare;
	pd->has_bare = 1;
	pd->loads_sd = check_loads_sd(cell, pd->m, &pd->loads_here, &pd->loads_base);
	pd->loads_close = check_loads_may_close(cell);
}

/* In the whole-run family: an error-level test with a p-value (a t-test or the bootstrap). */
static int in_family(const struct check_pending *pd)
{
	return pd->pol.level == RULES_LEVEL_ERROR && !pd->t.degenerate && !isnan(pd->t.p);
}

/* Nothing to decide on: the change, its p or its bound is undefined (NAN). */
static int undefined(const struct check_test *t)
{
	return isnan(t->change) || (!t->degenerate && (isnan(t->p) || isnan(t->excluded)));
}

static void format_magnitude(char *buf, size_t size, const struct check_metric *m, double x,
			     int relative)
{
	check_format_change(buf, size, m, x, relative);
	if (buf[0] == '+' || buf[0] == '-')
		memmove(buf, buf + 1, strlen(buf));
}

/* The change shown, named to read beside the medians: a t-test's is of means (of logs). */
static const char *change_label(const struct check_test *t)
{
	if (t->degenerate || isnan(t->se)) /* on the medians alone, or the bootstrap's from them */
		return "change";
	return t->logs ? "geometric-mean change" : "mean change";
}

/* "within/past the tolerance ..." for a conclusive verdict. */
static void describe_outcome(struct strbuf *sb, const struct check_pending *pd,
			     const struct verdict *v, const char *tol, const char *excl)
{
	const struct check_test *t = &pd->t;
	double alpha = pd->pol.significance;

	if (!t->past) {
		strbuf_addf(sb, "within the tolerance of %s", tol);
		if (isfinite(t->excluded))
			strbuf_addf(sb, "; the data exclude a worsening above %s", excl);
		return;
	}
	strbuf_addf(sb, "past the tolerance of %s", tol);
	int sure_warn = v->status == VERDICT_WARN && pd->pol.level == RULES_LEVEL_WARN &&
			!isnan(t->p) && t->p <= alpha * ALPHA_SLACK;

	if (v->status == VERDICT_FAIL || sure_warn)
		strbuf_addstr(sb, " and significant");
	else if (!isnan(t->p) && t->p <= alpha * ALPHA_SLACK)
		strbuf_addstr(sb, ", significant alone but not over the whole run");
	else
		strbuf_addstr(sb, " but not significant");
}

/* Why a busy machine's change against a stored baseline is undecided (check_busy()). */
static const char busy_why[] =
	"most runs were measured on a busy machine (contention above max_contention) and "
	"their profiles have no run-queue delay (rq_wait: a tracer without it, or no "
	"/proc/thread-self/schedstat) to remove the machine's share, so against a stored "
	"baseline the change cannot be told from the load; rerun on a quiet machine, or "
	"compare with the base revision in the same job (--against)";

/* "..., inconclusive: ..." and why. */
static void describe_inconclusive(struct strbuf *sb, const struct check_pending *pd,
				  const char *tol, const char *excl, const char *mdc)
{
	const struct check_test *t = &pd->t;

	if (t->busy && t->past) {
		strbuf_addf(sb, "past the tolerance of %s, but inconclusive: %s", tol, busy_why);
		return;
	}
	if (undefined(t)) {
		strbuf_addf(sb,
			    "inconclusive: the %s is undefined in too many resamples or rounds "
			    "(tolerance %s)",
			    isnan(t->change) ? "change" : "bound of the change", tol);
		return;
	}
	if (t->past)
		strbuf_addf(sb, "past the tolerance of %s %s: inconclusive", tol,
			    t->p <= pd->pol.significance * ALPHA_SLACK
				    ? "and significant alone but not over the whole run"
				    : "but not significant");
	else
		strbuf_addf(sb,
			    "within the tolerance of %s but inconclusive: the data exclude only a "
			    "worsening above %s",
			    tol, excl);
	if (isfinite(t->mdc))
		strbuf_addf(sb,
			    "; at this noise a failure catches a worsening of %s with 80 %% power",
			    mdc);
	if (t->more > 0)
		strbuf_addf(sb, "; about %d more repeats would decide", t->more);
	else if (t->more < 0)
		strbuf_addstr(
			sb,
			"; against a stored baseline the shift between sittings alone is larger: "
			"compare with the base revision in the same job (--against)");
}

/* What the test without the allowance for loads apart would have said at the level alpha: "fail",
 * "pass", or NULL (undecided too). */
static const char *loads_without(const struct check_pending *pd, double alpha)
{
	const struct check_test *b = &pd->bare;

	if (undefined(b))
		return NULL;
	if (b->past && b->p <= alpha * ALPHA_SLACK)
		return "fail";
	if (!b->past && b->excluded <= pd->tol.value * ALPHA_SLACK)
		return "pass";
	return NULL;
}

/*
 * Whether an undecided error-level check is so because of the allowance for loads apart: without
 * it the check would have decided at the level the family leaves it (its weight), or its minimum
 * detectable change would have been within CHECK_LOADS_BLIND times the tolerance and is past it.
 */
static int loads_verdict(struct check_pending *pd, double weight)
{
	double alpha = pd->pol.significance, blind = CHECK_LOADS_BLIND * pd->tol.value;

	if (!pd->has_bare || pd->m->id != RULES_TIME || pd->pol.level != RULES_LEVEL_ERROR ||
	    pd->t.busy)
		return 0;
	if (in_family(pd) && weight > 0)
		alpha *= weight;
	check_test_power(&pd->bare, alpha, pd->m->worse, pd->pol.margin);
	pd->loads_would = loads_without(pd, alpha);
	return pd->loads_would || (pd->t.mdc > blind && !(pd->bare.mdc > blind));
}

/* "cannot judge against this baseline: ..." before the figures of a check loads_verdict() marked.
 */
static void describe_loads(struct strbuf *sb, const struct check_pending *pd)
{
	char sd[48], m1[48], m0[48];

	format_magnitude(sd, sizeof(sd), pd->m, pd->tol.relative ? expm1(pd->loads_sd)
								 : pd->loads_sd, pd->tol.relative);
	format_magnitude(m1, sizeof(m1), pd->m, pd->t.mdc, pd->tol.relative);
	format_magnitude(m0, sizeof(m0), pd->m, pd->bare.mdc, pd->tol.relative);
	strbuf_addf(sb, "cannot judge against this baseline: the machine took %.1f %% of "
		    "Total_time_wall here and %.1f %% when the baseline was recorded; the "
		    "allowance for loads that far apart (sd %s, which repeats do not shrink) "
		    "leaves this check undecided",
		    100 * pd->loads_here, 100 * pd->loads_base, sd);
	if (pd->loads_would)
		strbuf_addf(sb, " where without it it would %s", pd->loads_would);
	if (isfinite(pd->t.mdc) && isfinite(pd->bare.mdc))
		strbuf_addf(sb, " (a failure catches a worsening of %s with 80 %% power, %s "
			    "without it)", m1, m0);
	strbuf_addf(sb, "%s; record the baseline under a like load, run on a quiet machine, or "
		    "compare with the base revision in the same job (--against); as judged: ",
		    pd->loads_close ? "; some runs here were as loaded as the baseline's: more "
				      "rounds may close the gap"
				    : "");
}

/* "p = 0.069", "p < 0.001": as the reports' tables give it (base/units.h). */
static const char *p_phrase(char *buf, size_t size, double p)
{
	char text[32];

	unit_format_p(text, sizeof(text), p);
	snprintf(buf, size, "p %s%s", text[0] == '<' ? "" : "= ", text);
	return buf;
}

static void describe(struct strbuf *sb, const struct check_pending *pd, const struct verdict *v,
		     size_t family)
{
	const struct check_metric *m = pd->m;
	const struct check_test *t = &pd->t;
	double alpha = pd->pol.significance;
	char val[160], base[48], change[48], tol[48], excl[48], mdc[48];
	int rel = pd->tol.relative;

	unit_format_interval(val, sizeof(val), check_unit(m), t->cur, t->lo, t->hi);
	check_format_value(base, sizeof(base), m, t->base);
	check_format_change(change, sizeof(change), m, t->change, rel);
	format_magnitude(tol, sizeof(tol), m, pd->tol.value, rel);
	format_magnitude(excl, sizeof(excl), m, t->excluded, rel);
	format_magnitude(mdc, sizeof(mdc), m, t->mdc, rel);
	strbuf_addf(sb, "%s %s %s (n=%zu", m->name,
		    (isnan(t->se) && !t->degenerate) || m->kind == CHECK_DERIVED ? "from medians"
										  : "median",
		    val, t->n_cur);
	if (v->speed > 0)
		strbuf_addf(sb, ", " CHECK_SCALED_WORDS "%.3f", v->speed);
	strbuf_addf(sb, ") vs base %s (n=%zu): %s %s, ", base, t->n_base, change_label(t), change);
	if (v->loads)
		describe_loads(sb, pd);
	if (v->inconclusive)
		describe_inconclusive(sb, pd, tol, excl, mdc);
	else
		describe_outcome(sb, pd, v, tol, excl);
	if (!isnan(t->p)) {
		char p[48];
		strbuf_addf(sb, " (one-sided %s %s", t->test, p_phrase(p, sizeof(p), t->p));
		if (!isnan(v->p_adjusted))
			strbuf_addf(sb, ", Holm over %zu checks %s %s %g", family,
				    p_phrase(p, sizeof(p), v->p_adjusted),
				    v->p_adjusted <= alpha * ALPHA_SLACK ? "<=" : ">", alpha);
		if (isnan(t->se) && !isnan(t->bound)) {
			char bound[48];
			check_format_change(bound, sizeof(bound), m, t->bound, rel);
			strbuf_addf(sb, "; %g %% bound of the change %s", 100 * (1 - alpha), bound);
		}
		strbuf_addstr(sb, ")");
	}
	if (!v->inconclusive && t->past && isfinite(t->mdc) && t->mdc > 1e-6 * pd->tol.value)
		strbuf_addf(sb, "; minimum detectable change %s", mdc);
	if (t->past && pd->pol.level == RULES_LEVEL_WARN && v->status == VERDICT_WARN &&
	    !v->inconclusive)
		strbuf_addstr(sb, " (level warn)");
}

/* The outcome of one test, given the whole-run adjustments. */
static void decide(struct verdict *v, const struct check_pending *pd, double bh)
{
	const struct check_test *t = &pd->t;
	double alpha = pd->pol.significance * ALPHA_SLACK;
	int sure;

	v->inconclusive = 0;
	if (t->busy && t->past) { /* a change on a busy machine, against a quiet stored baseline */
		v->status = VERDICT_WARN;
		v->inconclusive = 1;
		return;
	}
	if (undefined(t)) { /* an undefined bound proves nothing either way */
		v->status = VERDICT_WARN;
		v->inconclusive = 1;
		return;
	}
	if (!isnan(v->p_adjusted))
		sure = t->past && v->p_adjusted <= alpha;
	else
		sure = t->past && t->p <= alpha && pd->pol.level == RULES_LEVEL_WARN;
	if (sure) {
		v->status = pd->pol.level == RULES_LEVEL_WARN ? VERDICT_WARN : VERDICT_FAIL;
	} else if (t->past && (t->degenerate || bh <= alpha)) {
		v->status = VERDICT_WARN; /* likely, but not certain over the whole run */
	} else if (!t->past && (t->degenerate || t->excluded <= pd->tol.value * ALPHA_SLACK)) {
		v->status = VERDICT_PASS;
	} else {
		v->status = VERDICT_WARN;
		v->inconclusive = 1;
	}
}

/*
 * The minimum detectable change at the level the adjustment leaves the test
 * in the worst case: its weight's share of alpha at its first step (for a
 * cell's time check its cell's share, for the cell's other checks the share
 * they get once the time check is rejected), alpha for a warning.
 */
static void restate_power(struct check_pending *pd, double weight, double look)
{
	double alpha = pd->pol.significance;

	if (in_family(pd) && weight > 0)
		alpha *= weight;
	check_test_power(&pd->t, alpha, pd->m->worse, pd->pol.margin);
	/* the first look of an adaptive run: repeats counted for the second look's level */
	if (pd->t.extend_past && look == CHECK_FIRST_LOOK)
		check_test_more_past(&pd->t, alpha / look * (1 - look), pd->m->worse,
				     pd->pol.margin);
	if (pd->t.busy)
		pd->t.more = -1;
}

/* The p-values of the whole run's family, adjusted (stats/family.h), and each test's weight. */
static void adjust_family(struct check *c, double *af, double *wf)
{
	size_t m = c->nr_pending, nf = 0;
	double *pf = xcalloc(m + 1, sizeof(double));
	const struct verdict **vf = xcalloc(m + 1, sizeof(*vf));
	size_t *cell = xcalloc(m + 1, sizeof(*cell));
	int *primary = xcalloc(m + 1, sizeof(*primary));

	c->family_level = 0;
	for (size_t i = 0; i < m; i++) {
		const struct check_pending *pd = &c->pending[i];
		const struct verdict *v = &c->vs->v[pd->verdict];
		if (!in_family(pd))
			continue;
		/* the second look tests only the cells that got more rounds; the others' verdicts
		 * are the first look's, and they stay in the family with p = 1 so that its size
		 * and weights do not depend on the data */
		int tested = !c->second ||
			     adaptive_find(c->second, v->benchmark, v->size, v->ranks, v->threads);
		pf[nf] = tested ? pd->t.p : 1;
		primary[nf] = pd->m->id == RULES_TIME;
		vf[nf++] = v;
		c->family_level = fmax(pd->pol.significance, c->family_level);
	}
	c->family = nf;
	c->family_cells = check_family_cells(vf, nf, cell);
	family_adjust(&(struct family){ pf, cell, primary, nf, c->family_cells,
					CHECK_PRIMARY_WEIGHT },
		      af, wf);
	free(primary);
	free(cell);
	free(vf);
	free(pf);
}

/* Benjamini-Hochberg over every test with a p-value: the warnings. */
static void adjust_warnings(const struct check *c, double *aw)
{
	size_t m = c->nr_pending, nw = 0;
	double *pw = xcalloc(m + 1, sizeof(double));

	for (size_t i = 0; i < m; i++)
		if (!c->pending[i].t.degenerate && !isnan(c->pending[i].t.p))
			pw[nw++] = c->pending[i].t.p;
	stats_bh(pw, nw, aw);
	free(pw);
}

void check_adjust(struct check *c)
{
	size_t m = c->nr_pending, nf = 0, nw = 0;
	double *af = xcalloc(m + 1, sizeof(double)), *wf = xcalloc(m + 1, sizeof(double));
	double *aw = xcalloc(m + 1, sizeof(double));

	adjust_family(c, af, wf);
	adjust_warnings(c, aw);
	for (size_t i = 0; i < m; i++) {
		struct check_pending *pd = &c->pending[i];
		struct verdict *v = &c->vs->v[pd->verdict];
		struct strbuf sb = STRBUF_INIT;
		double bh = 1;
		double weight = in_family(pd) ? wf[nf] : 1;
		restate_power(pd, weight, c->alpha_scale);
		v->mdc = pd->t.mdc;
		v->p_adjusted = in_family(pd) ? af[nf++] : NAN;
		if (!pd->t.degenerate && !isnan(pd->t.p))
			bh = aw[nw++];
		decide(v, pd, bh);
		v->more = v->inconclusive ? pd->t.more : 0;
		v->busy = v->inconclusive && pd->t.busy;
		if (v->status == VERDICT_WARN && loads_verdict(pd, weight)) {
			/* cannot judge against this baseline: shown in full, counted by
			 * check_decided(); more rounds only when the gap may close */
			v->loads = v->busy = 1;
			v->loads_here = pd->loads_here;
			v->loads_base = pd->loads_base;
			v->more = !pd->loads_close ? -1 : pd->bare.more > 0 ? pd->bare.more : 1;
		}
		describe(&sb, pd, v, c->family);
		verdict_set_message(v, "%s", sb.buf);
		strbuf_release(&sb);
		if ((v->status == VERDICT_PASS || v->inconclusive) && v->cause) {
			free(v->cause);
			v->cause = NULL;
		}
	}
	free(af);
	free(wf);
	free(aw);
	free(c->pending);
	c->pending = NULL;
	c->nr_pending = c->alloc_pending = 0;
}
