/* The checker's metric table and its text: values, changes and the summary 'scalegate check'
 * prints. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge/check-priv.h"
#include "base/words.h"
#include "base/util.h"
#include "judge/findings.h"

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

/* Where the inconclusive checks are: "4 intervals, 2 configurations". */
static const char *inconclusive_where(const struct verdict_set *vs)
{
	static char buf[96];
	size_t intervals = 0, configs = 0;

	for (size_t i = 0; i < vs->nr; i++) {
		const struct verdict *v = &vs->v[i], *w;
		const char *bench = v->benchmark ? v->benchmark : "";
		int new_interval = 1, new_config = 1;
		if (!(v->status == VERDICT_WARN && v->inconclusive && !v->busy))
			continue;
		for (size_t k = 0; k < i; k++) {
			w = &vs->v[k];
			if (!(w->status == VERDICT_WARN && w->inconclusive && !w->busy) ||
			    strcmp(bench, w->benchmark ? w->benchmark : ""))
				continue;
			if (!strcmp(v->interval ? v->interval : "", w->interval ? w->interval : ""))
				new_interval = 0;
			if (v->ranks == w->ranks && v->threads == w->threads &&
			    !strcmp(v->size ? v->size : "", w->size ? w->size : ""))
				new_config = 0;
		}
		intervals += new_interval;
		configs += new_config;
	}
	snprintf(buf, sizeof(buf), "%zu interval%s, %zu configuration%s", intervals,
		 plural(intervals), configs, plural(configs));
	return buf;
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

/* One line per check that is in no finding: errors, skips, a busy machine's inconclusive change;
 * with 'all' also the passes and the inconclusive ones. */
static void print_check(FILE *out, const struct verdict *v)
{
	char config[96];
	const char *on = check_colour(out, v->status, v->inconclusive);

	check_config_name(config, sizeof(config), v->size, v->ranks, v->threads);
	fprintf(out, "%s%s%s %s %s %s %s: %s\n", on,
		v->inconclusive ? "INCONCLUSIVE" : status_words[v->status], check_colour_end(on),
		v->benchmark ? v->benchmark : "-", v->interval ? v->interval : "-", config,
		v->kind ? v->kind : "-", v->message ? v->message : "");
	if (v->cause)
		fprintf(out, "    cause: %s\n", v->cause);
}

/* " (3 of them in the enclosing program, program/solve, ...)": the intervals folded in. */
static void print_enclosing(FILE *out, const struct verdict_set *vs, const struct finding *f)
{
	if (f->nr_checks == f->nr_own)
		return;
	fprintf(out, " (%zu of them in the enclosing ", f->nr_checks - f->nr_own);
	for (size_t k = f->nr_own; k < f->nr_checks; k++)
		if (finding_first_of_interval(vs, f, k))
			fprintf(out, "%s%s", k > f->nr_own ? ", " : "",
				vs->v[f->checks[k]].interval);
	fputs(", whose change this one explains)", out);
}

/* "FAIL bench interval config: 3 checks failed", the cause, then each check as evidence: its kind
 * and message, after its interval when it was folded in. */
static void print_finding(FILE *out, const struct verdict_set *vs, const struct finding *f)
{
	const struct verdict *w = finding_where(vs, f);
	const char *on = check_colour(out, f->status, 0), *cause = finding_cause(vs, f);
	char config[96];

	check_config_name(config, sizeof(config), w->size, w->ranks, w->threads);
	fprintf(out, "%s%s%s %s %s %s: ", on, status_words[f->status], check_colour_end(on),
		w->benchmark ? w->benchmark : "-", w->interval ? w->interval : "-", config);
	if (f->failed)
		fprintf(out, "%zu check%s failed", f->failed, plural(f->failed));
	if (f->warned)
		fprintf(out, "%s%zu check%s warned", f->failed ? ", " : "", f->warned,
			plural(f->warned));
	print_enclosing(out, vs, f);
	fputc('\n', out);
	if (cause)
		fprintf(out, "    cause: %s\n", cause);
	for (size_t k = 0; k < f->nr_checks; k++) {
		const struct verdict *v = &vs->v[f->checks[k]];
		fputs("    ", out);
		if (finding_folded(f, k))
			fprintf(out, "%s ", v->interval);
		if (v->status == VERDICT_WARN && f->status == VERDICT_FAIL)
			fputs("(warning) ", out);
		fprintf(out, "%s: %s\n", v->kind ? v->kind : "-", v->message ? v->message : "");
	}
}

void check_print_verdicts(FILE *out, const struct verdict_set *vs, int all)
{
	size_t undecided = inconclusive(vs, 1);

	for (size_t i = 0; vs->findings && i < vs->findings->nr; i++)
		print_finding(out, vs, &vs->findings->f[i]);
	for (size_t i = 0; i < vs->nr; i++) {
		const struct verdict *v = &vs->v[i];
		if (v->status == VERDICT_FAIL || (v->status == VERDICT_WARN && !v->inconclusive))
			continue; /* in a finding */
		/* a change on a busy machine is shown: it may be a regression the load hides */
		if (!all && (v->status == VERDICT_PASS || (v->inconclusive && !v->busy)))
			continue;
		print_check(out, v);
	}
	if (undecided && !all)
		fprintf(out,
			"INCONCLUSIVE %zu check%s inconclusive (%s): the noise allows only "
			"larger changes than their tolerance to be detected; more repeats would "
			"decide; --all lists them\n",
			undecided, plural(undecided), inconclusive_where(vs));
}

/* The absolute bounds judged: outside the family. */
static size_t bounds_judged(const struct verdict_set *vs)
{
	size_t n = 0;

	for (size_t i = 0; i < vs->nr; i++)
		n += vs->v[i].status != VERDICT_SKIPPED && verdict_bound(&vs->v[i]);
	return n;
}

/* "N absolute bounds are outside it" when any were judged: the level covers the tolerances. */
static void print_bounds(FILE *out, const struct verdict_set *vs)
{
	size_t n = bounds_judged(vs);

	if (n)
		fprintf(out, "%zu absolute bound check%s outside %s (each fails when its 95 %% "
			"interval lies past the bound); ", n, plural(n),
			vs->family ? "that level" : "any false-alarm level");
}

void check_print_counts(FILE *out, const struct verdict_set *vs)
{
	const char *const exit_words[] = { "pass", "regression", "usage", error_word(vs) };
	struct strbuf sb = STRBUF_INIT;
	struct findings none = { 0 };
	const struct findings *fs = vs->findings ? vs->findings : &none;

	findings_add_regressions(&sb, fs);
	strbuf_addstr(&sb, ", ");
	findings_add_warnings(&sb, fs);
	fprintf(out,
		"scalegate check: %zu check%s: %s, %zu inconclusive, %zu error%s, %zu skipped, "
		"%zu passed; ",
		vs->nr, plural(vs->nr), sb.buf, inconclusive(vs, 0), vs->count[VERDICT_ERROR],
		plural(vs->count[VERDICT_ERROR]), vs->count[VERDICT_SKIPPED],
		vs->count[VERDICT_PASS]);
	strbuf_release(&sb);
	if (vs->family && vs->looks == 2)
		fprintf(out,
			"whole-run false-alarm level %g %% (two looks at %g %% and %g %%, Holm "
			"over %zu tests in %zu cell%s, each cell's time check first; "
			"adaptive: %zu cell%s, %zu more round%s); ",
			100 * vs->family_level, 100 * CHECK_FIRST_LOOK * vs->family_level,
			100 * (1 - CHECK_FIRST_LOOK) * vs->family_level, vs->family,
			vs->family_cells, plural(vs->family_cells), vs->extended,
			plural(vs->extended), vs->extended_rounds, plural(vs->extended_rounds));
	else if (vs->family)
		fprintf(out,
			"whole-run false-alarm level %g %% (Holm over %zu tests in %zu cell%s, "
			"each cell's time check first); ",
			100 * vs->family_level, vs->family, vs->family_cells,
			plural(vs->family_cells));
	print_bounds(out, vs);
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
