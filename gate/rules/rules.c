/* Rules: loading them from scalegate.yml and rule files, the built-in defaults, the metric table. */
#include "rules/rules.h"
#include "rules/rules-priv.h"
#include "config/config.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *key;
	int worse;
} metrics[] = {
#define X(id, key, worse) { key, worse },
	RULES_METRICS(X)
#undef X
};

const char *rules_metric_key(enum rules_metric m)
{
	return (size_t)m < ARRAY_SIZE(metrics) ? metrics[m].key : "?";
}

int rules_metric_worse(enum rules_metric m)
{
	return (size_t)m < ARRAY_SIZE(metrics) ? metrics[m].worse : 0;
}

int rules_metric_find(const char *key)
{
	for (size_t m = 0; m < ARRAY_SIZE(metrics); m++)
		if (!strcmp(metrics[m].key, key))
			return (int)m;
	return -1;
}

int rules_metric_is_share(enum rules_metric m)
{
	return m == RULES_INSUFFICIENT_PARALLELISM || m == RULES_COMMUNICATION || m == RULES_IDLE ||
	       m == RULES_SYNCHRONIZATION || m == RULES_LOAD_IMBALANCE;
}

/*
 * Ratios within one run of the matrix and the POP ratios hardly move between
 * machines; times and the lost-time shares (network, runtime) do.
 */
int rules_metric_across_default(enum rules_metric m)
{
	return m != RULES_TIME && !rules_metric_is_share(m);
}

/* Words separated by single spaces: "p  log p" reads as "p log p". */
static void squeeze(const char *text, char *buf, size_t size)
{
	size_t n = 0;

	for (; *text && n + 1 < size; text++)
		if (*text != ' ' || (n && buf[n - 1] != ' '))
			buf[n++] = *text;
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

int rules_growth_parse(const char *text, double *k, int *log_power)
{
	static const struct { const char *name; double k; int log_power; } named[] = {
		{ "constant", 0, 0 }, { "log p", 0, 1 }, { "p", 1, 0 }, { "p log p", 1, 1 },
	};
	char buf[64], *end;
	double x;

	squeeze(text, buf, sizeof(buf));
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		if (!strcmp(buf, named[i].name)) {
			*k = named[i].k;
			*log_power = named[i].log_power;
			return 0;
		}
	}
	if (strncmp(buf, "p^", 2) || !((buf[2] >= '0' && buf[2] <= '9') || buf[2] == '.'))
		return -1;
	errno = 0;
	x = strtod(buf + 2, &end);
	if (errno || *end || !(x > 0) || x > 100)
		return -1;
	*k = x;
	*log_power = 0;
	return 0;
}

int rules_growth_cmp(double k1, int log1, double k2, int log2)
{
	if (k1 != k2)
		return k1 < k2 ? -1 : 1;
	return (log1 > log2) - (log1 < log2);
}

void rules_growth_text(double k, int log_power, char *buf, size_t size)
{
	if (k == 0 && !log_power)
		snprintf(buf, size, "constant");
	else if (k == 0)
		snprintf(buf, size, "log p");
	else if (k == 1)
		snprintf(buf, size, log_power ? "p log p" : "p");
	else
		snprintf(buf, size, log_power ? "p^%g log p" : "p^%g", k);
}

void rules_init(struct rules *r)
{
	memset(r, 0, sizeof(*r));
}

void rules_rule_release(struct rules_rule *rule)
{
	free(rule->name);
	free(rule->benchmark);
	free(rule->interval);
	free(rule->threads);
	free(rule->ranks);
	free(rule->p);
	free(rule->sizes);
	memset(rule, 0, sizeof(*rule));
}

void rules_release(struct rules *r)
{
	for (size_t i = 0; i < r->nr; i++)
		rules_rule_release(&r->rule[i]);
	free(r->rule);
	for (size_t i = 0; i < r->nr_files; i++)
		free(r->files[i]);
	free(r->files);
	rules_init(r);
}

struct rules_rule *rules_add(struct rules *r, const char *file, int line, int col)
{
	struct rules_rule *rule;

	ALLOC_GROW(r->rule, r->nr + 1, r->alloc);
	rule = &r->rule[r->nr++];
	memset(rule, 0, sizeof(*rule));
	rule->origin.file = file;
	rule->origin.line = line;
	rule->origin.col = col;
	return rule;
}

/* Rules of a file that has errors are dropped: nothing runs on half a file. */
static void truncate_rules(struct rules *r, size_t nr)
{
	while (r->nr > nr)
		rules_rule_release(&r->rule[--r->nr]);
}

/* The copy of 'path' in r->files that rule origins point to. */
static const char *add_file(struct rules *r, const char *path)
{
	for (size_t i = 0; i < r->nr_files; i++)
		if (!strcmp(r->files[i], path))
			return r->files[i];
	r->files = xrealloc(r->files, (r->nr_files + 1) * sizeof(*r->files));
	return r->files[r->nr_files++] = xstrdup(path);
}

static void set_value(struct rules_value *v, double value)
{
	v->set = 1;
	v->value = value;
}

/* Keep in step with rules/default.yml, positions included: test-rules compares the two. */
void rules_add_defaults(struct rules *r)
{
	static const enum rules_metric shares[] = { RULES_INSUFFICIENT_PARALLELISM, RULES_SYNCHRONIZATION,
						    RULES_COMMUNICATION, RULES_IDLE };
	struct rules_rule *rule;

	r->defaults = 1;
	rule = rules_add(r, RULES_DEFAULT_FILE, 11, 5);
	rule->builtin = 1;
	rule->name = xstrdup("default-scaling");
	set_value(&rule->tolerance[RULES_SPEEDUP], 0.05);
	rule->tolerance[RULES_SPEEDUP].relative = 1;
	for (size_t i = 0; i < ARRAY_SIZE(shares); i++)
		set_value(&rule->tolerance[shares[i]], 0.05);
	set_value(&rule->level, RULES_LEVEL_ERROR);
	set_value(&rule->significance, 0.01);
	set_value(&rule->min_samples, 3);
	set_value(&rule->across_fingerprints, 1);

	rule = rules_add(r, RULES_DEFAULT_FILE, 25, 5);
	rule->builtin = 1;
	rule->name = xstrdup("default-time");
	set_value(&rule->tolerance[RULES_TIME], 0.05);
	rule->tolerance[RULES_TIME].relative = 1;
	set_value(&rule->level, RULES_LEVEL_ERROR);
	set_value(&rule->significance, 0.01);
	set_value(&rule->min_samples, 3);
	set_value(&rule->across_fingerprints, 0);
}

/* A rule key at the top of a rule file, or in the 'rules' mapping: a rule lost its '- '. */
static void unknown_key(struct yamldoc *d, const yaml_node_t *key_node, const char *const *known)
{
	const char *key = yamldoc_scalar(key_node);

	if (key && rules_is_rule_key(key))
		yamldoc_error(d, key_node, "'%s' is a key of a rule: write each rule as an item of the "
			      "list 'rules' ('- %s: ...')", key, key);
	else
		yamldoc_unknown_key(d, key_node, known);
}

static int load_doc(struct rules *r, struct yamldoc *d)
{
	static const char *const keys[] = { "rules", NULL };
	yaml_node_t *list = NULL;
	struct yamldoc_iter it;
	int unknown = 0;

	yamldoc_map_iter(&it, d, yamldoc_root(d));
	while (yamldoc_map_next(&it)) {
		if (it.key && !strcmp(it.key, "rules")) {
			list = it.value;
		} else {
			unknown_key(d, it.key_node, keys);
			unknown = 1;
		}
	}
	/* After "unknown key 'rule'; did you mean 'rules'?" this would say the same again. */
	if (!list && !unknown)
		return yamldoc_error(d, yamldoc_root(d), "missing required key 'rules'");
	if (!list)
		return -1;
	rules_parse_list(r, d, list, add_file(r, d->path));
	return 0;
}

int rules_load_file(struct rules *r, const char *path)
{
	size_t first = r->nr;
	struct yamldoc d;
	int ret;

	if (yamldoc_load(&d, path) < 0)
		return -1;
	load_doc(r, &d);
	ret = d.nr_errors ? -1 : 0;
	if (ret)
		truncate_rules(r, first);
	yamldoc_release(&d);
	return ret;
}

static char *resolve(const struct config *c, const char *path)
{
	if (path[0] == '/' || !c->dir || !strcmp(c->dir, "."))
		return xstrdup(path);
	return xstrfmt("%s/%s", c->dir, path);
}

/* 'files:' of the 'rules' section, in order; each path relative to the configuration file. */
static int load_files(struct rules *r, struct config *c, yaml_node_t *list)
{
	struct yamldoc *d = &c->doc;
	struct yamldoc_iter it;
	int ret = 0;
	char buf[64];

	if (!yamldoc_is_list(list) || !yamldoc_size(list)) {
		yamldoc_error(d, list, "'files' must be a non-empty list of rule files, not %s",
			      yamldoc_is_list(list) ? "an empty list" : yamldoc_describe(list, buf, sizeof(buf)));
		return -1;
	}
	yamldoc_list_iter(&it, d, list);
	while (yamldoc_list_next(&it)) {
		const char *name = yamldoc_get_str(d, it.value, "files");
		struct stat st;
		char *path;

		if (!name) {
			ret = -1;
			continue;
		}
		path = resolve(c, name);
		for (size_t i = 0; i < it.index; i++) {
			const char *earlier = yamldoc_scalar(yaml_document_get_node(&d->doc,
				list->data.sequence.items.start[i]));
			if (earlier && !strcmp(earlier, name)) {
				ret = yamldoc_error(d, it.value, "rule file '%s' is listed twice", name);
				goto next;
			}
		}
		if (!*name)
			ret = yamldoc_error(d, it.value, "'files' must not list an empty path");
		else if (stat(path, &st) || access(path, R_OK))
			ret = yamldoc_error(d, it.value, "cannot read rule file '%s': %s", path, strerror(errno));
		else if (!S_ISREG(st.st_mode))
			ret = yamldoc_error(d, it.value, "rule file '%s' is not a regular file", path);
		else if (rules_load_file(r, path) < 0)
			ret = -1;
next:
		free(path);
	}
	return ret;
}

/* The mapping form: { defaults: BOOL, files: [...], rules: [...] }. */
static void parse_section(struct config *c, yaml_node_t *map, yaml_node_t **files,
			  yaml_node_t **list, int *defaults)
{
	static const char *const keys[] = { "defaults", "files", "rules", NULL };
	struct yamldoc_iter it;

	yamldoc_map_iter(&it, &c->doc, map);
	while (yamldoc_map_next(&it)) {
		const char *k = it.key ? it.key : "";

		if (!strcmp(k, "files"))
			*files = it.value;
		else if (!strcmp(k, "rules"))
			*list = it.value;
		else if (!strcmp(k, "defaults"))
			yamldoc_get_bool(&c->doc, it.value, "defaults", defaults);
		else
			unknown_key(&c->doc, it.key_node, keys);
	}
}

int rules_load(struct rules *r, struct config *c)
{
	yaml_node_t *node = c ? c->rules : NULL, *files = NULL, *list = NULL;
	int errors = c ? c->doc.nr_errors : 0, defaults = -1, failed = 0;

	if (yamldoc_is_map(node))
		parse_section(c, node, &files, &list, &defaults);
	else
		list = node;
	if (defaults == 1)
		rules_add_defaults(r);
	if (files && load_files(r, c, files) < 0)
		failed = 1;
	/* 'rules: []' configures nothing: the defaults apply. */
	if (list && (!yamldoc_is_list(list) || yamldoc_size(list)))
		rules_parse_list(r, &c->doc, list, add_file(r, c->doc.path));
	if (c && c->doc.nr_errors != errors)
		failed = 1;
	if (failed) {
		rules_release(r);
		return -1;
	}
	if (!r->nr && defaults != 0)
		rules_add_defaults(r);
	return 0;
}
