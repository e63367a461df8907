/*
 * Export of one run to Caliper's json-split, as Hatchet's Caliper reader and Thicket load it
 * (docs/interop.md): a node per interval, a row per interval and rank with its exclusive and
 * inclusive time (the rank's main thread) and its count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"
#include "interop/interop.h"
#include "results/results.h"

/* The intervals of every rank by path: node i of the export. */
struct tree {
	char **path;
	int *parent;
	size_t nr;
};

static int tree_find(const struct tree *t, const char *path)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->path[i], path))
			return (int)i;
	return -1;
}

static void tree_add(struct tree *t, const struct profile *p)
{
	for (size_t i = 0; i < p->nr_nodes; i++) {
		const struct profile_node *n = &p->nodes[i];
		if (tree_find(t, n->path) >= 0)
			continue;
		t->path = xrealloc(t->path, (t->nr + 1) * sizeof(*t->path));
		t->parent = xrealloc(t->parent, (t->nr + 1) * sizeof(*t->parent));
		t->path[t->nr] = n->path;
		t->parent[t->nr++] = n->parent < 0 ? -1 : tree_find(t, p->nodes[n->parent].path);
	}
}

/* The main thread's record of node 'node' in 'p', or NULL. */
static const struct profile_stat *main_stat(const struct profile *p, int node)
{
	for (size_t i = 0; i < p->nr_stats; i++)
		if (p->stats[i].node == node && p->threads[p->stats[i].thread].is_main)
			return &p->stats[i];
	return NULL;
}

static double zero_nan(double v)
{
	return isnan(v) ? 0 : v;
}

static void add_rows(struct strbuf *sb, const struct tree *t, const struct profile *p, int rank,
		     int *first)
{
	for (size_t i = 0; i < p->nr_nodes; i++) {
		const struct profile_stat *s = main_stat(p, (int)i);
		double inc, exc;
		if (!s)
			continue;
		inc = zero_nan(s->v[PROFILE_TIME]);
		exc = inc;
		for (size_t j = 0; j < p->nr_nodes; j++) {
			const struct profile_stat *c = p->nodes[j].parent == (int)i
							       ? main_stat(p, (int)j) : NULL;
			exc -= c ? zero_nan(c->v[PROFILE_TIME]) : 0;
		}
		strbuf_addf(sb, "%s\n  [%d, %d, ", *first ? "" : ",",
			    tree_find(t, p->nodes[i].path), rank);
		json_add_number(sb, fmax(exc, 0));
		strbuf_addstr(sb, ", ");
		json_add_number(sb, inc);
		strbuf_addstr(sb, ", ");
		json_add_number(sb, zero_nan(s->v[PROFILE_COUNT]));
		strbuf_addch(sb, ']');
		*first = 0;
	}
}

static void add_nodes(struct strbuf *sb, const struct tree *t)
{
	strbuf_addstr(sb, "\"nodes\": [");
	for (size_t i = 0; i < t->nr; i++) {
		const char *label = strrchr(t->path[i], '/');
		strbuf_addstr(sb, i ? ",\n  {\"label\": " : "\n  {\"label\": ");
		json_add_string(sb, label ? label + 1 : t->path[i]);
		strbuf_addstr(sb, ", \"column\": \"path\"");
		if (t->parent[i] >= 0)
			strbuf_addf(sb, ", \"parent\": %d", t->parent[i]);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "\n]");
}

static void add_metadata(struct strbuf *sb, const struct manifest_row *row)
{
	strbuf_addstr(sb, ",\n\"scalegate.benchmark\": ");
	json_add_string(sb, row->benchmark);
	strbuf_addstr(sb, ",\n\"scalegate.size\": ");
	json_add_string(sb, row->size);
	strbuf_addf(sb, ",\n\"mpi.world.size\": %d,\n\"omp.num.threads\": %d,\n"
		    "\"scalegate.repeat\": %d\n}\n", row->ranks, row->threads, row->repeat);
}

static void format(struct strbuf *sb, const struct profile *p, size_t n,
		   const struct manifest_row *row)
{
	struct tree t = { NULL, NULL, 0 };
	int first = 1;

	for (size_t i = 0; i < n; i++)
		tree_add(&t, &p[i]);
	strbuf_addstr(sb, "{\n\"data\": [");
	for (size_t i = 0; i < n; i++) {
		const char *rank = profile_meta(&p[i], "rank");
		add_rows(sb, &t, &p[i], rank && strcmp(rank, "-") ? atoi(rank) : 0, &first);
	}
	strbuf_addstr(sb, "\n],\n\"columns\": [\"path\", \"mpi.rank\", \"time\", \"time (inc)\", "
		      "\"count\"],\n\"column_metadata\": [{\"is_value\": false}, "
		      "{\"is_value\": true}, {\"is_value\": true}, {\"is_value\": true}, "
		      "{\"is_value\": true}],\n");
	add_nodes(sb, &t);
	add_metadata(sb, row);
	free(t.path);
	free(t.parent);
}

/* The manifest row 'pick' names (fields 0 or NULL: any), the first that matches. */
static long pick_row(const struct manifest *m, const struct manifest_row *pick)
{
	for (size_t i = 0; i < m->nr; i++) {
		const struct manifest_row *r = &m->rows[i];
		if (strcmp(r->status, "ok") ||
		    (pick->benchmark && strcmp(pick->benchmark, r->benchmark)) ||
		    (pick->size && strcmp(pick->size, r->size)) ||
		    (pick->ranks && pick->ranks != r->ranks) ||
		    (pick->threads && pick->threads != r->threads) ||
		    (pick->repeat && pick->repeat != r->repeat))
			continue;
		return (long)i;
	}
	return -1;
}

int hatchet_export(const char *dir, const struct manifest_row *pick, const char *out)
{
	struct results r;
	struct strbuf sb = STRBUF_INIT;
	const struct profile *p;
	size_t n;
	long row = -1;
	int ret = -1;

	results_init(&r, dir);
	if (results_load_manifest(&r))
		goto out;
	if (!r.has_manifest) {
		gate_error("'%s' has no manifest.tsv: not a results directory", dir);
		goto out;
	}
	if ((row = pick_row(&r.manifest, pick)) < 0) {
		gate_error("'%s' holds no successful run of that benchmark, configuration and "
			   "repeat", dir);
		goto out;
	}
	if (results_profiles(&r, (size_t)row, &p, &n))
		goto out;
	format(&sb, p, n, &r.manifest.rows[row]);
	ret = write_file_atomic(out, sb.buf, sb.len);
out:
	strbuf_release(&sb);
	results_release(&r);
	return ret;
}
