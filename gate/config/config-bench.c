/* The keys of one benchmark in scalegate.yml: a parser per key, and the placeholders. */
#include "config/config-priv.h"
#include "config/memory-model.h"
#include "base/util.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

char *config_resolve(const struct config *c, const char *path)
{
	if (path[0] == '/' || !c->dir || !strcmp(c->dir, "."))
		return xstrdup(path);
	return xstrfmt("%s/%s", c->dir, path);
}

void config_free_env(struct bench_config *b)
{
	for (size_t i = 0; i < b->nr_env; i++) {
		free(b->env[i].name);
		free(b->env[i].value);
	}
	free(b->env);
	b->env = NULL;
	b->nr_env = 0;
}

/* Far above any machine; keeps ranks * threads well inside a long long. */
#define MAX_PROCS (1 << 20)

const char *const config_command_placeholders[] = {
	[PH_THREADS] = "threads",
	[PH_RANKS] = "ranks",
	[PH_SIZE] = "size",
	[PH_REPEAT] = "repeat",
	NULL,
};
/* Placement only: a launcher has no business with the problem size. */
static const char *const launcher_placeholders[] = { "threads", "ranks", NULL };

const char *config_next_placeholder(const char *s, size_t from, size_t *start, size_t *len)
{
	for (size_t i = from; s[i]; i++) {
		size_t n = 0;

		if (s[i] != '{' || (i > 0 && (s[i - 1] == '$' || s[i - 1] == '\\')))
			continue;
		if (!isalpha((unsigned char)s[i + 1]) && s[i + 1] != '_')
			continue;
		while (isalnum((unsigned char)s[i + 1 + n]) || s[i + 1 + n] == '_')
			n++;
		if (s[i + 1 + n] != '}')
			continue;
		*start = i;
		*len = n;
		return s + i + 1;
	}
	return NULL;
}

static size_t utf8_chars(const char *s, size_t bytes)
{
	size_t n = 0;

	for (size_t i = 0; i < bytes; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

yaml_mark_t config_placeholder_mark(const yaml_node_t *n, size_t offset)
{
	yaml_mark_t mark = n->start_mark;
	const char *s = yamldoc_scalar(n);
	int quoted = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		     n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;

	/*
	 * The text maps onto the file column by column only when it is on one
	 * line and as wide there as its value: no escapes, no folding.
	 */
	if (n->end_mark.line != mark.line ||
	    n->end_mark.column - mark.column != utf8_chars(s, strlen(s)) + 2 * quoted)
		return mark;
	mark.column += quoted + utf8_chars(s, offset);
	return mark;
}

static int find_placeholder(const char *name, size_t len, const char *const *known)
{
	for (int k = 0; known[k]; k++)
		if (strlen(known[k]) == len && !strncmp(known[k], name, len))
			return k;
	return -1;
}

int config_placeholder_index(const char *name, size_t len)
{
	return find_placeholder(name, len, config_command_placeholders);
}

static int check_placeholders(struct yamldoc *d, const yaml_node_t *n, const char *key,
			      const char *const *known)
{
	const char *s = yamldoc_scalar(n), *name, *hint;
	size_t start, len, from = 0;
	int ret = 0;

	while ((name = config_next_placeholder(s, from, &start, &len))) {
		char *word = xstrndup(name, len);
		yaml_mark_t mark = config_placeholder_mark(n, start);

		from = start + len + 2;
		if (find_placeholder(name, len, known) >= 0) {
			free(word);
			continue;
		}
		hint = yamldoc_closest(word, known);
		if (hint)
			ret = yamldoc_error_at(
				d, mark, "unknown placeholder '{%s}' in '%s'; did you mean '{%s}'?",
				word, key, hint);
		else if (known == launcher_placeholders)
			ret = yamldoc_error_at(d, mark,
					       "unknown placeholder '{%s}' in '%s'; a launcher may "
					       "use {threads} and {ranks}",
					       word, key);
		else
			ret = yamldoc_error_at(d, mark,
					       "unknown placeholder '{%s}' in '%s'; known are "
					       "{threads}, {ranks}, {size} and {repeat}",
					       word, key);
		free(word);
	}
	return ret;
}

static const char *get_text(struct yamldoc *d, const yaml_node_t *v, const char *key)
{
	const char *s = yamldoc_get_str(d, v, key);

	if (s && !*s) {
		yamldoc_error(d, v, "'%s' must not be empty", key);
		return NULL;
	}
	return s;
}

static int set_text(char **field, const char *s)
{
	if (!s)
		return -1;
	free(*field);
	*field = xstrdup(s);
	return 0;
}

/* Whether a benchmark name collides with the files of the results directory
 * (docs/configuration.md). */
static int config_reserved_name(const char *s)
{
	size_t n = strlen(s);

	/* .scratch; manifest.tsv, fingerprint.tsv, complete.tsv; manifest.tsv.partial */
	return s[0] == '.' || (n >= 4 && !strcmp(s + n - 4, ".tsv")) ||
	       (n >= 8 && !strcmp(s + n - 8, ".partial"));
}

static int parse_name(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	const char *s = get_text(l->d, v, "name");

	if (!s)
		return -1;
	if (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") !=
	    strlen(s))
		return yamldoc_error(
			l->d, v,
			"benchmark name '%s' may contain only letters, digits, '_', '.' and '-'",
			s);
	/* Names become directory names under 'results'. */
	if (strlen(s) > CONFIG_MAX_NAME)
		return yamldoc_error(l->d, v, "benchmark name '%.40s...' is %zu characters long, "
				     "more than %d", s, strlen(s), CONFIG_MAX_NAME);
	if (!strcmp(s, ".") || !strcmp(s, ".."))
		return yamldoc_error(l->d, v, "benchmark name '%s' is not allowed", s);
	if (config_reserved_name(s))
		return yamldoc_error(
			l->d, v,
			"benchmark name '%s' is reserved: it collides with the results "
			"layout (names may not start with '.' or end in '.tsv' or '.partial')",
			s);
	return set_text(&b->name, s);
}

static int parse_command(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	const char *s = get_text(l->d, v, "command");

	if (!s || check_placeholders(l->d, v, "command", config_command_placeholders) < 0)
		return -1;
	return set_text(&b->command, s);
}

static int parse_build(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return set_text(&b->build, get_text(l->d, v, "build"));
}

static int parse_workdir(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	const char *s = get_text(l->d, v, "workdir");

	if (!s)
		return -1;
	free(b->workdir);
	b->workdir = config_resolve(l->c, s);
	return 0;
}

/* Checked here, so that a model 'analyze' cannot read is reported with its position. */
static int parse_memory(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	const char *s = get_text(l->d, v, "memory");
	struct memory_model m;

	if (s && memory_model_read(s, &m))
		return yamldoc_error(l->d, v,
				     "memory model '%s' is not understood: " MEMORY_MODEL_FORMS, s);
	return set_text(&b->memory, s);
}

/* An empty launcher is allowed: the command then starts its ranks itself. */
int config_parse_launcher(struct config_loader *l, const yaml_node_t *v, char **field)
{
	const char *s = yamldoc_get_str(l->d, v, "launcher");

	if (!s || check_placeholders(l->d, v, "launcher", launcher_placeholders) < 0)
		return -1;
	return set_text(field, s);
}

static int parse_launcher(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return config_parse_launcher(l, v, &b->launcher);
}

static int get_ints(struct yamldoc *d, const yaml_node_t *v, const char *key, long long min,
		    long long max, unsigned flags, int **out, size_t *nr)
{
	long long *vals;

	if (yamldoc_get_int_list(d, v, key, min, max, flags, &vals, nr) < 0)
		return -1;
	free(*out);
	*out = xmalloc(*nr * sizeof(**out));
	for (size_t i = 0; i < *nr; i++)
		(*out)[i] = (int)vals[i];
	free(vals);
	return 0;
}

static int parse_threads(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return get_ints(l->d, v, "threads", 1, MAX_PROCS, YAMLDOC_UNIQUE, &b->threads,
			&b->nr_threads);
}

static int parse_ranks(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return get_ints(l->d, v, "ranks", 1, MAX_PROCS, YAMLDOC_UNIQUE, &b->ranks, &b->nr_ranks);
}

static int parse_expect_exit(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return get_ints(l->d, v, "expect_exit", 0, 255, YAMLDOC_SCALAR_OK,
			&b->expect_exit, &b->nr_expect_exit);
}

static int parse_sizes(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	long long *sizes;
	size_t nr;

	if (yamldoc_get_int_list(l->d, v, "sizes", 0, LLONG_MAX, YAMLDOC_UNIQUE, &sizes, &nr) < 0)
		return -1;
	free(b->sizes);
	b->sizes = sizes;
	b->nr_sizes = nr;
	return 0;
}

static int parse_int(struct yamldoc *d, const yaml_node_t *v, const char *key,
		     long long min, long long max, int *out)
{
	long long n;

	if (yamldoc_get_int(d, v, key, min, max, &n) < 0)
		return -1;
	*out = (int)n;
	return 0;
}

static int parse_repeat(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return parse_int(l->d, v, "repeat", 1, 1000, &b->repeat);
}

static int parse_warmup(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return parse_int(l->d, v, "warmup", 0, 100, &b->warmup);
}

/* A week: past it a timeout is a typo, and a run that long is no gate's. */
#define MAX_TIMEOUT CONFIG_MAX_DURATION

static int parse_timeout(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	double t;

	if (yamldoc_get_duration(l->d, v, "timeout", &t))
		return -1;
	if (!(t <= MAX_TIMEOUT))
		return yamldoc_error(l->d, v, "'timeout' of '%s' is more than 7 days",
				     yamldoc_scalar(v));
	b->timeout = t;
	return 0;
}

/* 'off' or a negative number: no limit. */
static int parse_max_contention(struct config_loader *l, const yaml_node_t *v,
				struct bench_config *b)
{
	const char *s = yamldoc_scalar(v);
	int plain = s && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	char buf[64], *end;

	if (plain && !strcmp(s, "off")) {
		b->max_contention = -1;
		return 0;
	}
	if (!plain || !*s || (strtod(s, &end), *end))
		return yamldoc_error(l->d, v,
				     "'max_contention' must be a number of cores or 'off', not %s",
				     yamldoc_describe(v, buf, sizeof(buf)));
	return yamldoc_get_double(l->d, v, "max_contention", -HUGE_VAL, HUGE_VAL,
				  &b->max_contention);
}

static int parse_contention_retries(struct config_loader *l, const yaml_node_t *v,
				    struct bench_config *b)
{
	return parse_int(l->d, v, "contention_retries", 0, 10, &b->contention_retries);
}

static int parse_preload(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return yamldoc_get_bool(l->d, v, "preload", &b->preload);
}

static int parse_mpi(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return yamldoc_get_bool(l->d, v, "mpi", &b->mpi);
}

int config_valid_env_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	return !*s;
}

static int parse_env_pair(struct config_loader *l, const struct yamldoc_iter *it,
			  struct config_env *env)
{
	const char *value;
	char buf[64];

	if (!it->key || yamldoc_is_null(it->key_node) || !config_valid_env_name(it->key))
		return yamldoc_error(l->d, it->key_node,
				     "'env' names must be environment variable names, not %s",
				     yamldoc_describe(it->key_node, buf, sizeof(buf)));
	if (!yamldoc_scalar(it->value) || yamldoc_is_null(it->value))
		return yamldoc_error(l->d, it->value,
				     "'env' value of '%s' must be a string, not %s", it->key,
				     yamldoc_describe(it->value, buf, sizeof(buf)));
	value = yamldoc_scalar(it->value);
	env->name = xstrdup(it->key);
	env->value = xstrdup(value);
	return 0;
}

/* Not yamldoc_get_str_map(): a bad name and a bad value in one mapping are both reported. */
static int parse_env(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	struct yamldoc_iter it;
	char buf[64];
	int ret = 0;

	if (!yamldoc_is_map(v))
		return yamldoc_error(l->d, v, "'env' must be a mapping, not %s",
				     yamldoc_describe(v, buf, sizeof(buf)));
	config_free_env(b);
	b->env = xcalloc(yamldoc_size(v), sizeof(*b->env));
	yamldoc_map_iter(&it, l->d, (yaml_node_t *)v);
	while (yamldoc_map_next(&it)) {
		if (parse_env_pair(l, &it, &b->env[b->nr_env]) < 0)
			ret = -1;
		else
			b->nr_env++;
	}
	return ret;
}

static int parse_weak(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	static const char *const known[] = { "size_per_processor", NULL };
	const yaml_node_t *spp = NULL;
	struct yamldoc_iter it;
	char buf[64];
	int ret = 0;

	if (!yamldoc_is_map(v))
		return yamldoc_error(l->d, v,
				     "'weak' must be a mapping with 'size_per_processor', not %s",
				     yamldoc_describe(v, buf, sizeof(buf)));
	yamldoc_map_iter(&it, l->d, (yaml_node_t *)v);
	while (yamldoc_map_next(&it)) {
		if (it.key && !strcmp(it.key, "size_per_processor"))
			spp = it.value;
		else
			ret = yamldoc_unknown_key(l->d, it.key_node, known);
	}
	if (!spp)
		return yamldoc_error(l->d, v, "'weak' needs 'size_per_processor'");
	if (yamldoc_get_int(l->d, spp, "size_per_processor", 1, LLONG_MAX, &b->size_per_processor) <
	    0)
		return -1;
	return ret;
}

/* Adaptive repeats (docs/check.md): rounds an inconclusive cell may reach; 0 or <= repeat: off. */
static int parse_max_repeat(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return parse_int(l->d, v, "max_repeat", 0, 1000, &b->max_repeat);
}

static int parse_adaptive_seconds(struct config_loader *l, const yaml_node_t *v,
				  struct bench_config *b)
{
	double t;

	if (yamldoc_get_duration(l->d, v, "adaptive_seconds", &t))
		return -1;
	if (!(t <= MAX_TIMEOUT))
		return yamldoc_error(l->d, v, "'adaptive_seconds' of '%s' is more than 7 days",
				     yamldoc_scalar(v));
	b->adaptive_seconds = t;
	return 0;
}

/* Bytes of stdout and of stderr a run keeps, its head and its tail (docs/running.md, "Limits"). */
static int parse_output_limit(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return yamldoc_get_int(l->d, v, "output_limit", 4096, 1LL << 26, &b->output_limit);
}

static int parse_program(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	const char *s = get_text(l->d, v, "program");

	if (!s)
		return -1;
	if (strchr(s, '/'))
		return yamldoc_error(l->d, v,
				     "'program' is the name of the executable that writes the "
				     "profiles (a glob such as 'solver*', or '*' for any), not a "
				     "path: '%s'",
				     s);
	return set_text(&b->program, s);
}

static int parse_exclude(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	return config_parse_exclude(l, v, b);
}

const config_key_parser config_key_parsers[NR_KEYS] = {
#define X(id, key) [KEY_##id] = parse_##key,
	CONFIG_KEYS(X)
#undef X
};

const char *const config_key_names[NR_KEYS + 1] = {
#define X(id, key) [KEY_##id] = #key,
	CONFIG_KEYS(X)
#undef X
};

int config_find_key(const char *key)
{
	for (int k = 0; key && k < NR_KEYS; k++)
		if (!strcmp(config_key_names[k], key))
			return k;
	return -1;
}
