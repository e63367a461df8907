/* One rank's share of an interval's lost-time figures (docs/metrics.md), the per-rank half of the
 * formulas: the gate sums the shares of a run's ranks (gate/analyze/analysis-point.c), the tracer's
 * ranks reduce theirs in the job (tracer/reduce-terms.c); tests/cli/mpi-reduce.sh holds the two
 * paths' figures to each other. */
#include "format/rank-share.h"

#include <math.h>
#include <stddef.h>

enum { OP_SUM, OP_MAX, OP_MIN };

static const unsigned char ops[] = {
#define X(id, name, op) OP_##op,
	SG_REDUCED_COLUMNS(X)
#undef X
};

/* Adds v into column f of a reduced record, as the column combines over ranks. */
static void put(double *red, enum sg_red_field f, double v)
{
	if (ops[f] == OP_SUM)
		red[f] += v;
	else if (ops[f] == OP_MAX ? v > red[f] : v < red[f])
		red[f] = v;
}

static double z(double v)
{
	return isnan(v) ? 0 : v;
}

void sg_rank_share_init(double *red)
{
	for (int f = 0; f < SG_RED_NR_FIELDS; f++)
		red[f] = ops[f] == OP_MIN ? INFINITY : 0;
}

void sg_rank_add_stat(double *c, const double *v, int worker, int *team_delay, int *mpi_delay)
{
	c[RV_TIME] += z(v[SG_COL_TIME]);
	c[RV_PAR] += z(v[SG_COL_PAR]);
	c[RV_COUNT] += z(v[SG_COL_COUNT]);
	c[RV_B] += z(v[SG_COL_OMP_BARRIER]);
	c[RV_L] += z(v[SG_COL_OMP_LOCK]);
	c[RV_D] += z(v[SG_COL_OMP_IDLE]);
	c[RV_RQ] += z(v[SG_COL_RQ_WAIT]);
	c[RV_SQ] += z(v[SG_COL_RQ_SYNC]);
	c[RV_CW] += z(v[SG_COL_CPU_WAIT]);
	*team_delay |= !isnan(v[SG_COL_RQ_SYNC]);
	c[RV_MS] += z(v[SG_COL_MPI_SYNC]);
	c[RV_MQ] += z(v[SG_COL_MPI_RQ]);
	c[RV_MC] += z(v[SG_COL_MPI_CPU]);
	*mpi_delay |= !isnan(v[SG_COL_MPI_SYNC]);
	c[RV_CPU] += z(v[SG_COL_CPU]);
	c[RV_CPU_NAN] += isnan(v[SG_COL_CPU]);
	c[RV_HELD] += z(v[SG_COL_OMP_HELD]);
	c[RV_HELD_NAN] += isnan(v[SG_COL_OMP_HELD]);
	/* A worker's record without entries is an inherited frame: its time is in no ancestor's. */
	if (worker && z(v[SG_COL_COUNT]) == 0) {
		c[RV_INH] += z(v[SG_COL_TIME]);
		c[RV_INHQ] += z(v[SG_COL_RQ_WAIT]);
		c[RV_INHC] += z(v[SG_COL_CPU]);
	}
}

void sg_rank_add_exclusive(double *u, const double *c)
{
	static const int exclusive[] = {
		RV_B, RV_L, RV_D, RV_SQ, RV_CW, RV_MS, RV_MQ, RV_MC, RV_M, RV_PW, RV_CPU_NAN,
		RV_HELD, RV_HELD_NAN,
	};

	for (size_t k = 0; k < sizeof(exclusive) / sizeof(exclusive[0]); k++)
		u[exclusive[k]] += c[exclusive[k]];
}

void sg_rank_add_mpi(double *c, double *cw, const double *v)
{
	double t = z(v[SG_MCOL_TIME]), wait = v[SG_MCOL_WAIT];

	c[RV_M] += t;
	if (!cw) {
		if (!isnan(wait))
			c[RV_PW] += wait;
		return;
	}
	cw[0] += t;
	if (!isnan(wait))
		cw[1] = z(cw[1]) + wait;
}

static const double *cell(const struct sg_rank_cells *r, int q)
{
	return r->v && q < r->threads ? &r->v[(size_t)q * RV_NR] : NULL;
}

/* Non-negative part of v; the most cut off is kept in the record's column 'cut' (the gate flags it
 * when it is more than 1 % of Total_time). */
static double clamp0(double *red, double v, enum sg_red_field cut)
{
	if (v >= 0)
		return v;
	put(red, cut, -v);
	return 0;
}

/* Thread q's presence in the interval: its time there, and for a worker the idle of the regions
 * forked from there (outside its body, so outside its time; the forking thread's idle is inside its
 * own). */
static double presence(const struct sg_rank_cells *r, int q)
{
	const double *c = cell(r, q);

	return c ? c[RV_TIME] + (q ? c[RV_D] : 0) : 0;
}

double sg_rank_time(const struct sg_rank_cells *r)
{
	double w = 0;

	for (int q = 0; q < r->threads; q++)
		if (presence(r, q) > w)
			w = presence(r, q);
	return w;
}

/* The rank's entries of the interval: the most any of its threads made. */
static double rank_count(const struct sg_rank_cells *r)
{
	double n = 0;

	for (int q = 0; q < r->threads && r->v; q++)
		if (cell(r, q)[RV_COUNT] > n)
			n = cell(r, q)[RV_COUNT];
	return n;
}

double sg_rank_wait(const struct sg_rank_cells *r, const double *tmin, const int *measured,
		    int *estimated)
{
	double wait = 0;

	for (int q = 0; q < r->threads && r->v; q++)
		wait += cell(r, q)[RV_PW];
	for (int k = 0; k < SG_NR_COLL && r->coll; k++) {
		const double *cw = &r->coll[k * 2];
		if (cw[0] <= 0)
			continue;
		if (measured[k]) {
			wait += z(cw[1]);
		} else {
			wait += cw[0] - tmin[k];
			*estimated = 1;
		}
	}
	return wait;
}

/*
 * Thread q's interference: its run-queue delay beyond what the program's own oversubscription
 * explains (returned), and in *work the part of it inside its work: the work's wall time less its
 * on-CPU time (less its spins at team barriers and in MPI waits), at most the whole delay less its
 * part in MPI waits (the rest fell while it waited: a wake-up that found the CPUs taken). Without
 * the on-CPU time the delay is taken from the work first.
 */
static double thread_interference(const struct sg_rank_cells *r, const double *c,
				  double presence, double w, double *work)
{
	double i, off_cpu, in_mpi, most;

	*work = 0;
	if (!r->sched || !c)
		return 0;
	i = c[RV_RQ] - r->self_rate * presence;
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

/* The share of the rank's run-queue delay in the interval that was the machine's (the rest, its own
 * threads' and ranks' competing for the CPUs it was given). */
static double machine_share(const struct sg_rank_cells *r)
{
	double rq = 0, machine = 0, in;

	for (int q = 0; q < r->threads && r->v; q++) {
		const double *c = cell(r, q);
		rq += c[RV_RQ];
		machine += thread_interference(r, c, presence(r, q), 0, &in);
	}
	return rq > 0 ? machine / rq : 1;
}

/* Thread q's waiting in MPI that other ranks' delay caused, the machine's share of it (the rest,
 * its program's own ranks' competing for the CPUs), within its MPI time; negative when its own
 * delay while it waited shifted nothing (mpi_sync gives it back), within that delay. */
static double mpi_machine(const struct sg_rank_cells *r, const double *c, double machine)
{
	double ms = c && r->sched ? c[RV_MS] * machine : 0;

	if (!c)
		return 0;
	return ms > c[RV_M] ? c[RV_M] : ms < -c[RV_MQ] ? -c[RV_MQ] : ms;
}

/*
 * The MPI terms of the rank: its time in MPI less its waiting (Communication) and its waiting
 * (Synchronization_mpi), less the waiting other ranks' delay caused ('ms', the machine's): taken
 * from the waiting first, the rest from the transfer (an estimated wait may have left it there).
 * A negative 'ms' (its own delay in a wait that shifted nothing) is waiting it would have done.
 */
static void mpi_terms(double *red, double m_r, double wait_r, double ms)
{
	double comm = clamp0(red, m_r - wait_r, SG_RED_CUT_COMM);
	double from_wait = ms < wait_r ? ms : wait_r, from_comm = ms - from_wait;

	if (from_comm > comm)
		from_comm = comm;
	put(red, SG_RED_COMM, comm - from_comm);
	put(red, SG_RED_SYNC_MPI, wait_r - from_wait);
}

/* What the rank's threads leave for its program time: the most interference, work and presence
 * without interference of one thread, and the main thread's interference. */
struct most {
	double interference, work, program, i0;
};

/* The rank's totals a processor's share needs. */
struct rank {
	double W, serial, machine, m_r, wait_r, exec;
};

/*
 * The work a thread did holding locks, on-CPU: its held time at the on-CPU share of its work in the
 * interval (w, of which 'in' was off the CPU for the machine), as the tracer keeps the held time on
 * the interval's clock (tracer/omp-locks.c); NAN when a record lacked it (an older tracer).
 */
static double held_work(const double *c, double w, double in)
{
	double h;

	if (!c)
		return 0;
	if (c[RV_HELD_NAN])
		return NAN;
	h = c[RV_HELD] * (w > 0 ? (w - in) / w : 1);
	return h < 0 ? 0 : h;
}

/*
 * Processor q of the rank: the main thread, then the workers (absent ones are absent the whole
 * time). Its share of Execution_time_wall is the rank's idle, its gap (the rank was in the
 * interval and it was not: serial code of the main thread, else no work), and its presence (work,
 * interference, waiting, MPI).
 */
static void processor(const struct sg_rank_cells *r, const struct rank *k, int q, double *red,
		      struct most *mo, double *v)
{
	const double *c = cell(r, q);
	double t = c ? c[RV_TIME] : 0, B = c ? c[RV_B] : 0, L = c ? c[RV_L] : 0;
	double D = c ? c[RV_D] : 0, m = c ? c[RV_M] : 0, a = presence(r, q);
	double gap = k->W - a, seq = q && gap > k->serial ? k->serial : q ? gap : 0;
	double missing = gap - seq;
	double w = clamp0(red, a - D - B - L - m, SG_RED_CUT_WORK);
	double in, delay = thread_interference(r, c, a, w, &in);
	/* its waiting that the team's and the other ranks' delay caused: the machine's share */
	double sq = c ? c[RV_SQ] * k->machine : 0, waits = B + L + D - sq;
	double ms = mpi_machine(r, c, k->machine);

	put(red, SG_RED_HELD, held_work(c, w, in));
	w -= in; /* work in on-CPU time */
	if (delay + ms > mo->interference)
		mo->interference = delay + ms;
	if (w > mo->work)
		mo->work = w;
	if (a - delay - sq - ms > mo->program)
		mo->program = a - delay - sq - ms;
	if (!q)
		mo->i0 = delay;
	put(red, SG_RED_SEQ, seq);
	put(red, SG_RED_PAR, missing);
	put(red, SG_RED_SYNC_OMP, waits > 0 ? waits : 0);
	put(red, SG_RED_WORK, w);
	put(red, SG_RED_WORK_MAX, w);
	v[SG_RQ_WORK] = w;
	v[SG_RQ_TIME] = t;
	v[SG_RQ_BARRIER] = B;
	v[SG_RQ_LOCK] = L;
	v[SG_RQ_OMP_IDLE] = D;
	v[SG_RQ_MISSING] = missing;
	v[SG_RQ_MPI] = m;
	v[SG_RQ_MPI_WAIT] = k->m_r > 0 ? k->wait_r * m / k->m_r : 0;
	v[SG_RQ_IDLE] = k->exec - k->W;
	v[SG_RQ_INTERFERENCE] = delay + sq + ms;
}

/*
 * The rank's time without the machine's interference on its critical path (metrics.md): the
 * longest of its threads' presences less their delay and the waiting the teams' and the other
 * ranks' delay caused (rq_sync, mpi_sync); without rq_sync, W less the most of one thread's delay
 * and mpi_sync. Never below the most on-CPU work of one of its threads, nor above W.
 */
static double rank_time_program(const struct sg_rank_cells *r, double W, const struct most *mo)
{
	double w = r->team_delay ? mo->program : W - mo->interference;

	w = w < W ? w : W;
	return w > mo->work ? w : mo->work;
}

void sg_rank_share(const struct sg_rank_cells *r, int threads, double exec, double wait,
		   double *red, void (*each)(void *arg, int q, const double *v), void *arg)
{
	const double *m0 = cell(r, 0);
	struct rank k = { sg_rank_time(r), 0, 0, 0, wait, exec };
	struct most mo = { 0, 0, 0, 0 };
	double ms_r = 0, wp, serial, v[SG_RED_NR_QUANTITIES];

	k.serial = clamp0(red, m0 ? m0[RV_TIME] - m0[RV_PAR] : 0, SG_RED_CUT_SEQ);
	k.machine = r->sched && (r->team_delay || r->mpi_delay) ? machine_share(r) : 0;
	for (int q = 0; q < r->threads && r->v; q++) {
		k.m_r += cell(r, q)[RV_M];
		ms_r += mpi_machine(r, cell(r, q), k.machine);
	}
	put(red, SG_RED_COUNT, rank_count(r));
	put(red, SG_RED_SCHED, r->sched);
	put(red, SG_RED_OMP, r->omp);
	put(red, SG_RED_MPI, r->mpi);
	mpi_terms(red, k.m_r, wait, ms_r);
	put(red, SG_RED_IDLE, threads * (exec - k.W));
	for (int q = 0; q < threads; q++) {
		processor(r, &k, q, red, &mo, v);
		each(arg, q, v);
	}
	wp = rank_time_program(r, k.W, &mo);
	put(red, SG_RED_EXEC, k.W);
	put(red, SG_RED_EXEC_PROG, wp);
	put(red, SG_RED_WALL, wp);
	/* the main thread's interference spread over its time: the serial code's part of it */
	serial = k.serial;
	put(red, SG_RED_SERIAL_WALL, serial);
	if (m0 && m0[RV_TIME] > 0)
		serial -= serial * mo.i0 / m0[RV_TIME];
	put(red, SG_RED_SERIAL, serial);
}
