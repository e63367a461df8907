/* The checker's metric table and its text: values, changes and the summary 'scalegate check' prints. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge/check-priv.h"
#include "base/words.h"

#define PER_RUN(f) CHECK_PER_RUN, ANALYSIS_##f
#define SHARE(f) CHECK_SHARE, ANALYSIS_##f

const struct check_metric check_metrics[RULES_NR_METRICS] = {
	[RULES_TIME] = { RULES_TIME, "time", "Execution_time", +1, PER_RUN(EXECUTION_TIME), " s" },
	[RULES_SPEEDUP] = { RULES_SPEEDUP, "speedup", "Speedup", -1, CHECK_DERIVED, 0, "" },
	[RULES_EFFICIENCY] = { RULES_EFFICIENCY, "efficiency", "Measured_efficiency", -1, CHECK_DERIVED, 0, "" },
	[RULES_KARP_FLATT] = { RULES_KARP_FLATT, "karp_flatt", "Karp_Flatt", +1, CHECK_DERIVED, 0, "" },
	[RULES_KARP_FLATT_SLOPE] = { RULES_KARP_FLATT_SLOPE, "karp_flatt_slope", "Karp_Flatt_slope", +1,
				     CHECK_SLOPE, 0, "" },
	[RULES_PARALLEL_EFFICIENCY] = { RULES_PARALLEL_EFFICIENCY, "parallel_efficiency", "Parallel_efficiency",
					-1, PER_RUN(PARALLEL_EFFICIENCY), "" },
	[RULES_LOAD_BALANCE] = { RULES_LOAD_BALANCE, "load_balance", "Load_balance", -1, PER_RUN(LOAD_BALANCE), "" },
	[RULES_INSUFFICIENT_PARALLELISM] = { RULES_INSUFFICIENT_PARALLELISM, "insufficient_parallelism",
					     "Insufficient_parallelism", +1, SHARE(INSUFFICIENT_PARALLELISM), " %" },
	[RULES_COMMUNICATION] = { RULES_COMMUNICATION, "communication", "Communication", +1, SHARE(COMMUNICATION),
				  " %" },
	[RULES_IDLE] = { RULES_IDLE, "idle", "Idle", +1, SHARE(IDLE), " %" },
	[RULES_SYNCHRONIZATION] = { RULES_SYNCHRONIZATION, "synchronization", "Synchronization", +1,
				    SHARE(SYNCHRONIZATION), " %" },
	[RULES_LOAD_IMBALANCE] = { RULES_LOAD_IMBALANCE, "load_imbalance", "Load_imbalance", +1,
				   SHARE(LOAD_IMBALANCE), " %" },
	[RULES_AVERAGE_PARALLELISM] = { RULES_AVERAGE_PARALLELISM, "average_parallelism", "Average_parallelism", -1,
					CHECK_RATIO, ANALYSIS_PRODUCTIVE_TIME, "" },
	[RULES_WEAK_EFFICIENCY] = { RULES_WEAK_EFFICIENCY, "weak_efficiency", "Weak_efficiency", -1, CHECK_WEAK, 0,
				    "" },
	[RULES_ISOEFFICIENCY_GROWTH] = { RULES_ISOEFFICIENCY_GROWTH, "isoefficiency_growth", "Isoefficiency_growth",
					 +1, CHECK_GROWTH, 0, "" },
};

void check_format_value(char *buf, size_t size, const struct check_metric *m, double v)
{
	if (isnan(v))
		snprintf(buf, size, "?");
	else if (m->kind == CHECK_SHARE)
		snprintf(buf, size, "%.1f %%", 100 * v);
	else if (m->kind == CHECK_PER_RUN && m->fig == ANALYSIS_EXECUTION_TIME)
		snprintf(buf, size, "%.4g s", v);
	else
		snprintf(buf, size, "%.3g", v);
}

void check_format_change(char *buf, size_t size, const struct check_metric *m, double change, int relative)
{
	if (isnan(change))
		snprintf(buf, size, "?");
	else if (relative)
		snprintf(buf, size, "%+.1f %%", 100 * change);
	else if (m->kind == CHECK_SHARE)
		snprintf(buf, size, "%+.1f points", 100 * change);
	else if (m->kind == CHECK_PER_RUN && m->fig == ANALYSIS_EXECUTION_TIME)
		snprintf(buf, size, "%+.3g s", change);
	else
		snprintf(buf, size, "%+.3g", change);
}

void check_config_name(char *buf, size_t size, const char *size_name, int ranks, int threads)
{
	config_words(buf, size, ranks, threads, size_name);
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static const char *const status_words[] = { "PASS", "WARN", "FAIL", "ERROR", "SKIP" };

/* How many verdicts are inconclusive warnings. */
static size_t inconclusive(const struct verdict_set *vs)
{
	size_t n = 0;

	for (size_t i = 0; i < vs->nr; i++)
		n += vs->v[i].status == VERDICT_WARN && vs->v[i].inconclusive;
	return n;
}

/* Exit 3 is a failed run, or an error that left something unjudged (an unreadable baseline). */
static const char *error_word(const struct verdict_set *vs)
{
	for (size_t i = 0; i < vs->nr; i++)
		if (vs->v[i].status == VERDICT_ERROR && vs->v[i].kind && !strcmp(vs->v[i].kind, "run"))
			return "a run failed";
	return "error: not everything could be judged";
}

void check_print_verdicts(FILE *out, const struct verdict_set *vs, int all)
{
	for (size_t i = 0; i < vs->nr; i++) {
		const struct verdict *v = &vs->v[i];
		char config[96];
		if (!all && (v->status == VERDICT_PASS || v->inconclusive))
			continue;
		check_config_name(config, sizeof(config), v->size, v->ranks, v->threads);
		fprintf(out, "%s %s %s %s %s: %s\n", v->inconclusive ? "INCONCLUSIVE" : status_words[v->status],
			v->benchmark ? v->benchmark : "-", v->interval ? v->interval : "-", config,
			v->kind ? v->kind : "-", v->message ? v->message : "");
		if (v->cause)
			fprintf(out, "    cause: %s\n", v->cause);
	}
	if (inconclusive(vs) && !all)
		fprintf(out, "INCONCLUSIVE %zu check%s: the noise allows only larger changes than their tolerance to be "
			"detected; more repeats would decide (--all lists them)\n", inconclusive(vs),
			plural(inconclusive(vs)));
}

void check_print_counts(FILE *out, const struct verdict_set *vs)
{
	const char *const exit_words[] = { "pass", "regression", "usage", error_word(vs) };
	size_t undecided = inconclusive(vs);

	fprintf(out, "scalegate check: %zu check%s: %zu failed, %zu warning%s (%zu inconclusive), %zu error%s, "
		"%zu skipped, %zu passed; ", vs->nr, plural(vs->nr), vs->count[VERDICT_FAIL],
		vs->count[VERDICT_WARN] - undecided, plural(vs->count[VERDICT_WARN] - undecided), undecided,
		vs->count[VERDICT_ERROR], plural(vs->count[VERDICT_ERROR]), vs->count[VERDICT_SKIPPED],
		vs->count[VERDICT_PASS]);
	if (vs->family && vs->looks == 2)
		fprintf(out, "whole-run false-alarm level %g %% (two looks at %g %% and %g %%, Holm over %zu tests; "
			"adaptive: %zu cell%s, %zu more round%s); ", 100 * vs->family_level,
			100 * CHECK_FIRST_LOOK * vs->family_level, 100 * (1 - CHECK_FIRST_LOOK) * vs->family_level, vs->family,
			vs->extended, plural(vs->extended), vs->extended_rounds, plural(vs->extended_rounds));
	else if (vs->family)
		fprintf(out, "whole-run false-alarm level %g %% (Holm over %zu tests); ", 100 * vs->family_level,
			vs->family);
	fprintf(out, "exit %d (%s)\n", vs->exit_code,
		vs->exit_code >= 0 && vs->exit_code <= 3 ? exit_words[vs->exit_code] : "?");
}

void check_print(FILE *out, const struct verdict_set *vs, int all)
{
	check_print_verdicts(out, vs, all);
	check_print_counts(out, vs);
}

void check_print_exit(FILE *out, const struct verdict_set *vs, int code)
{
	static const char *const words[] = { "pass", "regression", "usage or configuration error", "error",
					     "the required post failed" };

	if (code == vs->exit_code)
		return;
	fprintf(out, "scalegate: exit %d (%s), not %d: see the errors above\n", code,
		code >= 0 && code <= 4 ? words[code] : "?", vs->exit_code);
}
