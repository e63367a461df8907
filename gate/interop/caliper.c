/*
 * Reader of Caliper's json-split (cali-query's "format json-split", the hatchet-region-profile
 * config): the region tree of 'nodes', one row per region (and rank), as one profile per rank
 * whose intervals are the regions (docs/interop.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/yamldoc.h"
#include "interop/interop.h"

/* The columns read, by the names Caliper's configs and Hatchet give them; seconds. */
static const char *const inclusive_names[] = {"time (inc)", "inclusive#sum#time.duration",
					      "sum#avg#inclusive#sum#time.duration", NULL};
static const char *const exclusive_names[] = {"time", "sum#time.duration",
					      "sum#avg#sum#time.duration", NULL};
static const char *const count_names[] = {"count", "sum#count", "region.count", NULL};

struct split {
	struct yamldoc d;
	yaml_node_t *data, *nodes;
	int path, rank, inc, exc, count;  /* column indexes, -1 when absent */
	size_t nr_nodes;
	int *parent;                       /* per node of 'nodes', -1 for a root */
	const char **label;
	int ranks;                         /* ranks the cells have room for */
	int max_rank;                      /* the largest seen, -1: no rank column */
};

static int column_of(struct split *s, yaml_node_t *columns, const char *const *names)
{
	struct yamldoc_iter it;

	for (const char *const *n = names; *n; n++) {
		yamldoc_list_iter(&it, &s->d, columns);
		while (yamldoc_list_next(&it))
			if (yamldoc_scalar(it.value) && !strcmp(yamldoc_scalar(it.value), *n))
				return (int)it.index;
	}
	return -1;
}

static int read_columns(struct split *s, yaml_node_t *root)
{
	yaml_node_t *columns = yamldoc_map_get(&s->d, root, "columns");

	s->data = yamldoc_map_get(&s->d, root, "data");
	s->nodes = yamldoc_map_get(&s->d, root, "nodes");
	if (!columns || !s->data || !s->nodes || !yamldoc_is_list(columns) ||
	    !yamldoc_is_list(s->data) || !yamldoc_is_list(s->nodes))
		return yamldoc_error(&s->d, root, "no 'data', 'columns' and 'nodes' lists: not "
				     "Caliper's json-split");
	s->path = column_of(s, columns, (const char *const[]){"path", NULL});
	s->rank = column_of(s, columns, (const char *const[]){"mpi.rank", "rank", NULL});
	s->inc = column_of(s, columns, inclusive_names);
	s->exc = column_of(s, columns, exclusive_names);
	s->count = column_of(s, columns, count_names);
	if (s->path < 0)
		return yamldoc_error(&s->d, columns, "no 'path' column: scalegate imports regions "
				     "(the hatchet-region-profile config, or 'select path')");
	if (s->inc < 0 && s->exc < 0)
		return yamldoc_error(&s->d, columns, "no time column ('time', 'time (inc)', "
				     "'sum#time.duration' or 'inclusive#sum#time.duration')");
	return 0;
}

static int read_nodes(struct split *s)
{
	struct yamldoc_iter it;

	s->nr_nodes = yamldoc_size(s->nodes);
	s->parent = xcalloc(s->nr_nodes + 1, sizeof(*s->parent));
	s->label = xcalloc(s->nr_nodes + 1, sizeof(*s->label));
	yamldoc_list_iter(&it, &s->d, s->nodes);
	while (yamldoc_list_next(&it)) {
		yaml_node_t *label = yamldoc_map_get(&s->d, it.value, "label");
		yaml_node_t *parent = yamldoc_map_get(&s->d, it.value, "parent");
		long long p = -1;
		if (!label || !(s->label[it.index] = yamldoc_get_str(&s->d, label, "label")))
			return yamldoc_error(&s->d, it.value, "node %zu has no 'label'", it.index);
		if (parent && yamldoc_get_int(&s->d, parent, "parent", 0, (long long)it.index - 1,
					      &p))
			return -1;
		s->parent[it.index] = (int)p;
	}
	return 0;
}

/* A row's value in column 'col' as a number; NAN when the column is absent. */
static int row_value(struct split *s, yaml_node_t *row, int col, const char *what, double *v)
{
	yaml_node_t *n;
	long long i = 0;

	*v = NAN;
	if (col < 0)
		return 0;
	if ((size_t)col >= yamldoc_size(row))
		return yamldoc_error(&s->d, row, "a row of %zu values lacks column %d ('%s')",
				     yamldoc_size(row), col, what);
	n = yaml_document_get_node(&s->d.doc, row->data.sequence.items.start[col]);
	if (yamldoc_is_null(n))
		return 0;
	if (!strcmp(what, "path") || !strcmp(what, "mpi.rank")) {
		if (yamldoc_get_int(&s->d, n, what, 0, 1 << 24, &i))
			return -1;
		*v = (double)i;
		return 0;
	}
	return yamldoc_get_double(&s->d, n, what, 0, 1e15, v);
}

/* Per rank and node: inclusive and exclusive time and count, NAN where no row gave them. */
struct cell {
	double inc, exc, count;
};

static int read_rows(struct split *s, struct cell **cells)
{
	struct yamldoc_iter it;

	s->ranks = 1;
	yamldoc_list_iter(&it, &s->d, s->data);
	while (yamldoc_list_next(&it)) {
		double path, rank, inc, exc, count;
		struct cell *c;
		if (!yamldoc_is_list(it.value))
			return yamldoc_error(&s->d, it.value, "a row of 'data' must be a list");
		if (row_value(s, it.value, s->path, "path", &path) ||
		    row_value(s, it.value, s->rank, "mpi.rank", &rank) ||
		    row_value(s, it.value, s->inc, "time (inc)", &inc) ||
		    row_value(s, it.value, s->exc, "time", &exc) ||
		    row_value(s, it.value, s->count, "count", &count))
			return -1;
		if (isnan(path))
			continue; /* time outside every region */
		if (path >= (double)s->nr_nodes)
			return yamldoc_error(&s->d, it.value, "path %.0f is no node", path);
		rank = isnan(rank) ? 0 : rank;
		s->max_rank = s->rank < 0 ? -1 : (int)fmax(s->max_rank, rank);
		while ((int)rank >= s->ranks) {
			*cells = xrealloc(*cells, 2 * s->ranks * s->nr_nodes * sizeof(**cells));
			for (size_t i = s->ranks * s->nr_nodes; i < 2 * s->ranks * s->nr_nodes; i++)
				(*cells)[i] = (struct cell){ NAN, NAN, NAN };
			s->ranks *= 2;
		}
		c = &(*cells)[(size_t)rank * s->nr_nodes + (size_t)path];
		c->inc = isnan(c->inc) ? inc : c->inc + inc;
		c->exc = isnan(c->exc) ? exc : c->exc + exc;
		c->count = isnan(c->count) ? count : c->count + count;
	}
	return 0;
}

/* Inclusive times from exclusive ones where the file has no inclusive column: a parent precedes
 * its children in 'nodes', so children are summed first walking backwards. */
static void fill_inclusive(const struct split *s, struct cell *c)
{
	for (size_t i = s->nr_nodes; i-- > 0;) {
		if (s->inc >= 0 || isnan(c[i].exc))
			continue;
		c[i].inc = isnan(c[i].inc) ? c[i].exc : c[i].inc + c[i].exc;
		if (s->parent[i] >= 0) {
			struct cell *p = &c[s->parent[i]];
			p->inc = isnan(p->inc) ? c[i].inc : p->inc + c[i].inc;
		}
	}
}

static void build_profile(const struct split *s, struct import_run *r, int rank,
			  struct cell *c, int roots)
{
	struct profile *p = import_add_profile(r, s->max_rank < 0 ? -1 : rank, "caliper");
	int *node = xcalloc(s->nr_nodes + 1, sizeof(*node));
	double total = 0;

	profile_add_meta(p, "omp", "none");
	profile_add_meta(p, "mpi", s->max_rank > 0 ? "none" : "absent");
	profile_add_thread(p, 0, 1);
	fill_inclusive(s, c);
	if (roots != 1)
		profile_add_node(p, -1, profile_add_region(p, "program", r->source, 0));
	for (size_t i = 0; i < s->nr_nodes; i++) {
		int parent = s->parent[i] >= 0 ? node[s->parent[i]] : 0;
		struct profile_stat *st;
		node[i] = profile_add_node(p, roots == 1 && s->parent[i] < 0 ? -1 : parent,
					   profile_add_region(p, s->label[i], r->source, 0));
		if (isnan(c[i].inc))
			continue;
		st = profile_add_stat(p, node[i], 0);
		st->v[PROFILE_TIME] = c[i].inc;
		st->v[PROFILE_COUNT] = isnan(c[i].count) ? 1 : c[i].count;
		total += s->parent[i] < 0 ? c[i].inc : 0;
	}
	if (roots != 1) {
		struct profile_stat *st = profile_add_stat(p, 0, 0);
		st->v[PROFILE_TIME] = total;
		st->v[PROFILE_COUNT] = 1;
	}
	r->wall = isnan(r->wall) ? total : fmax(r->wall, total);
	free(node);
}

static int count_roots(const struct split *s)
{
	int roots = 0;

	for (size_t i = 0; i < s->nr_nodes; i++)
		roots += s->parent[i] < 0;
	return roots;
}

int caliper_import(struct import_set *set, const char *path, const char *benchmark,
		   const char *size)
{
	struct split s = { .max_rank = 0 };
	struct cell *cells = NULL;
	struct import_run *r;
	int ret = -1;

	yamldoc_init(&s.d);
	if (yamldoc_load(&s.d, path))
		return -1;
	if (read_columns(&s, yamldoc_root(&s.d)) || read_nodes(&s))
		goto out;
	if (!s.nr_nodes) {
		yamldoc_error(&s.d, s.nodes, "no regions in 'nodes'");
		goto out;
	}
	cells = xmalloc(s.nr_nodes * sizeof(*cells));
	for (size_t i = 0; i < s.nr_nodes; i++)
		cells[i] = (struct cell){ NAN, NAN, NAN };
	if (read_rows(&s, &cells))
		goto out;
	r = import_add_run(set, path, benchmark, size);
	r->ranks = s.max_rank < 0 ? 1 : s.max_rank + 1;
	r->threads = 1;
	for (int rank = 0; rank < r->ranks; rank++)
		build_profile(&s, r, rank, cells + (size_t)rank * s.nr_nodes, count_roots(&s));
	if (!set->origin)
		set->origin = xstrdup("Caliper json-split");
	ret = 0;
out:
	free(cells);
	free(s.parent);
	free(s.label);
	yamldoc_release(&s.d);
	return ret;
}
