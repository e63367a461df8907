/* Writer of the profile format (tracer/PROFILE.md) for profiles the gate builds itself: imports of
 * other tools' data, sealed with the same end record the tracer writes. */
#include "results/profile.h"

#include <math.h>
#include <string.h>

#include "base/util.h"
#include "results/tsv.h"

void profile_add_meta(struct profile *p, const char *key, const char *value)
{
	ALLOC_GROW(p->meta, p->nr_meta + 1, p->alloc_meta);
	p->meta[p->nr_meta++] = (struct profile_meta){ xstrdup(key), xstrdup(value) };
}

int profile_add_region(struct profile *p, const char *name, const char *file, int line)
{
	ALLOC_GROW(p->regions, p->nr_regions + 1, p->alloc_regions);
	p->regions[p->nr_regions] = (struct profile_region){ xstrdup(name), xstrdup(file), line };
	return (int)p->nr_regions++;
}

int profile_add_node(struct profile *p, int parent, int region)
{
	struct profile_node n = { parent, region, 0, 0, 0, NULL };

	n.depth = parent < 0 ? 0 : p->nodes[parent].depth + 1;
	n.path = profile_node_path(p, &n);
	ALLOC_GROW(p->nodes, p->nr_nodes + 1, p->alloc_nodes);
	p->nodes[p->nr_nodes] = n;
	return (int)p->nr_nodes++;
}

int profile_add_thread(struct profile *p, int omp_thread, int is_main)
{
	ALLOC_GROW(p->threads, p->nr_threads + 1, p->alloc_threads);
	p->threads[p->nr_threads] = (struct profile_thread){ omp_thread, is_main };
	return (int)p->nr_threads++;
}

struct profile_stat *profile_add_stat(struct profile *p, int node, int thread)
{
	struct profile_stat *s;

	ALLOC_GROW(p->stats, p->nr_stats + 1, p->alloc_stats);
	s = &p->stats[p->nr_stats++];
	s->node = node;
	s->thread = thread;
	for (int c = 0; c < PROFILE_NR_COLUMNS; c++)
		s->v[c] = NAN;
	p->stat_columns = (1ul << PROFILE_NR_COLUMNS) - 1; /* profile_write() writes them all */
	return s;
}

struct profile_mpi *profile_add_mpi(struct profile *p, int node, int thread, const char *kind)
{
	struct profile_mpi *m;

	ALLOC_GROW(p->mpi, p->nr_mpi + 1, p->alloc_mpi);
	m = &p->mpi[p->nr_mpi++];
	m->node = node;
	m->thread = thread;
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	for (int c = 0; c < PROFILE_MPI_NR_COLUMNS; c++)
		m->v[c] = NAN;
	p->mpi_columns = (1ul << PROFILE_MPI_NR_COLUMNS) - 1;
	return m;
}

/* '-' for a value not captured; enough digits that nanoseconds of an hour-long run survive. */
static void add_value(struct strbuf *sb, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "\t-");
	else
		strbuf_addf(sb, "\t%.15g", v);
}

static void add_tables(struct strbuf *sb, const struct profile *p)
{
	strbuf_addstr(sb, "columns\tregion\tid\tname\tfile\tline\n");
	for (size_t i = 0; i < p->nr_regions; i++) {
		strbuf_addf(sb, "region\t%zu\t", i);
		tsv_add_escaped(sb, p->regions[i].name);
		strbuf_addch(sb, '\t');
		tsv_add_escaped(sb, p->regions[i].file);
		strbuf_addf(sb, "\t%d\n", p->regions[i].line);
	}
	strbuf_addstr(sb, "columns\tnode\tid\tparent\tregion\ttag\n");
	for (size_t i = 0; i < p->nr_nodes; i++) {
		const struct profile_node *n = &p->nodes[i];
		strbuf_addf(sb, "node\t%zu\t", i);
		strbuf_addf(sb, n->parent < 0 ? "-" : "%d", n->parent);
		strbuf_addf(sb, "\t%d\t", n->region);
		strbuf_addf(sb, n->has_tag ? "%lld\n" : "-\n", n->tag);
	}
	strbuf_addstr(sb, "columns\tthread\tid\tomp_thread\tkind\n");
	for (size_t i = 0; i < p->nr_threads; i++)
		strbuf_addf(sb, "thread\t%zu\t%d\t%s\n", i, p->threads[i].omp_thread,
			    p->threads[i].is_main ? "main" : "worker");
}

static void add_records(struct strbuf *sb, const struct profile *p)
{
	strbuf_addstr(sb, "columns\tstat\tnode\tthread");
	for (int c = 0; c < PROFILE_NR_COLUMNS; c++)
		strbuf_addf(sb, "\t%s", profile_column_name(c));
	strbuf_addch(sb, '\n');
	for (size_t i = 0; i < p->nr_stats; i++) {
		strbuf_addf(sb, "stat\t%d\t%d", p->stats[i].node, p->stats[i].thread);
		for (int c = 0; c < PROFILE_NR_COLUMNS; c++)
			add_value(sb, p->stats[i].v[c]);
		strbuf_addch(sb, '\n');
	}
	if (!p->nr_mpi)
		return;
	strbuf_addstr(sb, "columns\tmpi\tnode\tthread\tkind");
	for (int c = 0; c < PROFILE_MPI_NR_COLUMNS; c++)
		strbuf_addf(sb, "\t%s", profile_mpi_column_name(c));
	strbuf_addch(sb, '\n');
	for (size_t i = 0; i < p->nr_mpi; i++) {
		strbuf_addf(sb, "mpi\t%d\t%d\t%s", p->mpi[i].node, p->mpi[i].thread,
			    p->mpi[i].kind);
		for (int c = 0; c < PROFILE_MPI_NR_COLUMNS; c++)
			add_value(sb, p->mpi[i].v[c]);
		strbuf_addch(sb, '\n');
	}
}

int profile_write(const struct profile *p, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "scalegate-profile\t%d\n", PROFILE_VERSION);
	for (size_t i = 0; i < p->nr_meta; i++) {
		strbuf_addf(&sb, "meta\t%s\t", p->meta[i].key);
		tsv_add_escaped(&sb, p->meta[i].value);
		strbuf_addch(&sb, '\n');
	}
	add_tables(&sb, p);
	add_records(&sb, p);
	profile_seal(&sb);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
