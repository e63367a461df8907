/* The checker's metric table and its text: values, changes and the summary 'scalegate check'
 * prints. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge/check-priv.h"
#include "base/words.h"

/* A derived metric reads no figure of its own: the field is not used for it. */
#define ANALYSIS_NONE 0

const struct check_metric check_metrics[RULES_NR_METRICS] = {
#define X(id, key, worse, name, unit, kind, fig) \
	[RULES_##id] = { RULES_##id, key, name, worse, CHECK_##kind, ANALYSIS_##fig, unit },
	RULES_METRICS(X)
#undef X
};

enum unit check_unit(const struct check_metric *m)
{
	if (m->kind == CHECK_SHARE)
		return UNIT_SHARE;
	if (m->kind == CHECK_PER_RUN && m->fig == ANALYSIS_EXECUTION_TIME)
		return UNIT_SECONDS;
	return UNIT_RATIO;
}

void check_format_value(char *buf, size_t size, const struct check_metric *m, double v)
{
	unit_format(buf, size, check_unit(m), v);
}

void check_format_change(char *buf, size_t size, const struct check_metric *m, double change,
			 int relative)
{
	unit_format_change(buf, size, relative ? UNIT_RELATIVE : check_unit(m), change);
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

const char *check_colour(FILE *out, enum verdict_status st, int inconclusive)
{
	/* green, yellow, bold red, bold magenta, dim; an undecided check is yellow as a warning */
	static const char *const sgr[] = {
		"\033[32m", "\033[33m", "\033[1;31m", "\033[1;35m", "\033[2m",
	};

	if ((size_t)st >= ARRAY_SIZE(sgr) || !colour_wanted(out))
		return "";
	return inconclusive ? sgr[VERDICT_WARN] : sgr[st];
}

const char *check_colour_end(const char *start)
{
	return *start ? "\033[0m" : "";
}

/* How many verdicts are inconclusive warnings; 'folded': only those the console counts on one line
 * (not busy). */
static size_t inconclusive(const struct verdict_set *vs, int folded)
{
	size_t n = 0;

	for (size_t i = 0; i < vs->nr; i++)
		n += vs->v[i].status == VERDICT_WARN && vs->v[i].inconclusive &&
		     !(folded && vs->v[i].busy);
	return n;
}

/* Exit 3 is a failed run, or an error that left something unjudged (an unreadable baseline). */
static const char *error_word(const struct verdict_set *vs)
{
	for (size_t i = 0; i < vs->nr; i++)
		if (vs->v[i].status == VERDICT_ERROR && vs->v[i].kind &&
		    !strcmp(vs->v[i].kind, "run"))
			return "a run failed";
	return "error: not everything could be judged";
}

void check_print_verdicts(FILE *out, const struct verdict_set *vs, int all)
{
	for (size_t i = 0; i < vs->nr; i++) {
		const struct verdict *v = &vs->v[i];
		char config[96];
		/* a change on a busy machine is shown: it may be a regression the load hides */
		if (!all && (v->status == VERDICT_PASS || (v->inconclusive && !v->busy)))
			continue;
		const char *on = check_colour(out, v->status, v->inconclusive);
		check_config_name(config, sizeof(config), v->size, v->ranks, v->threads);
		fprintf(out, "%s%s%s %s %s %s %s: %s\n", on,
			v->inconclusive ? "INCONCLUSIVE" : status_words[v->status],
			check_colour_end(on),
			v->benchmark ? v->benchmark : "-", v->interval ? v->interval : "-", config,
			v->kind ? v->kind : "-", v->message ? v->message : "");
		if (v->cause)
			fprintf(out, "    cause: %s\n", v->cause);
	}
	if (inconclusive(vs, 1) && !all)
		fprintf(out,
			"INCONCLUSIVE %zu check%s: the noise allows only larger changes than their "
			"tolerance to be "
			"detected; more repeats would decide (--all lists them)\n",
			inconclusive(vs, 1), plural(inconclusive(vs, 1)));
}

void check_print_counts(FILE *out, const struct verdict_set *vs)
{
	const char *const exit_words[] = { "pass", "regression", "usage", error_word(vs) };
	size_t undecided = inconclusive(vs, 0);

	fprintf(out,
		"scalegate check: %zu check%s: %zu failed, %zu warning%s, %zu inconclusive, %zu "
		"error%s, %zu skipped, %zu passed; ",
		vs->nr, plural(vs->nr), vs->count[VERDICT_FAIL],
		vs->count[VERDICT_WARN] - undecided, plural(vs->count[VERDICT_WARN] - undecided),
		undecided, vs->count[VERDICT_ERROR], plural(vs->count[VERDICT_ERROR]),
		vs->count[VERDICT_SKIPPED], vs->count[VERDICT_PASS]);
	if (vs->family && vs->looks == 2)
		fprintf(out,
			"whole-run false-alarm level %g %% (two looks at %g %% and %g %%, Holm "
			"over %zu tests; "
			"adaptive: %zu cell%s, %zu more round%s); ",
			100 * vs->family_level, 100 * CHECK_FIRST_LOOK * vs->family_level,
			100 * (1 - CHECK_FIRST_LOOK) * vs->family_level, vs->family, vs->extended,
			plural(vs->extended), vs->extended_rounds, plural(vs->extended_rounds));
	else if (vs->family)
		fprintf(out, "whole-run false-alarm level %g %% (Holm over %zu tests); ",
			100 * vs->family_level, vs->family);
	fprintf(out, "exit %d (%s)\n", vs->exit_code,
		vs->exit_code >= 0 && vs->exit_code <= 3 ? exit_words[vs->exit_code]
		: vs->interrupted ? "interrupted"
				  : "?");
}

void check_print_exit(FILE *out, const struct verdict_set *vs, int code)
{
	static const char *const words[] = {"pass", "regression", "usage or configuration error",
					    "error", "the required post failed"};

	if (code == vs->exit_code)
		return;
	fprintf(out, "scalegate: exit %d (%s), not %d: see the errors above\n", code,
		code >= 0 && code <= 4 ? words[code] : code > 128 ? "interrupted" : "?",
		vs->exit_code);
}
