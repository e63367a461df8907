/* Adaptive repeats of 'ci': which inconclusive cells get more rounds, and how many the budget
 * allows. */
#include "cmd/adapt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/words.h"
#include "results/manifest.h"

int adapt_wanted(const struct config *c)
{
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		if (c->benchmarks[i].max_repeat > c->benchmarks[i].repeat &&
		    c->benchmarks[i].adaptive_seconds > 0)
			return 1;
	return 0;
}

/* Adds the ok wall times of the cell in the manifest of 'res' to *sum and *n. */
static void add_walls(struct results *res, const struct adaptive_cell *cell, double *sum, int *n)
{
	if (results_load_manifest(res))
		return;
	for (size_t i = 0; i < res->manifest.nr; i++) {
		const struct manifest_row *r = &res->manifest.rows[i];
		if (!strcmp(r->status, "ok") && !strcmp(r->benchmark, cell->benchmark) &&
		    !strcmp(r->size, cell->size) && r->ranks == cell->ranks &&
		    r->threads == cell->threads && isfinite(r->wall)) {
			*sum += r->wall;
			++*n;
		}
	}
}

/* Seconds one more round of the cell takes: the mean of its runs, the base's runs added in A/B. */
static double round_seconds(struct results *res, const struct adaptive_cell *cell)
{
	struct results *base = results_base(res);
	double sum = 0, per;
	int n = 0;

	add_walls(res, cell, &sum, &n);
	per = n ? sum / n : 0;
	if (base) {
		double bsum = 0;
		int bn = 0;
		add_walls(base, cell, &bsum, &bn);
		per += bn ? bsum / bn : per;
	}
	return per;
}

static void add_reason(struct adaptive_cell *c, const char *kind)
{
	size_t n = strlen(kind);
	const char *s = c->reason;

	for (const char *hit = strstr(s, kind); hit; hit = strstr(hit + 1, kind))
		if ((hit == s || hit[-1] == ',') && (hit[n] == ',' || !hit[n]))
			return;
	char *joined = *s ? xstrfmt("%s,%s", s, kind) : xstrdup(kind);
	free(c->reason);
	c->reason = joined;
}

/* The reference configuration of the series of 'v' (its interval and size), or NULL. */
static const struct analysis_config *reference_of(const struct judge *j, const struct verdict *v)
{
	for (size_t i = 0; i < j->m.nr_series; i++) {
		const struct matrix_series *s = &j->m.series[i];
		if (s->interval < 0 || (size_t)s->interval >= j->a.nr_intervals || !s->nr_cells ||
		    strcmp(s->benchmark, v->benchmark) ||
		    strcmp(s->size ? s->size : "-", v->size ? v->size : "-") ||
		    strcmp(j->a.intervals[s->interval].path, v->interval ? v->interval : ""))
			continue;
		return s->cells[s->ref].config;
	}
	return NULL;
}

/*
 * Whether the check of this kind is derived from T(ref) and T(p) round by round
 * (speedup, efficiency, Karp-Flatt: DERIVED in the table of metric facts), so
 * that both configurations need the rounds.
 */
static int derived(const char *kind)
{
	static const struct { const char *key, *how; } metrics[] = {
#define X(id, key, worse, name, unit, how, fig) { key, #how },
		RULES_METRICS(X)
#undef X
	};
	static const char prefix[] = "tolerance.";

	if (strncmp(kind, prefix, sizeof(prefix) - 1))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(metrics); i++)
		if (!strcmp(metrics[i].key, kind + sizeof(prefix) - 1))
			return !strcmp(metrics[i].how, "DERIVED");
	return 0;
}

static void add_cell(struct adaptive *plan, const struct bench_config *b, const char *size,
		     int ranks, int threads, const char *reason)
{
	struct adaptive_cell *c = (struct adaptive_cell *)adaptive_find(plan, b->name, size, ranks,
									threads);

	if (!c)
		c = adaptive_add(plan, b->name, size, ranks, threads, b->repeat, b->max_repeat, "");
	add_reason(c, reason);
}

/* Undecided at the whole run's level (inconclusive, or past the tolerance and significant
 * alone), in the error-level family, and decidable by more rounds: against a stored baseline the
 * shift between sittings may be more than any repeats can beat. */
static int undecided(const struct verdict *v, const struct bench_config *b)
{
	return v->status == VERDICT_WARN && v->more >= 0 && !isnan(v->p_adjusted) && b &&
	       b->max_repeat > b->repeat && b->adaptive_seconds > 0;
}

/* The undecided cells of the error-level family, with the benchmark's max_repeat as their rounds.
 */
static void collect(struct judge *j, struct adaptive *plan)
{
	for (size_t i = 0; i < j->vs.nr; i++) {
		const struct verdict *v = &j->vs.v[i];
		const struct bench_config *b = config_find(&j->config, v->benchmark);
		const struct analysis_config *ref;
		if (!undecided(v, b))
			continue;
		add_cell(plan, b, v->size, v->ranks, v->threads, v->kind);
		if (v->kind && derived(v->kind) && (ref = reference_of(j, v)))
			add_cell(plan, b, v->size, ref->ranks, ref->threads, "reference");
	}
}

static int in_cell(const struct adaptive_cell *c, const char *benchmark, const char *size,
		   int ranks, int threads)
{
	return c->ranks == ranks && c->threads == threads && !strcmp(c->benchmark, benchmark) &&
	       !strcmp(c->size, size ? size : "-");
}

/*
 * How near the cell is to deciding: the fewest repeats that one of its undecided checks needs
 * (about N more repeats would decide; unknown: last). A reference configuration counts as the
 * checks formed from it, just before them, so that it is never left without its rounds.
 */
static double need_of(struct judge *j, const struct adaptive_cell *c)
{
	double need = INFINITY;

	for (size_t i = 0; i < j->vs.nr; i++) {
		const struct verdict *v = &j->vs.v[i];
		const struct analysis_config *ref;
		double more = v->more > 0 ? v->more : INFINITY;
		if (!undecided(v, config_find(&j->config, v->benchmark)))
			continue;
		if (in_cell(c, v->benchmark, v->size, v->ranks, v->threads))
			need = fmin(need, more);
		else if (v->kind && derived(v->kind) && (ref = reference_of(j, v)) &&
			 in_cell(c, v->benchmark, v->size, ref->ranks, ref->threads))
			need = fmin(need, more - 0.5);
	}
	return need;
}

/* Each benchmark's rounds cut to what its adaptive_seconds allows. */
static void fit_benchmarks(struct judge *j, struct adaptive *plan, double *seconds)
{
	for (size_t i = 0; i < plan->nr; i++) {
		const struct bench_config *b = config_find(&j->config, plan->cells[i].benchmark);
		double per_round = 0;
		long more = b->max_repeat - b->repeat;
		for (size_t k = 0; k < plan->nr; k++)
			if (!strcmp(plan->cells[k].benchmark, b->name))
				per_round += round_seconds(&j->res, &plan->cells[k]);
		if (per_round > 0 && floor(b->adaptive_seconds / per_round) < more)
			more = (long)floor(b->adaptive_seconds / per_round);
		plan->cells[i].rounds = b->repeat + (int)more;
		seconds[i] = (double)more * round_seconds(&j->res, &plan->cells[i]);
	}
}

/*
 * The gate's bound ('adaptive: { max_seconds }'): the cells nearest to deciding first, each
 * with all its rounds or none (a cell's rounds never depend on how near it was), as long as
 * they fit; 'why' says which cells the bound left out.
 */
static void fit_total(struct judge *j, struct adaptive *plan, const double *seconds,
		      const char **why)
{
	double left = j->config.adaptive_max_seconds, *need;
	size_t *order;

	if (!(left > 0) || !plan->nr)
		return;
	need = xcalloc(plan->nr, sizeof(*need));
	order = xcalloc(plan->nr, sizeof(*order));
	for (size_t i = 0; i < plan->nr; i++) {
		need[i] = need_of(j, &plan->cells[i]);
		order[i] = i;
	}
	for (size_t i = 1; i < plan->nr; i++) /* stable: the plan's order among equals */
		for (size_t k = i; k > 0 && need[order[k]] < need[order[k - 1]]; k--) {
			size_t t = order[k];
			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (size_t n = 0; n < plan->nr; n++) {
		size_t i = order[n];
		if (why[i])
			continue;
		if (seconds[i] > left)
			why[i] = "adaptive max_seconds";
		else
			left -= seconds[i];
	}
	free(order);
	free(need);
}

/* Cuts the rounds of the cells to what the budgets allow; drops cells left without any. */
static void fit_budget(struct judge *j, struct adaptive *plan)
{
	double *seconds = xcalloc(plan->nr + 1, sizeof(*seconds));
	const char **why = xcalloc(plan->nr + 1, sizeof(*why));
	size_t kept = 0;

	fit_benchmarks(j, plan, seconds);
	for (size_t i = 0; i < plan->nr; i++)
		if (plan->cells[i].rounds <= plan->cells[i].first)
			why[i] = "adaptive_seconds";
	fit_total(j, plan, seconds, why);
	for (size_t i = 0; i < plan->nr; i++) {
		struct adaptive_cell *c = &plan->cells[i];
		char words[96];
		config_words(words, sizeof(words), c->ranks, c->threads, c->size);
		if (why[i]) {
			printf("adaptive: no time left for more rounds of %s %s (inconclusive: %s; "
			       "%s)\n",
			       c->benchmark, words, c->reason, why[i]);
			free(c->benchmark);
			free(c->size);
			free(c->reason);
			continue;
		}
		printf("adaptive: %d more rounds of %s %s (inconclusive: %s)\n",
		       c->rounds - c->first, c->benchmark, words, c->reason);
		plan->cells[kept++] = *c;
	}
	plan->nr = kept;
	free(why);
	free(seconds);
}

size_t adapt_plan(struct judge *j, struct adaptive *plan)
{
	adaptive_init(plan);
	plan->present = 1;
	collect(j, plan);
	fit_budget(j, plan);
	fflush(stdout);
	return plan->nr;
}

void adapt_forget(struct judge *j)
{
	judge_shown_release(j);
	check_release(&j->c);
	verdict_set_release(&j->vs);
	verdict_set_init(&j->vs);
	matrix_release(&j->m);
	matrix_init(&j->m);
	analysis_release(&j->a);
	analysis_init(&j->a);
}
