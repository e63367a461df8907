/* The whole run's error control: a weighted Holm over the error-level tolerance tests in cells,
 * each cell's time check first, Benjamini-Hochberg for warnings, three outcomes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "judge/check-priv.h"
#include "stats/family.h"
#include "stats/stats.h"

#define STR(x) #x
#define XSTR(x) STR(x)

/* p-values are exact fractions computed in floating point: 1/20 must count as 0.05. */
#define ALPHA_SLACK (1 + 1e-9)

struct check_pending {
	size_t verdict;
	const struct check_metric *m;
	struct check_test t;
	struct rules_value tol;
	struct rules_policy pol;
};

/*
 * Assumed sd of the shift between two sittings (docs/check.md), used until a
 * baseline has seen CHECK_SITTINGS_MEASURED sittings, and below a measured
 * one until it has seen CHECK_SITTINGS_TRUSTED: times move most, ratios less.
 */
#define SITTING_SD_TIME 0.03   /* log units: 3 % */
#define SITTING_SD_RATIO 0.02  /* log units, speedup and other within-run ratios */
#define SITTING_SD_SHARE 0.005 /* shares of Total_time: half a point */

/*
 * The measured spread is of one sitting's level; a comparison spans two
 * sittings, so its shift has sqrt(2) times that sd. A measured sd is an
 * estimate with sittings - 1 df (the sittings shift every cell at once): it
 * is used with those df, at least the assumed value until
 * CHECK_SITTINGS_TRUSTED sittings, and never below CHECK_SITTINGS_FLOOR of it
 * after (a quiet runner earns a sharper test, never one that trusts a lucky 0).
 */
double check_sitting_choose(double level_sd, size_t sittings, double assumed, double *df)
{
	double floor = sittings < CHECK_SITTINGS_TRUSTED ? assumed : CHECK_SITTINGS_FLOOR * assumed;
	double measured = M_SQRT2 * level_sd, dummy;

	df = df ? df : &dummy;
	*df = 0;
	if (!isfinite(measured) || sittings < CHECK_SITTINGS_MEASURED)
		return assumed;
	if (sittings < CHECK_SITTINGS_TRUSTED && measured <= assumed)
		return assumed; /* the assumption stands: known */
	*df = (double)(sittings - 1);
	return fmax(measured, floor);
}

/*
 * The correction removes the time a thread waited for a CPU, not what the load cost it on one
 * (caches refilled after each preemption, the scheduler's own time). Measured on the development
 * VM, jacobi 600 x 100, a quiet stored baseline and the head beside two CPU hogs (the machine took
 * 70 % of Total_time_wall): the judged time stayed +5.6 % at 1 thread and +12.8 % at 2, the
 * Synchronization share +4.6 points. A stored comparison across loads allows for it, beside the
 * sitting shift, as an sd per unit of the difference in the machine's share: 10 % (log units), 6
 * points for shares.
 */
#define INTERFERENCE_SD_LOG 0.10
#define INTERFERENCE_SD_SHARE 0.06
/*
 * At one processor there is no team whose waiting the correction must model: what the load costs
 * there is the machine's speed on a CPU, which the reference loop measures (check-reference.c).
 * A scaled 1-processor cell allows 4 % per unit of the gap: jacobi's sweep at 1 thread, judged
 * time over the loop's, read 13.5-14.7 quiet and 14.1-14.2 beside two hogs (3 sittings each, the
 * machine's share 0 and 0.33), +1.2 % at the means.
 */
#define INTERFERENCE_SD_LOG_ONE 0.04
/* A scaled cell with more processors extends past the tolerance only while the machine's shares of
 * head and baseline are this close: beside two hogs, jacobi's sweep at 2 threads still read
 * +10-18 % against a quiet baseline (the team's waiting the correction leaves). */
#define EXTEND_GAP_MAX 0.10

/* The machine's share of the current runs' Total_time_wall less the baseline's (medians); 0 when
 * either is not captured. */
static double interference_gap(const struct check_cell *cell, double *cur_share,
			       double *base_share)
{
	const struct matrix_figure *in = cell->mc ? &cell->mc->fig[ANALYSIS_INTERFERENCE] : NULL;
	double wall = cell->mc ? cell->mc->fig[ANALYSIS_TOTAL_TIME_WALL].median : NAN;
	double base = baseline_machine_share(cell->base);

	if (!(in && in->n && wall > 0 && isfinite(in->median) && isfinite(base)))
		return 0;
	*cur_share = in->median / wall;
	*base_share = base;
	return fabs(*cur_share - *base_share);
}

/* One processor, the times scaled to the baseline's machine speed. */
static int scaled_alone(const struct check_cell *cell)
{
	return cell->mc && cell->mc->p == 1 && cell->cur && cell->cur->speed > 0;
}

/* The sitting shift's sd with the allowance for loads apart (above). */
static double with_interference(const struct check_cell *cell, const struct check_metric *m,
				double sd)
{
	double cur, base, gap = interference_gap(cell, &cur, &base);
	double k = m->kind == CHECK_SHARE ? INTERFERENCE_SD_SHARE
		   : scaled_alone(cell)    ? INTERFERENCE_SD_LOG_ONE
					   : INTERFERENCE_SD_LOG;

	return gap > 0 ? sqrt(sd * sd + k * gap * k * gap) : sd;
}

int check_may_extend_past(const struct check_cell *cell)
{
	double cur, base;

	if (cell->c->ab || !cell->cur || !(cell->cur->speed > 0))
		return 0;
	return scaled_alone(cell) || !(interference_gap(cell, &cur, &base) > EXTEND_GAP_MAX);
}

static double sitting_sd(const struct check_cell *cell, const struct check_metric *m,
			 int relative, double *df);

/*
 * A run's one-off costs in an interval (the first call's lazy set-up, pages touched the first
 * time, caches refilled after a preemption) do not shrink with the interval. mpi_halo's
 * allreduce on one rank: 8.6-25 us a run (10 runs, quiet), 6-11 us of it the first call; between
 * two sittings of a CI runner it moved 9.4 -> 21 us (+114 %, n = 5 and 20), a false failure at
 * an assumed 3 %. Against a stored baseline an interval's times may also shift by this much in
 * absolute terms: a short interval's tests lose their power, a long one's do not notice (0.02 %
 * at 50 ms).
 */
#define SITTING_SD_ONE_OFF 10e-6 /* seconds a run */

/* The one-off costs' part of the shift in metric m's units, from the baseline's medians. */
static double one_off_sd(const struct check_cell *cell, const struct check_metric *m,
			 int relative)
{
	double t = baseline_median(cell->base, ANALYSIS_EXECUTION_TIME, 0), r;

	if (!(t > 0))
		return 0;
	if (m->kind == CHECK_SHARE) /* each processor's J over its time, p J / (p T) */
		return relative ? 0 : fmin(1, SITTING_SD_ONE_OFF / t);
	if (m->id == RULES_TIME) /* relative: else sitting_sd() allows no shift */
		return log1p(SITTING_SD_ONE_OFF / t);
	if (m->kind != CHECK_DERIVED || !relative)
		return 0;
	r = baseline_median(cell->base_ref, ANALYSIS_EXECUTION_TIME, 0);
	r = r > 0 ? log1p(SITTING_SD_ONE_OFF / r) : 0; /* a ratio of two times: both shift */
	return hypot(log1p(SITTING_SD_ONE_OFF / t), r);
}

/* The sitting shift's sd with the allowances for loads apart and one-off costs, without the
 * reference's part. */
static double shift_sd(const struct check_cell *cell, const struct check_metric *m, int relative,
		       double *df)
{
	double sd = sitting_sd(cell, m, relative, df);

	if (!(sd > 0) || cell->c->ab)
		return sd;
	return hypot(with_interference(cell, m, sd), one_off_sd(cell, m, relative));
}

double check_sitting_sd(const struct check_cell *cell, const struct check_metric *m, int relative,
			double *df)
{
	double sd = shift_sd(cell, m, relative, df);
	double r = sd > 0 && relative ? check_reference_sd(cell, m) : 0;

	return sqrt(sd * sd + r * r);
}

static double sitting_sd(const struct check_cell *cell, const struct check_metric *m,
			 int relative, double *df)
{
	const struct baseline_shift *s = &cell->b->shift;

	if (df)
		*df = 0;
	if (cell->c->ab)
		return 0; /* base and head interleaved in one job: the machine's drift hits both */
	if (m->kind == CHECK_SHARE)
		return relative ? SITTING_SD_RATIO : SITTING_SD_SHARE;
	if (!relative)
		return 0;
	if (m->id == RULES_TIME) {
		const struct check_spread *h = check_history_spread(cell, 0);
		return h ? check_sitting_choose(h->sd, h->runs, SITTING_SD_TIME, df)
			 : check_sitting_choose(s->time, s->sittings, SITTING_SD_TIME, df);
	}
	if (m->kind == CHECK_DERIVED) {
		const struct check_spread *h = check_history_spread(cell, 1);
		return h ? check_sitting_choose(h->sd, h->runs, SITTING_SD_RATIO, df)
			 : check_sitting_choose(s->speedup, s->sittings, SITTING_SD_RATIO, df);
	}
	return SITTING_SD_RATIO;
}

/* The details when measured from the history: its runs, the floor when it applies. */
static void describe_history(struct strbuf *sb, const struct check_spread *h, double sd, double df)
{
	strbuf_addf(sb, "(measured from %zu history runs: %.3g %% between two, ", h->runs,
		    100 * M_SQRT2 * h->sd);
	if (!(df > 0))
		strbuf_addf(sb, "the assumed value is the floor until " XSTR(CHECK_SITTINGS_TRUSTED)
			    " runs)");
	else
		strbuf_addf(sb, "%g df%s)", df, sd > M_SQRT2 * h->sd ? ", at its floor" : "");
}

/* "the machine took X % here, Y % when the baseline was recorded: ..." when they differ. */
static void describe_interference(struct strbuf *sb, const struct check_cell *cell)
{
	double cur, base;

	if (cell->c->ab || !(interference_gap(cell, &cur, &base) > 0))
		return;
	strbuf_addf(sb, "%sthe machine took %.1f %% of Total_time_wall here and %.1f %% when the "
		    "baseline was recorded: the shift allowed for includes what the correction "
		    "leaves of that difference (docs/check.md)",
		    sb->len ? "\n" : "", 100 * cur, 100 * base);
}

/* "; it includes ..." when the one-off costs are most of the shift allowed for. */
static void describe_one_off(struct strbuf *sb, const struct check_cell *cell,
			     const struct check_metric *m, int relative, double sd)
{
	double o = one_off_sd(cell, m, relative);
	char j[32], t[32];

	if (!(o > sd / M_SQRT2))
		return;
	unit_format(j, sizeof(j), UNIT_SECONDS, SITTING_SD_ONE_OFF);
	unit_format(t, sizeof(t), UNIT_SECONDS,
		    baseline_median(cell->base, ANALYSIS_EXECUTION_TIME, 0));
	strbuf_addf(sb, "; most of it is the %s a run's one-off costs may add to a short interval "
		    "(its baseline median: %s)", j, t);
}

void check_describe_sitting(struct strbuf *sb, const struct check_cell *cell,
			    const struct check_metric *m, int relative)
{
	const struct baseline_shift *s = &cell->b->shift;
	double df, sd = shift_sd(cell, m, relative, &df);
	double level = m->id == RULES_TIME ? s->time : m->kind == CHECK_DERIVED ? s->speedup : NAN;
	size_t k = s->sittings ? s->sittings : 1;
	const struct check_spread *h;

	if (!(sd > 0))
		return;
	describe_interference(sb, cell);
	if (relative)
		check_describe_reference(sb, cell, check_reference_sd(cell, m));
	strbuf_addf(sb, "%sshift between sittings allowed for: sd %.3g %s ", sb->len ? "\n" : "",
		    relative ? 100 * sd : (m->kind == CHECK_SHARE ? 100 * sd : sd),
		    relative || m->kind == CHECK_SHARE ? (relative ? "%" : "points") : "");
	if (relative && (h = check_history_spread(cell, m->id != RULES_TIME)) &&
	    (m->id == RULES_TIME || m->kind == CHECK_DERIVED))
		describe_history(sb, h, sd, df);
	else if (!isfinite(level) || k < CHECK_SITTINGS_MEASURED)
		strbuf_addf(
			sb,
			"(assumed: the baseline holds %zu sitting%s, %d are needed to measure it)",
			k, k == 1 ? "" : "s", CHECK_SITTINGS_MEASURED);
	else if (!(df > 0))
		strbuf_addf(sb, "(measured %.3g %% between two of %zu sittings, the assumed value "
			    "is the floor until " XSTR(CHECK_SITTINGS_TRUSTED) ")",
			    100 * M_SQRT2 * level, k);
	else
		strbuf_addf(sb, "(measured %.3g %% between two of %zu sittings, %g df%s)",
			    100 * M_SQRT2 * level, k, df,
			    sd > M_SQRT2 * level ? ", at its floor" : "");
	describe_one_off(sb, cell, m, relative, sd);
}

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
		restate_power(pd, in_family(pd) ? wf[nf] : 1, c->alpha_scale);
		v->mdc = pd->t.mdc;
		v->p_adjusted = in_family(pd) ? af[nf++] : NAN;
		if (!pd->t.degenerate && !isnan(pd->t.p))
			bh = aw[nw++];
		decide(v, pd, bh);
		v->more = v->inconclusive ? pd->t.more : 0;
		v->busy = v->inconclusive && pd->t.busy;
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
