/* One rank's share of the gate's figures of one interval (docs/metrics.md), computed where the
 * rank's data is: the per-rank half of gate/analyze/analysis-point.c, with what it needs of the
 * other ranks (the longest rank time, the least time per collective kind) given. The gate finishes
 * the figures from the reduced sums; tests/cli/mpi-reduce.sh holds the two halves to the per-rank
 * path's figures. */
#include "reduce.h"

#include <math.h>
#include <string.h>

static double z(double v)
{
	return isnan(v) ? 0 : v;
}

/* Thread q's presence in the interval: its time, and for a worker the idle of the regions forked
 * from there. */
static double presence(const struct sg_rview *rv, int node, int q)
{
	const double *c;

	if (node < 0 || q >= rv->threads)
		return 0;
	c = sg_rview_cell(rv, (size_t)node, q);
	return c[RV_TIME] + (q ? c[RV_D] : 0);
}

/* The rank's time in the interval: the longest presence of any of its threads. */
static double rank_time(const struct sg_rview *rv, int node)
{
	double w = 0;

	for (int q = 0; q < rv->threads; q++)
		if (presence(rv, node, q) > w)
			w = presence(rv, node, q);
	return w;
}

void sg_rview_context(const struct sg_rview *rv, size_t i, double *ctx)
{
	int node = rv->job_node[i];

	ctx[SG_CTX_EXEC] = rank_time(rv, node);
	for (size_t k = 0; k < SG_RED_NR_COLL; k++) {
		const double *cw = node < 0 ? NULL
					    : &rv->coll[((size_t)node * SG_RED_NR_COLL + k) * 2];
		ctx[SG_CTX_TMIN + k] = cw ? -cw[0] : 0;
		ctx[SG_CTX_MEASURED + k] = cw && !isnan(cw[1]);
	}
}

/* The running sums of one rank's share, with the figure's clamps. */
struct share {
	struct sg_red *out;
	const struct sg_rview *rv;
	int node, rank;
	double exec;
};

static double clamp0(struct share *s, double v, enum sg_red_field cut)
{
	if (v >= 0)
		return v;
	if (-v > s->out->v[cut])
		s->out->v[cut] = -v;
	return 0;
}

/* MPI waiting of the rank: point-to-point as measured; collectives measured where any rank
 * measured them, else t_k - min over ranks. */
static double rank_wait(struct share *s, const double *ctx)
{
	const struct sg_rview *rv = s->rv;
	double wait = 0;

	for (int q = 0; q < rv->threads && s->node >= 0; q++)
		wait += sg_rview_cell(rv, (size_t)s->node, q)[RV_PW];
	for (size_t k = 0; k < SG_RED_NR_COLL && s->node >= 0; k++) {
		const double *cw = &rv->coll[((size_t)s->node * SG_RED_NR_COLL + k) * 2];
		if (cw[0] <= 0)
			continue;
		if (ctx[SG_CTX_MEASURED + k] > 0) {
			wait += z(cw[1]);
		} else {
			wait += cw[0] + ctx[SG_CTX_TMIN + k];
			s->out->v[SG_RED_ESTIMATED] = 1;
		}
	}
	return wait;
}

/* Thread q's interference beyond the program's own oversubscription, and in *work its part inside
 * the work (analysis-point.c, thread_interference). */
static double thread_interference(const struct sg_rview *rv, const double *c, double presence,
				  double w, double self_rate, double *work)
{
	double i, off_cpu, in_mpi, most;

	*work = 0;
	if (!rv->sched || !c)
		return 0;
	i = c[RV_RQ] - self_rate * presence;
	if (i <= 0)
		return 0;
	off_cpu = c[RV_CPU_NAN] ? w : w - (c[RV_CPU] - c[RV_CW] - c[RV_MC]);
	in_mpi = c[RV_RQ] > 0 ? i * c[RV_MQ] / c[RV_RQ] : 0;
	most = i - in_mpi;
	*work = off_cpu <= 0 || most <= 0 ? 0 : off_cpu < most ? off_cpu : most;
	return i;
}

/* The machine's share of the rank's run-queue delay in the interval. */
static double machine_share(const struct sg_rview *rv, int node, double self_rate)
{
	double rq = 0, machine = 0, in;

	for (int q = 0; q < rv->threads && node >= 0; q++) {
		const double *c = sg_rview_cell(rv, (size_t)node, q);
		rq += c[RV_RQ];
		machine += thread_interference(rv, c, presence(rv, node, q), 0, self_rate, &in);
	}
	return rq > 0 ? machine / rq : 1;
}

static double mpi_machine(const struct sg_rview *rv, const double *c, double machine)
{
	double ms = c && rv->sched ? c[RV_MS] * machine : 0;

	if (!c)
		return 0;
	return ms > c[RV_M] ? c[RV_M] : ms < -c[RV_MQ] ? -c[RV_MQ] : ms;
}

/* Communication and Synchronization_mpi of the rank, less the waiting other ranks' delay caused. */
static void mpi_terms(struct share *s, double m_r, double wait_r, double ms)
{
	double comm = clamp0(s, m_r - wait_r, SG_RED_CUT_COMM);
	double from_wait = ms < wait_r ? ms : wait_r, from_comm = ms - from_wait;

	if (from_comm > comm)
		from_comm = comm;
	s->out->v[SG_RED_COMM] += comm - from_comm;
	s->out->v[SG_RED_SYNC_MPI] += wait_r - from_wait;
}

static void cmp_add(struct share *s, enum sg_red_quantity k, double v, int q)
{
	double *c = &s->out->v[SG_RED_NR_FIELDS + (size_t)k * SG_CMP_NR];

	if (v < c[SG_CMP_MIN]) {
		c[SG_CMP_MIN] = v;
		c[SG_CMP_MIN_RANK] = s->rank;
		c[SG_CMP_MIN_THREAD] = q;
	}
	if (v > c[SG_CMP_MAX]) {
		c[SG_CMP_MAX] = v;
		c[SG_CMP_MAX_RANK] = s->rank;
		c[SG_CMP_MAX_THREAD] = q;
	}
	c[SG_CMP_SUM] += v;
}

/* What the rank's threads leave for its program time: the most interference, work and presence
 * without interference of one thread. */
struct most {
	double interference, work, program, i0;
};

/* Processor q of the rank (analysis-point.c, rank_processors' loop). */
static void processor(struct share *s, const struct sg_red_job *job, int q, double W,
		      double serial, double machine, double m_r, double wait_r, struct most *mo)
{
	const struct sg_rview *rv = s->rv;
	const double *c = s->node >= 0 && q < rv->threads ? sg_rview_cell(rv, (size_t)s->node, q)
							     : NULL;
	double t = c ? c[RV_TIME] : 0, B = c ? c[RV_B] : 0, L = c ? c[RV_L] : 0;
	double D = c ? c[RV_D] : 0, m = c ? c[RV_M] : 0, a = presence(rv, s->node, q);
	double gap = W - a, seq = q && gap > serial ? serial : q ? gap : 0, missing = gap - seq;
	double w = clamp0(s, a - D - B - L - m, SG_RED_CUT_WORK);
	double in, delay = thread_interference(rv, c, a, w, job->self_rate, &in);
	double sq = c ? c[RV_SQ] * machine : 0, waits = B + L + D - sq;
	double ms = mpi_machine(rv, c, machine);
	double *o = s->out->v;

	w -= in;
	if (delay + ms > mo->interference)
		mo->interference = delay + ms;
	if (w > mo->work)
		mo->work = w;
	if (a - delay - sq - ms > mo->program)
		mo->program = a - delay - sq - ms;
	if (!q)
		mo->i0 = delay;
	o[SG_RED_SEQ] += seq;
	o[SG_RED_PAR] += missing;
	o[SG_RED_SYNC_OMP] += waits > 0 ? waits : 0;
	o[SG_RED_WORK] += w;
	if (w > o[SG_RED_WORK_MAX])
		o[SG_RED_WORK_MAX] = w;
	double v[SG_RED_NR_QUANTITIES] = {
		w, t, B, L, D, missing, m, m_r > 0 ? wait_r * m / m_r : 0, s->exec - W,
		delay + sq + ms,
	};
	for (int k = 0; k < SG_RED_NR_QUANTITIES; k++)
		cmp_add(s, (enum sg_red_quantity)k, v[k], q);
}

/* An empty record: sums 0, extremes that any value replaces, flags every rank must clear. */
static void red_empty(struct sg_red *out)
{
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < SG_RED_NR_QUANTITIES; k++) {
		double *c = &out->v[SG_RED_NR_FIELDS + (size_t)k * SG_CMP_NR];
		c[SG_CMP_MIN] = INFINITY;
		c[SG_CMP_MAX] = -INFINITY;
	}
}

static double rank_count(const struct sg_rview *rv, int node)
{
	double n = 0;

	for (int q = 0; q < rv->threads && node >= 0; q++)
		if (sg_rview_cell(rv, (size_t)node, q)[RV_COUNT] > n)
			n = sg_rview_cell(rv, (size_t)node, q)[RV_COUNT];
	return n;
}

void sg_rview_share(const struct sg_rview *rv, size_t i, const double *ctx,
		    const struct sg_red_job *job, struct sg_red *out)
{
	struct share s = { out, rv, rv->job_node[i], job->rank, ctx[SG_CTX_EXEC] };
	const double *m0 = s.node >= 0 ? sg_rview_cell(rv, (size_t)s.node, 0) : NULL;
	double W = rank_time(rv, s.node), m_r = 0, ms_r = 0, wp;
	double serial = 0, machine, wait_r;
	struct most mo = { 0, 0, 0, 0 };
	double *o = out->v;

	red_empty(out);
	serial = clamp0(&s, m0 ? m0[RV_TIME] - m0[RV_PAR] : 0, SG_RED_CUT_SEQ);
	machine = rv->sched && (rv->team_delay || rv->mpi_delay)
			  ? machine_share(rv, s.node, job->self_rate) : 0;
	wait_r = rank_wait(&s, ctx);
	for (int q = 0; q < rv->threads && s.node >= 0; q++) {
		m_r += sg_rview_cell(rv, (size_t)s.node, q)[RV_M];
		ms_r += mpi_machine(rv, sg_rview_cell(rv, (size_t)s.node, q), machine);
	}
	o[SG_RED_COUNT] = rank_count(rv, s.node);
	o[SG_RED_SCHED] = rv->sched;
	o[SG_RED_OMP] = rv->omp;
	o[SG_RED_MPI] = rv->mpi;
	mpi_terms(&s, m_r, wait_r, ms_r);
	o[SG_RED_IDLE] = job->threads * (s.exec - W);
	for (int q = 0; q < job->threads; q++)
		processor(&s, job, q, W, serial, machine, m_r, wait_r, &mo);
	/* the rank's program time (analysis-point.c, rank_time_program) */
	wp = rv->team_delay ? mo.program : W - mo.interference;
	wp = wp < W ? wp : W;
	wp = wp > mo.work ? wp : mo.work;
	o[SG_RED_EXEC] = W;
	o[SG_RED_EXEC_PROG] = wp;
	o[SG_RED_WALL] = wp;
	o[SG_RED_SERIAL_WALL] = serial;
	if (m0 && m0[RV_TIME] > 0)
		serial -= serial * mo.i0 / m0[RV_TIME];
	o[SG_RED_SERIAL] = serial;
}

/* Whether (v, rank, thread) of b comes before that of a: a lower value for the minimum (a higher
 * for the maximum), then the lower rank, then the lower thread, as the gate's rank loop finds it.
 */
static int before(const double *a, const double *b, int max)
{
	if (b[0] != a[0])
		return max ? b[0] > a[0] : b[0] < a[0];
	if (b[1] != a[1])
		return b[1] < a[1];
	return b[2] < a[2];
}

enum { OP_SUM, OP_MAX, OP_MIN };

static const unsigned char red_ops[] = {
#define X(id, name, op) OP_##op,
	SG_REDUCED_COLUMNS(X)
#undef X
};

void sg_red_combine(const struct sg_red *in, struct sg_red *inout, size_t n)
{
	for (size_t r = 0; r < n; r++) {
		const double *a = in[r].v;
		double *b = inout[r].v;
		for (int f = 0; f < SG_RED_NR_FIELDS; f++) {
			if (red_ops[f] == OP_SUM)
				b[f] += a[f];
			else if (red_ops[f] == OP_MAX ? a[f] > b[f] : a[f] < b[f])
				b[f] = a[f];
		}
		for (int k = 0; k < SG_RED_NR_QUANTITIES; k++) {
			const double *x = &a[SG_RED_NR_FIELDS + k * SG_CMP_NR];
			double *y = &b[SG_RED_NR_FIELDS + k * SG_CMP_NR];
			if (before(&y[SG_CMP_MIN], &x[SG_CMP_MIN], 0))
				memcpy(&y[SG_CMP_MIN], &x[SG_CMP_MIN], 3 * sizeof(double));
			if (before(&y[SG_CMP_MAX], &x[SG_CMP_MAX], 1))
				memcpy(&y[SG_CMP_MAX], &x[SG_CMP_MAX], 3 * sizeof(double));
			y[SG_CMP_SUM] += x[SG_CMP_SUM];
		}
	}
}
