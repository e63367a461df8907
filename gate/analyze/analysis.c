/* Characteristics of one run: per interval, the lost-time decomposition of docs/metrics.md from the
 * ranks' profiles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis-priv.h"
#include "analyze/analysis.h"
#include "analyze/lost-terms.h"
#include "base/util.h"

static const char *const collective_kinds[] = {
	"barrier", "bcast", "reduce", "allreduce", "gather", "allgather",
	"scatter", "alltoall", "reduce_scatter", "scan",
};
_Static_assert(ARRAY_SIZE(collective_kinds) == NR_COLL, "NR_COLL counts collective_kinds");
_Static_assert((int)PROFILE_RED_NR_QUANTITIES == (int)ANALYSIS_NR_PQ,
	       "a reduced profile holds every per-processor quantity");
_Static_assert((int)PROFILE_NR_COLUMNS == (int)SG_NR_STAT_COLUMNS &&
		       (int)PROFILE_MPI_NR_COLUMNS == (int)SG_NR_MPI_COLUMNS,
	       "the reader's columns are format/columns.h's, in its order");

static const char *const figure_names[] = {
#define X(id, name, needs) name,
	ANALYSIS_FIGURES(X)
#undef X
};

static const char *const pq_names[] = {
#define X(id, name, needs) name,
	ANALYSIS_PER_PROCESSOR(X)
#undef X
};

void analysis_init(struct analysis *a)
{
	memset(a, 0, sizeof(*a));
}

void analysis_release(struct analysis *a)
{
	for (size_t i = 0; i < a->nr_intervals; i++) {
		free(a->intervals[i].benchmark);
		free(a->intervals[i].path);
		free(a->intervals[i].file);
	}
	for (size_t i = 0; i < a->nr_configs; i++) {
		struct analysis_config *c = &a->configs[i];
		for (size_t r = 0; r < c->nr_runs; r++)
			free(c->runs[r].points);
		free(c->runs);
		free(c->benchmark);
		free(c->size);
	}
	for (size_t i = 0; i < a->nr_annotations; i++) {
		struct analysis_annotation *n = &a->annotations[i];
		free(n->benchmark);
		free(n->kind);
		free(n->interval);
		free(n->file);
		free(n->size);
	}
	free(a->annotations);
	for (size_t i = 0; i < a->nr_damaged; i++) {
		free(a->damaged[i].benchmark);
		free(a->damaged[i].size);
		free(a->damaged[i].message);
	}
	free(a->damaged);
	for (size_t i = 0; i < a->nr_fingerprint; i++)
		free(a->fingerprint[i]);
	analysis_index_release(a);
	free(a->intervals);
	free(a->configs);
	free(a->fingerprint);
	free(a->dir);
	analysis_init(a);
}

struct analysis_config *analysis_config_get(struct analysis *a, const char *benchmark,
					    const char *size, int ranks, int threads)
{
	struct analysis_config *c;

	for (size_t i = 0; i < a->nr_configs; i++) {
		c = &a->configs[i];
		if (!strcmp(c->benchmark, benchmark) && !strcmp(c->size, size) &&
		    c->ranks == ranks && c->threads == threads)
			return c;
	}
	ALLOC_GROW(a->configs, a->nr_configs + 1, a->alloc_configs);
	c = &a->configs[a->nr_configs++];
	memset(c, 0, sizeof(*c));
	c->benchmark = xstrdup(benchmark);
	c->size = xstrdup(size);
	c->ranks = ranks;
	c->threads = threads;
	return c;
}

const char *analysis_figure_name(enum analysis_figure f)
{
	return figure_names[f];
}

const char *analysis_pq_name(enum analysis_pq q)
{
	return pq_names[q];
}

static int collective_index(const char *kind)
{
	for (size_t k = 0; k < NR_COLL; k++)
		if (!strcmp(kind, collective_kinds[k]))
			return (int)k;
	return -1;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Workers are keyed by OpenMP thread number (slots of exited threads are reused); unknown ones by
 * slot. */
static int worker_key(const struct profile *p, size_t slot)
{
	int omp = p->threads[slot].omp_thread;

	return omp >= 1 ? omp : 1000000 + (int)slot;
}

static void view_map_threads(struct rank_view *rv)
{
	const struct profile *p = rv->p;
	int *keys = xcalloc(p->nr_threads + 1, sizeof(*keys));
	size_t n = 0;

	rv->slot = xcalloc(p->nr_threads + 1, sizeof(*rv->slot));
	for (size_t s = 0; s < p->nr_threads; s++)
		if (!p->threads[s].is_main)
			keys[n++] = worker_key(p, s);
	qsort(keys, n, sizeof(*keys), cmp_int);
	rv->threads = 1;
	for (size_t i = 0; i < n; i++)
		if (!i || keys[i] != keys[i - 1])
			keys[rv->threads++ - 1] = keys[i];
	for (size_t s = 0; s < p->nr_threads; s++) {
		rv->slot[s] = 0;
		if (p->threads[s].is_main)
			continue;
		for (int i = 0; i < rv->threads - 1; i++)
			if (keys[i] == worker_key(p, s))
				rv->slot[s] = i + 1;
	}
	free(keys);
}

static void view_add_stats(struct rank_view *rv)
{
	const struct profile *p = rv->p;

	for (size_t i = 0; i < p->nr_stats; i++) {
		const struct profile_stat *s = &p->stats[i];
		int t = rv->slot[s->thread];
		double *c = cell(rv, (size_t)s->node, t);

		sg_rank_add_stat(c, s->v, t, &rv->team_delay, &rv->mpi_delay);
	}
	for (size_t i = 0; i < p->nr_mpi; i++) {
		const struct profile_mpi *m = &p->mpi[i];
		int k = collective_index(m->kind);
		double *c = cell(rv, (size_t)m->node, rv->slot[m->thread]);

		sg_rank_add_mpi(c, k < 0 ? NULL :
				&rv->coll[((size_t)m->node * NR_COLL + (size_t)k) * 2], m->v);
	}
}

/* Exclusive columns summed over subtrees; a worker's inherited frames below a node added to its
 * time (and their run-queue delay and on-CPU time to its own, inclusive like the time). */
static void view_make_inclusive(struct rank_view *rv)
{
	const struct profile *p = rv->p;
	size_t nt = (size_t)rv->threads;
	double *inh_below = xcalloc(p->nr_nodes * nt + 1, sizeof(double));
	double *inhq_below = xcalloc(p->nr_nodes * nt + 1, sizeof(double));
	double *inhc_below = xcalloc(p->nr_nodes * nt + 1, sizeof(double));

	/* An interval a thread other than the main one entered outside any of its own (a pthread's
	 * first SG_BEGIN, a worker's at the top of a body that inherited nothing) is the bottom of
	 * that thread's stack too: its time is in no ancestor's record of that thread. */
	for (size_t n = 1; n < p->nr_nodes; n++)
		for (int t = 1; t < rv->threads; t++) {
			double *c = cell(rv, n, t);
			const double *parent = cell(rv, (size_t)p->nodes[n].parent, t);
			if (c[RV_COUNT] > 0 && parent[RV_TIME] == 0) {
				c[RV_INH] += c[RV_TIME];
				c[RV_INHQ] += c[RV_RQ];
				c[RV_INHC] += c[RV_CPU];
			}
		}

	for (size_t n = p->nr_nodes; n-- > 1;) {
		size_t up = (size_t)p->nodes[n].parent;
		for (int t = 0; t < rv->threads; t++) {
			double *c = cell(rv, n, t), *u = cell(rv, up, t);
			size_t to = up * nt + (size_t)t, from = n * nt + (size_t)t;
			sg_rank_add_exclusive(u, c);
			inh_below[to] += c[RV_INH] + inh_below[from];
			inhq_below[to] += c[RV_INHQ] + inhq_below[from];
			inhc_below[to] += c[RV_INHC] + inhc_below[from];
		}
		for (size_t k = 0; k < NR_COLL * 2; k++) {
			double c = rv->coll[n * NR_COLL * 2 + k],
			       *u = &rv->coll[up * NR_COLL * 2 + k];
			if (!isnan(c))
				*u = z(*u) + c;
		}
	}
	for (size_t n = 0; n < p->nr_nodes; n++)
		for (int t = 1; t < rv->threads; t++) {
			cell(rv, n, t)[RV_TIME] += inh_below[n * nt + (size_t)t];
			cell(rv, n, t)[RV_RQ] += inhq_below[n * nt + (size_t)t];
			cell(rv, n, t)[RV_CPU] += inhc_below[n * nt + (size_t)t];
		}
	free(inh_below);
	free(inhq_below);
	free(inhc_below);
}

static void view_init(struct analysis *a, const char *benchmark, struct rank_view *rv,
		      const struct profile *p)
{
	const char *omp = profile_meta(p, "omp"), *mpi = profile_meta(p, "mpi");
	const char *sched = profile_meta(p, "sched");
	const unsigned long omp_columns = 1ul << PROFILE_OMP_BARRIER | 1ul << PROFILE_OMP_LOCK |
					  1ul << PROFILE_OMP_IDLE;

	memset(rv, 0, sizeof(*rv));
	rv->p = p;
	rv->omp = omp && strcmp(omp, "none") && strcmp(omp, "-");
	/* "absent": no MPI library in the process, so nothing to capture: MPI time is 0, not
	 * unknown */
	rv->mpi = mpi && strcmp(mpi, "none") && strcmp(mpi, "-");
	/* without the CPUs it was given, its own queueing cannot be told from the machine's */
	rv->sched = sched && !strcmp(sched, "schedstat") && profile_meta_num(p, "cpus", 0) >= 1;
	/* a column the file lacks (an older tracer's) was not captured, whatever its meta says:
	 * what needs it is absent, never a measured 0 */
	rv->omp &= (p->stat_columns & omp_columns) == omp_columns;
	rv->sched &= p->stat_columns >> PROFILE_RQ_WAIT & 1;
	rv->mpi &= !p->nr_mpi || p->mpi_columns >> PROFILE_MPI_TIME & 1;
	view_map_threads(rv);
	rv->v = xcalloc(p->nr_nodes * (size_t)rv->threads * RV_NR + 1, sizeof(double));
	rv->coll = xmalloc((p->nr_nodes * NR_COLL * 2 + 1) * sizeof(double));
	for (size_t i = 0; i < p->nr_nodes * NR_COLL; i++) {
		rv->coll[2 * i] = 0;
		rv->coll[2 * i + 1] = NAN;
	}
	view_add_stats(rv);
	view_make_inclusive(rv);
	rv->interval = xmalloc((p->nr_nodes + 1) * sizeof(int));
	for (size_t n = 0; n < p->nr_nodes; n++) {
		const struct profile_region *r = &p->regions[p->nodes[n].region];
		rv->interval[n] = analysis_interval_id(a, benchmark, p->nodes[n].path, r->file,
						       r->line, p->nodes[n].depth);
	}
}

static void view_release(struct rank_view *rv)
{
	free(rv->slot);
	free(rv->v);
	free(rv->coll);
	free(rv->interval);
}

/* The threads a rank can run at once: the most the tracer saw, at least those that left records. */
static double rank_threads(const struct rank_view *rv)
{
	double n = profile_meta_num(rv->p, "threads_max", 0);

	return n > rv->threads ? n : rv->threads;
}

/*
 * Each rank's self_rate: with D runnable threads of the program's ranks on a host that gave them
 * C CPUs (the largest affinity mask there: conservative when ranks are pinned apart), a thread may
 * wait 1 - C/D of its time for the program's own threads. That delay is the program's: it is never
 * interference.
 */
static void self_rates(struct rank_view *rv, size_t nr)
{
	for (size_t r = 0; r < nr; r++) {
		const char *host = profile_meta(rv[r].p, "host");
		double demand = 0, cpus = 0;

		for (size_t o = 0; o < nr; o++) {
			const char *h = profile_meta(rv[o].p, "host");
			if (host && h && strcmp(host, h))
				continue;
			demand += rank_threads(&rv[o]);
			if (profile_meta_num(rv[o].p, "cpus", 0) > cpus)
				cpus = profile_meta_num(rv[o].p, "cpus", 0);
		}
		rv[r].self_rate = cpus > 0 && demand > cpus ? 1 - cpus / demand : 0;
	}
}

static struct analysis_run *run_new(struct analysis *a, struct analysis_config *c, int repeat)
{
	struct analysis_run *run;

	ALLOC_GROW(c->runs, c->nr_runs + 1, c->alloc_runs);
	run = &c->runs[c->nr_runs++];
	run->repeat = repeat;
	run->contention = NAN;
	run->nr_points = a->nr_intervals;
	run->points = xcalloc(run->nr_points + 1, sizeof(*run->points));
	return run;
}

/* A job's one profile: each interval's figures from its reduced record, no loop over ranks. */
static int add_reduced_run(struct analysis *a, struct analysis_config *c, int repeat,
			   const struct profile *p)
{
	int *id = xmalloc((p->nr_nodes + 1) * sizeof(int));
	struct analysis_run *run;

	if (c->threads > p->reduced_threads) {
		free(id);
		return gate_error("'%s' counts %d processors per rank, the configuration runs %d "
				  "threads (was OMP_NUM_THREADS set for the ranks?)", p->path,
				  p->reduced_threads, c->threads);
	}
	if (!c->threads)
		c->threads = p->reduced_threads;
	for (size_t n = 0; n < p->nr_nodes; n++) {
		const struct profile_region *r = &p->regions[p->nodes[n].region];
		id[n] = analysis_interval_id(a, c->benchmark, p->nodes[n].path, r->file, r->line,
					     p->nodes[n].depth);
	}
	run = run_new(a, c, repeat);
	for (size_t n = 0; n < p->nr_nodes; n++)
		analysis_point_reduced(&p->reduced[n], p->reduced_ranks, p->reduced_threads,
				       &run->points[id[n]]);
	free(id);
	return 0;
}

int analysis_add_run(struct analysis *a, struct analysis_config *c, int repeat,
		     const struct profile *ranks, size_t nr_ranks)
{
	struct rank_view *rv = xcalloc(nr_ranks + 1, sizeof(*rv));
	int *node = xmalloc((nr_ranks + 1) * sizeof(int));
	struct analysis_run *run;
	struct interval_ranks ir = { rv, node, nr_ranks, c->threads };

	if (!nr_ranks || ranks[0].reduced_ranks) {
		free(rv);
		free(node);
		if (nr_ranks)
			return add_reduced_run(a, c, repeat, &ranks[0]);
		return gate_error("no profiles for '%s', repeat %d", c->benchmark, repeat);
	}
	for (size_t r = 0; r < nr_ranks; r++) {
		view_init(a, c->benchmark, &rv[r], &ranks[r]);
		if (rv[r].threads > ir.threads)
			ir.threads = rv[r].threads;
	}
	self_rates(rv, nr_ranks);
	if (!c->threads)
		c->threads = ir.threads;
	run = run_new(a, c, repeat);
	/* inverse maps: interval id -> node of each rank */
	int *inv = xmalloc((run->nr_points * nr_ranks + 1) * sizeof(int));
	for (size_t k = 0; k < run->nr_points * nr_ranks; k++)
		inv[k] = -1;
	for (size_t r = 0; r < nr_ranks; r++)
		for (size_t n = 0; n < ranks[r].nr_nodes; n++)
			inv[(size_t)rv[r].interval[n] * nr_ranks + r] = (int)n;
	for (size_t i = 0; i < run->nr_points; i++) {
		int any = 0;
		for (size_t r = 0; r < nr_ranks; r++)
			any |= (node[r] = inv[i * nr_ranks + r]) >= 0;
		if (any)
			analysis_point_compute(&ir, &run->points[i]);
	}
	for (size_t r = 0; r < nr_ranks; r++)
		view_release(&rv[r]);
	free(inv);
	free(rv);
	free(node);
	return 0;
}
