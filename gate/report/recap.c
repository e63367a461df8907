/* The recap at the end of the console output of check and ci: what failed, where in the source, by
 * which rule. */
#include <stdio.h>
#include <string.h>

#include "report/report-priv.h"
#include "judge/check.h"
#include "judge/findings.h"
#include "base/util.h"
#include "base/words.h"

/* per status: a recap that scrolls off the screen is no recap */
#define RECAP_MAX 10

static void recap_one(FILE *out, const struct verdict *v)
{
	static const char *const words[] = { "PASS", "WARN", "FAIL", "ERROR", "SKIP" };
	char config[128];

	int whole = !v->interval || !strcmp(v->interval, "-");
	const char *on = check_colour(out, v->status, 0);

	fprintf(out, "%s%s%s%*s %s%s%s", on, words[v->status], check_colour_end(on),
		5 - (int)strlen(words[v->status]), "", v->benchmark ? v->benchmark : "-",
		whole ? "" : " ", whole ? "" : v->interval);
	if (v->file && v->line > 0)
		fprintf(out, " at %s:%d", v->file, v->line);
	else if (v->file)
		fprintf(out, " in %s", v->file);
	fputs("\n      ", out);
	if (v->ranks > 0 && v->threads > 0)
		fprintf(out, "%s: ",
			config_words(config, sizeof(config), v->ranks, v->threads, v->size));
	/* the verdict's message has the metric, the values, the change and its significance */
	fprintf(out, "%s\n",
		v->message  ? v->message
		: v->metric ? v->metric
		: v->kind   ? v->kind
			    : "");
	if (v->rule_origin && v->metric)
		fprintf(out, "      rule: %s\n", v->rule_origin);
}

/* The words that name a check in a list: its metric, else its kind. */
static const char *check_word(const struct verdict *v)
{
	return v->metric ? v->metric : v->kind ? v->kind : "-";
}

/* "FAIL  bench interval at file:line", the configuration with the cause, the checks, the rules. */
static void recap_finding(FILE *out, const struct verdict_set *vs, const struct finding *f)
{
	static const char *const words[] = { "PASS", "WARN", "FAIL", "ERROR", "SKIP" };
	const struct verdict *w = finding_where(vs, f), *first = &vs->v[f->checks[0]];
	const char *on = check_colour(out, f->status, 0), *cause = finding_cause(vs, f);
	char config[128];

	fprintf(out, "%s%s%s%*s %s %s", on, words[f->status], check_colour_end(on),
		5 - (int)strlen(words[f->status]), "", w->benchmark ? w->benchmark : "-",
		w->interval ? w->interval : "-");
	if (w->file && w->line > 0)
		fprintf(out, " at %s:%d", w->file, w->line);
	else if (w->file)
		fprintf(out, " in %s", w->file);
	fprintf(out, "\n      %s: %s\n",
		config_words(config, sizeof(config), w->ranks, w->threads, w->size),
		cause ? cause : first->message ? first->message : check_word(first));
	fputs(f->status == VERDICT_FAIL ? "      failed:" : "      warned:", out);
	for (size_t k = 0; k < f->nr_checks; k++) {
		const struct verdict *v = &vs->v[f->checks[k]];
		int new_interval = finding_folded(f, k) && finding_first_of_interval(vs, f, k);
		if (new_interval)
			fprintf(out, "; with the enclosing %s:", v->interval);
		fprintf(out, "%s %s", k && !new_interval ? "," : "", check_word(v));
	}
	fputc('\n', out);
	for (size_t k = 0; k < f->nr_checks; k++) {
		const char *rule = vs->v[f->checks[k]].rule_origin;
		int seen = !rule || !vs->v[f->checks[k]].metric;
		for (size_t i = 0; i < k && !seen; i++)
			seen = vs->v[f->checks[i]].rule_origin &&
			       !strcmp(vs->v[f->checks[i]].rule_origin, rule);
		if (!seen)
			fprintf(out, "      rule: %s\n", rule);
	}
}

void report_recap(FILE *out, const struct verdict_set *vs)
{
	size_t count[VERDICT_SKIPPED + 1], shown = 0, warned, undecided;
	struct findings none = { 0 };
	const struct findings *fs = vs->findings ? vs->findings : &none;
	struct strbuf sb = STRBUF_INIT;

	report_count(vs, count);
	if (!fs->regressions && !count[VERDICT_ERROR])
		return;
	findings_add_regressions(&sb, fs);
	fprintf(out, "\nrecap: %s, %zu error%s", sb.buf, count[VERDICT_ERROR],
		count[VERDICT_ERROR] == 1 ? "" : "s");
	strbuf_release(&sb);
	/* counted as in every report: warnings are findings, the inconclusive checks apart */
	warned = fs->warnings;
	undecided = report_count_listed(vs, REPORT_INCONCLUSIVE);
	if (warned && undecided)
		fprintf(out, " (%zu warning%s and %zu inconclusive above)", warned,
			warned == 1 ? "" : "s", undecided);
	else if (warned || undecided)
		fprintf(out, " (%zu %s above)", warned ? warned : undecided,
			undecided ? "inconclusive" : warned == 1 ? "warning" : "warnings");
	fputs(":\n", out);
	for (size_t i = 0; i < fs->nr; i++)
		if (fs->f[i].status == VERDICT_FAIL && shown++ < RECAP_MAX)
			recap_finding(out, vs, &fs->f[i]);
	if (shown > RECAP_MAX)
		fprintf(out,
			"      ... and %zu more regressions, listed above and in the reports\n",
			shown - RECAP_MAX);
	shown = 0;
	for (size_t i = 0; i < vs->nr; i++)
		if (vs->v[i].status == VERDICT_ERROR && shown++ < RECAP_MAX)
			recap_one(out, &vs->v[i]);
	if (shown > RECAP_MAX)
		fprintf(out, "      ... and %zu more errors, listed above and in the reports\n",
			shown - RECAP_MAX);
}
