/* One list of rules read from YAML: selectors, bounds, tolerances and policy, each checked where it
 * is written. */
#include "rules/rules-priv.h"
#include "base/util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROCS (1 << 20) /* as for 'threads' and 'ranks' in scalegate.yml */
#define MAX_MIN_SAMPLES 1000000

static const char *const rule_keys[] = {
	"name",
	"benchmark",
	"interval",
	"threads",
	"ranks",
	"p",
	"size",
#define X(id, key, worse, ...) key "_min", key "_max",
	RULES_METRICS(X)
#undef X
		"share_max",
	"tolerance",
	"level",
	"significance",
	"min_samples",
	"across_fingerprints",
	"test",
	NULL,
};

static const char *const metric_keys[] = {
#define X(id, key, worse, ...) key,
	RULES_METRICS(X)
#undef X
	NULL,
};

/* What 'share_max' takes: the metrics measured as shares of Total_time (the lost-time terms of
 * base/lost-table.h, Load_imbalance and Serialized_work), in the table's order. */
#define SHARE_KEY_SHARE(key) key,
#define SHARE_KEY_PER_RUN(key)
#define SHARE_KEY_DERIVED(key)
#define SHARE_KEY_SLOPE(key)
#define SHARE_KEY_RATIO(key)
#define SHARE_KEY_WEAK(key)
#define SHARE_KEY_GROWTH(key)
static const char *const share_keys[] = {
#define X(id, key, worse, name, unit, kind, fig) SHARE_KEY_##kind(key)
	RULES_METRICS(X)
#undef X
	NULL,
};

static const char *const level_names[] = {
	[RULES_LEVEL_ERROR] = "error", [RULES_LEVEL_WARN] = "warn", [RULES_LEVEL_OFF] = "off", NULL,
};

int rules_is_rule_key(const char *key)
{
	for (size_t i = 0; rule_keys[i]; i++)
		if (!strcmp(rule_keys[i], key))
			return 1;
	return 0;
}


/* The one known key that starts with 'key' ("sync" -> "synchronization"), or NULL. */
static const char *completion(const char *key, const char *const *known)
{
	const char *found = NULL;

	for (; *known; known++)
		if (strlen(key) >= 2 && !strncmp(*known, key, strlen(key))) {
			if (found)
				return NULL;
			found = *known;
		}
	return found;
}

/* 'Execution_time' -> "time": the rule key of a name the reports use, or NULL. */
static const char *report_name_key(const char *name)
{
	int m = rules_metric_find_report_name(name);

	return m >= 0 && strcmp(rules_metric_key((enum rules_metric)m), name) ?
		rules_metric_key((enum rules_metric)m) : NULL;
}

/* An unknown key in 'share_max' or 'tolerance': the likely one, and the valid ones. */
static void unknown_map_key(struct parser *ps, const yaml_node_t *node, const char *name,
			    const char *key, const char *what, const char *const *known)
{
	const char *hint = report_name_key(name);
	struct strbuf all = STRBUF_INIT;

	if (!hint)
		hint = completion(name, known);
	if (!hint)
		hint = yamldoc_closest(name, known);
	for (size_t i = 0; known[i]; i++)
		strbuf_addf(&all, "%s%s", i ? ", " : "", known[i]);
	if (hint && report_name_key(name))
		yamldoc_error(ps->d, node, "unknown %s '%s' in '%s': the reports' %s is '%s' in "
			      "rules; did you mean '%s'? (one of %s)", what, name, key,
			      rules_metric_report_name(rules_metric_find_report_name(name)), hint,
			      hint, all.buf);
	else if (hint)
		yamldoc_error(ps->d, node, "unknown %s '%s' in '%s'; did you mean '%s'? "
			      "(one of %s)", what, name, key, hint, all.buf);
	else
		yamldoc_error(ps->d, node, "unknown %s '%s' in '%s' (one of %s)", what, name, key,
			      all.buf);
	strbuf_release(&all);
}

/* Walks a mapping of metric keys, reporting what is not one of 'known'; calls fn for the rest. */
static void parse_metric_map(struct parser *ps, yaml_node_t *map, const char *key, const char *what,
			     const char *const *known,
			     void (*fn)(struct parser *, const yaml_node_t *, enum rules_metric))
{
	struct yamldoc_iter it;
	char buf[64];

	if (!yamldoc_is_map(map)) {
		yamldoc_error(ps->d, map, "'%s' must be a mapping of %ss to values, not %s", key,
			      what, yamldoc_describe(map, buf, sizeof(buf)));
		return;
	}
	if (!yamldoc_size(map)) {
		yamldoc_error(ps->d, map, "'%s' must not be empty", key);
		return;
	}
	yamldoc_map_iter(&it, ps->d, map);
	while (yamldoc_map_next(&it)) {
		int m;

		if (!it.key || yamldoc_is_null(it.key_node)) {
			yamldoc_unknown_key(ps->d, it.key_node, known);
			continue;
		}
		for (m = 0; known[m] && strcmp(known[m], it.key); m++)
			;
		if (known[m]) {
			fn(ps, it.value, (enum rules_metric)rules_metric_find(it.key));
			continue;
		}
		if (rules_metric_find(it.key) >= 0) {
			struct strbuf list = STRBUF_INIT;
			for (size_t k = 0; known[k]; k++)
				strbuf_addf(&list, "%s%s", k ? ", " : "", known[k]);
			yamldoc_error(ps->d, it.key_node,
				      "'%s' takes only the shares of Total_time (%s), not '%s'",
				      key, list.buf, it.key);
			strbuf_release(&list);
			continue;
		}
		unknown_map_key(ps, it.key_node, it.key, key, what, known);
	}
}

static void parse_share(struct parser *ps, const yaml_node_t *v, enum rules_metric m)
{
	char label[48];

	snprintf(label, sizeof(label), "share_max.%s", rules_metric_key(m));
	rules_parse_bound(ps, v, label, m, 1);
}

static void parse_tolerance(struct parser *ps, const yaml_node_t *v, enum rules_metric m)
{
	struct rules_value *out = &ps->rule->tolerance[m];
	char name[48], buf[64], range[64];
	double lo, hi, x;
	int relative = 0;

	snprintf(name, sizeof(name), "tolerance.%s", rules_metric_key(m));
	if (m == RULES_ISOEFFICIENCY_GROWTH) {
		yamldoc_error(
			ps->d, v,
			"'%s' is not a tolerance: the isoefficiency growth takes only a bound, "
			"'isoefficiency_growth_max'",
			name);
		return;
	}
	if (rules_is_off(v)) {
		out->set = out->off = 1;
		return;
	}
	rules_metric_range(m, &lo, &hi);
	if (rules_scalar_percent(v, &x) == 0) {
		relative = 1;
	} else if (m == RULES_TIME && rules_scalar_number(v, &x) == 0) {
		/* 5 could mean 5 % or 5 s; 5 s turns the gate off for every sub-second interval */
		const char *s = yamldoc_scalar(v);
		yamldoc_error(ps->d, v, "'%s' needs a unit: '%s%%' (relative to the base) or '%ss' "
			      "(seconds), not a bare %s", name, s, s, s);
		return;
	} else if (m == RULES_TIME && rules_scalar_seconds(v, &x) < 0) {
		yamldoc_error(ps->d, v, "'%s' must be a percentage such as 5%% or a time such as "
			      "0.5s or 200ms, not %s", name, yamldoc_describe(v, buf, sizeof(buf)));
		return;
	} else if (m == RULES_TIME) {
		/* seconds, from rules_scalar_seconds() */
	} else if (rules_scalar_number(v, &x) < 0) {
		yamldoc_error(ps->d, v, "'%s' must be a number or a percentage such as 5%%, not %s",
			      name, yamldoc_describe(v, buf, sizeof(buf)));
		return;
	}
	if (x < 0) {
		yamldoc_error(ps->d, v, "'%s' must be 0 or more, not %s", name,
			      yamldoc_describe(v, buf, sizeof(buf)));
		return;
	}
	if (!relative && x > hi) {
		yamldoc_error(ps->d, v, "'%s' must be a percentage or a number %s, not %s", name,
			      rules_range_text(range, sizeof(range), 0, hi),
			      yamldoc_describe(v, buf, sizeof(buf)));
		return;
	}
	out->set = 1;
	out->relative = relative;
	out->value = relative ? x / 100 : x;
}

static void parse_level(struct parser *ps, const yaml_node_t *v)
{
	int i = yamldoc_get_choice(ps->d, v, "level", level_names);

	if (i >= 0) {
		ps->rule->level.set = 1;
		ps->rule->level.value = (double)i;
	}
}

static void parse_policy(struct parser *ps, const char *key, const yaml_node_t *v)
{
	struct rules_rule *rule = ps->rule;
	char buf[64];
	long long n;
	int flag;
	double x;

	if (!strcmp(key, "level")) {
		parse_level(ps, v);
	} else if (!strcmp(key, "test")) {
		static const char *const tests[] = { "change", "margin", NULL };
		int t = yamldoc_get_choice(ps->d, v, "test", tests);
		if (t >= 0) {
			rule->test.set = 1;
			rule->test.value = t;
		}
	} else if (!strcmp(key, "significance")) {
		if (rules_scalar_number(v, &x) < 0 || x <= 0 || x > 0.5) {
			yamldoc_error(ps->d, v,
				      "'significance' must be a number greater than 0 and at most "
				      "0.5, not %s",
				      yamldoc_describe(v, buf, sizeof(buf)));
			return;
		}
		rule->significance.set = 1;
		rule->significance.value = x;
	} else if (!strcmp(key, "min_samples")) {
		if (yamldoc_get_int(ps->d, v, key, 1, MAX_MIN_SAMPLES, &n) < 0)
			return;
		rule->min_samples.set = 1;
		rule->min_samples.value = (double)n;
	} else if (yamldoc_get_bool(ps->d, v, key, &flag) == 0) {
		rule->across_fingerprints.set = 1;
		rule->across_fingerprints.value = flag;
	}
}

/* '<metric>_min' / '<metric>_max': the metric and which bound, or -1. */
static int bound_key(const char *key, int *is_max)
{
	size_t len = strlen(key);
	char metric[48];

	if (len < 5 || len - 4 >= sizeof(metric))
		return -1;
	if (!strcmp(key + len - 4, "_min"))
		*is_max = 0;
	else if (!strcmp(key + len - 4, "_max"))
		*is_max = 1;
	else
		return -1;
	memcpy(metric, key, len - 4);
	metric[len - 4] = '\0';
	return rules_metric_find(metric);
}

/*
 * 'execution_time_max', 'Measured_efficiency_min', 'execution_time': a name
 * the reports use where the rules use another; says which. 1 when reported.
 */
static int report_name_rule_key(struct parser *ps, const char *key, const yaml_node_t *key_node)
{
	size_t len = strlen(key);
	int bound = len > 4 && (!strcmp(key + len - 4, "_min") || !strcmp(key + len - 4, "_max"));
	const char *suffix = bound ? key + len - 4 : "";
	char *metric = xstrndup(key, len - strlen(suffix));
	const char *rule_key = report_name_key(metric);

	const char *report = rule_key ?
		rules_metric_report_name(rules_metric_find_report_name(metric)) : NULL;

	if (rule_key && *suffix)
		yamldoc_error(ps->d, key_node, "unknown key '%s': the reports' %s is '%s' in "
			      "rules; did you mean '%s%s'?", key, report, rule_key, rule_key,
			      suffix);
	else if (rule_key)
		yamldoc_error(ps->d, key_node, "unknown key '%s': the reports' %s is '%s' in "
			      "rules; a bound is '%s_min' or '%s_max', a tolerance goes under "
			      "'tolerance'", key, report, rule_key, rule_key, rule_key);
	free(metric);
	return rule_key != NULL;
}

static void parse_key(struct parser *ps, const char *key, const yaml_node_t *key_node,
		      yaml_node_t *v)
{
	struct rules_rule *rule = ps->rule;
	int m, is_max;

	if (!key || yamldoc_is_null(key_node))
		yamldoc_unknown_key(ps->d, key_node, rule_keys);
	else if (!strcmp(key, "name"))
		rules_parse_string(ps, v, key, &rule->name);
	else if (!strcmp(key, "benchmark"))
		rules_parse_string(ps, v, key, &rule->benchmark);
	else if (!strcmp(key, "interval"))
		rules_parse_string(ps, v, key, &rule->interval);
	else if (!strcmp(key, "threads"))
		rules_parse_ints(ps, v, key, MAX_PROCS, &rule->threads, &rule->nr_threads);
	else if (!strcmp(key, "ranks"))
		rules_parse_ints(ps, v, key, MAX_PROCS, &rule->ranks, &rule->nr_ranks);
	else if (!strcmp(key, "p"))
		rules_parse_ints(ps, v, key, INT_MAX, &rule->p, &rule->nr_p);
	else if (!strcmp(key, "size"))
		yamldoc_get_int_list(ps->d, v, key, 0, LLONG_MAX,
				     YAMLDOC_SCALAR_OK | YAMLDOC_UNIQUE, &rule->sizes,
				     &rule->nr_sizes);
	else if (!strcmp(key, "share_max"))
		parse_metric_map(ps, v, key, "component", share_keys, parse_share);
	else if (!strcmp(key, "tolerance"))
		parse_metric_map(ps, v, key, "metric", metric_keys, parse_tolerance);
	else if (!strcmp(key, "level") || !strcmp(key, "significance") ||
		 !strcmp(key, "min_samples") || !strcmp(key, "across_fingerprints") ||
		 !strcmp(key, "test"))
		parse_policy(ps, key, v);
	else if ((m = bound_key(key, &is_max)) >= 0)
		rules_parse_bound(ps, v, key, (enum rules_metric)m, is_max);
	else if (rules_metric_find(key) >= 0)
		yamldoc_error(ps->d, key_node, "unknown key '%s'; a bound is '%s_min' or '%s_max', "
			      "a tolerance goes under 'tolerance'", key, key, key);
	else if (!report_name_rule_key(ps, key, key_node))
		yamldoc_unknown_key(ps->d, key_node, rule_keys);
}

static int sets_something(const struct rules_rule *rule)
{
	for (int m = 0; m < RULES_NR_METRICS; m++)
		if (rule->min[m].set || rule->max[m].set || rule->tolerance[m].set)
			return 1;
	return rule->level.set || rule->significance.set || rule->min_samples.set ||
	       rule->across_fingerprints.set;
}

static void check_min_below_max(struct parser *ps)
{
	for (int m = 0; m < RULES_NR_METRICS; m++) {
		const struct rules_value *lo = &ps->rule->min[m], *hi = &ps->rule->max[m];

		if (lo->set && hi->set && !lo->off && !hi->off && lo->value > hi->value)
			yamldoc_error(ps->d, ps->bound_node[1][m], "'%s' (%g) is below '%s' (%g)",
				      ps->bound_key[1][m], hi->value, ps->bound_key[0][m],
				      lo->value);
	}
}

/* Names label test cases and messages: two rules of one name cannot be told apart. */
static void check_unique_name(struct parser *ps, yaml_node_t *map)
{
	const struct rules_rule *rule = ps->rule;

	for (const struct rules_rule *first = ps->r->rule; rule->name && first < rule; first++) {
		if (!first->name || strcmp(first->name, rule->name))
			continue;
		if (!strcmp(first->origin.file, rule->origin.file))
			yamldoc_error(ps->d, yamldoc_map_get(ps->d, map, "name"),
				      "duplicate rule name '%s' (first at %d:%d)", rule->name,
				      first->origin.line, first->origin.col);
		else
			yamldoc_error(ps->d, yamldoc_map_get(ps->d, map, "name"),
				      "duplicate rule name '%s' (first at %s:%d:%d)", rule->name,
				      first->origin.file, first->origin.line, first->origin.col);
		return;
	}
}

static void parse_rule(struct rules *r, struct yamldoc *d, yaml_node_t *map, const char *file)
{
	struct parser ps = { .r = r, .d = d };
	int errors = d->nr_errors;
	struct yamldoc_iter it;

	ps.rule = rules_add(r, file, (int)map->start_mark.line + 1,
			    (int)map->start_mark.column + 1);
	yamldoc_map_iter(&it, d, map);
	while (yamldoc_map_next(&it))
		parse_key(&ps, it.key, it.key_node, it.value);
	check_min_below_max(&ps);
	check_unique_name(&ps, map);
	if (d->nr_errors == errors && !sets_something(ps.rule))
		yamldoc_error(d, map, "rule %s%s%ssets no bound, tolerance or policy",
			      ps.rule->name ? "'" : "", ps.rule->name ? ps.rule->name : "",
			      ps.rule->name ? "' " : "");
}

void rules_parse_list(struct rules *r, struct yamldoc *d, yaml_node_t *list, const char *file)
{
	struct yamldoc_iter it;
	char buf[64];

	if (!yamldoc_is_list(list)) {
		yamldoc_error(d, list, "'rules' must be a list of rules, not %s",
			      yamldoc_describe(list, buf, sizeof(buf)));
		return;
	}
	yamldoc_list_iter(&it, d, list);
	while (yamldoc_list_next(&it)) {
		if (yamldoc_is_map(it.value))
			parse_rule(r, d, it.value, file);
		else
			yamldoc_error(d, it.value, "each rule must be a mapping, not %s",
				      yamldoc_describe(it.value, buf, sizeof(buf)));
	}
}
