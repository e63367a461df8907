/* The checker: walks every interval x configuration of the results, applies the effective rules,
 * collects verdicts. */
#include "judge/check-priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/scaling-size.h"
#include "stats/stats.h"

static const char *const fingerprint_keys[] = { CHECK_FINGERPRINT_KEYS };

void check_init(struct check *c, struct rules *r, const struct analysis *a, const struct matrix *m,
		struct verdict_set *vs)
{
	memset(c, 0, sizeof(*c));
	c->rules = r;
	c->a = a;
	c->m = m;
	c->vs = vs;
	for (size_t i = 0; i < a->nr_configs; i++) {
		const char *name = a->configs[i].benchmark;
		size_t j;
		for (j = 0; j < c->nr_bench && strcmp(c->bench[j].name, name); j++)
			;
		if (j < c->nr_bench)
			continue;
		c->bench = xrealloc(c->bench, (c->nr_bench + 1) * sizeof(*c->bench));
		memset(&c->bench[c->nr_bench], 0, sizeof(*c->bench));
		c->bench[c->nr_bench].name = xstrdup(name);
		c->bench[c->nr_bench].shift.time = c->bench[c->nr_bench].shift.speedup = NAN;
		c->bench[c->nr_bench].max_contention = CHECK_BUSY_CORES;
		baseline_from_analysis(&c->bench[c->nr_bench].cur, a, name);
		c->nr_bench++;
	}
}

void check_release(struct check *c)
{
	for (size_t i = 0; i < c->nr_bench; i++) {
		free(c->bench[i].name);
		free(c->bench[i].base_path);
		free(c->bench[i].fingerprint_diff);
		baseline_release(&c->bench[i].cur);
		baseline_release(&c->bench[i].base);
		check_spread_release(&c->bench[i]);
	}
	free(c->bench);
	free(c->pending);
	memset(c, 0, sizeof(*c));
}

/* "cpu_model 'A' -> 'B', cores '4' -> '2'" (baseline -> now) on the keys that matter, or NULL. */
char *check_fingerprint_diff(const struct baseline *cur, const struct baseline *base)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < ARRAY_SIZE(fingerprint_keys); k++) {
		const char *x = baseline_fingerprint(base, fingerprint_keys[k]);
		const char *y = baseline_fingerprint(cur, fingerprint_keys[k]);
		if (!x || !y || !strcmp(x, "-") || !strcmp(y, "-") || !strcmp(x, y))
			continue; /* unknown on either side: no evidence of a difference */
		strbuf_addf(&sb, "%s%s '%s' -> '%s'", sb.len ? ", " : "", fingerprint_keys[k], x,
			    y);
	}
	return sb.len ? strbuf_detach(&sb) : NULL;
}

/* Whether some cell of the baseline has a positive Execution_time: all zero is no reference. */
static int has_times(const struct baseline *base)
{
	for (size_t i = 0; i < base->nr_cells; i++)
		for (size_t k = 0; base->cells[i].fig[ANALYSIS_EXECUTION_TIME] &&
				   k < base->cells[i].n;
		     k++)
			if (base->cells[i].fig[ANALYSIS_EXECUTION_TIME][k] > 0)
				return 1;
	return 0;
}

/*
 * Another benchmark's baseline, one without samples, or one whose times are all zero (damage, not
 * absence: every tolerance would skip and the gate pass on nothing): an error verdict naming the
 * file, and no baseline. 1 then.
 */
static int foreign_or_empty(struct check *c, struct check_bench *b)
{
	int foreign = strcmp(b->base.benchmark, b->name) != 0;
	struct verdict *v;

	if (!foreign && b->base.nr_cells && has_times(&b->base))
		return 0;
	v = verdict_add(c->vs, VERDICT_ERROR, b->name, "-", "-", 0, 0,
			foreign || !b->base.nr_cells ? "baseline" : "baseline.zero");
	if (foreign && b->base.nr_cells)
		verdict_set_message(v,
				    "'%s' is the baseline of benchmark '%s', not of '%s': only "
				    "absolute rules apply",
				    b->base_path, b->base.benchmark, b->name);
	else if (b->base.nr_cells)
		verdict_set_message(v,
				    "the baseline '%s' holds no time above 0 s: nothing can be "
				    "compared with it; record it again with 'scalegate baseline "
				    "update'",
				    b->base_path);
	else
		verdict_set_message(
			v,
			"the baseline '%s' holds no samples: only absolute rules apply; "
			"record it again with 'scalegate baseline update'",
			b->base_path);
	baseline_release(&b->base);
	b->refused = 1;
	return 1;
}

int check_load_baselines(struct check *c, const char *dir)
{
	for (size_t i = 0; i < c->nr_bench; i++) {
		struct check_bench *b = &c->bench[i];
		int ret;
		b->base_path = baseline_path(dir, b->name);
		ret = baseline_read(&b->base, b->base_path);
		if (ret < 0) {
			struct verdict *v = verdict_add(c->vs, VERDICT_ERROR, b->name, "-", "-", 0,
							0, "baseline");
			verdict_set_message(
				v, "cannot read the baseline '%s': only absolute rules apply",
				b->base_path);
			continue;
		}
		if (!ret && foreign_or_empty(c, b))
			continue;
		b->has_base = ret == 0;
		if (b->has_base) {
			b->fingerprint_diff = check_fingerprint_diff(&b->cur, &b->base);
			baseline_measure_shift(&b->base, &b->shift);
			check_reference_scale(b);
		}
	}
	return 0;
}

void check_use_baselines(struct check *c, const struct analysis *base)
{
	for (size_t i = 0; i < c->nr_bench; i++) {
		struct check_bench *b = &c->bench[i];
		baseline_release(&b->base);
		free(b->fingerprint_diff);
		baseline_from_analysis(&b->base, base, b->name);
		b->has_base = b->base.nr_cells > 0;
		b->fingerprint_diff = b->has_base ? check_fingerprint_diff(&b->cur, &b->base)
						  : NULL;
	}
}

/* ---- the walk ---- */

static int policy_on(const struct rules_policy *pol)
{
	return pol->level != RULES_LEVEL_OFF;
}

/* The baseline has no cell for this interval x configuration: say why once, when a tolerance wanted
 * one. */
static void note_no_baseline(struct check_cell *cell)
{
	const struct rules_settings *set = cell->set;
	struct verdict *v;
	int wanted = 0;

	for (int m = 0; m < RULES_NR_METRICS; m++)
		wanted |= set->tolerance[m].set && policy_on(&set->tolerance_policy[m]);
	if (!wanted || !cell->b->has_base)
		return;
	if (baseline_has_interval(&cell->b->base, cell->interval, cell->series->size)) {
		v = check_verdict(cell, VERDICT_SKIPPED, "baseline.missing", NULL, NULL);
		verdict_set_message(v, "the baseline has this interval but not this configuration: "
				    "only absolute rules apply");
	} else {
		v = check_verdict(cell, VERDICT_SKIPPED, "interval.new", NULL, NULL);
		verdict_set_message(v,
				    "new interval, not in the baseline: only absolute rules apply");
	}
}

/* Whether this tolerance compares across environments; the policy's default is the metric's
 * (rules.h). */
static int comparable(const struct check_cell *cell, int m)
{
	return !cell->b->fingerprint_diff || cell->set->tolerance_policy[m].across_fingerprints;
}

/*
 * Whether metric m is judged in this cell: slopes and isoefficiency belong to
 * a series or benchmark; ratios are 1 by definition at their reference;
 * Weak_efficiency exists only in weak-scaling series.
 */
static int applies(const struct check_cell *cell, const struct check_metric *m, int is_ref)
{
	switch (m->kind) {
	case CHECK_SLOPE:
	case CHECK_GROWTH:
		return 0;
	case CHECK_DERIVED:
		return !is_ref;
	case CHECK_WEAK:
		return cell->weak_ref && cell->mc != cell->weak_ref;
	default:
		return 1;
	}
}

/* The tolerances that may not compare with a baseline of another environment: one error per cell.
 */
static void note_fingerprint(struct check_cell *cell, int is_ref)
{
	const struct rules_settings *set = cell->set;
	const struct check_metric *first = NULL;
	struct strbuf names = STRBUF_INIT;
	struct verdict *v;
	int gating = 0;

	for (int m = 0; m < RULES_NR_METRICS; m++) {
		if (!set->tolerance[m].set || !policy_on(&set->tolerance_policy[m]) ||
		    comparable(cell, m) || !applies(cell, &check_metrics[m], is_ref))
			continue;
		first = first ? first : &check_metrics[m];
		strbuf_addf(&names, "%s%s", names.len ? ", " : "", check_metrics[m].name);
		gating |= set->tolerance_policy[m].level == RULES_LEVEL_ERROR;
	}
	if (first) {
		/* Fails closed (exit 3) unless every rule left uncompared only warns. */
		v = check_verdict(cell, gating ? VERDICT_ERROR : VERDICT_WARN, "fingerprint", first,
				  set->tolerance_from[first->id]);
		verdict_set_message(
			v,
			"%s not compared: the baseline was recorded in another environment (%s); "
			"their rules do not compare across machines (across_fingerprints)",
			names.buf, cell->b->fingerprint_diff);
	}
	strbuf_release(&names);
}

/* Whether a figure has a finite value in some repeat of the cell. */
static int captured(const struct baseline_cell *bc, enum analysis_figure f)
{
	for (size_t i = 0; bc && bc->fig[f] && i < bc->n; i++)
		if (isfinite(bc->fig[f][i]))
			return 1;
	return 0;
}

/*
 * OpenMP or MPI captured in the baseline's cell and not in the current one:
 * a failure with its cause, never a skip (the share checks could not even run). 1 when lost.
 */
static int capture_lost(struct check_cell *cell)
{
	int omp = captured(cell->base, ANALYSIS_SYNC_OMP) &&
		  !captured(cell->cur, ANALYSIS_SYNC_OMP);
	int mpi = captured(cell->base, ANALYSIS_COMMUNICATION) &&
		  !captured(cell->cur, ANALYSIS_COMMUNICATION);
	struct verdict *v;

	if (!omp && !mpi)
		return 0;
	v = check_verdict(cell, VERDICT_FAIL, "capture.lost", NULL, NULL);
	free(v->rule_origin);
	v->rule_origin = xstrdup("capture");
	v->n = cell->cur->n;
	v->n_base = cell->base->n;
	verdict_set_message(v, "%s%s%s captured in the %s (n=%zu) but not in the results (n=%zu)",
			    omp ? "OpenMP" : "", omp && mpi ? " and " : "", mpi ? "MPI" : "",
			    cell->c->ab ? "base" : "baseline", cell->base->n, cell->cur->n);
	if (omp)
		verdict_set_cause(
			v, "the parallel region is gone: OpenMP is no longer captured in %s%s",
			cell->interval, mpi ? "; and MPI is no longer captured either" : "");
	else
		verdict_set_cause(v, "the MPI calls are gone: MPI is no longer captured in %s",
				  cell->interval);
	return 1;
}

/* Whether any tolerance applies to the cell (capture matters only where something is compared). */
static int any_tolerance(const struct check_cell *cell)
{
	for (int m = 0; m < RULES_NR_METRICS; m++)
		if (cell->set->tolerance[m].set && policy_on(&cell->set->tolerance_policy[m]))
			return 1;
	return 0;
}

static void evaluate_cell(struct check_cell *cell, int is_ref)
{
	const struct rules_settings *set = cell->set;

	if (!cell->base)
		note_no_baseline(cell);
	else
		note_fingerprint(cell, is_ref);
	if (cell->base && cell->cur && any_tolerance(cell) && capture_lost(cell))
		return;
	for (int i = 0; i < RULES_NR_METRICS; i++) {
		const struct check_metric *m = &check_metrics[i];
		if (!applies(cell, m, is_ref))
			continue;
		if (set->min[i].set && policy_on(&set->bound_policy[i]))
			check_bound(cell, m, 0);
		if (set->max[i].set && policy_on(&set->bound_policy[i]))
			check_bound(cell, m, 1);
		if (set->tolerance[i].set && policy_on(&set->tolerance_policy[i]) && cell->base &&
		    comparable(cell, i))
			check_tolerance(cell, m);
	}
}

static void evaluate_series(struct check *c, const struct check_bench *b,
			    const struct matrix_series *s)
{
	struct rules_settings set;
	struct check_cell cell;

	for (size_t i = 0; i < s->nr_cells; i++) {
		check_cell_init(&cell, c, b, s, i, &set);
		evaluate_cell(&cell, (int)i == s->ref);
	}
	/* The slope belongs to the series: judged with the settings of its largest configuration.
	 */
	if (s->nr_cells && ((set.max[RULES_KARP_FLATT_SLOPE].set &&
			     policy_on(&set.bound_policy[RULES_KARP_FLATT_SLOPE])) ||
			    (set.tolerance[RULES_KARP_FLATT_SLOPE].set &&
			     policy_on(&set.tolerance_policy[RULES_KARP_FLATT_SLOPE]))))
		check_slope(&cell);
}

/* Whether the results ran this configuration at all (then a missing interval was really removed).
 */
static int config_ran(const struct baseline *cur, const char *size, int ranks, int threads)
{
	for (size_t i = 0; i < cur->nr_cells; i++)
		if (cur->cells[i].ranks == ranks && cur->cells[i].threads == threads &&
		    !strcmp(cur->cells[i].size, size))
			return 1;
	return 0;
}

static void removed_intervals(struct check *c, const struct check_bench *b)
{
	for (size_t i = 0; b->has_base && i < b->base.nr_cells; i++) {
		const struct baseline_cell *bc = &b->base.cells[i];
		struct verdict *v;
		if (baseline_has_interval(&b->cur, bc->interval, bc->size) ||
		    !config_ran(&b->cur, bc->size, bc->ranks, bc->threads))
			continue;
		v = verdict_add(c->vs, VERDICT_FAIL, b->name, bc->interval, bc->size, bc->ranks,
				bc->threads, "interval.removed");
		v->n_base = bc->n;
		v->rule_origin = xstrdup("capture");
		verdict_set_message(
			v,
			"in the %s (%zu repeats) but not in the results: removed, renamed "
			"or no longer reached",
			c->ab ? "base" : "baseline", bc->n);
		verdict_set_cause(v,
				  "the interval is gone: %s is no longer measured (if it was "
				  "renamed on purpose, "
				  "update the baseline)",
				  bc->interval);
	}
}

static void note_baseline(struct check *c, const struct check_bench *b)
{
	struct verdict *v;

	if (b->refused) {
		/* foreign_or_empty() said why there is none */
	} else if (!b->has_base && b->base_path && !c->quiet && c->allow_no_reference) {
		v = verdict_add(c->vs, VERDICT_SKIPPED, b->name, "-", "-", 0, 0,
				"baseline.missing");
		verdict_set_message(v, "no baseline '%s' (allowed: allow_no_reference): only "
				    "absolute rules apply (record one with 'scalegate baseline "
				    "update')", b->base_path);
	} else if (!b->has_base && b->base_path && !c->quiet) {
		/* nothing judged is never green: no reference, not judged (docs/check.md) */
		v = verdict_add(c->vs, VERDICT_ERROR, b->name, "-", "-", 0, 0, "baseline.missing");
		verdict_set_message(v, "no reference to compare with: no baseline '%s' and no base "
				    "revision; compare with the base in the same job (scalegate ci "
				    "--against origin/main), record a baseline (scalegate baseline "
				    "update), or accept a gate on absolute rules only "
				    "(--allow-no-reference, or 'allow_no_reference: true')",
				    b->base_path);
	}
	if (c->ab && !b->has_base && !c->quiet) {
		/* the base ran none of it (every base run failed, or it has no such benchmark) */
		v = verdict_add(c->vs, VERDICT_ERROR, b->name, "-", "-", 0, 0, "base.missing");
		verdict_set_message(v,
				    "could not decide: the base revision has no results for '%s' "
				    "to compare with (its runs are in RESULTS/base/manifest.tsv)",
				    b->name);
	}
	if (b->fingerprint_diff && !c->quiet)
		warning("the baseline of '%s' was recorded in another environment (%s): only the "
			"checks whose "
			"rule allows across_fingerprints are compared (by default the ratios: "
			"speedup, efficiency, "
			"Karp-Flatt, load balance, parallel efficiency)",
			b->name, b->fingerprint_diff);
}

void check_evaluate(struct check *c)
{
	for (size_t i = 0; i < c->nr_bench; i++) {
		const struct check_bench *b = &c->bench[i];
		note_baseline(c, b);
		for (size_t k = 0; k < c->m->nr_series; k++)
			if (!strcmp(c->m->series[k].benchmark, b->name))
				evaluate_series(c, b, &c->m->series[k]);
		for (size_t k = 0; k < c->m->nr_iso; k++)
			if (!strcmp(c->m->iso[k].benchmark, b->name))
				check_growth(c, b, &c->m->iso[k]);
		removed_intervals(c, b);
	}
	check_adjust(c);
	c->vs->family += c->family;
	c->vs->family_cells += c->family_cells;
	c->vs->ab = c->vs->ab || c->ab;
	c->vs->family_level = c->family_level > c->vs->family_level ? c->family_level
								    : c->vs->family_level;
	verdict_set_sort(c->vs, 0); /* run failures, added before, among them */
}
