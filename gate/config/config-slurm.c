/* The 'slurm:' section: where and how the matrix is submitted as one batch job. */
#include "config/config-slurm.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const slurm_keys[] = {
	"partition", "account",       "time", "nodes", "exclusive",
	"options",   "queue_timeout", "poll", NULL,
};

/* Digits only, at most 9 of them (no overflow); -1 otherwise. */
static long number(const char *s, size_t len)
{
	long n = 0;

	if (!len || len > 9)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		n = n * 10 + (s[i] - '0');
	}
	return n;
}

double config_slurm_time(const char *s)
{
	const char *dash = strchr(s, '-'), *p = dash ? dash + 1 : s;
	long days = 0, part[3];
	int n = 0;

	if (dash && (days = number(s, (size_t)(dash - s))) < 0)
		return -1;
	for (;;) {
		size_t len = strcspn(p, ":");
		if (n == 3 || (part[n++] = number(p, len)) < 0)
			return -1;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (dash) /* D-HH, D-HH:MM, D-HH:MM:SS */
		return days * 86400.0 + part[0] * 3600.0 + (n > 1 ? part[1] * 60.0 : 0) +
		       (n > 2 ? part[2] : 0);
	if (n == 1) /* minutes */
		return part[0] * 60.0;
	if (n == 2) /* MM:SS */
		return part[0] * 60.0 + part[1];
	return part[0] * 3600.0 + part[1] * 60.0 + part[2];
}

static int parse_word(struct yamldoc *d, const yaml_node_t *v, const char *key, char **out)
{
	const char *s = yamldoc_get_str(d, v, key);

	if (!s)
		return -1;
	if (!*s || strpbrk(s, " \t\n'\"\\"))
		return yamldoc_error(d, v, "'%s' must be one word without quotes, not '%s'", key,
				     s);
	free(*out);
	*out = xstrdup(s);
	return 0;
}

static int parse_time(struct yamldoc *d, const yaml_node_t *v, struct batch_config *s)
{
	const char *t = yamldoc_scalar(v);
	double sec;

	if (!t || (sec = config_slurm_time(t)) <= 0)
		return yamldoc_error(
			d, v,
			"'time' must be a Slurm time limit > 0 (minutes, 'HH:MM:SS' or "
			"'D-HH:MM:SS'), not '%s'",
			t ? t : "a collection");
	free(s->time);
	s->time = xstrdup(t);
	s->time_s = sec;
	return 0;
}

static int parse_options(struct yamldoc *d, const yaml_node_t *v, struct batch_config *s)
{
	const char **list;
	size_t nr;

	if (yamldoc_get_str_list(d, v, "options", &list, &nr))
		return -1;
	free(s->options);
	s->options = xcalloc(nr + 1, sizeof(*s->options));
	for (size_t i = 0; i < nr; i++) {
		if (list[i][0] != '-') {
			yamldoc_error(d, v,
				      "each of 'options' must be an sbatch option starting with "
				      "'-', not '%s'",
				      list[i]);
			continue;
		}
		s->options[s->nr_options++] = xstrdup(list[i]);
	}
	free(list);
	return s->nr_options == nr ? 0 : -1;
}

static void parse_key(struct yamldoc *d, const struct yamldoc_iter *it, struct batch_config *s)
{
	const char *k = it->key ? it->key : "";
	long long n;

	if (!strcmp(k, "partition")) {
		parse_word(d, it->value, k, &s->partition);
	} else if (!strcmp(k, "account")) {
		parse_word(d, it->value, k, &s->account);
	} else if (!strcmp(k, "time")) {
		parse_time(d, it->value, s);
	} else if (!strcmp(k, "nodes")) {
		if (!yamldoc_get_int(d, it->value, k, 1, 100000, &n))
			s->nodes = (int)n;
	} else if (!strcmp(k, "exclusive")) {
		yamldoc_get_bool(d, it->value, k, &s->exclusive);
	} else if (!strcmp(k, "options")) {
		parse_options(d, it->value, s);
	} else if (!strcmp(k, "queue_timeout")) {
		yamldoc_get_duration(d, it->value, k, &s->queue_timeout);
	} else if (!strcmp(k, "poll")) {
		if (!yamldoc_get_duration(d, it->value, k, &s->poll) && s->poll < 0.1)
			yamldoc_error(d, it->value, "'poll' must be at least 100ms");
	} else {
		yamldoc_unknown_key(d, it->key_node, slurm_keys);
	}
}

int config_slurm_parse(struct yamldoc *d, const yaml_node_t *v, struct batch_config **out)
{
	struct batch_config *s;
	struct yamldoc_iter it;
	int errors = d->nr_errors;
	char buf[64];

	if (!yamldoc_is_map(v))
		return yamldoc_error(d, v, "'slurm' must be a mapping, not %s",
				     yamldoc_describe(v, buf, sizeof(buf)));
	s = xcalloc(1, sizeof(*s));
	s->exclusive = 1;
	s->queue_timeout = SLURM_DEFAULT_QUEUE_TIMEOUT;
	s->poll = SLURM_DEFAULT_POLL;
	s->node = v;
	s->options = xcalloc(1, sizeof(*s->options));
	yamldoc_map_iter(&it, d, (yaml_node_t *)v);
	while (yamldoc_map_next(&it))
		parse_key(d, &it, s);
	if (d->nr_errors != errors) {
		config_slurm_free(s);
		return -1;
	}
	config_slurm_free(*out);
	*out = s;
	return 0;
}

void config_slurm_free(struct batch_config *s)
{
	if (!s)
		return;
	free(s->partition);
	free(s->account);
	free(s->time);
	for (size_t i = 0; i < s->nr_options; i++)
		free(s->options[i]);
	free(s->options);
	free(s);
}
