/* scalegate.yml: top-level keys, 'defaults', checks across keys, the matrix, commands. */
#include "config/config.h"
#include "config/config-priv.h"
#include "base/interrupt.h"
#include "base/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* with every config_schedulers key, for "did you mean" */
static const char *const top_keys[] = {
	"benchmarks", "launcher",   "defaults", "results", "baselines",          "rules",    "post",
	"reports",    "secret_env", "slurm",    "history", "allow_no_reference", "pass_env",
	"undecided",  "adaptive", NULL,
};

/* 'undecided: error' (the default) or 'pass': a benchmark whose time checks all could not decide
 * fails the gate (exit 3), or passes it with the headline "could not decide". */
static void parse_undecided(struct config_loader *l, const yaml_node_t *n, const char *key)
{
	static const char *const words[] = { "error", "pass", NULL };
	int w = yamldoc_get_choice(l->d, n, key, words);

	if (w >= 0)
		l->c->undecided_pass = w == 1;
}

static int listed(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/* An unknown key of a benchmark or of 'defaults' ('where'): a top-level key says where it goes,
 * another gets the nearest of the keys allowed there ('known'). */
static void unknown_bench_key(struct config_loader *l, const yaml_node_t *key_node,
			      const char *const *known, const char *where)
{
	const char *k = yamldoc_is_null(key_node) ? NULL : yamldoc_scalar(key_node);

	if (k && listed(top_keys, k))
		yamldoc_error(l->d, key_node, "'%s' belongs at the top level, not in %s", k,
			      where);
	else
		yamldoc_unknown_key(l->d, key_node, known);
}

/* An unknown top-level key: a benchmark's key says where it goes. */
static void unknown_top_key(struct config_loader *l, const yaml_node_t *key_node)
{
	const char *k = yamldoc_is_null(key_node) ? NULL : yamldoc_scalar(key_node);
	int b = k ? config_find_key(k) : -1;

	if (b < 0)
		yamldoc_unknown_key(l->d, key_node, top_keys);
	else
		yamldoc_error(l->d, key_node, "'%s' belongs in a benchmark%s, not at the top level",
			      k, b == KEY_NAME || b == KEY_COMMAND ? "" : " or in 'defaults'");
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

static void bench_release(struct bench_config *b)
{
	free(b->name);
	free(b->command);
	free(b->build);
	free(b->program);
	free(b->threads);
	free(b->ranks);
	free(b->sizes);
	config_free_env(b);
	free(b->expect_exit);
	free(b->workdir);
	free(b->launcher);
	free(b->memory);
	free(b->exclude);
	memset(b, 0, sizeof(*b));
}

static int *one_int(int v)
{
	int *p = xmalloc(sizeof(*p));

	*p = v;
	return p;
}

/* The built-in defaults; the keys of the file overwrite them. */
static void bench_init(struct config_loader *l, struct bench_config *b, const yaml_node_t *node)
{
	memset(b, 0, sizeof(*b));
	b->node = node;
	b->threads = one_int(1);
	b->nr_threads = 1;
	b->ranks = one_int(1);
	b->nr_ranks = 1;
	b->repeat = 5;
	b->warmup = 1;
	b->timeout = 300;
	b->output_limit = CONFIG_OUTPUT_LIMIT;
	b->max_contention = CONFIG_MAX_CONTENTION;
	b->contention_retries = CONFIG_CONTENTION_RETRIES;
	b->max_repeat = CONFIG_MAX_REPEAT;
	b->adaptive_seconds = CONFIG_ADAPTIVE_SECONDS;
	b->expect_exit = one_int(0);
	b->nr_expect_exit = 1;
	b->workdir = xstrdup(l->c->dir);
	b->launcher = xstrdup(l->launcher);
}

/* Whether the benchmark sets key k itself; 'sizes' and 'weak' are one choice. */
static int bench_sets(const yaml_node_t *const *nodes, int k)
{
	if (k == KEY_SIZES || k == KEY_WEAK)
		return nodes[KEY_SIZES] || nodes[KEY_WEAK];
	return nodes[k] != NULL;
}

static void check_sizes_or_weak(struct yamldoc *d, const yaml_node_t **nodes)
{
	const yaml_node_t *sizes = nodes[KEY_SIZES], *weak = nodes[KEY_WEAK];

	if (!sizes || !weak)
		return;
	yamldoc_error(d, weak->start_mark.index > sizes->start_mark.index ? weak : sizes,
		      "'sizes' and 'weak' cannot both be set: 'weak' derives the size from the "
		      "processor count");
}

/* Checked once here, so that a mistake in 'defaults' is not reported once per benchmark. */
static void parse_defaults(struct config_loader *l, yaml_node_t *map)
{
	const char *known[NR_KEYS + 1]; /* those 'defaults' may set: no 'name', no 'command' */
	struct bench_config scratch;
	struct yamldoc_iter it;
	char buf[64];
	size_t n = 0;

	if (!map)
		return;
	if (!yamldoc_is_map(map)) {
		yamldoc_error(l->d, map, "'defaults' must be a mapping, not %s",
			      yamldoc_describe(map, buf, sizeof(buf)));
		return;
	}
	for (int k = 0; k < NR_KEYS; k++)
		if (k != KEY_NAME && k != KEY_COMMAND)
			known[n++] = config_key_names[k];
	known[n] = NULL;
	bench_init(l, &scratch, map);
	yamldoc_map_iter(&it, l->d, map);
	while (yamldoc_map_next(&it)) {
		int k = config_find_key(it.key);

		if (k < 0)
			unknown_bench_key(l, it.key_node, known, "'defaults'");
		else if (k == KEY_NAME || k == KEY_COMMAND)
			yamldoc_error(l->d, it.key_node, "'%s' cannot be set in 'defaults'",
				      it.key);
		else if (config_key_parsers[k](l, it.value, &scratch) == 0)
			l->defaults[k] = it.value;
	}
	check_sizes_or_weak(l->d, l->defaults);
	if (l->defaults[KEY_SIZES] && l->defaults[KEY_WEAK])
		l->defaults[KEY_SIZES] = l->defaults[KEY_WEAK] = NULL;
	bench_release(&scratch);
}

static const char *bench_label(const struct bench_config *b, char *buf, size_t size)
{
	if (!b->name)
		return "benchmark";
	snprintf(buf, size, "benchmark '%s'", b->name);
	return buf;
}

static void check_size_placeholder(struct config_loader *l, const yaml_node_t **nodes)
{
	const yaml_node_t *cmd = nodes[KEY_COMMAND];
	const char *text = yamldoc_scalar(cmd), *name;
	size_t start, len, from = 0;

	/* The node, not b->command: an unknown placeholder beside '{size}' leaves that unset. */
	if (!text || nodes[KEY_SIZES] || nodes[KEY_WEAK])
		return;
	while ((name = config_next_placeholder(text, from, &start, &len))) {
		from = start + len + 2;
		if (config_placeholder_index(name, len) == PH_SIZE) {
			yamldoc_error_at(l->d, config_placeholder_mark(cmd, start),
					 "'command' uses '{size}' but the benchmark sets neither "
					 "'sizes' nor 'weak'");
			return;
		}
	}
}

static int max_of(const int *v, size_t nr)
{
	int max = 0;

	for (size_t i = 0; i < nr; i++)
		if (v[i] > max)
			max = v[i];
	return max;
}

/* The checks that need several keys, once 'defaults' are applied. */
static void check_bench(struct config_loader *l, struct bench_config *b, const yaml_node_t **nodes)
{
	long long procs = (long long)max_of(b->ranks, b->nr_ranks) *
			  max_of(b->threads, b->nr_threads);
	size_t cells = (b->nr_sizes ? b->nr_sizes : 1) * b->nr_ranks * b->nr_threads;
	char buf[160];

	if (!nodes[KEY_NAME])
		yamldoc_error(l->d, b->node, "benchmark has no 'name'");
	if (!nodes[KEY_COMMAND])
		yamldoc_error(l->d, b->node, "%s has no 'command'",
			      bench_label(b, buf, sizeof(buf)));
	check_sizes_or_weak(l->d, nodes);
	check_size_placeholder(l, nodes);
	if (b->size_per_processor > 0 && b->size_per_processor > LLONG_MAX / procs)
		yamldoc_error(l->d, nodes[KEY_WEAK],
			      "'size_per_processor' times %lld processors of %s is too large",
			      procs, bench_label(b, buf, sizeof(buf)));
	if (cells > CONFIG_MAX_CELLS)
		yamldoc_error(l->d, b->node,
			      "the matrix of %s has %zu cells (sizes x ranks x threads), "
			      "more than %d",
			      bench_label(b, buf, sizeof(buf)), cells, CONFIG_MAX_CELLS);
	else if (b->nr_exclude > CONFIG_MAX_EXCLUDE)
		yamldoc_error(l->d, b->exclude[CONFIG_MAX_EXCLUDE].node,
			      "more than %d 'exclude' entries", CONFIG_MAX_EXCLUDE);
	else /* counted cell by cell: only a bounded matrix */
		config_check_exclude(l, b, nodes[KEY_EXCLUDE]);
	if (!nodes[KEY_MPI])
		b->mpi = max_of(b->ranks, b->nr_ranks) > 1;
	else if (!b->mpi && max_of(b->ranks, b->nr_ranks) > 1)
		yamldoc_error(l->d, nodes[KEY_MPI], "'mpi' is false but %s runs %d ranks",
			      bench_label(b, buf, sizeof(buf)), max_of(b->ranks, b->nr_ranks));
}

static void parse_bench(struct config_loader *l, yaml_node_t *map, struct bench_config *b)
{
	const yaml_node_t *nodes[NR_KEYS] = { NULL };
	struct yamldoc_iter it;

	bench_init(l, b, map);
	yamldoc_map_iter(&it, l->d, map);
	while (yamldoc_map_next(&it)) {
		int k = config_find_key(it.key);

		if (k < 0) {
			unknown_bench_key(l, it.key_node, config_key_names, "a benchmark");
			continue;
		}
		/* Set even when the value is wrong: 'defaults' must not stand in for it. */
		nodes[k] = it.value;
		config_key_parsers[k](l, it.value, b);
	}
	for (int k = 0; k < NR_KEYS; k++) {
		if (!l->defaults[k] || bench_sets(nodes, k))
			continue;
		nodes[k] = l->defaults[k];
		config_key_parsers[k](l, nodes[k], b);
	}
	check_bench(l, b, nodes);
}

/* The benchmarks by name: open addressing over indexes + 1, so that 150,000 benchmarks load in
 * linear time. */
struct name_index {
	size_t *slot;
	size_t mask;
};

static size_t name_hash(const char *s)
{
	return (size_t)fnv1a64(s, strlen(s));
}

static void check_unique_name(struct config_loader *l, struct name_index *ix, size_t i)
{
	const struct bench_config *b = &l->c->benchmarks[i];
	size_t h;

	if (!b->name)
		return;
	for (h = name_hash(b->name) & ix->mask; ix->slot[h]; h = (h + 1) & ix->mask) {
		const struct bench_config *first = &l->c->benchmarks[ix->slot[h] - 1];
		const yaml_node_t *at;

		if (strcmp(first->name, b->name))
			continue;
		at = yamldoc_map_get(l->d, (yaml_node_t *)first->node, "name");
		yamldoc_error(l->d, yamldoc_map_get(l->d, (yaml_node_t *)b->node, "name"),
			      "duplicate benchmark name '%s' (first at %zu:%zu)", b->name,
			      at->start_mark.line + 1, at->start_mark.column + 1);
		return;
	}
	ix->slot[h] = i + 1;
}

static void parse_benchmarks(struct config_loader *l, yaml_node_t *list)
{
	struct config *c = l->c;
	struct name_index ix = { NULL, 0 };
	struct yamldoc_iter it;
	char buf[64];

	if (!list) {
		yamldoc_error(l->d, yamldoc_root(l->d), "missing required key 'benchmarks'");
		return;
	}
	if (!yamldoc_is_list(list) || !yamldoc_size(list)) {
		yamldoc_error(l->d, list,
			      "'benchmarks' must be a non-empty list of mappings, not %s",
			      yamldoc_is_list(list) ? "an empty list"
						    : yamldoc_describe(list, buf, sizeof(buf)));
		return;
	}
	c->benchmarks = xcalloc(yamldoc_size(list), sizeof(*c->benchmarks));
	for (ix.mask = 15; ix.mask < 2 * yamldoc_size(list); ix.mask = 2 * ix.mask + 1)
		;
	ix.slot = xcalloc(ix.mask + 1, sizeof(*ix.slot));
	yamldoc_list_iter(&it, l->d, list);
	/* interrupted: the gate runs none of them (docs/running.md, "Interrupts") */
	while (!interrupt_signal && yamldoc_list_next(&it)) {
		if (!yamldoc_is_map(it.value)) {
			yamldoc_error(l->d, it.value,
				      "each entry of 'benchmarks' must be a mapping, not %s",
				      yamldoc_describe(it.value, buf, sizeof(buf)));
			continue;
		}
		parse_bench(l, it.value, &c->benchmarks[c->nr_benchmarks]);
		check_unique_name(l, &ix, c->nr_benchmarks++);
	}
	free(ix.slot);
}

static void parse_dir(struct config_loader *l, yaml_node_t *v, const char *key, char **field)
{
	const char *s = yamldoc_get_str(l->d, v, key);

	if (s && !*s) {
		yamldoc_error(l->d, v, "'%s' must not be empty", key);
		return;
	}
	if (s) {
		free(*field);
		*field = config_resolve(l->c, s);
	}
}

/* 'history': a database file (relative to this file) or a postgresql:// URL, kept as written. */
static void parse_history(struct config_loader *l, yaml_node_t *v)
{
	const char *s = yamldoc_get_str(l->d, v, "history");

	if (s && strstr(s, "://") && strncmp(s, "postgresql://", 13) &&
	    strncmp(s, "postgres://", 11)) {
		yamldoc_error(l->d, v, "'history' must be a file name or a postgresql:// URL");
		return;
	}
	if (s && strstr(s, "://")) {
		free(l->c->history);
		l->c->history = xstrdup(s);
	} else {
		parse_dir(l, v, "history", &l->c->history);
	}
}

/* Sections that later modules parse: here only their shape is checked. */
static void keep_section(struct config_loader *l, yaml_node_t *v, const char *key,
			 yaml_node_t **field)
{
	char buf[64];

	if (!yamldoc_is_map(v) && !yamldoc_is_list(v))
		yamldoc_error(l->d, v, "'%s' must be a mapping or a list, not %s", key,
			      yamldoc_describe(v, buf, sizeof(buf)));
	else
		*field = v;
}

/* A scheduler's section; the matrix goes to one scheduler only. */
static void parse_batch(struct config_loader *l, const struct yamldoc_iter *it)
{
	struct config *c = l->c;

	if (c->batch && c->batch->scheduler != config_scheduler_find(it->key)) {
		yamldoc_error(l->d, it->key_node, "'%s' and '%s': the matrix goes to one scheduler",
			      c->batch->scheduler->key, it->key);
		return;
	}
	config_batch_parse(l->d, it->value, config_scheduler_find(it->key), &c->batch);
}

/* Top-level keys in file order; 'defaults' and 'benchmarks' wait until the launcher is known. */
static void parse_top(struct config_loader *l, yaml_node_t **defaults, yaml_node_t **benchmarks)
{
	struct config *c = l->c;
	struct yamldoc_iter it;

	yamldoc_map_iter(&it, l->d, yamldoc_root(l->d));
	while (yamldoc_map_next(&it)) {
		const char *k = it.key ? it.key : "";

		if (!strcmp(k, "benchmarks"))
			*benchmarks = it.value;
		else if (!strcmp(k, "defaults"))
			*defaults = it.value;
		else if (!strcmp(k, "launcher"))
			config_parse_launcher(l, it.value, &l->launcher);
		else if (!strcmp(k, "results"))
			parse_dir(l, it.value, k, &c->results_dir);
		else if (!strcmp(k, "baselines"))
			parse_dir(l, it.value, k, &c->baselines_dir);
		else if (!strcmp(k, "rules"))
			keep_section(l, it.value, k, &c->rules);
		else if (!strcmp(k, "post"))
			keep_section(l, it.value, k, &c->post);
		else if (!strcmp(k, "reports"))
			keep_section(l, it.value, k, &c->reports);
		else if (!strcmp(k, "secret_env"))
			config_parse_env_names(l, it.value, k, 1);
		else if (!strcmp(k, "pass_env"))
			config_parse_env_names(l, it.value, k, 0);
		else if (config_scheduler_find(k))
			parse_batch(l, &it);
		else if (!strcmp(k, "allow_no_reference"))
			yamldoc_get_bool(l->d, it.value, k, &c->allow_no_reference);
		else if (!strcmp(k, "undecided"))
			parse_undecided(l, it.value, k);
		else if (!strcmp(k, "history"))
			parse_history(l, it.value);
		else if (!strcmp(k, "adaptive"))
			config_adaptive_parse(l, it.value);
		else
			unknown_top_key(l, it.key_node);
	}
}

int config_parse(struct config *c, const char *path)
{
	struct config_loader l = { .c = c, .d = &c->doc };
	yaml_node_t *defaults = NULL, *benchmarks = NULL;

	memset(c, 0, sizeof(*c));
	if (yamldoc_load(&c->doc, path) < 0) {
		memset(c, 0, sizeof(*c));
		return -2;
	}
	c->dir = dir_of(path);
	c->results_dir = config_resolve(c, "results");
	c->baselines_dir = config_resolve(c, "baselines");
	l.launcher = xstrdup(CONFIG_DEFAULT_LAUNCHER);
	parse_top(&l, &defaults, &benchmarks);
	config_env_secrets(&l);
	parse_defaults(&l, defaults);
	parse_benchmarks(&l, benchmarks);
	free(l.launcher);
	return c->doc.nr_errors ? -1 : 0;
}

int config_load(struct config *c, const char *path)
{
	int ret = config_parse(c, path);

	if (ret == -1)
		config_release(c);
	return ret < 0 ? -1 : 0;
}

void config_release(struct config *c)
{
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		bench_release(&c->benchmarks[i]);
	free(c->benchmarks);
	free(c->dir);
	free(c->results_dir);
	free(c->baselines_dir);
	free(c->history);
	for (size_t i = 0; i < c->nr_secret_env; i++)
		free(c->secret_env[i]);
	free(c->secret_env);
	for (size_t i = 0; i < c->nr_pass_env; i++)
		free(c->pass_env[i]);
	free(c->pass_env);
	config_batch_free(c->batch);
	yamldoc_release(&c->doc);
	memset(c, 0, sizeof(*c));
}

struct bench_config *config_find(struct config *c, const char *name)
{
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		if (!strcmp(c->benchmarks[i].name, name))
			return &c->benchmarks[i];
	return NULL;
}

char *config_expand(const char *template, int threads, int ranks, long long size, int repeat)
{
	const long long values[] = {
		[PH_THREADS] = threads, [PH_RANKS] = ranks, [PH_SIZE] = size, [PH_REPEAT] = repeat,
	};
	struct strbuf sb = STRBUF_INIT;
	size_t start, len, from = 0;
	const char *name;

	while ((name = config_next_placeholder(template, from, &start, &len))) {
		int k = config_placeholder_index(name, len);

		strbuf_add(&sb, template + from, start - from);
		from = start + len + 2;
		if (k < 0)
			strbuf_add(&sb, template + start, len + 2); /* not ours: keep it */
		else if (k != PH_SIZE || size != CONFIG_NO_SIZE)
			strbuf_addf(&sb, "%lld", values[k]);
	}
	strbuf_addstr(&sb, template + from);
	return strbuf_detach(&sb);
}

char *config_expand_command(const struct bench_config *b, int threads, int ranks,
			    long long size, int repeat)
{
	char *cmd = config_expand(b->command, threads, ranks, size, repeat), *launcher, *line;

	if (ranks <= 1 || !b->launcher || !*b->launcher)
		return cmd;
	launcher = config_expand(b->launcher, threads, ranks, size, repeat);
	line = xstrfmt("%s %s", launcher, cmd);
	free(launcher);
	free(cmd);
	return line;
}
