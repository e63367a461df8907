/* The 'slurm:' section's own keys: where and how the matrix is submitted as one Slurm job. */
#include "config/config-slurm.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const slurm_keys[] = {
	"partition", "account", "time", "nodes", "exclusive", "options", NULL,
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

static int parse_time(struct yamldoc *d, const yaml_node_t *v, struct batch_limits *l)
{
	const char *t = yamldoc_scalar(v);
	double sec;

	if (!t || (sec = config_slurm_time(t)) <= 0)
		return yamldoc_error(
			d, v,
			"'time' must be a Slurm time limit > 0 (minutes, 'HH:MM:SS' or "
			"'D-HH:MM:SS'), not '%s'",
			t ? t : "a collection");
	free(l->time);
	l->time = xstrdup(t);
	l->time_s = sec;
	return 0;
}

static int parse_options(struct yamldoc *d, const yaml_node_t *v, struct slurm_config *s)
{
	const char **list;
	size_t nr;

	if (yamldoc_get_str_list(d, v, "options", &list, &nr))
		return -1;
	for (size_t i = 0; i < s->nr_options; i++)
		free(s->options[i]);
	free(s->options);
	s->nr_options = 0;
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

static void parse_key(struct yamldoc *d, const struct yamldoc_iter *it, struct batch_section *sec)
{
	struct slurm_config *s = sec->own;
	const char *k = it->key;
	long long n;

	if (!strcmp(k, "partition")) {
		parse_word(d, it->value, k, &s->partition);
	} else if (!strcmp(k, "account")) {
		parse_word(d, it->value, k, &s->account);
	} else if (!strcmp(k, "time")) {
		parse_time(d, it->value, &sec->limits);
	} else if (!strcmp(k, "nodes")) {
		if (!yamldoc_get_int(d, it->value, k, 1, 100000, &n))
			s->nodes = (int)n;
	} else if (!strcmp(k, "exclusive")) {
		yamldoc_get_bool(d, it->value, k, &s->exclusive);
	} else if (!strcmp(k, "options")) {
		parse_options(d, it->value, s);
	}
}

/* The messages say where the job went ("submitted job 42 to partition debug"). */
static int validate(struct yamldoc *d, struct batch_section *sec)
{
	const struct slurm_config *s = sec->own;

	(void)d;
	if (s->partition)
		sec->limits.where = xstrfmt("partition %s", s->partition);
	return 0;
}

static void *own_new(void)
{
	struct slurm_config *s = xcalloc(1, sizeof(*s));

	s->exclusive = 1;
	s->options = xcalloc(1, sizeof(*s->options));
	return s;
}

static void own_free(void *own)
{
	struct slurm_config *s = own;

	free(s->partition);
	free(s->account);
	for (size_t i = 0; i < s->nr_options; i++)
		free(s->options[i]);
	free(s->options);
	free(s);
}

const struct config_scheduler config_slurm = {
	.key = "slurm",
	.own_keys = slurm_keys,
	.own_new = own_new,
	.own_free = own_free,
	.parse_key = parse_key,
	.validate = validate,
};
