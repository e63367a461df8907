/* The figures of one interval in one run from its ranks' views (each rank's share by
 * format/rank-share.c, the tracer's in-job reduction's too) or from a reduced profile: the
 * lost-time decomposition of docs/metrics.md, and its interference correction (the program's
 * frame, Interference). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis-priv.h"
#include "analyze/analysis.h"
#include "analyze/lost-terms.h"
#include "base/util.h"

static const enum analysis_needs figure_needs[] = {
#define X(id, name, needs) ANALYSIS_NEEDS_##needs,
	ANALYSIS_FIGURES(X)
#undef X
};

static const enum analysis_needs pq_needs[] = {
#define X(id, name, needs) ANALYSIS_NEEDS_##needs,
	ANALYSIS_PER_PROCESSOR(X)
#undef X
};

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

/* Rank r in the interval, as the shared per-rank formulas read it (format/rank-share.h). */
static struct sg_rank_cells rank_cells(const struct interval_ranks *ir, size_t r)
{
	const struct rank_view *rv = &ir->rv[r];
	int node = ir->node[r];
	struct sg_rank_cells c = {
		node < 0 ? NULL : cell(rv, (size_t)node, 0),
		node < 0 ? NULL : &rv->coll[(size_t)node * NR_COLL * 2],
		rv->threads, rv->omp, rv->mpi, rv->sched, rv->team_delay, rv->mpi_delay,
		rv->self_rate,
	};

	return c;
}

/* MPI waiting per rank: point-to-point as measured; collectives measured where the exact mode ran,
 * else t_{r,k} - min_r' t_{r',k}. */
static void mpi_waits(const struct interval_ranks *ir, double *wait, int *estimated)
{
	double tmin[NR_COLL];
	int measured[NR_COLL];

	for (size_t k = 0; k < NR_COLL; k++) {
		tmin[k] = INFINITY;
		measured[k] = 0;
		for (size_t r = 0; r < ir->nr; r++) {
			const double *cw = ir->node[r] < 0 ? NULL :
				&ir->rv[r].coll[((size_t)ir->node[r] * NR_COLL + k) * 2];
			double t = cw ? cw[0] : 0;
			if (t < tmin[k])
				tmin[k] = t;
			measured[k] |= cw && !isnan(cw[1]);
		}
	}
	for (size_t r = 0; r < ir->nr; r++) {
		struct sg_rank_cells c = rank_cells(ir, r);
		wait[r] = sg_rank_wait(&c, tmin, measured, estimated);
	}
}

/* Sums over ranks and processors, then the figures; term[] holds the lost-time terms without
 * parts and the parts (base/lost-table.h), by figure. */
struct sums {
	double exec, term[ANALYSIS_NR_FIGURES], work, work_max, serial, wall, count;
	double held;        /* work done holding locks; NAN when a rank did not capture it */
	double exec_prog;   /* the program's Execution_time: without the machine's interference */
	double serial_wall; /* serial: the program's serial code; serial_wall: as measured */
	int sched;                      /* interference captured on every rank */
	size_t nproc;
	double ranks, threads;          /* wall: the sum of the ranks' program times W'_r */
};

/* The comparative characteristics and each processor's work, processor by processor. */
struct processors {
	struct analysis_point *pt;
	double *work;
	size_t nproc;
	int rank;
};

static void processor_add(void *arg, int q, const double *v)
{
	struct processors *ps = arg;

	for (int k = 0; k < ANALYSIS_NR_PQ; k++)
		cmp_add(&ps->pt->cmp[k], v[k], ps->rank, q, !ps->nproc);
	ps->work[ps->nproc++] = v[SG_RQ_WORK];
}

/* A term brought to the program's frame ('v') when it fits in the loss left: taken out of the
 * measured terms' sum and the loss. */
static int frame_term(struct sums *s, enum analysis_figure f, double v, double *terms,
		      double *lost)
{
	if (v > *lost)
		return 0;
	*terms -= s->term[f];
	*lost -= v;
	s->term[f] = v;
	return 1;
}

/*
 * The program's frame: the lost-time terms measured on the wall clock hold the waiting for
 * interfered threads, so they are brought to the program's lost time, Total_time - work
 * (docs/metrics.md): Seq as the main thread's serial code shrank, Idle from the ranks' program
 * times (a rank the machine held up, or one that waited for it, is no idle rank), the others
 * scaled alike; the rest of the wall's Total_time is the Interference. Without the run-queue delay
 * nothing changes.
 */
static void remove_interference(struct sums *s, struct clamp *cl)
{
	double terms = 0, lost, k, seq = s->term[ANALYSIS_SEQ];
	double idle = s->threads * (s->ranks * s->exec_prog - s->wall);
	int seq_done = 0, idle_done;

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
	seq_done = frame_term(s, ANALYSIS_SEQ, seq, &terms, &lost);
	idle_done = frame_term(s, ANALYSIS_IDLE, idle > 0 ? idle : 0, &terms, &lost);
	if (terms <= 0) { /* the other terms are 0 */
		/* processors the delayed ones kept from finishing early */
		s->term[ANALYSIS_IDLE] = (idle_done ? s->term[ANALYSIS_IDLE] : 0) + lost;
		return;
	}
	k = lost / terms;
	for (size_t i = 0; i < lost_nr_terms; i++) {
		enum analysis_figure f = lost_terms[i].fig;
		if (lost_terms[i].machine || lost_term_has_parts(f))
			continue;
		if ((f == ANALYSIS_SEQ && seq_done) || (f == ANALYSIS_IDLE && idle_done))
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

/* li: Load_imbalance, the sum over processors of the most work less theirs. */
static void set_figures(struct analysis_point *pt, const struct sums *s, int threads, int ranks,
			int omp, int mpi, double li)
{
	double *f = pt->fig, total = s->exec_prog * s->nproc;
	double interference = s->sched ? (s->exec - s->exec_prog) * s->nproc : 0;

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
	f[ANALYSIS_SERIALIZED_WORK] = s->held;
	f[ANALYSIS_COUNT] = s->count;
	f[ANALYSIS_REFERENCE_TIME] = NAN; /* the run's, set by the loader from manifest.tsv */
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

/* The clamps of the ranks' shares: a cut-off over 1 % of Total_time flags its figure. */
static void reduced_clamps(struct clamp *cl, const double *v)
{
	static const struct {
		enum profile_reduced_column cut;
		enum analysis_figure fig;
	} cuts[] = {
		{ PROFILE_RED_CUT_SEQ, ANALYSIS_SEQ },
		{ PROFILE_RED_CUT_WORK, ANALYSIS_PRODUCTIVE_TIME },
		{ PROFILE_RED_CUT_COMM, ANALYSIS_COMMUNICATION },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
		double cut = z(v[cuts[i].cut]);
		if (cut > 0.01 * cl->total) {
			cl->flags |= 1ul << cuts[i].fig;
			if (cut > cl->worst)
				cl->worst = cut;
		}
	}
}

static void reduced_sums(struct sums *s, const double *v)
{
	s->exec = z(v[PROFILE_RED_EXEC]);
	s->exec_prog = z(v[PROFILE_RED_EXEC_PROG]);
	s->term[ANALYSIS_SEQ] = z(v[PROFILE_RED_SEQ]);
	s->term[ANALYSIS_PAR] = z(v[PROFILE_RED_PAR]);
	s->term[ANALYSIS_IDLE] = z(v[PROFILE_RED_IDLE]);
	s->term[ANALYSIS_SYNC_OMP] = z(v[PROFILE_RED_SYNC_OMP]);
	s->term[ANALYSIS_COMMUNICATION] = z(v[PROFILE_RED_COMM]);
	s->term[ANALYSIS_SYNC_MPI] = z(v[PROFILE_RED_SYNC_MPI]);
	s->work = z(v[PROFILE_RED_WORK]);
	s->work_max = z(v[PROFILE_RED_WORK_MAX]);
	s->serial = z(v[PROFILE_RED_SERIAL]);
	s->serial_wall = z(v[PROFILE_RED_SERIAL_WALL]);
	s->wall = z(v[PROFILE_RED_WALL]);
	s->count = z(v[PROFILE_RED_COUNT]);
	s->held = v[PROFILE_RED_HELD];
	s->sched = v[PROFILE_RED_SCHED] > 0;
}

/* The ranks' shares are summed here as the job sums them into a reduced record (format/columns.h),
 * one rank after the other; the figures then follow as from a reduced profile, with the load
 * imbalance from each processor's work. */
void analysis_point_compute(const struct interval_ranks *ir, struct analysis_point *pt)
{
	struct sums s = { .ranks = (double)ir->nr, .threads = ir->threads };
	struct clamp cl = { 0, 0, 0 };
	double *wait = xcalloc(ir->nr + 1, sizeof(double));
	double *work = xcalloc(ir->nr * (size_t)ir->threads + 1, sizeof(double));
	double red[SG_RED_NR_FIELDS], exec = 0, li = 0;
	struct processors ps = { pt, work, 0, 0 };
	int omp = 1, mpi = 1;

	memset(pt, 0, sizeof(*pt));
	pt->present = 1;
	for (size_t r = 0; r < ir->nr; r++) {
		struct sg_rank_cells c = rank_cells(ir, r);
		if (sg_rank_time(&c) > exec)
			exec = sg_rank_time(&c);
		omp &= ir->rv[r].omp;
		mpi &= ir->rv[r].mpi;
	}
	mpi_waits(ir, wait, &pt->wait_estimated);
	sg_rank_share_init(red);
	for (size_t r = 0; r < ir->nr; r++) {
		struct sg_rank_cells c = rank_cells(ir, r);
		ps.rank = (int)r;
		sg_rank_share(&c, ir->threads, exec, wait[r], red, processor_add, &ps);
	}
	reduced_sums(&s, red);
	s.nproc = ps.nproc;
	cl.total = s.exec * (double)ir->nr * ir->threads;
	reduced_clamps(&cl, red);
	remove_interference(&s, &cl);
	for (int k = 0; k < ANALYSIS_NR_PQ; k++)
		pt->cmp[k].mean /= (double)s.nproc;
	for (size_t q = 0; q < s.nproc; q++)
		li += s.work_max - work[q];
	set_figures(pt, &s, ir->threads, (int)ir->nr, omp, mpi, li);
	pt->inconsistent = cl.flags;
	pt->inconsistency = cl.worst;
	free(wait);
	free(work);
}

/* A term's column the file lacks (an older tracer's) was not captured: the term is absent, and so
 * is the sum of a term's parts when one of them is, never a measured 0. */
static void reduced_absent(struct analysis_point *pt, const double *v)
{
	static const struct {
		enum profile_reduced_column column;
		enum analysis_figure fig;
	} terms[] = {
		{ PROFILE_RED_SEQ, ANALYSIS_SEQ },
		{ PROFILE_RED_PAR, ANALYSIS_PAR },
		{ PROFILE_RED_IDLE, ANALYSIS_IDLE },
		{ PROFILE_RED_SYNC_OMP, ANALYSIS_SYNC_OMP },
		{ PROFILE_RED_COMM, ANALYSIS_COMMUNICATION },
		{ PROFILE_RED_SYNC_MPI, ANALYSIS_SYNC_MPI },
	};
	int absent = 0;

	for (size_t i = 0; i < ARRAY_SIZE(terms); i++)
		if (isnan(v[terms[i].column])) {
			pt->fig[terms[i].fig] = NAN;
			absent = 1;
		}
	if (absent)
		lost_terms_sum(pt->fig);
}

void analysis_point_reduced(const struct profile_reduced *r, int ranks, int threads,
			    struct analysis_point *pt)
{
	struct sums s = { .ranks = ranks, .threads = threads };
	struct clamp cl = { 0, 0, 0 };
	double li;

	memset(pt, 0, sizeof(*pt));
	pt->present = 1;
	reduced_sums(&s, r->v);
	s.nproc = (size_t)ranks * (size_t)threads;
	cl.total = s.exec * ranks * threads;
	reduced_clamps(&cl, r->v);
	pt->wait_estimated = r->v[PROFILE_RED_ESTIMATED] > 0;
	for (int k = 0; k < ANALYSIS_NR_PQ; k++) {
		const struct profile_extremes *e = &r->q[k];
		pt->cmp[k] = (struct analysis_cmp){ e->min, e->max, e->sum / (double)s.nproc,
						    e->min_rank, e->min_thread, e->max_rank,
						    e->max_thread };
	}
	remove_interference(&s, &cl);
	li = (double)s.nproc * s.work_max - s.work;
	set_figures(pt, &s, threads, ranks, r->v[PROFILE_RED_OMP] > 0, r->v[PROFILE_RED_MPI] > 0,
		    li > 0 ? li : 0);
	reduced_absent(pt, r->v);
	pt->inconsistent = cl.flags;
	pt->inconsistency = cl.worst;
}
