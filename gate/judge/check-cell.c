/* One interval x configuration being judged: its samples, its rules, and the helpers every check
 * uses. */
#include "judge/check-priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/scaling-size.h"
#include "stats/stats.h"

void check_cell_init(struct check_cell *cell, struct check *c, const struct check_bench *b,
		     const struct matrix_series *s, size_t i, struct rules_settings *set)
{
	const struct matrix_cell *mc = &s->cells[i], *ref = &s->cells[s->ref];
	const struct analysis_config *rc = ref->config, *cc = mc->config;

	*cell = (struct check_cell){ .c = c, .b = b, .series = s, .mc = mc, .set = set,
				     .interval = c->a->intervals[s->interval].path };
	rules_effective(c->rules, b->name, cell->interval, s->size, cc->ranks, cc->threads, set);
	cell->cur = baseline_find(&b->cur, cell->interval, s->size, cc->ranks, cc->threads);
	cell->cur_ref = baseline_find(&b->cur, cell->interval, s->size, rc->ranks, rc->threads);
	if (b->has_base) {
		cell->base = baseline_find(&b->base, cell->interval, s->size, cc->ranks,
					   cc->threads);
		cell->base_ref = baseline_find(&b->base, cell->interval, s->size, rc->ranks,
					       rc->threads);
	}
	cell->rp = (double)mc->p / ref->p;
	for (size_t k = 0; s->weak && k < c->m->nr_weak; k++) {
		const struct matrix_weak *w = &c->m->weak[k];
		const struct matrix_weak_point *wr = &w->points[w->ref];
		if (w->interval != s->interval || strcmp(w->benchmark, b->name) || !w->nr_points)
			continue;
		cell->weak_ref = wr->cell;
		cell->weak_ref_size = wr->series->size;
		cell->weak_cur_ref = baseline_find(&b->cur, cell->interval, wr->series->size,
						   wr->cell->config->ranks,
						   wr->cell->config->threads);
		if (b->has_base)
			cell->weak_base_ref = baseline_find(
				&b->base, cell->interval, wr->series->size, wr->cell->config->ranks,
				wr->cell->config->threads);
	}
}

char *check_rule_origin(const struct rules_rule *from)
{
	/* the shipped defaults live in the binary: a path to rules/default.yml would name a file
	 * users lack */
	if (from && from->builtin)
		return xstrfmt("built-in rule %s", from->name ? from->name : "default");
	if (from && from->origin.file && from->name)
		return xstrfmt("rule '%s' (%s:%d:%d)", from->name, from->origin.file,
			       from->origin.line, from->origin.col);
	if (from && from->origin.file)
		return xstrfmt("%s:%d:%d", from->origin.file, from->origin.line, from->origin.col);
	return xstrdup("built-in rules");
}

struct verdict *check_verdict(struct check_cell *cell, enum verdict_status st, const char *kind,
			      const struct check_metric *m, const struct rules_rule *from)
{
	const struct matrix_cell *mc = cell->mc;
	struct verdict *v = verdict_add(cell->c->vs, st, cell->b->name, cell->interval,
					cell->series->size, mc->config->ranks, mc->config->threads,
					kind);

	v->metric = m ? xstrdup(m->name) : NULL;
	if (m)
		v->unit = v->change_unit = check_unit(m);
	v->rule_origin = check_rule_origin(from);
	/* the cell's time as every report shows it: at the baseline's machine speed when scaled */
	v->seconds = mc->fig[ANALYSIS_EXECUTION_TIME].n ? mc->fig[ANALYSIS_EXECUTION_TIME].median
							: 0;
	if (cell->cur && cell->cur->speed > 0)
		v->seconds *= cell->cur->speed;
	v->base_seconds = baseline_median(cell->base, ANALYSIS_EXECUTION_TIME, 0);
	return v;
}

size_t check_samples(const struct baseline_cell *bc, const struct check_metric *m, double *out)
{
	if (!bc)
		return 0;
	if (m->kind == CHECK_PER_RUN)
		return baseline_samples(bc, m->fig, out);
	if (m->kind == CHECK_SHARE)
		return baseline_shares(bc, m->fig, out);
	if (m->kind == CHECK_RATIO)
		return baseline_ratios(bc, m->fig, ANALYSIS_EXECUTION_TIME, out);
	return 0;
}

/* Sample i: the figure, or its ratio to Total_time or Execution_time; NAN when absent. */
static double sample_at(const struct baseline_cell *bc, const struct check_metric *m, size_t i)
{
	enum analysis_figure den = m->kind == CHECK_SHARE ? ANALYSIS_TOTAL_TIME
							  : ANALYSIS_EXECUTION_TIME;
	double x = bc->fig[m->fig] ? bc->fig[m->fig][i] : NAN, d;

	if (m->kind == CHECK_PER_RUN)
		return x;
	d = bc->fig[den] ? bc->fig[den][i] : NAN;
	return isfinite(x) && isfinite(d) && d > 0 ? x / d : NAN;
}

size_t check_samples_rounds(const struct baseline_cell *bc, const struct check_metric *m,
			    double *out, int *round)
{
	size_t n = 0;

	if (!bc || (m->kind != CHECK_PER_RUN && m->kind != CHECK_SHARE && m->kind != CHECK_RATIO))
		return 0;
	for (size_t i = 0; i < bc->n; i++) {
		double x = sample_at(bc, m, i);
		if (!isfinite(x))
			continue;
		out[n] = x;
		round[n++] = bc->round ? bc->round[i] : (int)i + 1;
	}
	return n;
}

size_t check_pair_rounds(const double *xb, const int *rb, size_t nb, const double *xc,
			 const int *rc, size_t nc, double *pb, double *pc, int *pr)
{
	size_t k = 0;

	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < nc; j++)
			if (rb[i] == rc[j]) {
				if (pr)
					pr[k] = rb[i];
				pb[k] = xb[i];
				pc[k++] = xc[j];
				break;
			}
	return k;
}

char *check_unreachable(size_t nb, size_t nc, const struct rules_policy *pol)
{
	if (nc < (size_t)pol->min_samples || (nb != (size_t)-1 && nb < (size_t)pol->min_samples)) {
		if (nb == (size_t)-1 || nb == nc)
			return xstrfmt("%zu samples, below min_samples %d: this rule cannot fail",
				       nb == (size_t)-1 || nc < nb ? nc : nb, pol->min_samples);
		return xstrfmt("%zu baseline and %zu current samples, below min_samples %d: this "
			       "rule cannot fail",
			       nb, nc, pol->min_samples);
	}
	/* The t-tests have no floor on their p-value (a rank test of 3 against 3 would: 1/20). */
	return NULL;
}

/* Whether a run's profiles carried the run-queue delay of the cell's interval (Interference
 * removed). */
static int run_corrected(const struct check_cell *cell, const struct analysis_run *run)
{
	int i = cell->series ? cell->series->interval : -1;

	return i >= 0 && (size_t)i < run->nr_points && run->points[i].present &&
	       !isnan(run->points[i].fig[ANALYSIS_INTERFERENCE]);
}

/*
 * The current runs of the cell measured on a busy machine (above the benchmark's max_contention)
 * whose profiles lack the run-queue delay, so the machine's share could not be removed; *most the
 * most.
 */
static size_t busy_runs(const struct check_cell *cell, double *most)
{
	const struct analysis_config *c = cell->mc ? cell->mc->config : NULL;
	double limit = cell->b->max_contention >= 0 ? cell->b->max_contention : CHECK_BUSY_CORES;
	size_t busy = 0;

	*most = 0;
	for (size_t r = 0; c && r < c->nr_runs; r++) {
		double x = c->runs[r].contention;
		if (isnan(x) || x <= limit || run_corrected(cell, &c->runs[r]))
			continue;
		busy++;
		*most = x > *most ? x : *most;
	}
	return busy;
}

int check_busy(const struct check_cell *cell)
{
	double most;

	return !cell->c->ab && cell->b->max_contention >= 0 && cell->mc &&
	       2 * busy_runs(cell, &most) > cell->mc->config->nr_runs;
}

/* "the machine was busy ..." when other processes took CPU during the current runs, else NULL;
 * caller frees. */
static char *busy_note(const struct check_cell *cell)
{
	const struct analysis_config *c = cell->mc ? cell->mc->config : NULL;
	double most;
	size_t busy = busy_runs(cell, &most);

	if (!busy)
		return NULL;
	return xstrfmt("the machine was busy during %zu of %zu runs (up to %.2f cores used by "
		       "other processes) and their profiles have no run-queue delay (rq_wait) to "
		       "remove its share: part of the change may be the machine's",
		       busy, c->nr_runs, most);
}

/* The lost-time term a share check judged (its cause comes first), or -1. */
static int share_of(const struct verdict *v)
{
	for (int m = 0; m < RULES_NR_METRICS && v->metric; m++)
		if (check_metrics[m].kind == CHECK_SHARE &&
		    !strcmp(check_metrics[m].name, v->metric))
			return (int)check_metrics[m].fig;
	return -1;
}

void check_add_cause(struct check_cell *cell, struct verdict *v)
{
	char *cause, *busy;

	if (v->status != VERDICT_FAIL && v->status != VERDICT_WARN)
		return;
	cause = cause_explain(cell, share_of(v));
	busy = busy_note(cell);
	if (cause && busy)
		verdict_set_cause(v, "%s; %s", cause, busy);
	else if (cause || busy)
		verdict_set_cause(v, "%s", cause ? cause : busy);
	free(cause);
	free(busy);
}
