/* Which rules apply to one interval x configuration, merged in order; and the rules that applied
 * nowhere. */
#include "rules/rules.h"
#include "base/util.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static int has_int(const int *v, size_t nr, long long x)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* A glob with a '/' matches the whole call path, one without it the interval's own name. */
static int interval_matches(const char *glob, const char *path)
{
	const char *name = strrchr(path, '/');

	if (strchr(glob, '/') || !name)
		return !fnmatch(glob, path, 0);
	return !fnmatch(glob, name + 1, 0);
}

/* The size of a point as the results write it: "-" (or NULL, "") when there is none. */
static int size_matches(const struct rules_rule *rule, const char *size)
{
	long long v;
	char *end;

	if (!rule->nr_sizes)
		return 1;
	if (!size || !*size || !strcmp(size, "-"))
		return 0;
	errno = 0;
	v = strtoll(size, &end, 10);
	if (*end || errno)
		return 0;
	for (size_t i = 0; i < rule->nr_sizes; i++)
		if (rule->sizes[i] == v)
			return 1;
	return 0;
}

static int selects(const struct rules_rule *rule, const char *benchmark, const char *interval,
		   const char *size, int ranks, int threads)
{
	if (rule->benchmark && (!benchmark || fnmatch(rule->benchmark, benchmark, 0)))
		return 0;
	if (rule->interval && (!interval || !interval_matches(rule->interval, interval)))
		return 0;
	if (rule->nr_threads && !has_int(rule->threads, rule->nr_threads, threads))
		return 0;
	if (rule->nr_ranks && !has_int(rule->ranks, rule->nr_ranks, ranks))
		return 0;
	if (rule->nr_p && !has_int(rule->p, rule->nr_p, (long long)ranks * threads))
		return 0;
	return size_matches(rule, size);
}

/* The policy fields set by rules without checks so far. */
struct base {
	struct rules_value level, significance, min_samples, across, test;
};

static double pick(const struct rules_value *own, const struct rules_value *base, double dflt)
{
	return own && own->set ? own->value : base->set ? base->value : dflt;
}

/* The policy of a check set by 'rule' (NULL: of a check nobody set). */
static void policy_of(struct rules_policy *pol, const struct rules_rule *rule, const struct base *b,
		      enum rules_metric m)
{
	pol->level = (enum rules_level)pick(rule ? &rule->level : NULL, &b->level,
					    RULES_LEVEL_ERROR);
	pol->significance = pick(rule ? &rule->significance : NULL, &b->significance,
				 RULES_DEFAULT_SIGNIFICANCE);
	pol->min_samples = (int)pick(rule ? &rule->min_samples : NULL, &b->min_samples,
				     RULES_DEFAULT_MIN_SAMPLES);
	pol->across_fingerprints = (int)pick(rule ? &rule->across_fingerprints : NULL, &b->across,
					     rules_metric_across_default(m));
	pol->margin = (int)pick(rule ? &rule->test : NULL, &b->test, 0);
}

static int sets_checks(const struct rules_rule *rule)
{
	for (int m = 0; m < RULES_NR_METRICS; m++)
		if (rule->min[m].set || rule->max[m].set || rule->tolerance[m].set)
			return 1;
	return 0;
}

static void merge_value(struct rules_value *out, const struct rules_value *v)
{
	if (!v->set)
		return;
	if (v->off)
		memset(out, 0, sizeof(*out));
	else
		*out = *v;
}

static void merge_checks(struct rules_settings *out, const struct rules_rule *rule,
			 const struct base *b)
{
	for (int m = 0; m < RULES_NR_METRICS; m++) {
		const struct rules_value *lo = &rule->min[m], *hi = &rule->max[m],
					 *tol = &rule->tolerance[m];

		if (lo->set || hi->set) {
			merge_value(&out->min[m], lo);
			merge_value(&out->max[m], hi);
			/* A rule that only clears one end leaves the other to the rule that set it.
			 */
			if (!out->min[m].set && !out->max[m].set) {
				out->bound_from[m] = NULL;
			} else if ((lo->set && !lo->off) || (hi->set && !hi->off)) {
				out->bound_from[m] = rule;
				policy_of(&out->bound_policy[m], rule, b, (enum rules_metric)m);
			}
		}
		if (tol->set) {
			merge_value(&out->tolerance[m], tol);
			out->tolerance_from[m] = tol->off ? NULL : rule;
			policy_of(&out->tolerance_policy[m], rule, b, (enum rules_metric)m);
		}
	}
}

/* A rule without checks: its policy applies to every check, set earlier or later. */
static void merge_policy(struct rules_settings *out, const struct rules_rule *rule, struct base *b)
{
	merge_value(&b->level, &rule->level);
	merge_value(&b->significance, &rule->significance);
	merge_value(&b->min_samples, &rule->min_samples);
	merge_value(&b->across, &rule->across_fingerprints);
	merge_value(&b->test, &rule->test);
	for (int m = 0; m < RULES_NR_METRICS; m++) {
		struct rules_policy *pols[] = { &out->bound_policy[m], &out->tolerance_policy[m] };

		for (size_t i = 0; i < ARRAY_SIZE(pols); i++) {
			if (rule->level.set)
				pols[i]->level = (enum rules_level)rule->level.value;
			if (rule->significance.set)
				pols[i]->significance = rule->significance.value;
			if (rule->min_samples.set)
				pols[i]->min_samples = (int)rule->min_samples.value;
			if (rule->across_fingerprints.set)
				pols[i]->across_fingerprints = (int)rule->across_fingerprints.value;
			if (rule->test.set)
				pols[i]->margin = (int)rule->test.value;
		}
	}
}

void rules_effective(struct rules *r, const char *benchmark, const char *interval, const char *size,
		     int ranks, int threads, struct rules_settings *out)
{
	struct base b;
	struct rules_policy none;

	memset(&b, 0, sizeof(b));
	memset(out, 0, sizeof(*out));
	for (int m = 0; m < RULES_NR_METRICS; m++) {
		policy_of(&out->bound_policy[m], NULL, &b, (enum rules_metric)m);
		out->tolerance_policy[m] = out->bound_policy[m];
	}
	for (size_t i = 0; i < r->nr; i++) {
		struct rules_rule *rule = &r->rule[i];

		if (!selects(rule, benchmark, interval, size, ranks, threads))
			continue;
		rule->matched = 1;
		if (sets_checks(rule))
			merge_checks(out, rule, &b);
		else
			merge_policy(out, rule, &b);
	}
	/* Checks nobody set get the policy they would have if a rule set them now. */
	for (int m = 0; m < RULES_NR_METRICS; m++) {
		if (!out->bound_from[m])
			policy_of(&out->bound_policy[m], NULL, &b, (enum rules_metric)m);
		if (!out->tolerance_from[m])
			policy_of(&out->tolerance_policy[m], NULL, &b, (enum rules_metric)m);
	}
	policy_of(&none, NULL, &b, RULES_TIME);
	out->level = none.level;
	out->significance = none.significance;
	out->min_samples = none.min_samples;
	out->across_fingerprints = none.across_fingerprints;
}

int rules_report_unmatched(const struct rules *r)
{
	int count = 0;

	for (size_t i = 0; i < r->nr; i++) {
		const struct rules_rule *rule = &r->rule[i];

		if (rule->matched || rule->builtin ||
		    (rule->level.set && (int)rule->level.value == RULES_LEVEL_OFF))
			continue;
		if (rule->name)
			gate_error("%s:%d:%d: rule '%s' selects nothing in the results",
				   rule->origin.file, rule->origin.line, rule->origin.col,
				   rule->name);
		else
			gate_error("%s:%d:%d: rule selects nothing in the results",
				   rule->origin.file, rule->origin.line, rule->origin.col);
		count++;
	}
	return count;
}
