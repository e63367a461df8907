/* The isoefficiency growth of a benchmark x interval against 'isoefficiency_growth_max'
 * (docs/check.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/check-priv.h"
#include "analyze/isoeff.h"

/* The power of log p in each growth model of isoeff.h. */
static const int growth_log_power[ISOEFF_NR_GROWTHS] = {
#define X(id, name, alpha, beta) [ISOEFF_##id] = beta,
	ISOEFF_GROWTHS(X)
#undef X
};

static double size_value(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end != s && !*end && isfinite(v) ? v : NAN;
}

/* The settings of the growth: those of the largest size's largest configuration (as for the slope).
 */
static const struct matrix_series *largest(const struct check *c, const struct isoeff *iso)
{
	const struct matrix_series *best = NULL;

	for (size_t i = 0; i < c->m->nr_series; i++) {
		const struct matrix_series *s = &c->m->series[i];
		if (s->interval != iso->interval || strcmp(s->benchmark, iso->benchmark) ||
		    !s->nr_cells || isnan(size_value(s->size)))
			continue;
		if (!best || size_value(s->size) > size_value(best->size))
			best = s;
	}
	return best;
}

static struct verdict *growth_verdict(struct check_cell *cell, enum verdict_status st,
				      const char *kind, const struct check_metric *m)
{
	struct verdict *v = verdict_add(cell->c->vs, st, cell->b->name, cell->interval, "-", 0, 0,
					kind);

	v->metric = xstrdup(m->name);
	v->rule_origin = check_rule_origin(cell->set->bound_from[m->id]);
	return v;
}

void check_growth(struct check *c, const struct check_bench *b, const struct isoeff *iso)
{
	const struct check_metric *m = &check_metrics[RULES_ISOEFFICIENCY_GROWTH];
	const struct matrix_series *s = largest(c, iso);
	const struct rules_value *max;
	const struct rules_policy *pol;
	const struct isoeff_fit *fit;
	struct rules_settings set;
	struct check_cell cell;
	struct verdict *v;
	struct strbuf sb = STRBUF_INIT;
	char kind[] = "isoefficiency_growth_max", bound[48], growth[48];
	int log_power, past, certain;

	if (!s)
		return;
	check_cell_init(&cell, c, b, s, s->nr_cells - 1, &set);
	max = &set.max[m->id];
	pol = &set.bound_policy[m->id];
	if (!max->set || pol->level == RULES_LEVEL_OFF)
		return;
	rules_growth_text(max->value, max->log_power, bound, sizeof(bound));
	if (iso->refused || iso->growth < 0) {
		v = growth_verdict(&cell, VERDICT_SKIPPED, kind, m);
		verdict_set_message(v, "no isoefficiency growth at %.0f %% efficiency: %s",
				    100 * iso->target,
				    iso->refused ? iso->refused : "no model fits");
		return;
	}
	fit = &iso->fits[iso->growth];
	log_power = growth_log_power[iso->growth];
	isoeff_growth_text((enum isoeff_growth)iso->growth, fit->k, growth, sizeof(growth));
	past = rules_growth_cmp(fit->k, log_power, max->value, max->log_power) > 0;
	/* A fitted exponent is certain past the bound when its whole 95 % interval is. */
	certain = iso->growth != ISOEFF_POWER ||
		  (!isnan(fit->k_lo) &&
		   rules_growth_cmp(fit->k_lo, log_power, max->value, max->log_power) > 0);
	v = growth_verdict(&cell,
			   !past     ? VERDICT_PASS
			   : certain ? VERDICT_FAIL
				     : VERDICT_WARN,
			   kind, m);
	if (v->status == VERDICT_FAIL && pol->level == RULES_LEVEL_WARN)
		v->status = VERDICT_WARN;
	v->n = iso->nr_fitted;
	v->value = fit->k;
	v->lo = fit->k_lo;
	v->hi = fit->k_hi;
	v->baseline = max->value;
	v->change = fit->k - max->value;
	/* The fit as the protocol prints it (protocol.c). */
	strbuf_addf(&sb,
		    "Isoefficiency_growth %s at %.0f %% efficiency (fit over %zu processor counts: "
		    "rms %.3g %% in n, "
		    "R^2 %.3f",
		    growth, 100 * iso->target, iso->nr_fitted, 100 * expm1(fit->rms), fit->r2);
	if (iso->growth == ISOEFF_POWER && isfinite(fit->k_lo))
		strbuf_addf(&sb, ", k in [%.3g, %.3g]", fit->k_lo, fit->k_hi);
	verdict_set_message(
		v, "%s) %s %s %s%s%s", sb.buf, past ? "is above" : "within", kind, bound,
		past && !certain ? "; the 95 % interval of k reaches back to the bound: not certain"
				 : "",
		past && pol->level == RULES_LEVEL_WARN ? " (level warn)" : "");
	strbuf_release(&sb);
	if (past && iso->explanation)
		verdict_set_cause(v, "%s", iso->explanation);
}
