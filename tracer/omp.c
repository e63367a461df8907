/* OpenMP capture for GCC/libgomp: the GOMP_* entry points the compiler emits, wrapped and called
 * through; and the team bookkeeping that OMPT (ompt.c) shares. */
#include "internal.h"

#include <dlfcn.h>
#include <omp.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* ---- teams: one implementation of inheritance, body, idle and par for both captures ---- */

static void par_on(struct sg_thread *t, uint64_t now)
{
	t->par_start = now;
	t->par_mask = ~(uint64_t)0;
}

static void par_off(struct sg_thread *t, uint64_t now)
{
	t->par_acc += now - t->par_start;
	t->par_mask = 0;
}

void sg_team_fork(struct sg_team *tm, struct sg_thread *t, int size)
{
	tm->master = t;
	tm->node = t->cur;
	tm->size = size < 1 ? 1 : size < SG_MAX_TEAM ? size : SG_MAX_TEAM;
	memset(tm->member, 0, (size_t)tm->size * sizeof(tm->member[0]));
	tm->inject = SG_UNLIKELY(sg_inject_on) ? sg_inject_team(t) : 0;
	tm->fork = sg_now();
	tm->leave_k = 0;
	tm->delayed[0] = tm->delayed[1] = 0;
	if (sg_sched_on)
		sg_phase_begin(t, tm->fork);
	tm->was_par = t->par_mask != 0;
	if (!tm->was_par)
		par_on(t, tm->fork);
	SG_HANDOFF_RELEASE(tm);
}

/* A worker takes on the forking thread's interval for the body; the forking thread is already in
 * it. */
void sg_team_enter(struct sg_team *tm, struct sg_member *m, int index)
{
	struct sg_thread *t = sg_thread_get();

	SG_HANDOFF_ACQUIRE(tm);
	m->team = tm;
	m->t = t;
	m->index = index;
	if (!t)
		return;
	m->worker = t != tm->master && t->depth < SG_MAX_DEPTH && sg_stat_get(t, tm->node);
	t->omp_thread = index;
	m->waited = t->waited;
	m->k = 0;
	m->pre = m->own = m->wait_rq = 0;
	m->outer = t->member;
	t->member = m;
	m->start = sg_now();
	if (m->worker) {
		/* a long wait for this body is not the interval's */
		m->start = sg_team_start(t, tm->fork, m->start, &m->pre);
		par_on(t, m->start);
		sg_frame_push(t, tm->node, UINT32_MAX, m->start, 1);
		m->outer_inject = t->inject_inherited;
		t->inject_inherited = tm->inject;
	}
	m->origin = tm->fork;
	m->own_start = m->start;
	m->wait_node = tm->node;
}

void sg_team_leave(struct sg_member *m)
{
	struct sg_thread *t = m->t;
	struct sg_team *tm = m->team;
	uint64_t end;

	if (!t)
		return;
	end = sg_now();
	if (SG_UNLIKELY(tm->inject > 0))
		end = sg_inject_body(tm->inject, m->start, t->waited - m->waited, end);
	sg_phase_leave(m, &end);
	t->member = m->outer;
	if (m->worker) {
		t->phase_start = 0;
		end = sg_snap_maybe(t, end);
		/* begun in the body, never ended */
		while (t->depth > 1 && !t->stack[t->depth - 1].inherited)
			sg_pop_unclosed(t, end);
		sg_frame_pop(t, end);
		par_off(t, end);
		t->inject_inherited = m->outer_inject;
	}
	if (m->index >= 0 && m->index < tm->size) {
		__atomic_store_n(&tm->body[m->index], end - m->start, __ATOMIC_RELAXED);
		__atomic_store_n(&tm->member[m->index], t, __ATOMIC_RELEASE);
	}
	SG_HANDOFF_RELEASE(tm);
}

/* After the join: each member, the forking thread included, idled for the region minus its body. */
void sg_team_join(struct sg_team *tm)
{
	uint64_t join = sg_now(), span = join - tm->fork;
	struct sg_stat *s;

	SG_HANDOFF_ACQUIRE(tm);
	for (int i = 0; i < tm->size; i++) {
		struct sg_thread *m = __atomic_load_n(&tm->member[i], __ATOMIC_ACQUIRE);
		uint64_t body = __atomic_load_n(&tm->body[i], __ATOMIC_RELAXED);
		if (m && (s = sg_stat_get(m, tm->node)) && body < span)
			__atomic_fetch_add(&s->omp_idle, span - body, __ATOMIC_RELAXED);
	}
	/* a reading of the clocks there is the region's cost, inside it */
	join = sg_phase_join(tm, join);
	if ((s = sg_stat_get(tm->master, tm->node)))
		s->omp_regions++;
	if (!tm->was_par)
		par_off(tm->master, join);
}

/* ---- the GOMP_* wrappers ---- */

/* A GOMP_parallel* call in flight: the team, and the body the wrapper runs on each member. */
struct team {
	struct sg_team team;
	void (*fn)(void *);
	void *data;
};

static void team_body(void *arg)
{
	struct team *tm = arg;
	struct sg_member m;

	int index = sg_omp_thread_num();

	sg_team_enter(&tm->team, &m, index < 0 ? 0 : index);
	tm->fn(tm->data);
	sg_team_leave(&m);
}

/*
 * LLVM's libomp implements the GOMP_* entry points too (for GCC-compiled code) and reports
 * them through OMPT: when OMPT is on, these wrappers only pass through, so nothing is
 * counted twice. libomp starts OMPT as it initializes, so let it initialize before asking.
 */
static int ompt_captures(void)
{
	static int initialized;

	if (SG_UNLIKELY(!__atomic_load_n(&initialized, __ATOMIC_ACQUIRE))) {
		(void)sg_omp_max_threads();
		__atomic_store_n(&initialized, 1, __ATOMIC_RELEASE);
	}
	return __atomic_load_n(&sg_ompt_on, __ATOMIC_RELAXED);
}

static const char gomp_mode[] = "gomp";

static void team_fork(struct team *tm, struct sg_thread *t, void (*fn)(void *), void *data,
		      unsigned threads)
{
	int size = threads ? (int)threads : sg_omp_max_threads();

	/* Under libomp without OMPT the mode is known at the first region these wrappers capture.
	 */
	if (SG_UNLIKELY(sg_omp_mode != gomp_mode))
		sg_omp_mode = gomp_mode;
	tm->fn = fn;
	tm->data = data;
	sg_team_fork(&tm->team, t, size);
}

#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer does not see libgomp's fork and join: a region passed through carries the edges
 * too. */
struct pass {
	void (*fn)(void *);
	void *data;
};

static void pass_body(void *arg)
{
	struct pass *p = arg;

	SG_HANDOFF_ACQUIRE(p);
	p->fn(p->data);
	SG_HANDOFF_RELEASE(p);
}
#define PASS_BEGIN struct pass pass_ = { fn, data }; SG_HANDOFF_RELEASE(&pass_);
#define PASS_FN pass_body
#define PASS_DATA &pass_
#define PASS_END SG_HANDOFF_ACQUIRE(&pass_);
#else
#define PASS_BEGIN
#define PASS_FN fn
#define PASS_DATA data
#define PASS_END
#endif

/* Every fork entry point has this shape; the trailing arguments pass through after (fn, data,
 * threads). */
#define FORK_WRAPPER(name, params, ...) \
	SG_API void name params; \
	SG_API void name params \
	{ \
		SG_OMP_REAL(name); \
		struct sg_thread *t = sg_thread_get(); \
		struct team tm; \
		if (SG_UNLIKELY(!name##_fn)) { \
			fn(data); /* no runtime: a team of one */ \
			return; \
		} \
		if (!t || ompt_captures() || !sg_stat_get(t, t->cur)) { \
			PASS_BEGIN \
			name##_fn(PASS_FN, PASS_DATA, num_threads __VA_ARGS__); \
			PASS_END \
			return; \
		} \
		team_fork(&tm, t, fn, data, num_threads); \
		name##_fn(team_body, &tm, num_threads __VA_ARGS__); \
		sg_team_join(&tm.team); \
	}

#define FN_PARAMS void (*fn)(void *), void *data, unsigned num_threads
#define LOOP_PARAMS long start, long end, long incr

FORK_WRAPPER(GOMP_parallel, (FN_PARAMS, unsigned flags), , flags)
FORK_WRAPPER(GOMP_parallel_sections, (FN_PARAMS, unsigned count, unsigned flags), , count, flags)
FORK_WRAPPER(GOMP_parallel_loop_static, (FN_PARAMS, LOOP_PARAMS, long chunk, unsigned flags),
	     , start, end, incr, chunk, flags)
FORK_WRAPPER(GOMP_parallel_loop_dynamic, (FN_PARAMS, LOOP_PARAMS, long chunk, unsigned flags),
	     , start, end, incr, chunk, flags)
FORK_WRAPPER(GOMP_parallel_loop_guided, (FN_PARAMS, LOOP_PARAMS, long chunk, unsigned flags),
	     , start, end, incr, chunk, flags)
FORK_WRAPPER(GOMP_parallel_loop_nonmonotonic_dynamic,
	     (FN_PARAMS, LOOP_PARAMS, long chunk, unsigned flags), , start, end, incr, chunk, flags)
FORK_WRAPPER(GOMP_parallel_loop_nonmonotonic_guided,
	     (FN_PARAMS, LOOP_PARAMS, long chunk, unsigned flags), , start, end, incr, chunk, flags)
FORK_WRAPPER(GOMP_parallel_loop_runtime, (FN_PARAMS, LOOP_PARAMS, unsigned flags), , start, end,
	     incr, flags)
FORK_WRAPPER(GOMP_parallel_loop_nonmonotonic_runtime, (FN_PARAMS, LOOP_PARAMS, unsigned flags),
	     , start, end, incr, flags)
FORK_WRAPPER(GOMP_parallel_loop_maybe_nonmonotonic_runtime,
	     (FN_PARAMS, LOOP_PARAMS, unsigned flags), , start, end, incr, flags)

/* A barrier orders everything before it in every member before everything after it (for
 * ThreadSanitizer, which does not see libgomp's). One object for all barriers: it can only hide
 * races, in TSan builds. */
static char barrier_order;

/* The wait is charged after the call: by then libomp has initialized and started OMPT, if it does.
 */
#define WAIT_VOID(name, params, args, team) \
	SG_API void name params; \
	SG_API void name params \
	{ \
		SG_OMP_REAL(name); \
		struct sg_thread *t = sg_self; \
		uint64_t t0 = t ? sg_now() : 0; \
		if (SG_UNLIKELY(!name##_fn)) \
			return; /* no runtime: one thread, nothing to wait for */ \
		if (team && t) \
			t0 = sg_barrier_arrive(t, t0); \
		SG_HANDOFF_RELEASE(&barrier_order); \
		name##_fn args; \
		SG_HANDOFF_ACQUIRE(&barrier_order); \
		if (sg_gomp_captures(t)) { \
			uint64_t t1 = sg_now(); \
			if (team) \
				t1 = sg_barrier_depart(t, t1); \
			sg_account_wait_until(t, t0, t1, offsetof(struct sg_stat, omp_barrier)); \
		} \
	}

#define WAIT_BOOL(name) \
	SG_API bool name(void); \
	SG_API bool name(void) \
	{ \
		SG_OMP_REAL(name); \
		struct sg_thread *t = sg_self; \
		uint64_t t0 = t ? sg_now() : 0; \
		if (SG_UNLIKELY(!name##_fn)) \
			return false; \
		if (t) \
			t0 = sg_barrier_arrive(t, t0); \
		SG_HANDOFF_RELEASE(&barrier_order); \
		bool r = name##_fn(); \
		SG_HANDOFF_ACQUIRE(&barrier_order); \
		if (sg_gomp_captures(t)) { \
			uint64_t t1 = sg_barrier_depart(t, sg_now()); \
			sg_account_wait_until(t, t0, t1, offsetof(struct sg_stat, omp_barrier)); \
		} \
		return r; \
	}

/* Barriers, explicit and implicit (end of a worksharing loop, sections, single): the team's
 * (a phase ends, team.c); waits for tasks are charged alike but wait for no team. */
WAIT_VOID(GOMP_barrier, (void), (), 1)
WAIT_BOOL(GOMP_barrier_cancel)
WAIT_VOID(GOMP_loop_end, (void), (), 1)
WAIT_BOOL(GOMP_loop_end_cancel)
WAIT_VOID(GOMP_sections_end, (void), (), 1)
WAIT_BOOL(GOMP_sections_end_cancel)
WAIT_VOID(GOMP_taskwait, (void), (), 0)
WAIT_VOID(GOMP_taskgroup_end, (void), (), 0)

__attribute__((constructor)) static void omp_mode(void)
{
	/* libgomp is loaded: OpenMP is captured by these wrappers. LLVM's libomp has omp_* and
	 * GOMP_* too; there the mode is "ompt" once OMPT starts, or "gomp" at the first region
	 * these wrappers capture (GCC-compiled code with OMPT off), else "none". */
	if (sg_omp_linked() && !dlsym(RTLD_DEFAULT, "__kmpc_fork_call"))
		sg_omp_mode = gomp_mode;
}
