/* The recap at the end of the console output of check and ci: what failed, where in the source, by
 * which rule. */
#include <stdio.h>
#include <string.h>

#include "report/report-priv.h"
#include "judge/check.h"
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

void report_recap(FILE *out, const struct verdict_set *vs)
{
	size_t count[VERDICT_SKIPPED + 1];
	static const enum verdict_status order[] = { VERDICT_FAIL, VERDICT_ERROR };

	report_count(vs, count);
	if (!count[VERDICT_FAIL] && !count[VERDICT_ERROR])
		return;
	fprintf(out, "\nrecap: %zu failed, %zu error%s", count[VERDICT_FAIL], count[VERDICT_ERROR],
		count[VERDICT_ERROR] == 1 ? "" : "s");
	/* counted as in every report: the inconclusive checks apart from the warnings */
	size_t undecided = report_count_listed(vs, REPORT_INCONCLUSIVE);
	size_t warned = count[VERDICT_WARN] - undecided;
	if (warned && undecided)
		fprintf(out, " (%zu warning%s and %zu inconclusive above)", warned,
			warned == 1 ? "" : "s", undecided);
	else if (warned || undecided)
		fprintf(out, " (%zu %s above)", warned ? warned : undecided,
			undecided ? "inconclusive" : warned == 1 ? "warning" : "warnings");
	fputs(":\n", out);
	for (size_t k = 0; k < ARRAY_SIZE(order); k++) {
		size_t shown = 0;
		for (size_t i = 0; i < vs->nr; i++)
			if (vs->v[i].status == order[k] && shown++ < RECAP_MAX)
				recap_one(out, &vs->v[i]);
		if (shown > RECAP_MAX)
			fprintf(out, "      ... and %zu more %s, listed above and in the reports\n",
				shown - RECAP_MAX,
				order[k] == VERDICT_FAIL ? "failures" : "errors");
	}
}
