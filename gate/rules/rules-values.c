/* The values of a rule's keys: numbers, percentages, times, lists, and the bounds of a metric. */
#include "rules/rules-priv.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The range of a metric's bounds; hi is HUGE_VAL when there is no upper end. */
void rules_metric_range(enum rules_metric m, double *lo, double *hi)
{
	*lo = 0;
	*hi = 1;
	if (m == RULES_TIME || m == RULES_SPEEDUP || m == RULES_AVERAGE_PARALLELISM)
		*hi = HUGE_VAL;
	else if (m == RULES_KARP_FLATT_SLOPE)
		*lo = -1;
}

/* Numbers are plain scalars: a quoted "0.5" is a string in YAML. */
int rules_scalar_number(const yaml_node_t *n, double *out)
{
	const char *s = yamldoc_scalar(n);
	char *end;

	if (!s || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return -1;
	return yamldoc_number_prefix(s, out, &end) < 0 || *end ? -1 : 0;
}

/* "5%", "0.5 %" -> 5, 0.5 */
int rules_scalar_percent(const yaml_node_t *n, double *out)
{
	const char *s = yamldoc_scalar(n);
	char *end;

	if (!s || yamldoc_number_prefix(s, out, &end) < 0)
		return -1;
	while (*end == ' ')
		end++;
	return *end == '%' && !end[1] ? 0 : -1;
}

/* "0.5s", "200ms", "2m" -> seconds; a unit is required (a bare number is no time tolerance). */
int rules_scalar_seconds(const yaml_node_t *n, double *out)
{
	static const struct { const char *suffix; double scale; } units[] = {
		{ "s", 1 }, { "ms", 1e-3 }, { "m", 60 }, { "h", 3600 },
	};
	const char *s = yamldoc_scalar(n);
	char *end;

	if (!s || yamldoc_number_prefix(s, out, &end) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(end, units[i].suffix)) {
			*out *= units[i].scale;
			return 0;
		}
	return -1;
}

/* 'off' clears a bound or a tolerance that an earlier rule set. */
int rules_is_off(const yaml_node_t *n)
{
	const char *s = yamldoc_scalar(n);

	return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !strcmp(s, "off");
}

const char *rules_range_text(char *buf, size_t size, double lo, double hi)
{
	if (hi == HUGE_VAL)
		snprintf(buf, size, "of at least %g", lo);
	else
		snprintf(buf, size, "between %g and %g", lo, hi);
	return buf;
}

static int get_number(struct parser *ps, const yaml_node_t *v, const char *name, double lo,
		      double hi, double *out)
{
	char range[64], buf[64];

	if (rules_scalar_number(v, out) < 0 || *out < lo || *out > hi)
		return yamldoc_error(ps->d, v, "'%s' must be a number %s, not %s", name,
				     rules_range_text(range, sizeof(range), lo, hi),
				     yamldoc_describe(v, buf, sizeof(buf)));
	return 0;
}

void rules_parse_string(struct parser *ps, const yaml_node_t *v, const char *key, char **field)
{
	const char *s = yamldoc_get_str(ps->d, v, key);

	if (s && !*s)
		yamldoc_error(ps->d, v, "'%s' must not be empty", key);
	else if (s)
		*field = xstrdup(s);
}

void rules_parse_ints(struct parser *ps, const yaml_node_t *v, const char *key, long long max,
		      int **out, size_t *nr)
{
	long long *vals;
	size_t n;

	if (yamldoc_get_int_list(ps->d, v, key, 1, max, YAMLDOC_SCALAR_OK | YAMLDOC_UNIQUE, &vals,
				 &n) < 0)
		return;
	*out = xmalloc(n * sizeof(**out));
	for (size_t i = 0; i < n; i++)
		(*out)[i] = (int)vals[i];
	*nr = n;
	free(vals);
}

/* Records where a bound is set; reports a second setting of it in the same rule. */
static int claim_bound(struct parser *ps, const yaml_node_t *v, const char *label,
		       enum rules_metric m, int is_max)
{
	const yaml_node_t *first = ps->bound_node[is_max][m];

	if (first)
		return yamldoc_error(ps->d, v, "'%s' repeats the bound set by '%s' at %zu:%zu",
				     label, ps->bound_key[is_max][m], first->start_mark.line + 1,
				     first->start_mark.column + 1);
	ps->bound_node[is_max][m] = v;
	snprintf(ps->bound_key[is_max][m], sizeof(ps->bound_key[is_max][m]), "%s", label);
	return 0;
}

/* 'isoefficiency_growth_max: "p log p"': a growth model (rules_growth_parse). */
static void parse_growth(struct parser *ps, const yaml_node_t *v, const char *label,
			 struct rules_value *out)
{
	const char *s = yamldoc_scalar(v);
	char buf[64];
	double k;
	int log_power;

	if (!s || rules_growth_parse(s, &k, &log_power) < 0) {
		yamldoc_error(ps->d, v,
			      "'%s' must be one of " RULES_GROWTH_FORMS " (K > 0), not %s", label,
			      yamldoc_describe(v, buf, sizeof(buf)));
		return;
	}
	out->set = 1;
	out->value = k;
	out->log_power = log_power;
}

/* '<metric>_min', '<metric>_max', and the items of 'share_max' ('label' names them). */
void rules_parse_bound(struct parser *ps, const yaml_node_t *v, const char *label,
		       enum rules_metric m, int is_max)
{
	struct rules_value *out = is_max ? &ps->rule->max[m] : &ps->rule->min[m];
	double lo, hi, x;

	if (m == RULES_ISOEFFICIENCY_GROWTH && !is_max) {
		yamldoc_error(ps->d, v, "'%s' is not a bound: the isoefficiency growth takes only "
			      "'isoefficiency_growth_max'", label);
		return;
	}
	if (claim_bound(ps, v, label, m, is_max) < 0)
		return;
	if (rules_is_off(v)) {
		out->set = out->off = 1;
		return;
	}
	rules_metric_range(m, &lo, &hi);
	if (m == RULES_ISOEFFICIENCY_GROWTH) {
		parse_growth(ps, v, label, out);
		return;
	} else if (m == RULES_TIME) {
		if (yamldoc_get_duration(ps->d, v, label, &x) < 0)
			return;
	} else if (get_number(ps, v, label, lo, hi, &x) < 0) {
		return;
	}
	out->set = 1;
	out->value = x;
}
