/* OpenMP mutual exclusion for GCC/libgomp: the wait to get in (omp_lock) and the work done inside
 * (omp_held), for critical sections, omp locks, ordered and the atomics the runtime serializes.
 * With OMPT (ompt.c) the same two come from its mutex callbacks; these wrappers only pass through.
 */
#include "internal.h"

#include <omp.h>
#include <stddef.h>

/*
 * The time a thread holds a lock, on the interval's clock (two TSC reads a section: a CPU clock
 * read costs a system call, 0.3 us quiet and several beside a load). What a machine that keeps the
 * threads from contending does not hide is the work done holding it: the gate takes the on-CPU
 * share of the held time from the thread's own work in the interval (format/rank-share.c). Only
 * the outermost lock counts (nested locks and nest locks hold the same work once), and only while
 * another thread is alive (alone, nobody could wait for it).
 */
void sg_held_begin(struct sg_thread *t)
{
	if (t->held_depth++ == 0)
		t->held_start = sg_lock_contended() ? sg_now() : 0;
}

void sg_held_end(struct sg_thread *t)
{
	struct sg_stat *s;
	uint64_t now;

	if (t->held_depth == 0 || --t->held_depth > 0 || !t->held_start)
		return;
	now = sg_now();
	s = sg_stat_get(t, t->cur);
	if (s && now > t->held_start)
		s->omp_held += now - t->held_start;
}

/* Getting in: the time it took, when another thread could be in (else taking it is work). */
#define WAIT_LOCK(name, params, args) \
	SG_API void name params; \
	SG_API void name params \
	{ \
		SG_OMP_REAL(name); \
		struct sg_thread *t = sg_self; \
		uint64_t t0 = t ? sg_now() : 0; \
		if (SG_UNLIKELY(!name##_fn)) \
			return; \
		name##_fn args; \
		if (!sg_gomp_captures(t)) \
			return; \
		if (sg_lock_contended()) \
			sg_account_wait(t, t0, offsetof(struct sg_stat, omp_lock)); \
		sg_held_begin(t); \
	}

WAIT_LOCK(GOMP_critical_start, (void), ())
WAIT_LOCK(GOMP_critical_name_start, (void **pptr), (pptr))
WAIT_LOCK(GOMP_atomic_start, (void), ())
WAIT_LOCK(GOMP_ordered_start, (void), ())

/* Letting go: the held work ends as the lock is given back. */
#define HELD_END(name, params, args) \
	SG_API void name params; \
	SG_API void name params \
	{ \
		SG_OMP_REAL(name); \
		struct sg_thread *t = sg_self; \
		if (sg_gomp_captures(t)) \
			sg_held_end(t); \
		if (SG_LIKELY(name##_fn != NULL)) \
			name##_fn args; \
	}

HELD_END(GOMP_critical_end, (void), ())
HELD_END(GOMP_critical_name_end, (void **pptr), (pptr))
HELD_END(GOMP_atomic_end, (void), ())
HELD_END(GOMP_ordered_end, (void), ())
HELD_END(omp_unset_lock, (omp_lock_t *lock), (lock))
HELD_END(omp_unset_nest_lock, (omp_nest_lock_t *lock), (lock))

/* A lock taken at the first try was free: no wait. Only the wait for a lock another thread holds
 * counts. */
#define SET_LOCK(name, type, test_name) \
	SG_API void name(type *lock); \
	SG_API void name(type *lock) \
	{ \
		SG_OMP_REAL(name); \
		static void *test_real; \
		int (*test)(type *) = (int (*)(type *))sg_omp_real(&test_real, #test_name, NULL); \
		struct sg_thread *t = sg_self; \
		uint64_t t0; \
		if (SG_UNLIKELY(!name##_fn)) \
			return; \
		if (!sg_gomp_captures(t) || !test) { \
			name##_fn(lock); \
			return; \
		} \
		t0 = sg_now(); \
		if (!test(lock)) { \
			name##_fn(lock); \
			sg_account_wait(t, t0, offsetof(struct sg_stat, omp_lock)); \
		} \
		sg_held_begin(t); \
	}

SET_LOCK(omp_set_lock, omp_lock_t, omp_test_lock)
SET_LOCK(omp_set_nest_lock, omp_nest_lock_t, omp_test_nest_lock)

/* A test that takes the lock holds it as a set does. */
#define TEST_LOCK(name, type) \
	SG_API int name(type *lock); \
	SG_API int name(type *lock) \
	{ \
		SG_OMP_REAL(name); \
		struct sg_thread *t = sg_self; \
		int got = SG_LIKELY(name##_fn != NULL) ? name##_fn(lock) : 0; \
		if (got && sg_gomp_captures(t)) \
			sg_held_begin(t); \
		return got; \
	}

TEST_LOCK(omp_test_lock, omp_lock_t)
TEST_LOCK(omp_test_nest_lock, omp_nest_lock_t)
