/* Loading rules: the 'rules' section of scalegate.yml, the rule files it names, and the shipped
 * defaults, in order. */
#include "rules/rules.h"
#include "rules/rules-priv.h"
#include "config/config.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A rule key at the top of a rule file, or in the 'rules' mapping: a rule lost its '- '. */
static void unknown_key(struct yamldoc *d, const yaml_node_t *key_node, const char *const *known)
{
	const char *key = yamldoc_scalar(key_node);

	if (key && rules_is_rule_key(key))
		yamldoc_error(d, key_node,
			      "'%s' is a key of a rule: write each rule as an item of the "
			      "list 'rules' ('- %s: ...')",
			      key, key);
	else
		yamldoc_unknown_key(d, key_node, known);
}

/* The rules of a rule file; their origins point to 'file' (NULL: its path's copy in r->files). */
static int load_doc(struct rules *r, struct yamldoc *d, const char *file)
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
	rules_parse_list(r, d, list, file ? file : add_file(r, d->path));
	return 0;
}

/* rules/default.yml, built in by the Makefile. */
extern const char rules_default_yml[];
extern const size_t rules_default_yml_len;

/* The shipped defaults are rules/default.yml itself: its rules, at their positions in it. */
static void rules_add_defaults(struct rules *r)
{
	size_t first = r->nr;
	struct yamldoc d;

	r->defaults = 1;
	if (yamldoc_load_text(&d, RULES_DEFAULT_FILE, rules_default_yml, rules_default_yml_len) < 0)
		return;
	load_doc(r, &d, RULES_DEFAULT_FILE); /* not a file the user gave: not in r->files */
	for (size_t i = first; i < r->nr; i++)
		r->rule[i].builtin = 1;
	yamldoc_release(&d);
}

int rules_load_file(struct rules *r, const char *path)
{
	size_t first = r->nr;
	struct yamldoc d;
	int ret;

	if (yamldoc_load(&d, path) < 0)
		return -1;
	load_doc(r, &d, NULL);
	ret = d.nr_errors ? -1 : 0;
	if (ret)
		truncate_rules(r, first);
	yamldoc_release(&d);
	return ret;
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
			      yamldoc_is_list(list) ? "an empty list"
						    : yamldoc_describe(list, buf, sizeof(buf)));
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
		path = config_resolve(c, name);
		for (size_t i = 0; i < it.index; i++) {
			const char *earlier = yamldoc_scalar(yaml_document_get_node(&d->doc,
				list->data.sequence.items.start[i]));
			if (earlier && !strcmp(earlier, name)) {
				ret = yamldoc_error(d, it.value, "rule file '%s' is listed twice",
						    name);
				goto next;
			}
		}
		if (!*name)
			ret = yamldoc_error(d, it.value, "'files' must not list an empty path");
		else if (stat(path, &st) || access(path, R_OK))
			ret = yamldoc_error(d, it.value, "cannot read rule file '%s': %s", path,
					    strerror(errno));
		else if (!S_ISREG(st.st_mode))
			ret = yamldoc_error(d, it.value, "rule file '%s' is not a regular file",
					    path);
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
