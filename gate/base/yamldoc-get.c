/* Typed accessors of yamldoc: each checks a node's kind, form and range, or reports why not. */
#include "base/yamldoc.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *yamldoc_get_str(struct yamldoc *d, const yaml_node_t *n, const char *name)
{
	char buf[64];

	if (!yamldoc_scalar(n) || yamldoc_is_null(n)) {
		yamldoc_error(d, n, "'%s' must be a string, not %s", name,
			      yamldoc_describe(n, buf, sizeof(buf)));
		return NULL;
	}
	return yamldoc_scalar(n);
}

/* Numbers are plain scalars: a quoted "4" is a string in YAML. */
static const char *plain_scalar(const yaml_node_t *n)
{
	if (!yamldoc_scalar(n) || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return NULL;
	return yamldoc_scalar(n);
}

/* 0, or 1 for an integer beyond long long (clamped), or -1 for no integer. */
static int parse_int(const yaml_node_t *n, long long *out)
{
	const char *s = plain_scalar(n);
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	if (*end || end == s)
		return -1;
	return errno == ERANGE;
}

int yamldoc_number_prefix(const char *s, double *out, char **end)
{
	const char *p = s + (*s == '-' || *s == '+');

	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -1;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return -1;
	errno = 0;
	*out = strtod(s, end);
	return errno || !isfinite(*out) ? -1 : 0;
}

/* A sanity cap like 2^20 threads is no advice: name only the bound that was crossed. */
static int range_error(struct yamldoc *d, const yaml_node_t *n, const char *what,
		       long long min, long long max, long long v)
{
	const char *text = yamldoc_scalar(n); /* as written: 'v' may be clamped */

	if (max < (1LL << 20))
		return yamldoc_error(d, n, "%s must be between %lld and %lld, not %s", what, min,
				     max, text);
	if (v < min)
		return yamldoc_error(d, n, "%s must be at least %lld, not %s", what, min, text);
	return yamldoc_error(d, n, "%s must be at most %lld, not %s", what, max, text);
}

int yamldoc_get_int(struct yamldoc *d, const yaml_node_t *n, const char *name,
		    long long min, long long max, long long *out)
{
	char what[80], buf[64];
	int r = parse_int(n, out);

	if (r < 0)
		return yamldoc_error(d, n, "'%s' must be an integer, not %s", name,
				     yamldoc_describe(n, buf, sizeof(buf)));
	snprintf(what, sizeof(what), "'%s'", name);
	if (r || *out < min || *out > max)
		return range_error(d, n, what, min, max, *out);
	return 0;
}

int yamldoc_get_double(struct yamldoc *d, const yaml_node_t *n, const char *name,
		       double min, double max, double *out)
{
	const char *s = plain_scalar(n);
	char buf[64], *end;

	if (!s || yamldoc_number_prefix(s, out, &end) < 0 || *end)
		return yamldoc_error(d, n, "'%s' must be a number, not %s", name,
				     yamldoc_describe(n, buf, sizeof(buf)));
	if (*out < min || *out > max)
		return yamldoc_error(d, n, "'%s' must be between %g and %g, not %s",
				     name, min, max, s);
	return 0;
}

int yamldoc_get_bool(struct yamldoc *d, const yaml_node_t *n, const char *name, int *out)
{
	/* libyaml reads YAML 1.1, where yes/no/on/off are booleans too. */
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };
	static const char *const both[] = { "true", "false", NULL };
	const char *s = plain_scalar(n), *hint;
	char buf[64];

	for (size_t i = 0; s && yes[i]; i++) {
		if (!strcasecmp(s, yes[i]) || !strcasecmp(s, no[i])) {
			*out = !strcasecmp(s, yes[i]);
			return 0;
		}
	}
	hint = s ? yamldoc_closest(s, both) : NULL;
	if (hint)
		return yamldoc_error(d, n, "'%s' must be true or false, not %s; did you mean '%s'?",
				     name, yamldoc_describe(n, buf, sizeof(buf)), hint);
	return yamldoc_error(d, n, "'%s' must be true or false, not %s", name,
			     yamldoc_describe(n, buf, sizeof(buf)));
}

int yamldoc_get_duration(struct yamldoc *d, const yaml_node_t *n, const char *name,
			 double *seconds)
{
	static const struct { const char *suffix; double scale; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "m", 60 }, { "h", 3600 },
	};
	const char *s = yamldoc_scalar(n);
	char buf[64], *end;
	double v;

	if (s && !yamldoc_is_null(n) && yamldoc_number_prefix(s, &v, &end) == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
			if (strcmp(end, units[i].suffix))
				continue;
			if (v <= 0)
				return yamldoc_error(d, n, "'%s' must be greater than 0, not '%s'",
						     name, s);
			*seconds = v * units[i].scale;
			return 0;
		}
	}
	return yamldoc_error(d, n, "'%s' must be a duration such as 30, 30s, 2m or 500ms, not %s",
			     name, yamldoc_describe(n, buf, sizeof(buf)));
}

static int list_start(struct yamldoc *d, const yaml_node_t *n, const char *name,
		      const char *of)
{
	char buf[64];

	if (!yamldoc_is_list(n))
		return yamldoc_error(d, n, "'%s' must be a list of %s, not %s", name, of,
				     yamldoc_describe(n, buf, sizeof(buf)));
	if (!yamldoc_size(n))
		return yamldoc_error(d, n, "'%s' must not be empty", name);
	return 0;
}

static int list_int_item(struct yamldoc *d, const yaml_node_t *n, const char *name,
			 long long min, long long max, long long *v)
{
	char what[80], buf[64];
	int r = parse_int(n, v);

	if (r < 0)
		return yamldoc_error(d, n, "'%s' must be a list of integers; %s is not one",
				     name, yamldoc_describe(n, buf, sizeof(buf)));
	snprintf(what, sizeof(what), "'%s' values", name);
	if (r || *v < min || *v > max)
		return range_error(d, n, what, min, max, *v);
	return 0;
}

static int check_unique(struct yamldoc *d, const yaml_node_t *n, const char *name,
			const long long *vals, size_t nr)
{
	for (size_t i = 0; i + 1 < nr; i++)
		if (vals[i] == vals[nr - 1])
			return yamldoc_error(d, n, "'%s' lists %lld twice", name, vals[nr - 1]);
	return 0;
}

int yamldoc_get_int_list(struct yamldoc *d, const yaml_node_t *n, const char *name,
			 long long min, long long max, unsigned flags,
			 long long **out, size_t *nr)
{
	struct yamldoc_iter it;
	long long *vals;
	size_t nr_vals = 0;
	int ret = 0;

	if ((flags & YAMLDOC_SCALAR_OK) && yamldoc_scalar(n) && !yamldoc_is_null(n)) {
		char buf[64];
		vals = xmalloc(sizeof(*vals));
		/* "0,1" is one scalar: name the list form, which is what was meant */
		if (parse_int(n, vals) < 0)
			ret = yamldoc_error(
				d, n,
				"'%s' must be an integer or a list of integers like [1, 2], not %s",
				name, yamldoc_describe(n, buf, sizeof(buf)));
		else
			ret = yamldoc_get_int(d, n, name, min, max, vals);
		nr_vals = 1;
		goto out;
	}
	if (list_start(d, n, name, "integers") < 0)
		return -1;
	vals = xmalloc(yamldoc_size(n) * sizeof(*vals));
	yamldoc_list_iter(&it, d, (yaml_node_t *)n);
	while (yamldoc_list_next(&it)) {
		long long v;

		if (list_int_item(d, it.value, name, min, max, &v) < 0) {
			ret = -1;
			continue;
		}
		vals[nr_vals++] = v;
		if ((flags & YAMLDOC_UNIQUE) && check_unique(d, it.value, name, vals, nr_vals) < 0)
			ret = -1;
	}
out:
	if (ret < 0) {
		free(vals);
		return -1;
	}
	*out = vals;
	*nr = nr_vals;
	return 0;
}

int yamldoc_get_str_list(struct yamldoc *d, const yaml_node_t *n, const char *name,
			 const char ***out, size_t *nr)
{
	struct yamldoc_iter it;
	const char **vals;
	int ret = 0;

	if (list_start(d, n, name, "strings") < 0)
		return -1;
	vals = xmalloc(yamldoc_size(n) * sizeof(*vals));
	yamldoc_list_iter(&it, d, (yaml_node_t *)n);
	while (yamldoc_list_next(&it)) {
		vals[it.index] = yamldoc_get_str(d, it.value, name);
		if (!vals[it.index])
			ret = -1;
	}
	if (ret < 0) {
		free(vals);
		return -1;
	}
	*out = vals;
	*nr = yamldoc_size(n);
	return 0;
}

int yamldoc_get_str_map(struct yamldoc *d, const yaml_node_t *n, const char *name,
			struct yamldoc_strpair **out, size_t *nr)
{
	struct yamldoc_iter it;
	struct yamldoc_strpair *pairs;
	size_t nr_pairs = 0;
	char buf[64];
	int ret = 0;

	if (!yamldoc_is_map(n))
		return yamldoc_error(d, n, "'%s' must be a mapping, not %s", name,
				     yamldoc_describe(n, buf, sizeof(buf)));
	pairs = xmalloc((yamldoc_size(n) + 1) * sizeof(*pairs));
	yamldoc_map_iter(&it, d, (yaml_node_t *)n);
	while (yamldoc_map_next(&it)) {
		struct yamldoc_strpair *p = &pairs[nr_pairs];

		if (!it.key || yamldoc_is_null(it.key_node)) {
			ret = yamldoc_error(d, it.key_node, "'%s' keys must be strings, not %s",
					    name, yamldoc_describe(it.key_node, buf, sizeof(buf)));
			continue;
		}
		if (!yamldoc_scalar(it.value) || yamldoc_is_null(it.value)) {
			ret = yamldoc_error(d, it.value,
					    "'%s' value of '%s' must be a string, not %s", name,
					    it.key, yamldoc_describe(it.value, buf, sizeof(buf)));
			continue;
		}
		p->key = it.key;
		p->value = yamldoc_scalar(it.value);
		p->key_node = it.key_node;
		nr_pairs++;
	}
	if (ret < 0) {
		free(pairs);
		return -1;
	}
	*out = pairs;
	*nr = nr_pairs;
	return 0;
}

int yamldoc_get_choice(struct yamldoc *d, const yaml_node_t *n, const char *key,
		       const char *const *words)
{
	const char *s = yamldoc_get_str(d, n, key);

	if (!s)
		return -1;
	for (int i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	return yamldoc_bad_choice(d, n, key, s, words);
}
