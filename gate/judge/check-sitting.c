/* The shift between sittings a stored-mode comparison allows for: assumed or measured from the
 * baseline's sittings or the history, widened for machine loads apart and for a short interval's
 * one-off costs, and the details that say which (docs/check.md, "Shift between sittings"). */
#include <math.h>

#include "base/units.h"
#include "judge/check-priv.h"
#include "stats/stats.h"

#define STR(x) #x
#define XSTR(x) STR(x)
/*
 * Assumed sd of the shift between two sittings (docs/check.md), an estimate worth
 * CHECK_SITTINGS_PRIOR_DF df: alone with 1 sitting, pooled with a measured one below
 * CHECK_SITTINGS_MEASURED, a floor until CHECK_SITTINGS_TRUSTED: times move most, ratios less.
 */
#define SITTING_SD_TIME 0.03   /* log units: 3 % */
#define SITTING_SD_RATIO 0.02  /* log units, speedup and other within-run ratios */
#define SITTING_SD_SHARE 0.005 /* shares of Total_time: half a point */

/*
 * The measured spread is of one sitting's level; a comparison spans two
 * sittings, so its shift has sqrt(2) times that sd. Neither an assumed nor a
 * measured sd is exact: the assumed one counts as an estimate worth
 * CHECK_SITTINGS_PRIOR_DF df (t quantiles, not normal ones). With 2 sittings
 * the one measured df is pooled with it, never below the assumed value; from
 * CHECK_SITTINGS_MEASURED a larger measured sd is used alone with its
 * sittings - 1 df, a smaller one leaves the assumed value as the floor with
 * the pooled df until CHECK_SITTINGS_TRUSTED, and then it is used with its df,
 * never below CHECK_SITTINGS_FLOOR of the assumed (a quiet runner earns a
 * sharper test, never one that trusts a lucky 0).
 */
double check_sitting_choose(double level_sd, size_t sittings, double assumed, double *df)
{
	double floor = sittings < CHECK_SITTINGS_TRUSTED ? assumed : CHECK_SITTINGS_FLOOR * assumed;
	double measured = M_SQRT2 * level_sd, prior = CHECK_SITTINGS_PRIOR_DF, dummy, k1;

	df = df ? df : &dummy;
	*df = prior;
	if (!isfinite(measured) || sittings < 2)
		return assumed; /* assumed: an estimate worth the prior's df */
	k1 = (double)(sittings - 1);
	if (sittings < CHECK_SITTINGS_MEASURED || (sittings < CHECK_SITTINGS_TRUSTED &&
						   measured <= assumed)) {
		/* estimated: the assumption pooled with the sittings' df, at least the assumed */
		*df = prior + k1;
		return fmax(assumed, sqrt((prior * assumed * assumed + k1 * measured * measured) /
					  (prior + k1)));
	}
	*df = k1;
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

/*
 * The allowance for loads apart per unit of the gap (above). Work held under a lock is judged
 * without the machine's share, as the time under it: the load moves it only with the correction's
 * error, the share's numerator and denominator alike, so its allowance is relative to the share.
 */
static double loads_per_gap(const struct check_cell *cell, const struct check_metric *m)
{
	double held;

	if (m->id == RULES_SERIALIZATION) {
		held = baseline_median(cell->base, ANALYSIS_SERIALIZED_WORK, 1);
		return INTERFERENCE_SD_LOG * (held > 0 ? held : 0);
	}
	return m->kind == CHECK_SHARE ? INTERFERENCE_SD_SHARE
	       : scaled_alone(cell)   ? INTERFERENCE_SD_LOG_ONE
				      : INTERFERENCE_SD_LOG;
}

/* The sitting shift's sd with the allowance for loads apart (above). */
static double with_interference(const struct check_cell *cell, const struct check_metric *m,
				double sd)
{
	double cur, base, gap = interference_gap(cell, &cur, &base), k = loads_per_gap(cell, m);

	return gap > 0 ? sqrt(sd * sd + k * gap * k * gap) : sd;
}

double check_loads_sd(const struct check_cell *cell, const struct check_metric *m, double *here,
		      double *base)
{
	double cur = NAN, b = NAN, gap = cell->c->ab ? 0 : interference_gap(cell, &cur, &b);

	if (here)
		*here = cur;
	if (base)
		*base = b;
	return gap > EXTEND_GAP_MAX ? loads_per_gap(cell, m) * gap : 0;
}

int check_loads_may_close(const struct check_cell *cell)
{
	const struct analysis_config *c = cell->mc ? cell->mc->config : NULL;
	double cur, base, gap = interference_gap(cell, &cur, &base);
	int i = cell->series ? cell->series->interval : -1;

	for (size_t r = 0; c && i >= 0 && gap > 0 && r < c->nr_runs; r++) {
		const struct analysis_point *pt = (size_t)i < c->runs[r].nr_points
							  ? &c->runs[r].points[i]
							  : NULL;
		double wall = pt && pt->present ? pt->fig[ANALYSIS_TOTAL_TIME_WALL] : NAN;
		double share = wall > 0 ? pt->fig[ANALYSIS_INTERFERENCE] / wall : NAN;
		/* a run as quiet (or as busy) as the baseline's: the load came and went */
		if (fabs(share - base) <= EXTEND_GAP_MAX)
			return 1;
	}
	return 0;
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
	if (m->kind == CHECK_SHARE) /* assumed, never measured: an estimate all the same */
		return check_sitting_choose(NAN, 1, relative ? SITTING_SD_RATIO : SITTING_SD_SHARE,
					    df);
	if (!relative)
		return 0;
	if (m->id == RULES_TIME) {
		const struct check_spread *h = check_history_spread(cell, 0);
		int scaled;
		return h ? check_sitting_choose(check_spread_sd(cell, h, &scaled), h->runs,
						SITTING_SD_TIME, df)
			 : check_sitting_choose(s->time, s->sittings, SITTING_SD_TIME, df);
	}
	if (m->kind == CHECK_DERIVED) {
		const struct check_spread *h = check_history_spread(cell, 1);
		return h ? check_sitting_choose(h->sd, h->runs, SITTING_SD_RATIO, df)
			 : check_sitting_choose(s->speedup, s->sittings, SITTING_SD_RATIO, df);
	}
	return check_sitting_choose(NAN, 1, SITTING_SD_RATIO, df);
}

/* The assumed sd of metric m's shift (check_sitting_choose()'s 'assumed'). */
static double assumed_sd(const struct check_metric *m)
{
	return m->id == RULES_TIME ? SITTING_SD_TIME : SITTING_SD_RATIO;
}

/* The details when measured from the history: its runs, the floor when it applies. */
static void describe_history(struct strbuf *sb, const struct check_cell *cell,
			     const struct check_spread *h, const struct check_metric *m, double df)
{
	int scaled;
	double hsd = check_spread_sd(cell, h, &scaled);

	strbuf_addf(sb, "(measured from %zu history runs%s: %.3g %% between two, ", h->runs,
		    scaled ? ", their times scaled by each run's machine speed reference" : "",
		    100 * M_SQRT2 * hsd);
	if (h->runs < CHECK_SITTINGS_TRUSTED && !(M_SQRT2 * hsd > assumed_sd(m)))
		strbuf_addf(sb, "the assumed value is the floor until " XSTR(CHECK_SITTINGS_TRUSTED)
			    " runs; %g df)", df);
	else
		strbuf_addf(sb, "%g df%s)", df,
			    M_SQRT2 * hsd < CHECK_SITTINGS_FLOOR * assumed_sd(m) ? ", at its floor"
										: "");
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
	const char *floored = ", at its floor";

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
		describe_history(sb, cell, h, m, df);
	else if (!isfinite(level) || k < 2)
		strbuf_addf(sb, "(assumed, an estimate worth %d df: the baseline holds %zu "
			    "sitting%s, %d are needed to measure it)", CHECK_SITTINGS_PRIOR_DF, k,
			    k == 1 ? "" : "s", CHECK_SITTINGS_MEASURED);
	else if (k < CHECK_SITTINGS_MEASURED)
		strbuf_addf(sb, "(estimated from %zu sittings: %.3g %% between the two, pooled "
			    "with the assumed %.3g %% worth %d df; %g df)", k,
			    100 * M_SQRT2 * level, 100 * assumed_sd(m), CHECK_SITTINGS_PRIOR_DF,
			    df);
	else if (k < CHECK_SITTINGS_TRUSTED && !(M_SQRT2 * level > assumed_sd(m)))
		strbuf_addf(sb, "(measured %.3g %% between two of %zu sittings, the assumed value "
			    "is the floor until " XSTR(CHECK_SITTINGS_TRUSTED) "; %g df)",
			    100 * M_SQRT2 * level, k, df);
	else
		strbuf_addf(sb, "(measured %.3g %% between two of %zu sittings, %g df%s)",
			    100 * M_SQRT2 * level, k, df,
			    M_SQRT2 * level < CHECK_SITTINGS_FLOOR * assumed_sd(m) ? floored : "");
	describe_one_off(sb, cell, m, relative, sd);
}
