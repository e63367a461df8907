/* OpenMP capture for GCC/libgomp: the GOMP_* entry points the compiler emits, wrapped and called through. */
#include "internal.h"

#include <dlfcn.h>
#include <omp.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Weak: libscalegate must load in programs that have no OpenMP runtime. */
#pragma weak omp_get_thread_num
#pragma weak omp_get_max_threads

#define SG_MAX_TEAM 256

/* libgomp is not built with ThreadSanitizer, so its fork and join are invisible to it:
 * tell it about the happens-before edges libgomp provides. */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define HANDOFF_RELEASE(p) __tsan_release(p)
#define HANDOFF_ACQUIRE(p) __tsan_acquire(p)
#else
#define HANDOFF_RELEASE(p) ((void)(p))
#define HANDOFF_ACQUIRE(p) ((void)(p))
#endif

/* The real entry point, found once with dlsym(RTLD_NEXT) (the next library: libgomp). */
static void *real_symbol(void **slot, const char *name)
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (SG_UNLIKELY(!p)) {
		p = dlsym(RTLD_NEXT, name);
		if (!p)
			p = dlsym(RTLD_DEFAULT, name);
		__atomic_store_n(slot, p, __ATOMIC_RELEASE);
	}
	return p;
}

/* The real function, with the wrapper's own signature. */
#define REAL(name) \
	static void *name##_real; \
	__typeof__(name) *name##_fn = (__typeof__(name) *)real_symbol(&name##_real, #name)

/* A parallel region in flight: what the forking thread's team members report back. */
struct team {
	void (*fn)(void *);
	void *data;
	struct sg_thread *master;
	uint32_t node; /* the forking thread's innermost interval: the team inherits it */
	uint64_t fork;
	int size;
	int was_par;
	struct sg_thread *member[SG_MAX_TEAM];
	uint64_t body[SG_MAX_TEAM];
};

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

/* Runs on every team member: the worker takes on the forking thread's interval for the body. */
static void team_body(void *arg)
{
	struct team *tm = arg;
	struct sg_thread *t = sg_thread_get();
	int me = omp_get_thread_num ? omp_get_thread_num() : 0;
	uint64_t start, end;
	int worker;

	HANDOFF_ACQUIRE(tm);
	worker = t && t != tm->master && t->depth < SG_MAX_DEPTH && sg_stat_get(t, tm->node);
	if (!t) {
		tm->fn(tm->data);
		return;
	}
	t->omp_thread = me;
	start = sg_now();
	if (worker) {
		par_on(t, start);
		sg_frame_push(t, tm->node, UINT32_MAX, start, 1);
	}
	tm->fn(tm->data);
	end = sg_now();
	if (worker) {
		while (t->depth > 1 && !t->stack[t->depth - 1].inherited) {
			t->unclosed++; /* an interval begun in the body and never ended */
			sg_frame_pop(t, end);
		}
		sg_frame_pop(t, end);
		par_off(t, end);
	}
	if (me >= 0 && me < tm->size) {
		__atomic_store_n(&tm->body[me], end - start, __ATOMIC_RELAXED);
		__atomic_store_n(&tm->member[me], t, __ATOMIC_RELEASE);
	}
	HANDOFF_RELEASE(tm);
}

static void team_fork(struct team *tm, struct sg_thread *t, void (*fn)(void *), void *data, unsigned threads)
{
	int size = threads ? (int)threads : omp_get_max_threads ? omp_get_max_threads() : 1;

	tm->fn = fn;
	tm->data = data;
	tm->master = t;
	tm->node = t->cur;
	tm->size = size < SG_MAX_TEAM ? size : SG_MAX_TEAM;
	memset(tm->member, 0, (size_t)tm->size * sizeof(tm->member[0]));
	tm->fork = sg_now();
	tm->was_par = t->par_mask != 0;
	if (!tm->was_par)
		par_on(t, tm->fork);
	HANDOFF_RELEASE(tm);
}

/* After the join: each member, the forking thread included, idled for the region minus its body. */
static void team_join(struct team *tm)
{
	uint64_t join = sg_now(), span = join - tm->fork;
	struct sg_stat *s;

	HANDOFF_ACQUIRE(tm);
	for (int i = 0; i < tm->size; i++) {
		struct sg_thread *m = __atomic_load_n(&tm->member[i], __ATOMIC_ACQUIRE);
		uint64_t body = __atomic_load_n(&tm->body[i], __ATOMIC_RELAXED);
		if (m && (s = sg_stat_get(m, tm->node)) && body < span)
			__atomic_fetch_add(&s->omp_idle, span - body, __ATOMIC_RELAXED);
	}
	if ((s = sg_stat_get(tm->master, tm->node)))
		s->omp_regions++;
	if (!tm->was_par)
		par_off(tm->master, join);
}

/* Every fork entry point has this shape; the trailing arguments pass through after (fn, data, threads). */
#define FORK_WRAPPER(name, params, ...) \
	SG_API void name params; \
	SG_API void name params \
	{ \
		REAL(name); \
		struct sg_thread *t = sg_thread_get(); \
		struct team tm; \
		if (!t || !sg_stat_get(t, t->cur)) { \
			name##_fn(fn, data, num_threads __VA_ARGS__); \
			return; \
		} \
		team_fork(&tm, t, fn, data, num_threads); \
		name##_fn(team_body, &tm, num_threads __VA_ARGS__); \
		team_join(&tm); \
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
FORK_WRAPPER(GOMP_parallel_loop_nonmonotonic_dynamic, (FN_PARAMS, LOOP_PARAMS, long chunk, unsigned flags),
	     , start, end, incr, chunk, flags)
FORK_WRAPPER(GOMP_parallel_loop_nonmonotonic_guided, (FN_PARAMS, LOOP_PARAMS, long chunk, unsigned flags),
	     , start, end, incr, chunk, flags)
FORK_WRAPPER(GOMP_parallel_loop_runtime, (FN_PARAMS, LOOP_PARAMS, unsigned flags), , start, end, incr, flags)
FORK_WRAPPER(GOMP_parallel_loop_nonmonotonic_runtime, (FN_PARAMS, LOOP_PARAMS, unsigned flags),
	     , start, end, incr, flags)
FORK_WRAPPER(GOMP_parallel_loop_maybe_nonmonotonic_runtime, (FN_PARAMS, LOOP_PARAMS, unsigned flags),
	     , start, end, incr, flags)

/* A wait charged to the innermost interval of the calling thread, in the given column. */
static inline void account_wait(struct sg_thread *t, uint64_t start, size_t column)
{
	struct sg_stat *s = sg_stat_get(t, t->cur);

	if (s)
		*(uint64_t *)((char *)s + column) += sg_now() - start;
}

#define WAIT_VOID(name, params, args, column) \
	SG_API void name params; \
	SG_API void name params \
	{ \
		REAL(name); \
		struct sg_thread *t = sg_self; \
		uint64_t t0 = t ? sg_now() : 0; \
		name##_fn args; \
		if (t) \
			account_wait(t, t0, offsetof(struct sg_stat, column)); \
	}

#define WAIT_BOOL(name, column) \
	SG_API bool name(void); \
	SG_API bool name(void) \
	{ \
		REAL(name); \
		struct sg_thread *t = sg_self; \
		uint64_t t0 = t ? sg_now() : 0; \
		bool r = name##_fn(); \
		if (t) \
			account_wait(t, t0, offsetof(struct sg_stat, column)); \
		return r; \
	}

/* Barriers, explicit and implicit (end of a worksharing loop, sections, single). */
WAIT_VOID(GOMP_barrier, (void), (), omp_barrier)
WAIT_BOOL(GOMP_barrier_cancel, omp_barrier)
WAIT_VOID(GOMP_loop_end, (void), (), omp_barrier)
WAIT_BOOL(GOMP_loop_end_cancel, omp_barrier)
WAIT_VOID(GOMP_sections_end, (void), (), omp_barrier)
WAIT_BOOL(GOMP_sections_end_cancel, omp_barrier)
WAIT_VOID(GOMP_taskwait, (void), (), omp_barrier)
WAIT_VOID(GOMP_taskgroup_end, (void), (), omp_barrier)

/* Mutual exclusion: the time to get in. */
WAIT_VOID(GOMP_critical_start, (void), (), omp_lock)
WAIT_VOID(GOMP_critical_name_start, (void **pptr), (pptr), omp_lock)
WAIT_VOID(GOMP_atomic_start, (void), (), omp_lock)
WAIT_VOID(GOMP_ordered_start, (void), (), omp_lock)
WAIT_VOID(omp_set_lock, (omp_lock_t *lock), (lock), omp_lock)
WAIT_VOID(omp_set_nest_lock, (omp_nest_lock_t *lock), (lock), omp_lock)

__attribute__((constructor)) static void omp_mode(void)
{
	/* These wrappers are linked in: OpenMP is captured when the program uses libgomp. */
	if (omp_get_thread_num)
		sg_omp_mode = "gomp";
}
