/*
 * The machine's delay on a team's critical path (tracer/PROFILE.md, rq_sync). A team's members end
 * a phase at each barrier and at the end of their body, each with its run-queue delay in the phase.
 * After the barrier (or the join) the phase would have ended, had nobody waited for a CPU, when the
 * member slowest without its delay arrived; the wall's end less that is the shift the whole team
 * waited through. Each member is charged that shift less its own delay: waiting that was the
 * machine's, not the program's (its own delay is in its rq_wait already).
 */
#include "internal.h"

static uint64_t to_ticks(double ns)
{
	return ns > 0 ? (uint64_t)(ns * sg_ticks_per_ns) : 0;
}

static int64_t to_ns(uint64_t ticks)
{
	return (int64_t)((double)ticks / sg_ticks_per_ns);
}

void sg_phase_begin(struct sg_thread *t, uint64_t now)
{
	t->phase_start = now ? now : 1;
	t->phase_rq = t->phase_cpu = 0;
}

/*
 * A worker's body starts at 'start', its phase at the fork: a late start is on the team's path. It
 * idled in the pool since its last snapshot, so the delay read now is all the start's (*pre; not
 * the interval's); a start late by half the snapshot period (125 µs) or more reads the clocks (a
 * wake-up that found the CPUs taken).
 */
uint64_t sg_team_start(struct sg_thread *t, uint64_t fork, uint64_t start, double *pre)
{
	*pre = 0;
	if (!sg_sched_on)
		return sg_snap_maybe(t, start);
	sg_phase_begin(t, 1);
	if (t->sched_fd >= 0 && start > fork && start - fork >= sg_snap_ticks / 2)
		start = sg_snap(t, t->depth);
	else
		start = sg_snap_maybe(t, start);
	*pre = t->phase_rq;
	sg_phase_begin(t, start);
	return start;
}

/* Reads t's clocks at *now (a snapshot) when its phase lasted the snapshot period
 * (250 µs) or more, at most 2 % of it: a wait for a CPU makes a phase long, so a short one holds
 * little delay, and is left to the next snapshot. */
static void phase_read(struct sg_thread *t, uint64_t *now)
{
	if (t->sched_fd >= 0 && *now > t->phase_start && *now - t->phase_start >= sg_snap_ticks)
		*now = sg_snap(t, t->depth);
}

/* Ends t's phase at 'now', its clocks read: its run-queue delay in ns. */
static double phase_take(struct sg_thread *t, uint64_t now)
{
	double d = t->phase_rq;

	t->phase_rq = t->phase_cpu = 0;
	t->phase_start = now;
	return d;
}

static double phase_end(struct sg_thread *t, uint64_t *now)
{
	phase_read(t, now);
	return phase_take(t, *now);
}

static void wait_cpu(struct sg_thread *t, uint32_t node);

/* Ends t's wait (at a barrier, at the join) at *now, its on-CPU time charged to 'node' as a spin:
 * its run-queue delay in ns. */
static double wait_end(struct sg_thread *t, uint32_t node, uint64_t *now)
{
	phase_read(t, now);
	wait_cpu(t, node);
	return phase_take(t, *now);
}

/* The member's end of its phase, its delay since its own start 'delay': published for the others
 * to read after the barrier. */
static void publish(struct sg_member *m, uint64_t at, double delay)
{
	struct sg_team *tm = m->team;
	struct sg_arrival *a;

	m->own = delay;
	m->late = m->own_start > m->origin ? m->own_start - m->origin : 0;
	if (m->index >= 0 && m->index < tm->size) {
		a = &tm->arrival[m->k & 1][m->index];
		a->at = at;
		a->delay = to_ticks(delay);
		a->all = to_ticks(delay + m->pre + m->wait_rq);
		a->own = delay;
		a->busy = at > m->own_start ? at - m->own_start : 0;
		a->late = m->late;
		a->wait_node = m->wait_node;
		a->fork = tm->fork;
		a->k = m->k;
		if (a->all)
			__atomic_store_n(&tm->delayed[m->k & 1], m->k + 1, __ATOMIC_RELAXED);
	}
	m->pre = m->wait_rq = 0;
}

/*
 * Phase k of the team, begun at 'origin' (the fork, the last release), ended at 'end' (0: at the
 * latest arrival, returned in *last): the shift the team waited through. Without delays a member
 * would have arrived after its own work since the origin: its time since its own start less its
 * delay there (a late start was a wait for a CPU or for another member: a dock, a wake-up). The
 * shift is at most the delays there were, 'extra' included: without delay, nothing is shifted.
 * 'extra' is the joining thread's delay in its wait; when it had one, its wake-up went through a
 * busy CPU, and the whole way from the last arrival to 'end' counts as delay: the wake-up's
 * interrupt to a virtual CPU the hypervisor has descheduled reads as no run-queue delay (a
 * quarter of a millisecond on the development VM beside two CPU hogs), the program's own part of
 * it is microseconds.
 */
static uint64_t phase_shift(const struct sg_team *tm, uint64_t k, uint64_t origin, uint64_t end,
			    uint64_t extra, uint64_t *last)
{
	const struct sg_arrival *a = tm->arrival[k & 1];
	uint64_t undelayed = 0, delays = extra, shift;

	*last = 0;
	/* nobody's delay: nothing shifted; the arrivals need no reading (each a cache line) */
	if (!extra && __atomic_load_n(&tm->delayed[k & 1], __ATOMIC_RELAXED) != k + 1)
		return 0;
	for (int i = 0; i < tm->size; i++) {
		if (a[i].fork != tm->fork || a[i].k != k)
			continue;
		uint64_t u = origin + (a[i].busy > a[i].delay ? a[i].busy - a[i].delay : 0);
		if (a[i].at > *last)
			*last = a[i].at;
		if (u > undelayed)
			undelayed = u;
		delays += a[i].all;
	}
	if (!end)
		end = *last;
	else if (extra && end > *last && end - *last > extra)
		delays += end - *last - extra; /* a wake-up through a busy CPU: all of it (below) */
	shift = undelayed && end > undelayed ? end - undelayed : 0;
	return shift < delays ? shift : delays;
}

static void charge(struct sg_thread *t, uint32_t node, int64_t ns)
{
	struct sg_stat *s = ns ? sg_stat_get(t, node) : NULL;

	if (s)
		__atomic_fetch_add(&s->rq_sync, ns, __ATOMIC_RELAXED);
}

/* The on-CPU time of t's wait just ended (a spin), before the phase's end resets it. */
static void wait_cpu(struct sg_thread *t, uint32_t node)
{
	struct sg_stat *s = t->phase_cpu > 0 ? sg_stat_get(t, node) : NULL;

	if (s)
		s->cpu_wait += t->phase_cpu;
}

/*
 * Member t's charges for a phase shifted by 'shift' ticks, ended in 'node': the shift less its own
 * delay there ('a'; 'more' ns of it after its arrival). A late own start (a wake-up, a preempted
 * spin at the last barrier) is time it spent where it waited: that part of the shift, up to the
 * lateness, goes there.
 */
static void charge_phase(struct sg_thread *t, const struct sg_arrival *a, uint32_t node,
			 uint64_t shift, double more)
{
	uint64_t late = a->late < shift ? a->late : shift;

	if (late)
		charge(t, a->wait_node, to_ns(late));
	charge(t, node, to_ns(shift - late) - (int64_t)(a->own + more));
}

/* A team of one waits for nobody: no phases (and no reading of the clocks for them). */
static int alone(const struct sg_team *tm)
{
	return tm->size < 2;
}

uint64_t sg_barrier_arrive(struct sg_thread *t, uint64_t now)
{
	struct sg_member *m = t->member;

	if (!sg_sched_on || !m || !t->phase_start || alone(m->team))
		return now;
	publish(m, now, phase_end(t, &now));
	return now;
}

/* Its delay while it waited is in the interval of the barrier, and so is the charge. */
uint64_t sg_barrier_depart(struct sg_thread *t, uint64_t now)
{
	struct sg_member *m = t->member;
	uint64_t shift, last;
	struct sg_arrival self;
	double wait;

	if (!sg_sched_on || !m || !t->phase_start || alone(m->team))
		return now;
	wait = wait_end(t, t->cur, &now);
	shift = phase_shift(m->team, m->k, m->origin, 0, 0, &last);
	self = (struct sg_arrival){ .own = m->own, .late = m->late, .wait_node = m->wait_node };
	charge_phase(t, &self, t->cur, shift, wait);
	m->wait_rq = wait;
	m->wait_node = t->cur;
	m->k++;
	m->origin = last ? last : now; /* unread: its own exit, about the release */
	m->own_start = now;
	return now;
}

void sg_phase_leave(struct sg_member *m, uint64_t *end)
{
	struct sg_thread *t = m->t;

	if (!sg_sched_on || !t->phase_start || alone(m->team))
		return;
	publish(m, *end, phase_end(t, end));
	if (t == m->team->master) {
		m->team->leave_k = m->k;
		m->team->leave_origin = m->origin;
	}
}

uint64_t sg_phase_join(struct sg_team *tm, uint64_t join)
{
	struct sg_thread *mt = tm->master;
	const struct sg_arrival *a = tm->arrival[tm->leave_k & 1];
	uint64_t now = join, last;
	double master_wait;
	uint64_t shift;

	if (!sg_sched_on || !mt->phase_start || alone(tm)) {
		mt->phase_start = 0;
		return join;
	}
	/* the forking thread's own delay while it waited here (a wake-up): in its rq_wait */
	master_wait = wait_end(mt, tm->node, &now);
	shift = phase_shift(tm, tm->leave_k, tm->leave_origin, join, to_ticks(master_wait), &last);
	for (int i = 0; i < tm->size; i++) {
		struct sg_thread *m = __atomic_load_n(&tm->member[i], __ATOMIC_ACQUIRE);
		if (!m || a[i].fork != tm->fork || a[i].k != tm->leave_k)
			continue;
		charge_phase(m, &a[i], tm->node, shift, m == mt ? master_wait : 0);
	}
	mt->phase_start = 0;
	return now;
}
