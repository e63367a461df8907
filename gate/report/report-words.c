/* The wording every report shares: the counts, the lists, the headline's words and the outcome in
 * words (report-priv.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/interrupt.h"
#include "base/util.h"
#include "base/words.h"
#include "judge/findings.h"
#include "judge/judge.h"
#include "report/report-priv.h"

void report_count(const struct verdict_set *s, size_t count[VERDICT_SKIPPED + 1])
{
	memset(count, 0, (VERDICT_SKIPPED + 1) * sizeof(*count));
	for (size_t i = 0; i < s->nr; i++)
		count[s->v[i].status]++;
}

int report_listed(const struct verdict *v, int st)
{
	if (st == REPORT_INCONCLUSIVE)
		return v->status == VERDICT_WARN && v->inconclusive;
	return (int)v->status == st && !(st == VERDICT_WARN && v->inconclusive);
}

size_t report_count_listed(const struct verdict_set *s, int st)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nr; i++)
		n += report_listed(&s->v[i], st);
	return n;
}

enum report_word report_word_of(const struct verdict *v)
{
	switch (v->status) {
	case VERDICT_PASS:
		return REPORT_WORD_PASS;
	case VERDICT_WARN:
		return v->inconclusive ? REPORT_WORD_INCONCLUSIVE : REPORT_WORD_WARNING;
	case VERDICT_FAIL:
		return REPORT_WORD_REGRESSION;
	case VERDICT_ERROR:
		return REPORT_WORD_ERROR;
	case VERDICT_SKIPPED:
		break;
	}
	return REPORT_WORD_SKIPPED;
}

const char *report_word_name(enum report_word w)
{
	static const char *const name[] = { "no checks", "pass", "skipped", "inconclusive",
					     "error", "warning", "regression" };
	return name[w];
}

static void add_count(struct strbuf *sb, size_t n, const char *one, const char *many,
		      const char *sep)
{
	strbuf_addf(sb, "%s%zu %s", sep, n, n == 1 ? one : many);
}

/* ", 1 warning (2 checks), 2 errors, 3 inconclusive": what occurred besides the regressions
 * (errors only when 'errors'), each after 'sep' then ", ". */
static void add_others(struct strbuf *sb, const struct verdict_set *s, const size_t *count,
		       int errors, const char *sep)
{
	const struct findings *fs = s->findings;
	size_t undecided = report_count_listed(s, REPORT_INCONCLUSIVE);

	if (fs && fs->warnings) {
		strbuf_addstr(sb, sep);
		findings_add_warnings(sb, fs);
		sep = ", ";
	}
	if (errors && count[VERDICT_ERROR]) {
		add_count(sb, count[VERDICT_ERROR], "error", "errors", sep);
		sep = ", ";
	}
	if (count[VERDICT_SKIPPED]) {
		add_count(sb, count[VERDICT_SKIPPED], "skipped", "skipped", sep);
		sep = ", ";
	}
	if (undecided)
		add_count(sb, undecided, "inconclusive", "inconclusive", sep);
}

int report_is_run(const struct verdict *v)
{
	return v->kind && (!strcmp(v->kind, "run") || !strcmp(v->kind, "run.base"));
}

int report_run_failed(const struct verdict_set *s, const size_t *count)
{
	if (count[VERDICT_FAIL] || !count[VERDICT_ERROR] || s->exit_code != SG_EXIT_RUN_FAILED)
		return 0;
	/* Exit 3 is also an error that left checks unjudged (a baseline): "run failed" only for
	 * runs. */
	for (size_t i = 0; i < s->nr; i++)
		if (s->v[i].status == VERDICT_ERROR && report_is_run(&s->v[i]))
			return 1;
	return 0;
}

size_t report_undecided(const struct verdict_set *s)
{
	static const char *const kinds[] = { "undecided", "baseline.unmatched", "baseline.zero",
					     "base.missing", "baseline.loads" };
	size_t n = 0;

	for (size_t i = 0; i < s->nr; i++)
		for (size_t k = 0; k < ARRAY_SIZE(kinds) && s->v[i].kind; k++)
			n += !strcmp(s->v[i].kind, kinds[k]);
	return n;
}

size_t report_count_kind(const struct verdict_set *s, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nr; i++)
		n += s->v[i].kind && !strcmp(s->v[i].kind, kind);
	return n;
}

size_t report_no_reference(const struct verdict_set *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nr; i++)
		n += s->v[i].status == VERDICT_ERROR && s->v[i].kind &&
		     !strcmp(s->v[i].kind, "baseline.missing");
	return n;
}

void report_outcome(struct strbuf *sb, const struct verdict_set *s)
{
	size_t count[VERDICT_SKIPPED + 1], mark;
	const char *checks = s->nr == 1 ? "check" : "checks";
	struct findings none = { 0 };

	report_count(s, count);
	if (s->interrupted)
		strbuf_addf(sb, "interrupted by %s, incomplete: ", interrupt_name(s->interrupted));
	if (!s->nr) {
		strbuf_addstr(sb, "no checks");
	} else if (count[VERDICT_FAIL]) {
		findings_add_regressions(sb, s->findings ? s->findings : &none);
		add_others(sb, s, count, 1, ", ");
		strbuf_addf(sb, " in %zu %s", s->nr, checks);
	} else if (report_run_failed(s, count)) {
		strbuf_addstr(sb, "run failed: ");
		add_count(sb, count[VERDICT_ERROR], "error", "errors", "");
		add_others(sb, s, count, 0, ", ");
		strbuf_addf(sb, " in %zu %s", s->nr, checks);
	} else if (report_no_reference(s)) {
		size_t n = report_no_reference(s);
		strbuf_addf(sb, "could not be judged: no baseline and no base revision for %zu %s",
			    n, n == 1 ? "benchmark" : "benchmarks");
		add_others(sb, s, count, 1, " (");
		strbuf_addf(sb, " in %zu %s)", s->nr, checks);
	} else if (report_undecided(s)) {
		size_t n = report_undecided(s), loads = report_count_kind(s, "baseline.loads");
		strbuf_addf(sb, "could not decide for %zu %s", n,
			    n == 1 ? "benchmark" : "benchmarks");
		if (loads)
			strbuf_addf(sb, ", %s cannot be judged against %s baseline: the machine's "
				    "load here and when it was recorded are too far apart",
				    loads == n ? (n == 1 ? "it" : "they") : "some",
				    loads == 1 && n == 1 ? "its" : "their");
		add_others(sb, s, count, 1, " (");
		strbuf_addf(sb, " in %zu %s)", s->nr, checks);
	} else {
		if (count[VERDICT_ERROR] || count[VERDICT_SKIPPED] || count[VERDICT_WARN])
			strbuf_addf(sb, "no regressions in %zu %s", s->nr, checks);
		else if (s->nr == 1)
			strbuf_addstr(sb, "1 check passes");
		else
			strbuf_addf(sb, "all %zu checks pass", s->nr);
		mark = sb->len;
		add_others(sb, s, count, 1, ": ");
		/* a set not finished has no findings: its warnings are counted as checks */
		if (sb->len == mark && count[VERDICT_WARN])
			add_count(sb, count[VERDICT_WARN], "warning", "warnings", ": ");
	}
}

const char *report_reference(const struct verdict *v)
{
	const char *side = verdict_bound(v);

	return side ? side : "baseline";
}
