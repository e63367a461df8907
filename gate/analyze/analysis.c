/* Characteristics of one run: per interval, the lost-time decomposition of docs/metrics.md from the
 * ranks' profiles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/lost-terms.h"
#include "base/util.h"

/* Per node and thread of one rank, inclusive over the node's subtree. */
enum {
	RV_TIME, RV_PAR, RV_COUNT, RV_B, RV_L, RV_D, RV_M, RV_PW, RV_INH,
	RV_RQ, RV_INHQ, RV_CPU, RV_INHC, RV_CPU_NAN, RV_NR
};
/* RV_PW: measured point-to-point waiting (recv, sendrecv, wait: tracer/MPI.md), part of RV_M;
 * RV_RQ, RV_CPU: run-queue delay and on-CPU time (inclusive like RV_TIME); RV_INHQ, RV_INHC:
 * their parts in inherited frames; RV_CPU_NAN: a record of the subtree lacked the on-CPU time */

static const char *const collective_kinds[] = {
	"barrier", "bcast", "reduce", "allreduce", "gather", "allgather",
	"scatter", "alltoall", "reduce_scatter", "scan",
};
#define NR_COLL ARRAY_SIZE(collective_kinds)

/* One rank's profile in the shape the formulas need. */
struct rank_view {
	const struct profile *p;
	int threads;     /* main + distinct workers seen */
	int *slot;       /* profile thread slot -> thread index (main = 0) */
	double *v;       /* [node][thread][RV_NR] */
	double *coll;    /* [node][kind][2]: time, wait (NAN while unmeasured) */
	int *interval;   /* node -> interval id */
	int omp, mpi;    /* captured */
	int sched;       /* run-queue delay captured and the CPUs the process was given known */
	double self_rate; /* share of a thread's time its program's threads may keep it waiting */
};

static const char *const figure_names[] = {
#define X(id, name, needs) name,
	ANALYSIS_FIGURES(X)
#undef X
};

static const enum analysis_needs figure_needs[] = {
#define X(id, name, needs) ANALYSIS_NEEDS_##needs,
	ANALYSIS_FIGURES(X)
#undef X
};

static const char *const pq_names[] = {
#define X(id, name, needs) name,
	ANALYSIS_PER_PROCESSOR(X)
#undef X
};

static const enum analysis_needs pq_needs[] = {
#define X(id, name, needs) ANALYSIS_NEEDS_##needs,
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

static double z(double v)
{
	return isnan(v) ? 0 : v;
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

static double *cell(const struct rank_view *rv, size_t node, int thread)
{
	return &rv->v[(node * (size_t)rv->threads + (size_t)thread) * RV_NR];
}

static void view_add_stats(struct rank_view *rv)
{
	const struct profile *p = rv->p;

	for (size_t i = 0; i < p->nr_stats; i++) {
		const struct profile_stat *s = &p->stats[i];
		int t = rv->slot[s->thread];
		double *c = cell(rv, (size_t)s->node, t);

		c[RV_TIME] += z(s->v[PROFILE_TIME]);
		c[RV_PAR] += z(s->v[PROFILE_PAR]);
		c[RV_COUNT] += z(s->v[PROFILE_COUNT]);
		c[RV_B] += z(s->v[PROFILE_OMP_BARRIER]);
		c[RV_L] += z(s->v[PROFILE_OMP_LOCK]);
		c[RV_D] += z(s->v[PROFILE_OMP_IDLE]);
		c[RV_RQ] += z(s->v[PROFILE_RQ_WAIT]);
		c[RV_CPU] += z(s->v[PROFILE_CPU]);
		c[RV_CPU_NAN] += isnan(s->v[PROFILE_CPU]);
		/* A worker's record without entries is an inherited frame: its time is in no
		 * ancestor's. */
		if (t && z(s->v[PROFILE_COUNT]) == 0) {
			c[RV_INH] += z(s->v[PROFILE_TIME]);
			c[RV_INHQ] += z(s->v[PROFILE_RQ_WAIT]);
			c[RV_INHC] += z(s->v[PROFILE_CPU]);
		}
	}
	for (size_t i = 0; i < p->nr_mpi; i++) {
		const struct profile_mpi *m = &p->mpi[i];
		int k = collective_index(m->kind);
		double t = z(m->v[PROFILE_MPI_TIME]);

		cell(rv, (size_t)m->node, rv->slot[m->thread])[RV_M] += t;
		if (k < 0 && !isnan(m->v[PROFILE_MPI_WAIT]))
			cell(rv, (size_t)m->node,
			     rv->slot[m->thread])[RV_PW] += m->v[PROFILE_MPI_WAIT];
		if (k >= 0) {
			double *cw = &rv->coll[((size_t)m->node * NR_COLL + (size_t)k) * 2];
			cw[0] += t;
			if (!isnan(m->v[PROFILE_MPI_WAIT]))
				cw[1] = z(cw[1]) + m->v[PROFILE_MPI_WAIT];
		}
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
			u[RV_B] += c[RV_B];
			u[RV_L] += c[RV_L];
			u[RV_D] += c[RV_D];
			u[RV_M] += c[RV_M];
			u[RV_PW] += c[RV_PW];
			inh_below[to] += c[RV_INH] + inh_below[from];
			inhq_below[to] += c[RV_INHQ] + inhq_below[from];
			inhc_below[to] += c[RV_INHC] + inhc_below[from];
			u[RV_CPU_NAN] += c[RV_CPU_NAN];
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

	memset(rv, 0, sizeof(*rv));
	rv->p = p;
	rv->omp = omp && strcmp(omp, "none") && strcmp(omp, "-");
	/* "absent": no MPI library in the process, so nothing to capture: MPI time is 0, not
	 * unknown */
	rv->mpi = mpi && strcmp(mpi, "none") && strcmp(mpi, "-");
	/* without the CPUs it was given, its own queueing cannot be told from the machine's */
	rv->sched = sched && !strcmp(sched, "schedstat") && profile_meta_num(p, "cpus", 0) >= 1;
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

/* Running min / max / mean of one per-processor quantity. */
static void cmp_add(struct analysis_cmp *c, double v, int rank, int thread, int first)
{
	if (first || v < c->min) {
		c->min = v;
		c->min_rank = rank;
		c->min_thread = thread;
	}
	if (first || v > c->max) {
		c->max = v;
		c->max_rank = rank;
		c->max_thread = thread;
	}
	c->mean += v;
}

/* What one interval holds on one rank: node index per rank, -1 where the rank never entered it. */
struct interval_ranks {
	struct rank_view *rv;
	const int *node;
	size_t nr;
	int threads;
};

/* Non-negative part of v; what was cut off is remembered when it is more than 1 % of the total. */
struct clamp {
	double total, worst;
	unsigned long flags;
};

static double clamp0(struct clamp *cl, double v, enum analysis_figure f)
{
	if (v >= 0)
		return v;
	if (-v > 0.01 * cl->total) {
		cl->flags |= 1ul << f;
		if (-v > cl->worst)
			cl->worst = -v;
	}
	return 0;
}

/* MPI waiting per rank: point-to-point as measured; collectives measured where the exact mode ran,
 * else t_{r,k} - min_r' t_{r',k}. */
static void mpi_waits(const struct interval_ranks *ir, double *wait, int *estimated)
{
	for (size_t r = 0; r < ir->nr; r++) {
		const struct rank_view *rv = &ir->rv[r];
		wait[r] = 0;
		for (int q = 0; q < rv->threads && ir->node[r] >= 0; q++)
			wait[r] += cell(rv, (size_t)ir->node[r], q)[RV_PW];
	}
	for (size_t k = 0; k < NR_COLL; k++) {
		double tmin = INFINITY;
		int measured = 0;

		for (size_t r = 0; r < ir->nr; r++) {
			const double *cw = ir->node[r] < 0 ? NULL :
				&ir->rv[r].coll[((size_t)ir->node[r] * NR_COLL + k) * 2];
			double t = cw ? cw[0] : 0;
			if (t < tmin)
				tmin = t;
			measured |= cw && !isnan(cw[1]);
		}
		for (size_t r = 0; r < ir->nr; r++) {
			const double *cw = ir->node[r] < 0 ? NULL :
				&ir->rv[r].coll[((size_t)ir->node[r] * NR_COLL + k) * 2];
			if (!cw || cw[0] <= 0)
				continue;
			if (measured) {
				wait[r] += z(cw[1]);
			} else {
				wait[r] += cw[0] - tmin;
				*estimated = 1;
			}
		}
	}
}

/* Sums over ranks and processors, then the figures; term[] holds the lost-time terms without
 * parts and the parts (base/lost-table.h), by figure. */
struct sums {
	double exec, term[ANALYSIS_NR_FIGURES], work, work_max, serial, wall, count;
	double exec_prog;   /* the program's Execution_time: without the machine's interference */
	double serial_wall; /* serial: the program's serial code; serial_wall: as measured */
	int sched;                      /* interference captured on every rank */
	size_t nproc;
};

/* Thread q's presence in the interval: its time there, and for a worker the idle of the regions
 * forked from there (outside its body, so outside its time; the forking thread's idle is inside its
 * own).
 * */
static double presence(const struct rank_view *rv, int node, int q)
{
	const double *c;

	if (node < 0 || q >= rv->threads)
		return 0;
	c = cell(rv, (size_t)node, q);
	return c[RV_TIME] + (q ? c[RV_D] : 0);
}

/* A rank's time in the interval: the longest presence of any of its threads (docs/metrics.md). */
static double rank_time(const struct rank_view *rv, int node)
{
	double w = 0;

	for (int q = 0; q < rv->threads; q++)
		if (presence(rv, node, q) > w)
			w = presence(rv, node, q);
	return w;
}

/* A rank's entries of the interval: the most any of its threads made. */
static double rank_count(const struct rank_view *rv, int node)
{
	double n = 0;

	for (int q = 0; q < rv->threads && node >= 0; q++)
		if (cell(rv, (size_t)node, q)[RV_COUNT] > n)
			n = cell(rv, (size_t)node, q)[RV_COUNT];
	return n;
}

/*
 * Thread q's interference: its run-queue delay beyond what the program's own oversubscription
 * explains (returned), and in *work the part of it inside its work: the work's wall time less its
 * on-CPU time, at most the whole delay (the rest fell while it waited: a wake-up that found the
 * CPUs taken). Without the on-CPU time the delay is taken from the work first.
 */
static double thread_interference(const struct rank_view *rv, const double *c, double presence,
				  double w, double *work)
{
	double i, off_cpu;

	*work = 0;
	if (!rv->sched || !c)
		return 0;
	i = c[RV_RQ] - rv->self_rate * presence;
	if (i <= 0)
		return 0;
	off_cpu = c[RV_CPU_NAN] ? w : w - c[RV_CPU];
	*work = off_cpu <= 0 ? 0 : off_cpu < i ? off_cpu : i;
	return i;
}

/* The rank's time without the machine's interference on its critical path: W less the delay of
 * its most delayed thread, never below the most on-CPU work of one of its threads (metrics.md). */
static double rank_time_program(double W, double most_interference, double most_work)
{
	double w = W - most_interference;

	return w > most_work ? w : most_work;
}

/*
 * The processors of one rank: the main thread, then the workers (absent ones are absent the whole
 * time). Each processor's share of Execution_time_wall is the rank's idle, its gap (the rank was in
 * the interval and it was not: serial code of the main thread, else no work), and its presence
 * (work, interference, waiting, MPI).
 */
static void rank_processors(const struct interval_ranks *ir, size_t r, double wait_r,
			    struct sums *s, struct clamp *cl, struct analysis_point *pt,
			    double *work)
{
	const struct rank_view *rv = &ir->rv[r];
	int node = ir->node[r];
	const double *m0 = node >= 0 ? cell(rv, (size_t)node, 0) : NULL;
	double W = rank_time(rv, node), m_r = 0, most_i = 0, most_w = 0, i0 = 0;
	double serial = clamp0(cl, m0 ? m0[RV_TIME] - m0[RV_PAR] : 0, ANALYSIS_SEQ);

	for (int q = 0; q < rv->threads && node >= 0; q++)
		m_r += cell(rv, (size_t)node, q)[RV_M];
	s->count += rank_count(rv, node);
	s->sched &= rv->sched;
	s->term[ANALYSIS_COMMUNICATION] += clamp0(cl, m_r - wait_r, ANALYSIS_COMMUNICATION);
	s->term[ANALYSIS_SYNC_MPI] += wait_r;
	s->term[ANALYSIS_IDLE] += ir->threads * (s->exec - W);
	for (int q = 0; q < ir->threads; q++) {
		const double *c = node >= 0 && q < rv->threads ? cell(rv, (size_t)node, q) : NULL;
		double t = c ? c[RV_TIME] : 0, B = c ? c[RV_B] : 0, L = c ? c[RV_L] : 0;
		double D = c ? c[RV_D] : 0, m = c ? c[RV_M] : 0, a = presence(rv, node, q);
		double gap = W - a,
		       seq = q && gap > serial ? serial
			     : q               ? gap
					       : 0,
		       missing = gap - seq;
		double w = clamp0(cl, a - D - B - L - m, ANALYSIS_PRODUCTIVE_TIME);
		double in, delay = thread_interference(rv, c, a, w, &in);

		w -= in; /* work in on-CPU time */
		if (delay > most_i)
			most_i = delay;
		if (w > most_w)
			most_w = w;
		if (!q)
			i0 = delay;
		s->term[ANALYSIS_SEQ] += seq;
		s->term[ANALYSIS_PAR] += missing;
		s->term[ANALYSIS_SYNC_OMP] += B + L + D;
		s->work += w;
		if (w > s->work_max)
			s->work_max = w;
		double v[ANALYSIS_NR_PQ] = {
			w, t, B, L, D, missing, m, m_r > 0 ? wait_r * m / m_r : 0, s->exec - W,
			delay,
		};
		for (int k = 0; k < ANALYSIS_NR_PQ; k++)
			cmp_add(&pt->cmp[k], v[k], (int)r, q, !s->nproc);
		work[s->nproc++] = w;
	}
	W = rank_time_program(W, most_i, most_w);
	if (W > s->exec_prog)
		s->exec_prog = W;
	/* the main thread's interference spread over its time: the serial code's part of it */
	s->serial_wall += serial;
	if (m0 && m0[RV_TIME] > 0)
		serial -= serial * i0 / m0[RV_TIME];
	s->serial += serial;
	s->wall += W;
}

/*
 * The program's frame: the lost-time terms measured on the wall clock hold the waiting for
 * interfered threads, so they are brought to the program's lost time, Total_time - work
 * (docs/metrics.md): Seq as the main thread's serial code shrank, the others scaled alike; the
 * rest of the wall's Total_time is the Interference. Without the run-queue delay nothing changes.
 */
static void remove_interference(struct sums *s, struct clamp *cl)
{
	double terms = 0, lost, k, seq = s->term[ANALYSIS_SEQ];
	int seq_done = 0;

	if (!s->sched) {
		s->exec_prog = s->exec;
		return;
	}
	for (size_t i = 0; i < lost_nr_terms; i++)
		if (!lost_terms[i].machine && !lost_term_has_parts(lost_terms[i].fig))
			terms += s->term[lost_terms[i].fig];
	lost = clamp0(cl, s->exec_prog * (double)s->nproc - s->work, ANALYSIS_INTERFERENCE);
	if (s->serial_wall > 0)
		seq *= s->serial / s->serial_wall;
	if (seq <= lost) {
		terms -= s->term[ANALYSIS_SEQ];
		lost -= seq;
		s->term[ANALYSIS_SEQ] = seq;
		seq_done = 1;
	}
	if (terms <= 0) { /* the other terms are 0 */
		/* processors the delayed ones kept from finishing early */
		s->term[ANALYSIS_IDLE] = lost;
		return;
	}
	k = lost / terms;
	for (size_t i = 0; i < lost_nr_terms; i++) {
		enum analysis_figure f = lost_terms[i].fig;
		if (lost_terms[i].machine || lost_term_has_parts(f))
			continue;
		if (f == ANALYSIS_SEQ && seq_done)
			continue;
		s->term[f] *= k;
	}
}

/* Whether what a figure needs was captured (enum analysis_needs). */
static int known(enum analysis_needs needs, int threads, int ranks, int omp, int mpi)
{
	switch (needs) {
	case ANALYSIS_NEEDS_OMP:
		return omp;
	case ANALYSIS_NEEDS_OMP_THREADS:
		/* Barrier, lock and idle time are unknown: they sit inside the work. With one
		 * thread per rank nobody can be waited for (an uncontended lock is work): OpenMP
		 * waiting does not apply, 0. */
		return omp || threads <= 1;
	case ANALYSIS_NEEDS_MPI:
		/* MPI time, if any, is inside the work */
		return mpi;
	case ANALYSIS_NEEDS_MPI_RANKS:
		/* one rank has nobody to wait for */
		return mpi || ranks <= 1;
	case ANALYSIS_NEEDS_NONE:
		break;
	}
	return 1;
}

static void set_figures(struct analysis_point *pt, const struct sums *s, int threads, int ranks,
			int omp, int mpi, const double *work)
{
	double *f = pt->fig, total = s->exec_prog * s->nproc, li = 0;
	double interference = s->sched ? (s->exec - s->exec_prog) * s->nproc : 0;

	for (size_t q = 0; q < s->nproc; q++)
		li += s->work_max - work[q];
	f[ANALYSIS_EXECUTION_TIME] = s->exec_prog;
	f[ANALYSIS_EXECUTION_TIME_WALL] = s->exec;
	f[ANALYSIS_PROCESSORS] = (double)s->nproc;
	f[ANALYSIS_TOTAL_TIME] = total;
	f[ANALYSIS_TOTAL_TIME_WALL] = s->exec * s->nproc;
	for (size_t i = 0; i < lost_nr_terms; i++)
		if (!lost_term_has_parts(lost_terms[i].fig))
			f[lost_terms[i].fig] = s->term[lost_terms[i].fig];
	f[ANALYSIS_INTERFERENCE] = interference;
	/* Exact by construction: the terms define the loss, work is the rest. */
	f[ANALYSIS_LOST_TIME] = lost_terms_sum(f);
	f[ANALYSIS_PRODUCTIVE_TIME] = f[ANALYSIS_TOTAL_TIME_WALL] - f[ANALYSIS_LOST_TIME];
	f[ANALYSIS_EFFICIENCY] = total > 0 ? f[ANALYSIS_PRODUCTIVE_TIME] / total : NAN;
	f[ANALYSIS_LOAD_IMBALANCE] = li;
	f[ANALYSIS_LOAD_BALANCE] = s->work_max > 0 ? s->work / s->nproc / s->work_max : NAN;
	f[ANALYSIS_COMMUNICATION_EFFICIENCY] = s->exec_prog > 0 ? s->work_max / s->exec_prog : NAN;
	f[ANALYSIS_PARALLEL_EFFICIENCY] = f[ANALYSIS_LOAD_BALANCE] *
					  f[ANALYSIS_COMMUNICATION_EFFICIENCY];
	f[ANALYSIS_SERIAL_SHARE] = s->wall > 0 ? s->serial / s->wall : NAN;
	f[ANALYSIS_COUNT] = s->count;
	for (int k = 0; k < ANALYSIS_NR_FIGURES; k++)
		if (!known(figure_needs[k], threads, ranks, omp, mpi))
			f[k] = NAN;
	for (int k = 0; k < ANALYSIS_NR_PQ; k++)
		if (!known(pq_needs[k], threads, ranks, omp, mpi))
			pt->cmp[k].min = pt->cmp[k].max = pt->cmp[k].mean = NAN;
	/* A part that does not apply is 0; one that applies and was not captured makes the sum
	 * absent (Lost_time keeps its own 'needs'). */
	lost_terms_sum(f);
	if (!s->sched)
		f[ANALYSIS_INTERFERENCE] = NAN; /* not captured: it counted as 0 in Lost_time */
}

static void point_compute(const struct interval_ranks *ir, struct analysis_point *pt)
{
	struct sums s = { .sched = 1 };
	struct clamp cl = { 0, 0, 0 };
	double *wait = xcalloc(ir->nr + 1, sizeof(double));
	double *work = xcalloc(ir->nr * (size_t)ir->threads + 1, sizeof(double));
	int omp = 1, mpi = 1;

	memset(pt, 0, sizeof(*pt));
	pt->present = 1;
	for (size_t r = 0; r < ir->nr; r++) {
		if (rank_time(&ir->rv[r], ir->node[r]) > s.exec)
			s.exec = rank_time(&ir->rv[r], ir->node[r]);
		omp &= ir->rv[r].omp;
		mpi &= ir->rv[r].mpi;
	}
	cl.total = s.exec * (double)ir->nr * ir->threads;
	mpi_waits(ir, wait, &pt->wait_estimated);
	for (size_t r = 0; r < ir->nr; r++)
		rank_processors(ir, r, wait[r], &s, &cl, pt, work);
	remove_interference(&s, &cl);
	for (int k = 0; k < ANALYSIS_NR_PQ; k++)
		pt->cmp[k].mean /= (double)s.nproc;
	set_figures(pt, &s, ir->threads, (int)ir->nr, omp, mpi, work);
	pt->inconsistent = cl.flags;
	pt->inconsistency = cl.worst;
	free(wait);
	free(work);
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

int analysis_add_run(struct analysis *a, struct analysis_config *c, int repeat,
		     const struct profile *ranks, size_t nr_ranks)
{
	struct rank_view *rv = xcalloc(nr_ranks + 1, sizeof(*rv));
	int *node = xmalloc((nr_ranks + 1) * sizeof(int));
	struct analysis_run *run;
	struct interval_ranks ir = { rv, node, nr_ranks, c->threads };

	if (!nr_ranks) {
		free(rv);
		free(node);
		return error("no profiles for '%s', repeat %d", c->benchmark, repeat);
	}
	for (size_t r = 0; r < nr_ranks; r++) {
		view_init(a, c->benchmark, &rv[r], &ranks[r]);
		if (rv[r].threads > ir.threads)
			ir.threads = rv[r].threads;
	}
	self_rates(rv, nr_ranks);
	if (!c->threads)
		c->threads = ir.threads;
	ALLOC_GROW(c->runs, c->nr_runs + 1, c->alloc_runs);
	run = &c->runs[c->nr_runs++];
	run->repeat = repeat;
	run->contention = NAN;
	run->nr_points = a->nr_intervals;
	run->points = xcalloc(run->nr_points + 1, sizeof(*run->points));
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
			point_compute(&ir, &run->points[i]);
	}
	for (size_t r = 0; r < nr_ranks; r++)
		view_release(&rv[r]);
	free(inv);
	free(rv);
	free(node);
	return 0;
}
