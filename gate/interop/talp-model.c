/*
 * TALP's regions as profiles (docs/interop.md, "How TALP's times become profiles"): each rank a
 * profile, each CPU of a rank a thread, so that the analyzer computes its characteristics from the
 * times as it does for the tracer's. TALP reports sums over the CPUs; the normalized fields tell
 * the process with the most useful time (DLB 3.4, 3.5) or the least MPI time (3.6, 3.7) apart.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "interop/talp-priv.h"

/* One region's times on one rank, seconds summed over the rank's CPUs. */
struct rank_times {
	double presence;   /* the rank's time in the region: its longest thread's */
	double useful, mpi, imbalance, scheduling, serial;
	double count;
};

static double ns(const struct talp_region *g, enum talp_field f)
{
	return isnan(g->f[f]) ? 0 : g->f[f] * 1e-9;
}

/* Useful and MPI time of rank 0, the process TALP's normalized fields single out; the other ranks
 * share the rest evenly. */
static void lead_rank(const struct talp_region *g, int ranks, int threads, double *useful,
		      double *mpi)
{
	double u = ns(g, TALP_USEFUL), m = ns(g, TALP_MPI), e = ns(g, TALP_ELAPSED);
	double omp = ns(g, TALP_OMP_IMBALANCE) + ns(g, TALP_OMP_SCHEDULING) +
		     ns(g, TALP_OMP_SERIALIZATION);

	*useful = u / ranks;
	*mpi = m / ranks;
	if (ranks < 2)
		return;
	if (!isnan(g->f[TALP_MAX_USEFUL_NORMD_PROC])) {
		*useful = threads * ns(g, TALP_MAX_USEFUL_NORMD_PROC);
		if (!isnan(g->f[TALP_MPI_NORMD_OF_MAX_USEFUL]))
			*mpi = threads * ns(g, TALP_MPI_NORMD_OF_MAX_USEFUL);
	} else if (!isnan(g->f[TALP_MIN_MPI_NORMD_PROC])) {
		*mpi = threads * ns(g, TALP_MIN_MPI_NORMD_PROC);
		*useful = threads * (e - ns(g, TALP_MIN_MPI_NORMD_PROC)) - omp / ranks;
	}
	*useful = fmin(fmax(*useful, u / ranks), u);
	*mpi = fmin(fmax(*mpi, 0), m);
}

static void rank_times(const struct talp_region *g, int rank, int ranks, int threads,
		       struct rank_times *t)
{
	double u0, m0, e = ns(g, TALP_ELAPSED), classified;

	lead_rank(g, ranks, threads, &u0, &m0);
	t->useful = rank ? (ns(g, TALP_USEFUL) - u0) / (ranks - 1) : u0;
	t->mpi = rank ? (ns(g, TALP_MPI) - m0) / (ranks - 1) : m0;
	t->imbalance = ns(g, TALP_OMP_IMBALANCE) / ranks;
	t->scheduling = ns(g, TALP_OMP_SCHEDULING) / ranks;
	t->count = isnan(g->f[TALP_MEASUREMENTS]) ? 1
		   : fmax(1, round(g->f[TALP_MEASUREMENTS] / ranks));
	classified = t->useful + t->mpi + t->imbalance + t->scheduling +
		     ns(g, TALP_OMP_SERIALIZATION) / ranks;
	/* Rank 0 spans the region's elapsed time; another is present for its classified time only,
	 * so that the rest is its Idle. On a rank of several CPUs, time that TALP classified as
	 * none of its categories is serial code (the other CPUs idle outside parallel regions). */
	t->presence = rank ? fmin(e, classified / threads) : fmax(e, classified / threads);
	t->serial = threads > 1 ? (threads * t->presence - t->useful - t->mpi - t->imbalance -
				   t->scheduling) / (threads - 1) : 0;
	t->serial = fmax(t->serial, 0);
}

/*
 * The exclusive columns of the program's node: its own less the other regions', never negative.
 * TALP's regions may nest; the profile's tree holds them side by side under the program, which is
 * right where they are disjoint (docs/interop.md).
 */
static void exclusive(struct rank_times *prog, const struct rank_times *child, size_t nr,
		      int global)
{
	for (size_t i = 0; i < nr; i++) {
		if ((int)i == global)
			continue;
		prog->mpi -= child[i].mpi;
		prog->imbalance -= child[i].imbalance;
		prog->scheduling -= child[i].scheduling;
	}
	/* under a nanosecond is rounding (TALP's times are whole nanoseconds) */
	prog->mpi = prog->mpi < 1e-9 ? 0 : prog->mpi;
	prog->imbalance = prog->imbalance < 1e-9 ? 0 : prog->imbalance;
	prog->scheduling = prog->scheduling < 1e-9 ? 0 : prog->scheduling;
}

static void add_thread_stat(struct profile *p, int node, int thread, int threads,
			    const struct rank_times *t, const struct rank_times *excl)
{
	struct profile_stat *s = profile_add_stat(p, node, thread);
	double main_work = t->presence - (t->imbalance + t->scheduling + t->mpi) / threads;
	double worker_work = threads > 1 ? fmax(0, (t->useful - main_work) / (threads - 1)) : 0;

	s->v[PROFILE_COUNT] = t->count;
	if (!thread) {
		s->v[PROFILE_TIME] = t->presence;
		s->v[PROFILE_PAR] = threads > 1 ? fmax(0, t->presence - t->serial) : 0;
	} else {
		/* A worker's omp_idle lies outside its body: the analyzer adds it to its time. */
		s->v[PROFILE_TIME] = worker_work + (t->imbalance + t->mpi) / threads;
		s->v[PROFILE_PAR] = s->v[PROFILE_TIME];
	}
	if (threads > 1) {
		s->v[PROFILE_OMP_BARRIER] = excl->imbalance / threads;
		s->v[PROFILE_OMP_IDLE] = excl->scheduling / threads;
		s->v[PROFILE_OMP_LOCK] = 0;
		s->v[PROFILE_OMP_REGIONS] = 0;
	}
	if (excl->mpi > 0) {
		struct profile_mpi *m = profile_add_mpi(p, node, thread, "other");
		m->v[PROFILE_MPI_COUNT] = t->count;
		m->v[PROFILE_MPI_TIME] = excl->mpi / threads;
	}
}

static void add_meta_efficiencies(struct profile *p, const struct talp_region *g)
{
	for (int f = TALP_FIRST_EFFICIENCY; f < TALP_NR_FIELDS; f++) {
		char *key, *value;
		if (isnan(g->f[f]))
			continue;
		key = xstrfmt("talp.%s.%s", g->name, talp_field_name(f));
		value = xstrfmt("%.9g", g->f[f]);
		profile_add_meta(p, key, value);
		free(key);
		free(value);
	}
}

static void build_rank(struct profile *p, const struct talp_file *t, int rank, int ranks,
		       int threads)
{
	struct rank_times *rt = xcalloc(t->nr, sizeof(*rt)), prog_excl;
	int *node = xcalloc(t->nr, sizeof(*node));

	for (size_t i = 0; i < t->nr; i++) {
		rank_times(&t->region[i], rank, ranks, threads, &rt[i]);
		node[i] = i == (size_t)t->global ? 0 : -1;
	}
	profile_add_node(p, -1, profile_add_region(p, "program", t->path, 0));
	for (size_t i = 0; i < t->nr; i++)
		if ((int)i != t->global)
			node[i] = profile_add_node(p, 0, profile_add_region(p, t->region[i].name,
									     t->path, 0));
	for (int q = 0; q < threads; q++)
		profile_add_thread(p, q, q == 0);
	prog_excl = rt[t->global];
	exclusive(&prog_excl, rt, t->nr, t->global);
	for (size_t i = 0; i < t->nr; i++)
		for (int q = 0; q < threads; q++)
			add_thread_stat(p, node[i], q, threads, &rt[i],
					(int)i == t->global ? &prog_excl : &rt[i]);
	for (size_t i = 0; i < t->nr; i++)
		add_meta_efficiencies(p, &t->region[i]);
	free(rt);
	free(node);
}

/*
 * TALP's efficiencies divide by the CPU time it classified (useful, MPI, OpenMP), scalegate's by
 * elapsed time × CPUs; the rest counts here as serial code and idle ranks. Says so once per file
 * when a region's classified time is short of its elapsed time × CPUs by more than 1 %.
 */
static void warn_unclassified(const struct talp_file *t)
{
	double worst = 1;
	size_t at = 0;

	for (size_t i = 0; i < t->nr; i++) {
		const struct talp_region *g = &t->region[i];
		double all = ns(g, TALP_ELAPSED) * t->cpus, share;
		share = (ns(g, TALP_USEFUL) + ns(g, TALP_MPI) + ns(g, TALP_OMP_IMBALANCE) +
			 ns(g, TALP_OMP_SCHEDULING) + ns(g, TALP_OMP_SERIALIZATION)) / all;
		if (all > 0 && share < worst) {
			worst = share;
			at = i;
		}
	}
	if (worst < 0.99)
		warning("%s: TALP classified only %.0f %% of elapsed time × CPUs in region '%s' "
			"(the least of its regions): the rest counts as serial code and idle "
			"ranks, and scalegate's efficiencies are lower than TALP's "
			"(docs/interop.md)",
			t->path, 100 * worst, t->region[at].name);
}

int talp_model(struct import_run *r, const struct talp_file *t)
{
	warn_unclassified(t);
	for (int rank = 0; rank < r->ranks; rank++) {
		struct profile *p = import_add_profile(r, t->ranks ? rank : -1, "talp");
		profile_add_meta(p, "omp", r->threads > 1 ? "ompt" : "none");
		profile_add_meta(p, "mpi", t->ranks ? "pmpi" : "absent");
		if (t->version)
			profile_add_meta(p, "talp.dlbVersion", t->version);
		build_rank(p, t, rank, r->ranks, r->threads);
	}
	return 0;
}
