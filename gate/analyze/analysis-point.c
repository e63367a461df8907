/* The figures of one interval in one run from its ranks' views: the lost-time decomposition of
 * docs/metrics.md, and its interference correction (the program's frame, Interference). */
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
	double held;        /* work done holding locks; NAN where a rank did not capture it */
	double exec_prog;   /* the program's Execution_time: without the machine's interference */
	double serial_wall; /* serial: the program's serial code; serial_wall: as measured */
	int sched;                      /* interference captured on every rank */
	size_t nproc;
	double ranks, threads;          /* wall: the sum of the ranks' program times W'_r */
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
 * on-CPU time (less its spins at team barriers and in MPI waits), at most the whole delay less its
 * part in MPI waits (the rest fell while it waited: a wake-up that found the CPUs taken). Without
 * the on-CPU time the delay is taken from the work first.
 */
static double thread_interference(const struct rank_view *rv, const double *c, double presence,
				  double w, double *work)
{
	double i, off_cpu, in_mpi, most;

	*work = 0;
	if (!rv->sched || !c)
		return 0;
	i = c[RV_RQ] - rv->self_rate * presence;
	if (i <= 0)
		return 0;
	off_cpu = c[RV_CPU_NAN] ? w : w - (c[RV_CPU] - c[RV_CW] - c[RV_MC]);
	/* its delay while it waited in MPI (mpi_rq: a preempted spin) fell outside its work; its
	 * work's time off the CPU may be blocking (MPI_Init) rather than delay */
	in_mpi = c[RV_RQ] > 0 ? i * c[RV_MQ] / c[RV_RQ] : 0;
	most = i - in_mpi;
	*work = off_cpu <= 0 || most <= 0 ? 0 : off_cpu < most ? off_cpu : most;
	return i;
}

/* The share of a rank's run-queue delay in the interval that was the machine's (the rest, its own
 * threads' and ranks' competing for the CPUs it was given). */
static double machine_share(const struct rank_view *rv, int node)
{
	double rq = 0, machine = 0, in;

	for (int q = 0; q < rv->threads && node >= 0; q++) {
		const double *c = cell(rv, (size_t)node, q);
		rq += c[RV_RQ];
		machine += thread_interference(rv, c, presence(rv, node, q), 0, &in);
	}
	return rq > 0 ? machine / rq : 1;
}

/*
 * The MPI terms of rank r: its time in MPI less its waiting (Communication) and its waiting
 * (Synchronization_mpi), less the waiting other ranks' delay caused ('ms', the machine's): taken
 * from the waiting first, the rest from the transfer (an estimated wait may have left it there).
 * A negative 'ms' (its own delay in a wait that shifted nothing) is waiting it would have done.
 */
static void mpi_terms(struct sums *s, struct clamp *cl, double m_r, double wait_r, double ms)
{
	double comm = clamp0(cl, m_r - wait_r, ANALYSIS_COMMUNICATION);
	double from_wait = ms < wait_r ? ms : wait_r, from_comm = ms - from_wait;

	if (from_comm > comm)
		from_comm = comm;
	s->term[ANALYSIS_COMMUNICATION] += comm - from_comm;
	s->term[ANALYSIS_SYNC_MPI] += wait_r - from_wait;
}

/* Thread q's waiting in MPI that other ranks' delay caused, the machine's share of it (the rest,
 * its program's own ranks' competing for the CPUs), within its MPI time; negative when its own
 * delay while it waited shifted nothing (mpi_sync gives it back), within that delay. */
static double mpi_machine(const struct rank_view *rv, const double *c, double machine)
{
	double ms = c && rv->sched ? c[RV_MS] * machine : 0;

	if (!c)
		return 0;
	return ms > c[RV_M] ? c[RV_M] : ms < -c[RV_MQ] ? -c[RV_MQ] : ms;
}

/*
 * The rank's time without the machine's interference on its critical path (metrics.md): the
 * longest of its threads' presences less their delay and the waiting the teams' and the other
 * ranks' delay caused (rq_sync, mpi_sync); without rq_sync, W less the most of one thread's delay
 * and mpi_sync. Never below the most on-CPU work of one of its threads, nor above W.
 */
static double rank_time_program(const struct rank_view *rv, double W, double most_interference,
				double most_program, double most_work)
{
	double w = rv->team_delay ? most_program : W - most_interference;

	w = w < W ? w : W;
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
	double W = rank_time(rv, node), m_r = 0, most_i = 0, most_w = 0, most_p = 0, i0 = 0;
	double serial = clamp0(cl, m0 ? m0[RV_TIME] - m0[RV_PAR] : 0, ANALYSIS_SEQ);
	double machine = rv->sched && (rv->team_delay || rv->mpi_delay) ? machine_share(rv, node)
									 : 0;
	double ms_r = 0;

	for (int q = 0; q < rv->threads && node >= 0; q++) {
		m_r += cell(rv, (size_t)node, q)[RV_M];
		ms_r += mpi_machine(rv, cell(rv, (size_t)node, q), machine);
	}
	s->count += rank_count(rv, node);
	s->sched &= rv->sched;
	for (int q = 0; q < rv->threads && node >= 0; q++)
		s->held += rv->held ? cell(rv, (size_t)node, q)[RV_HELD] : NAN;
	mpi_terms(s, cl, m_r, wait_r, ms_r);
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
		/* its waiting that the team's and the other ranks' delay caused: the machine's
		 * share of it */
		double sq = c ? c[RV_SQ] * machine : 0, waits = B + L + D - sq;
		double ms = mpi_machine(rv, c, machine);

		w -= in; /* work in on-CPU time */
		if (delay + ms > most_i)
			most_i = delay + ms;
		if (w > most_w)
			most_w = w;
		if (a - delay - sq - ms > most_p)
			most_p = a - delay - sq - ms;
		if (!q)
			i0 = delay;
		s->term[ANALYSIS_SEQ] += seq;
		s->term[ANALYSIS_PAR] += missing;
		s->term[ANALYSIS_SYNC_OMP] += waits > 0 ? waits : 0;
		s->work += w;
		if (w > s->work_max)
			s->work_max = w;
		double v[ANALYSIS_NR_PQ] = {
			w, t, B, L, D, missing, m, m_r > 0 ? wait_r * m / m_r : 0, s->exec - W,
			delay + sq + ms,
		};
		for (int k = 0; k < ANALYSIS_NR_PQ; k++)
			cmp_add(&pt->cmp[k], v[k], (int)r, q, !s->nproc);
		work[s->nproc++] = w;
	}
	W = rank_time_program(rv, W, most_i, most_p, most_w);
	if (W > s->exec_prog)
		s->exec_prog = W;
	/* the main thread's interference spread over its time: the serial code's part of it */
	s->serial_wall += serial;
	if (m0 && m0[RV_TIME] > 0)
		serial -= serial * i0 / m0[RV_TIME];
	s->serial += serial;
	s->wall += W;
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

void analysis_point_compute(const struct interval_ranks *ir, struct analysis_point *pt)
{
	struct sums s = { .sched = 1, .ranks = (double)ir->nr, .threads = ir->threads };
	struct clamp cl = { 0, 0, 0 };
	double *wait = xcalloc(ir->nr + 1, sizeof(double));
	double *work = xcalloc(ir->nr * (size_t)ir->threads + 1, sizeof(double));
	double li = 0;
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
	for (size_t q = 0; q < s.nproc; q++)
		li += s.work_max - work[q];
	set_figures(pt, &s, ir->threads, (int)ir->nr, omp, mpi, li);
	pt->inconsistent = cl.flags;
	pt->inconsistency = cl.worst;
	free(wait);
	free(work);
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
	s->sched = v[PROFILE_RED_SCHED] > 0;
}

void analysis_point_reduced(const struct profile_reduced *r, int ranks, int threads,
			    struct analysis_point *pt)
{
	struct sums s = { .ranks = ranks, .threads = threads, .held = NAN /* not reduced */ };
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
	pt->inconsistent = cl.flags;
	pt->inconsistency = cl.worst;
}
