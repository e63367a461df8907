/* The matrix of a benchmark: its cells, less those of 'exclude:' (e.g. an oversubscribed 2 ranks x
 * 2 threads). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "config/config-priv.h"
#include "base/util.h"

static int parse_entry(struct config_loader *l, const yaml_node_t *v, struct config_exclude *e)
{
	static const char *const known[] = { "threads", "ranks", "size", NULL };
	struct yamldoc_iter it;
	char buf[64];
	long long n;
	int ret = 0, any = 0;

	*e = (struct config_exclude){ 0, 0, CONFIG_NO_SIZE, v };
	if (!yamldoc_is_map(v))
		return yamldoc_error(
			l->d, v,
			"an 'exclude' entry must be a mapping such as {ranks: 2, threads: 2}, "
			"not %s",
			yamldoc_describe(v, buf, sizeof(buf)));
	yamldoc_map_iter(&it, l->d, (yaml_node_t *)v);
	while (yamldoc_map_next(&it)) {
		if (!it.key || (strcmp(it.key, "threads") && strcmp(it.key, "ranks") &&
				strcmp(it.key, "size"))) {
			ret = yamldoc_unknown_key(l->d, it.key_node, known);
			continue;
		}
		any = 1;
		if (!strcmp(it.key, "size")) {
			if (yamldoc_get_int(l->d, it.value, "size", 0, LLONG_MAX, &n) < 0)
				ret = -1;
			else
				e->size = n;
		} else if (yamldoc_get_int(l->d, it.value, it.key, 1, 1 << 20, &n) < 0) {
			ret = -1;
		} else {
			*(!strcmp(it.key, "threads") ? &e->threads : &e->ranks) = (int)n;
		}
	}
	if (!any && !ret)
		return yamldoc_error(l->d, v,
				     "an 'exclude' entry needs 'threads', 'ranks' or 'size'");
	return ret;
}

int config_parse_exclude(struct config_loader *l, const yaml_node_t *v, struct bench_config *b)
{
	struct yamldoc_iter it;
	char buf[64];
	int ret = 0;

	if (!yamldoc_is_list(v))
		return yamldoc_error(l->d, v,
				     "'exclude' must be a list of cells such as [{ranks: 2, "
				     "threads: 2}], not %s",
				     yamldoc_describe(v, buf, sizeof(buf)));
	free(b->exclude);
	b->exclude = xmalloc((yamldoc_size(v) + 1) * sizeof(*b->exclude));
	b->nr_exclude = 0;
	yamldoc_list_iter(&it, l->d, (yaml_node_t *)v);
	while (yamldoc_list_next(&it))
		if (parse_entry(l, it.value, &b->exclude[b->nr_exclude]) < 0)
			ret = -1;
		else
			b->nr_exclude++;
	return ret;
}

static int matches(const struct config_exclude *e, const struct config_point *p)
{
	return (!e->threads || e->threads == p->threads) && (!e->ranks || e->ranks == p->ranks) &&
	       (e->size == CONFIG_NO_SIZE || e->size == p->size);
}

/* Whether 'exclude' removes the cell 'p'. */
static int config_excluded(const struct bench_config *b, const struct config_point *p)
{
	for (size_t i = 0; i < b->nr_exclude; i++)
		if (matches(&b->exclude[i], p))
			return 1;
	return 0;
}

/* The whole matrix, excluded cells included. */
static size_t full_size(const struct bench_config *b)
{
	return (b->nr_sizes ? b->nr_sizes : 1) * b->nr_ranks * b->nr_threads;
}

void config_check_exclude(struct config_loader *l, const struct bench_config *b,
			  const yaml_node_t *node)
{
	struct bench_config all = *b;
	struct config_point *p;
	size_t nr = 0, left = 0;

	if (!node || !b->nr_exclude)
		return;
	all.nr_exclude = 0;
	p = config_matrix_points(&all, &nr);
	for (size_t e = 0; e < b->nr_exclude; e++) {
		size_t hit = 0;
		for (size_t i = 0; i < nr; i++)
			hit += matches(&b->exclude[e], &p[i]);
		if (!hit)
			yamldoc_error(l->d, b->exclude[e].node,
				      "this 'exclude' entry matches no cell of the matrix "
				      "(threads, ranks and sizes as configured)");
	}
	for (size_t i = 0; i < nr; i++)
		left += !config_excluded(b, &p[i]);
	free(p);
	if (!left)
		yamldoc_error(l->d, node, "'exclude' removes every cell of the matrix");
}

static void full_point(const struct bench_config *b, size_t i, struct config_point *p)
{
	p->threads = b->threads[i % b->nr_threads];
	i /= b->nr_threads;
	p->ranks = b->ranks[i % b->nr_ranks];
	i /= b->nr_ranks;
	if (b->nr_sizes)
		p->size = b->sizes[i];
	else if (b->size_per_processor)
		p->size = b->size_per_processor * p->ranks * p->threads;
	else
		p->size = CONFIG_NO_SIZE;
}

size_t config_matrix_size(const struct bench_config *b)
{
	struct config_point p;
	size_t n = 0;

	for (size_t i = 0; i < full_size(b); i++) {
		full_point(b, i, &p);
		n += !config_excluded(b, &p);
	}
	return n;
}

void config_matrix_point(const struct bench_config *b, size_t i, struct config_point *p)
{
	for (size_t k = 0; k < full_size(b); k++) {
		full_point(b, k, p);
		if (!config_excluded(b, p) && !i--)
			return;
	}
}

struct config_point *config_matrix_points(const struct bench_config *b, size_t *nr)
{
	struct config_point *p = xcalloc(full_size(b) + 1, sizeof(*p));

	*nr = 0;
	for (size_t k = 0; k < full_size(b); k++) {
		full_point(b, k, &p[*nr]);
		*nr += !config_excluded(b, &p[*nr]);
	}
	return p;
}
