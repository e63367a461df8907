/* This rank's profile as the gate reads it (gate/analyze/analysis.c, the rank view): the values
 * the writer would write, rounded as it writes them, per thread and inclusive over subtrees. */
#include "reduce.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

static double z(double v)
{
	return isnan(v) ? 0 : v;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Workers are keyed by OpenMP thread number (slots of exited threads are reused); unknown ones by
 * slot. */
static int worker_key(int slot)
{
	int omp = sg_thread_at(slot)->omp_thread;

	return omp >= 1 ? omp : 1000000 + slot;
}

static int map_threads(struct sg_rview *rv)
{
	int n = 0, nr = sg_thread_count();
	int *keys = calloc((size_t)nr + 1, sizeof(*keys));

	rv->slot = calloc((size_t)nr + 1, sizeof(*rv->slot));
	if (!keys || !rv->slot) {
		free(keys);
		return -1;
	}
	for (int s = 0; s < nr; s++)
		if (!sg_thread_at(s)->is_main)
			keys[n++] = worker_key(s);
	qsort(keys, (size_t)n, sizeof(*keys), cmp_int);
	rv->threads = 1;
	for (int i = 0; i < n; i++)
		if (!i || keys[i] != keys[i - 1])
			keys[rv->threads++ - 1] = keys[i];
	for (int s = 0; s < nr; s++)
		for (int i = 0; i < rv->threads - 1 && !sg_thread_at(s)->is_main; i++)
			if (keys[i] == worker_key(s))
				rv->slot[s] = i + 1;
	free(keys);
	return 0;
}

/* One stat record as the gate adds it to its view: the values the writer writes, read back. */
static void add_stat(struct sg_rview *rv, const struct sg_thread *t, uint32_t node,
		     const struct sg_stat *s, double sec)
{
	int q = rv->slot[t->slot];
	double v[SG_NR_STAT_COLUMNS];

	sg_stat_values(t, s, sec, rv->omp, v);
	sg_stat_values_written(v);
	sg_rank_add_stat(sg_rview_cell(rv, node, q), v, q, &rv->team_delay, &rv->mpi_delay);
}

static void add_mpi(struct sg_rview *rv, int slot, uint32_t node, int kind,
		    const struct sg_mpi_stat *m, double sec)
{
	int k = kind >= SG_MPI_BARRIER && kind <= SG_MPI_SCAN ? kind - SG_MPI_BARRIER : -1;
	double v[SG_NR_MPI_COLUMNS];
	double *cw = k < 0 ? NULL : &rv->coll[((size_t)node * SG_RED_NR_COLL + (size_t)k) * 2];

	sg_mpi_values(m, kind, sec, v);
	sg_mpi_values_written(v);
	sg_rank_add_mpi(sg_rview_cell(rv, node, rv->slot[slot]), cw, v);
}

static void add_all(struct sg_rview *rv)
{
	double sec = 1.0 / sg_clock_hz();

	for (int i = 0; i < sg_thread_count(); i++) {
		struct sg_thread *t = sg_thread_at(i);
		for (uint32_t n = 0; n < rv->nodes; n++) {
			struct sg_stat *s = t->chunks[n / SG_CHUNK]
						    ? &t->chunks[n / SG_CHUNK][n % SG_CHUNK] : NULL;
			struct sg_mpi_stat *c = t->mpi_chunks[n / SG_CHUNK];
			if (s && (s->count || s->time))
				add_stat(rv, t, n, s, sec);
			for (int k = 0; c && rv->mpi && k < SG_MPI_NKINDS; k++) {
				struct sg_mpi_stat *m = &c[(n % SG_CHUNK) * SG_MPI_NKINDS + k];
				if (m->count)
					add_mpi(rv, i, n, k, m, sec);
			}
		}
	}
}

/* An interval a thread other than the main one entered outside any of its own is the bottom of
 * that thread's stack: its time is in no ancestor's record of that thread. */
static void mark_bottoms(struct sg_rview *rv)
{
	for (size_t n = 1; n < rv->nodes; n++)
		for (int t = 1; t < rv->threads; t++) {
			double *c = sg_rview_cell(rv, n, t);
			const double *up = sg_rview_cell(rv, sg_node_at((uint32_t)n)->parent, t);
			if (c[RV_COUNT] > 0 && up[RV_TIME] == 0) {
				c[RV_INH] += c[RV_TIME];
				c[RV_INHQ] += c[RV_RQ];
				c[RV_INHC] += c[RV_CPU];
			}
		}
}

static void add_up(struct sg_rview *rv, size_t n, size_t up, double *inh)
{
	size_t nt = (size_t)rv->threads;

	for (int t = 0; t < rv->threads; t++) {
		double *c = sg_rview_cell(rv, n, t), *u = sg_rview_cell(rv, up, t);
		double *to = &inh[(up * nt + (size_t)t) * 3];
		const double *from = &inh[(n * nt + (size_t)t) * 3];
		sg_rank_add_exclusive(u, c);
		to[0] += c[RV_INH] + from[0];
		to[1] += c[RV_INHQ] + from[1];
		to[2] += c[RV_INHC] + from[2];
	}
	for (size_t k = 0; k < SG_RED_NR_COLL * 2; k++) {
		double c = rv->coll[n * SG_RED_NR_COLL * 2 + k];
		double *u = &rv->coll[up * SG_RED_NR_COLL * 2 + k];
		if (!isnan(c))
			*u = z(*u) + c;
	}
}

/* Exclusive columns summed over subtrees; a worker's inherited frames below a node added to its
 * time, run-queue delay and on-CPU time. */
static int make_inclusive(struct sg_rview *rv)
{
	size_t nt = (size_t)rv->threads;
	double *inh = calloc(rv->nodes * nt * 3 + 1, sizeof(double));

	if (!inh)
		return -1;
	mark_bottoms(rv);
	for (size_t n = rv->nodes; n-- > 1;)
		add_up(rv, n, sg_node_at((uint32_t)n)->parent, inh);
	for (size_t n = 0; n < rv->nodes; n++)
		for (int t = 1; t < rv->threads; t++) {
			const double *in = &inh[(n * nt + (size_t)t) * 3];
			sg_rview_cell(rv, n, t)[RV_TIME] += in[0];
			sg_rview_cell(rv, n, t)[RV_RQ] += in[1];
			sg_rview_cell(rv, n, t)[RV_CPU] += in[2];
		}
	free(inh);
	return 0;
}

static char *node_path(const struct sg_rview *rv, size_t n)
{
	const struct sg_node_info *info = sg_node_at((uint32_t)n);
	const char *name = sg_region_at(info->region)->name;
	const char *up = info->parent == UINT32_MAX ? NULL : rv->path[info->parent];
	size_t len = (up ? strlen(up) + 1 : 0) + strlen(name) + 24;
	char *p = malloc(len);

	if (!p)
		return NULL;
	if (!up)
		snprintf(p, len, "%s", name);
	else if (info->tag == SG_NO_TAG)
		snprintf(p, len, "%s/%s", up, name);
	else
		snprintf(p, len, "%s/%s[%ld]", up, name, info->tag);
	return p;
}

struct sg_rview *sg_rview_new(void)
{
	struct sg_rview *rv = calloc(1, sizeof(*rv));
	int ok;

	if (!rv)
		return NULL;
	rv->nodes = sg_node_count();
	rv->omp = strcmp(sg_omp_mode, "none") != 0;
	rv->mpi = strcmp(sg_mpi_mode, "none") != 0;
	rv->sched = sg_sched_on && sg_cpus >= 1;
	rv->cpus = sg_cpus;
	rv->threads_max = sg_thread_count();
	ok = !map_threads(rv);
	rv->v = ok ? calloc(rv->nodes * (size_t)rv->threads * RV_NR + 1, sizeof(double)) : NULL;
	rv->coll = malloc((rv->nodes * SG_RED_NR_COLL * 2 + 1) * sizeof(double));
	rv->path = calloc(rv->nodes + 1, sizeof(char *));
	ok = ok && rv->v && rv->coll && rv->path;
	for (size_t i = 0; ok && i < rv->nodes * SG_RED_NR_COLL; i++) {
		rv->coll[2 * i] = 0;
		rv->coll[2 * i + 1] = NAN;
	}
	for (size_t n = 0; ok && n < rv->nodes; n++)
		ok = (rv->path[n] = node_path(rv, n)) != NULL;
	if (ok) {
		add_all(rv);
		ok = !make_inclusive(rv);
	}
	if (!ok) {
		sg_rview_free(rv);
		return NULL;
	}
	return rv;
}

void sg_rview_free(struct sg_rview *rv)
{
	if (!rv)
		return;
	for (size_t n = 0; rv->path && n < rv->nodes; n++)
		free(rv->path[n]);
	free(rv->path);
	free(rv->slot);
	free(rv->v);
	free(rv->coll);
	free(rv->job_node);
	free(rv);
}

static int cmp_path(const void *key, const void *elem)
{
	return strcmp((const char *)key, *(char *const *)elem);
}

int sg_rview_map(struct sg_rview *rv, char *const *job_paths, size_t nr_job)
{
	rv->job_node = malloc((nr_job + 1) * sizeof(int));
	if (!rv->job_node)
		return -1;
	rv->nr_job = nr_job;
	for (size_t i = 0; i < nr_job; i++)
		rv->job_node[i] = -1;
	for (size_t n = 0; n < rv->nodes; n++) {
		char *const *hit = bsearch(rv->path[n], job_paths, nr_job, sizeof(char *),
					   cmp_path);
		if (hit)
			rv->job_node[hit - job_paths] = (int)n;
	}
	return 0;
}
