/* Internals shared by the tracer's files; nothing here is visible outside libscalegate. */
#ifndef SG_INTERNAL_H
#define SG_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "mpi-kinds.h"
#include "scalegate.h"

#define SG_HIDDEN __attribute__((visibility("hidden")))
#define SG_LIKELY(x) __builtin_expect(!!(x), 1)
#define SG_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define SG_MAX_DEPTH 128        /* open regions per thread */
#define SG_CACHE_SIZE 256       /* per-thread (parent, region, tag) -> node cache */
#define SG_CHUNK 64             /* statistics are stored in chunks that never move */
#define SG_MAX_CHUNKS 4096      /* so at most 262144 call-path nodes */
#define SG_NO_TAG (-0x7fffffffffffffffL - 1)

/* ---- clock ---------------------------------------------------------------- */

SG_HIDDEN extern int sg_clock_tsc; /* 1: invariant TSC, 0: CLOCK_MONOTONIC in ns */

static inline uint64_t sg_now(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (SG_LIKELY(sg_clock_tsc))
		return __rdtsc();
#endif
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The clock when sg_clock_tsc says it is the TSC: the hot paths' own read, no call. */
static inline uint64_t sg_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	return sg_now();
#endif
}

SG_HIDDEN void sg_clock_start(void);
SG_HIDDEN void sg_clock_stop(void);
SG_HIDDEN double sg_clock_hz(void);         /* ticks per second over the run */
SG_HIDDEN double sg_clock_resolution(void); /* seconds */
SG_HIDDEN double sg_clock_drift(void);      /* start vs whole-run rate, relative */
SG_HIDDEN const char *sg_clock_name(void);

/* ---- regions and call-path nodes (global, created under a lock) ----------- */

struct sg_region_info {
	char *name;
	char *file;
	int line;
};

struct sg_node_info {
	uint32_t parent; /* UINT32_MAX for the root */
	uint32_t region;
	long tag;        /* SG_NO_TAG when untagged */
};

SG_HIDDEN extern pthread_mutex_t sg_lock;
/* Node of (parent, region, tag), created when new; -1 when the table is full. Takes sg_lock. */
SG_HIDDEN int64_t sg_node_get(uint32_t parent, uint32_t region, long tag);
/* Snapshot accessors for the writer; call with sg_lock held. */
SG_HIDDEN uint32_t sg_region_count(void);
SG_HIDDEN const struct sg_region_info *sg_region_at(uint32_t id);
SG_HIDDEN uint32_t sg_node_count(void);
SG_HIDDEN const struct sg_node_info *sg_node_at(uint32_t id);
SG_HIDDEN void sg_regions_init(const char *program);

/* inject.c: SCALEGATE_INJECT=name:PCT% slows the named intervals down (docs/check.md, calibration).
 */
SG_HIDDEN extern int sg_inject_on;
SG_HIDDEN void sg_inject_register(uint32_t region, const char *name);

/* ---- per-thread statistics ------------------------------------------------ */

/* Times are in clock ticks. 'time' and 'par' are inclusive of nested regions;
 * the waiting columns are exclusive (where the wait happened). */
struct sg_stat {
	uint64_t count;       /* completed entries */
	uint64_t time;        /* wall time inside the interval */
	uint64_t min, max;    /* of one entry */
	double sumsq;         /* sum of squared entry times, for the variance */
	uint64_t par;         /* part of 'time' inside OpenMP parallel regions */
	uint64_t pend;        /* ticks of entries closed since the thread's last snapshot */
	uint64_t omp_barrier; /* waiting at barriers (explicit, implicit) */
	uint64_t omp_idle;    /* in a parallel region with no work: start lag, end-of-region idle */
	uint64_t omp_lock;    /* waiting to enter critical, locks, ordered */
	uint64_t omp_regions; /* parallel regions forked from here */
	double cpu;           /* on-CPU nanoseconds, inclusive like 'time' (sched.c) */
	double rq;            /* run-queue delay in nanoseconds, inclusive */
	int64_t rq_sync;      /* ns of waiting (barriers, joins) the team's delay by the run queue
			       * caused, less this thread's own delay there (team.c); exclusive */
	double cpu_wait;      /* on-CPU ns while waiting at a team barrier or join (a spin);
			       * exclusive */
	double mpi_sync;      /* ns of waiting in MPI that other ranks' run-queue delay caused
			       * (mpi-node.c); exclusive */
	double mpi_rq;        /* ns of its own run-queue delay while it waited in MPI; exclusive */
	double mpi_cpu;       /* on-CPU ns while it waited in MPI (a spin); exclusive */
	uint64_t omp_held;    /* holding a lock, critical, ordered or a serialized atomic, with
			       * another thread alive (omp-locks.c); exclusive */
};

/* MPI time per operation kind, exclusive (charged to the innermost open interval). */
struct sg_mpi_stat {
	uint64_t count;
	uint64_t time;       /* ticks inside the call */
	uint64_t wait;       /* ticks waiting for other ranks, when measured (exact mode) */
	uint64_t bytes_sent;
	uint64_t bytes_recv;
};

struct sg_frame {
	uint32_t node;
	uint32_t region;
	uint64_t start;
	uint64_t par_start;
	int inherited; /* a team worker's copy of the forking thread's interval */
};

struct sg_cache_entry {
	uint32_t parent;
	uint32_t region;
	long tag;
	uint32_t node;
};

#define SG_MAX_PENDING 128 /* nodes closed since the last snapshot; one more forces a snapshot */

struct sg_thread {
	uint32_t cur;   /* innermost open node */
	uint32_t depth; /* open frames; stack[0] is the level-0 frame */
	uint32_t overflow; /* begins dropped because the stack was full, still open */
	uint32_t nr_pending;
	uint64_t snap_due; /* the next boundary at or after this tick takes a snapshot (sched.c) */
	uint64_t snap_tsc; /* the last snapshot: clock ticks, on-CPU and run-queue nanoseconds */
	uint64_t snap_cpu, snap_rq;
	uint64_t snap_runs; /* times it was put on a CPU (schedstat's third field) */
	struct sg_frame stack[SG_MAX_DEPTH];
	struct sg_cache_entry cache[SG_CACHE_SIZE];
	struct sg_stat *chunks[SG_MAX_CHUNKS];
	struct sg_mpi_stat *mpi_chunks[SG_MAX_CHUNKS]; /* SG_CHUNK x SG_MPI_NKINDS each */

	/* Time in parallel regions so far: par_acc + (par_mask & (now - par_start)). */
	uint64_t par_acc;
	uint64_t par_start;
	uint64_t par_mask;

	/* Errors the profile reports. */
	uint64_t unmatched_end; /* SG_END with no matching open region */
	uint64_t unclosed;      /* regions closed implicitly (missing SG_END) */
	uint64_t dropped;       /* regions not recorded (stack or node table full) */

	/* Own work in parallel regions, for the injection (inject.c). */
	uint64_t waited;        /* ticks waiting at OpenMP barriers and locks so far */
	float inject_inherited; /* a team worker's share of its forking thread's injections */

	/* The thread's clocks (sched.c): readable from any thread while it lives. */
	uint32_t pending[SG_MAX_PENDING]; /* nodes with 'pend' */
	clockid_t cpu_clock;
	int sched_fd;     /* its /proc/thread-self/schedstat, or -1 */
	int cpu_lost;     /* a clock read failed: the slot's cpu column is '-' */
	int rq_lost;      /* likewise for rq_wait */
	int rq_skipped;   /* snap_rq and snap_runs predate snap_tsc: a span on a CPU throughout */

	/* The team phase the thread is in (team.c): since a fork, barrier or body start. */
	uint64_t phase_start; /* 0: in none */
	double phase_rq;      /* its run-queue delay read so far, ns */
	double phase_cpu;     /* its on-CPU time read so far, ns */
	struct sg_member *member; /* the body it runs, or NULL */

	/* The locks it holds (omp-locks.c): how many, and when it took the outermost (0: not
	 * measured, nobody else could have waited). */
	uint32_t held_depth;
	uint64_t held_start;

	/* Its lag in MPI (mpi-node.c): how much later than without any run-queue delay it is, ns:
	 * mpi_lag at mpi_start (its last wait for a partner ended), then its own delay since. */
	uint64_t mpi_start;   /* 0: not measured */
	double mpi_lag;
	double mpi_rq;        /* its run-queue delay read since mpi_start, ns */
	double mpi_cpu;       /* and its on-CPU time, ns; at its arrival at the call it is in: */
	double mpi_cpu_at;
	uint64_t mpi_at;      /* its arrival at the MPI call it is in (ticks), and its lag there */
	double mpi_delay;     /* ns */

	int slot;         /* index in the profile */
	int omp_thread;   /* OpenMP thread number when known, else -1 */
	int is_main;
	int live;
	struct sg_thread *next_free;
};

SG_HIDDEN extern int sg_on;  /* measuring: SCALEGATE_OUT was set */
SG_HIDDEN extern __thread struct sg_thread *sg_self __attribute__((tls_model("initial-exec")));

/* This thread's state, created on first use; NULL when not measuring. */
SG_HIDDEN struct sg_thread *sg_thread_get(void);
/* Statistics of 'node' for thread 't' (allocated on first use; NULL if out of memory). */
SG_HIDDEN struct sg_stat *sg_stat_get(struct sg_thread *t, uint32_t node);
/* MPI statistics of 'kind' in 'node' for thread 't' (allocated on first use; NULL if out of
 * memory). */
SG_HIDDEN struct sg_mpi_stat *sg_mpi_stat_get(struct sg_thread *t, uint32_t node,
					      enum sg_mpi_kind kind);
SG_HIDDEN void sg_frame_push(struct sg_thread *t, uint32_t node, uint32_t region, uint64_t now,
			     int inherited);
SG_HIDDEN void sg_frame_pop(struct sg_thread *t, uint64_t now);
/* Pops the innermost frame, an interval left open, and reports it (errors.c). */
SG_HIDDEN void sg_pop_unclosed(struct sg_thread *t, uint64_t now);
SG_HIDDEN uint64_t sg_par_now(const struct sg_thread *t, uint64_t now);

/* ---- on-CPU time and run-queue delay (sched.c) ------------------------------ */

/* Snapshots of a thread's clocks are taken at interval and parallel-region boundaries at least
 * this far apart (250 µs); the deltas go to the intervals open in between, in proportion to wall
 * time. */
SG_HIDDEN extern uint64_t sg_snap_ticks;
SG_HIDDEN extern int sg_sched_on; /* run-queue delay is captured (meta sched) */
SG_HIDDEN extern int sg_cpus;     /* CPUs in the union of the threads' affinity masks */
SG_HIDDEN extern double sg_ticks_per_ns; /* the clock's rate at start (team.c) */
SG_HIDDEN void sg_sched_start(void);
/* Adds the calling thread's affinity mask to sg_cpus; call with sg_lock held (at start: alone). */
SG_HIDDEN void sg_sched_note_cpus(void);
SG_HIDDEN void sg_sched_thread_start(struct sg_thread *t, uint64_t now);
SG_HIDDEN void sg_sched_thread_stop(struct sg_thread *t);
/* Shares the clocks' deltas since the last snapshot among t's frames stack[0 or 1 .. upto-1] and
 * its pending nodes, then starts a new span; returns the clock at its start, for the caller to go
 * on with. From another thread only at the end, with upto <= 1 (the writer). */
SG_HIDDEN uint64_t sg_snap(struct sg_thread *t, uint32_t upto);

static inline uint64_t sg_snap_maybe(struct sg_thread *t, uint64_t now)
{
	if (SG_UNLIKELY(now >= t->snap_due))
		return sg_snap(t, t->depth);
	return now;
}

/* Spins the share of an injected interval ending now; returns the clock after it (inject.c). */
SG_HIDDEN uint64_t sg_inject_end(struct sg_thread *t, const struct sg_frame *f, uint64_t now);
/* The combined share of the injected intervals open on t (a forking thread), for its team. */
SG_HIDDEN float sg_inject_team(const struct sg_thread *t);
/* Spins 'share' of the own work of a member's body that began at 'start', 'waited' ticks waited. */
SG_HIDDEN uint64_t sg_inject_body(float share, uint64_t start, uint64_t waited, uint64_t now);

/* All thread states ever created (the profile's threads); call with sg_lock held. */
SG_HIDDEN int sg_thread_count(void);
SG_HIDDEN struct sg_thread *sg_thread_at(int slot);
SG_HIDDEN void sg_threads_close(uint64_t now);

/* ---- OpenMP: teams, shared by the GOMP wrappers (omp.c) and OMPT (ompt.c) ---- */

#define SG_MAX_TEAM 256 /* members of one team whose body and idle time are recorded */

/* OpenMP runtimes are not built with ThreadSanitizer, so their fork and join are invisible
 * to it: tell it about the happens-before edges the runtime provides. */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define SG_HANDOFF_RELEASE(p) __tsan_release(p)
#define SG_HANDOFF_ACQUIRE(p) __tsan_acquire(p)
#else
#define SG_HANDOFF_RELEASE(p) ((void)(p))
#define SG_HANDOFF_ACQUIRE(p) ((void)(p))
#endif

/* A member's end of a team phase: when, its run-queue delay in the phase (ticks), which phase. */
struct sg_arrival {
	uint64_t at;
	uint64_t delay;   /* its run-queue delay since its own start of the phase (body start,
			   * barrier exit) */
	uint64_t all;     /* and since its last arrival (a wait, a wake-up) */
	double own;       /* 'delay' in ns */
	uint64_t busy;    /* ticks since its own start of the phase */
	uint64_t late;    /* its own start's lateness: ticks after the phase began */
	uint32_t wait_node; /* where it waited before its own start */
	uint64_t fork, k; /* the team's fork and the phase's number: a slot from another is stale */
};

/* A parallel region in flight: what its members report back to the forking thread. */
struct sg_team {
	struct sg_thread *master;
	uint32_t node; /* the forking thread's innermost interval: the team inherits it */
	uint64_t fork;
	int size;
	int was_par;
	float inject; /* each member spins this share of its own work in the body (inject.c) */
	struct sg_thread *member[SG_MAX_TEAM];
	uint64_t body[SG_MAX_TEAM];
	/* Each member's arrival at its last phase end (barrier or leave), with its run-queue delay
	 * in the phase; two generations, as a member can be one barrier ahead (team.c). */
	struct sg_arrival arrival[2][SG_MAX_TEAM];
	uint64_t leave_k, leave_origin; /* the phase the forking thread's body ended, its start */
	uint64_t delayed[2]; /* k + 1 when a member had a delay in phase k: else no shift to find */
};

/* One member's run of the region body, on the member's own thread. */
struct sg_member {
	struct sg_team *team;
	struct sg_thread *t; /* NULL: not measured */
	uint64_t start;
	int index;           /* thread number in the team */
	int worker;          /* runs the body in an inherited frame */
	uint64_t waited;     /* the thread's 'waited' as the body began */
	float outer_inject;  /* the thread's inject_inherited before the body */
	uint64_t k;          /* team phases ended so far (team.c) */
	double pre;          /* run-queue delay of its first phase before the body began, ns */
	double own;          /* its delay in the phase just ended, since its own start, ns */
	double wait_rq;      /* its delay in the last barrier, ns */
	uint64_t late;       /* its own start's lateness in the phase just ended, ticks */
	uint64_t origin;     /* the team's start of the phase: the fork, the last release */
	uint64_t own_start;  /* its own start of the phase: the body's start, its barrier exit */
	uint32_t wait_node;  /* where it waited before: the forking interval, its last barrier's */
	struct sg_member *outer; /* the thread's member before this body */
};

/* On the forking thread, before the team starts; 'size' is the team size asked for. */
SG_HIDDEN void sg_team_fork(struct sg_team *tm, struct sg_thread *t, int size);
/* On each member (the forking thread included) as its body starts and ends. */
SG_HIDDEN void sg_team_enter(struct sg_team *tm, struct sg_member *m, int index);
SG_HIDDEN void sg_team_leave(struct sg_member *m);
/* On the forking thread after the join: idle time of each member, regions count. */
SG_HIDDEN void sg_team_join(struct sg_team *tm);

/* Team phases (team.c): the run-queue delay on the team's critical path. */
SG_HIDDEN void sg_phase_begin(struct sg_thread *t, uint64_t now);
/* A worker's body begins at 'start' (returned, past a reading of the clocks if any). */
SG_HIDDEN uint64_t sg_team_start(struct sg_thread *t, uint64_t fork, uint64_t start, double *pre);
/* A member at a team barrier: before it (returns the clock to go on with), and after it. */
SG_HIDDEN uint64_t sg_barrier_arrive(struct sg_thread *t, uint64_t now);
SG_HIDDEN uint64_t sg_barrier_depart(struct sg_thread *t, uint64_t now);
/* A member's body ends at *end (moved past a reading of the clocks, if any). */
SG_HIDDEN void sg_phase_leave(struct sg_member *m, uint64_t *end);
/* The forking thread after the join at 'join'; returns the clock past a reading of the clocks. */
SG_HIDDEN uint64_t sg_phase_join(struct sg_team *tm, uint64_t join);

/* The OpenMP runtime (omp-runtime.c). The real definition of 'name' after the tracer's own
 * ('self'), else from libgomp loaded explicitly; NULL, reported once, when there is none. */
SG_HIDDEN void *sg_omp_real(void **slot, const char *name, const void *self);
SG_HIDDEN int sg_omp_thread_num(void);  /* -1 without a runtime */
SG_HIDDEN int sg_omp_max_threads(void); /* 1 without a runtime */
SG_HIDDEN int sg_omp_linked(void);      /* the program was linked with an OpenMP runtime */

/* The real entry point, found once (omp-runtime.c): NULL when no OpenMP runtime defines it. */
#define SG_OMP_REAL(name) \
	static void *name##_real; \
	__typeof__(name) *name##_fn = (__typeof__(name) *)sg_omp_real(&name##_real, #name, \
								      (const void *)name)

/* Work done holding a lock (omp-locks.c): a thread took one, and let its last one go. */
SG_HIDDEN void sg_held_begin(struct sg_thread *t);
SG_HIDDEN void sg_held_end(struct sg_thread *t);

/* 1 once OMPT callbacks are registered (LLVM libomp): the GOMP wrappers then only pass through. */
SG_HIDDEN extern int sg_ompt_on;

/* The GOMP_* wrappers count for thread t (measured), unless OMPT does. */
static inline int sg_gomp_captures(const struct sg_thread *t)
{
	return t && !__atomic_load_n(&sg_ompt_on, __ATOMIC_RELAXED);
}

/* Threads measured and alive. With one, a lock or critical section has nobody to wait for: taking
 * it is work. */
SG_HIDDEN extern int sg_threads_alive;

static inline int sg_lock_contended(void)
{
	return __atomic_load_n(&sg_threads_alive, __ATOMIC_RELAXED) > 1;
}

/* A wait that began at 'start', charged to the thread's innermost interval in the column at
 * 'offset'. */
static inline void sg_account_wait_until(struct sg_thread *t, uint64_t start, uint64_t end,
					 size_t offset)
{
	struct sg_stat *s = sg_stat_get(t, t->cur);
	uint64_t d = end - start;

	t->waited += d;
	if (s)
		*(uint64_t *)((char *)s + offset) += d;
}

static inline void sg_account_wait(struct sg_thread *t, uint64_t start, size_t offset)
{
	sg_account_wait_until(t, start, sg_now(), offset);
}

/* ---- annotation errors (errors.c) ------------------------------------------------ */

enum sg_error { SG_ERR_UNMATCHED_END, SG_ERR_UNCLOSED, SG_ERR_DROPPED, SG_NR_ERRORS };

#define SG_MAX_ERROR_SITES \
	64 /* distinct sites kept for the profile; the counts in meta are complete */

struct sg_error_site {
	enum sg_error kind;
	uint32_t node;   /* innermost open node (unmatched_end) or the interval's node */
	uint32_t region; /* the region named by the SG_END, or the interval's */
	int line;        /* the offending site's line: the SG_END's, or the interval's SG_BEGIN */
	uint64_t count;
};

/* Records a mistake at a site and prints its kind's one line the first time. Takes sg_lock. */
SG_HIDDEN void sg_annotation_error(enum sg_error kind, uint32_t node, uint32_t region, int line);
/* For the writer; call with sg_lock held. */
SG_HIDDEN int sg_error_site_count(void);
SG_HIDDEN const struct sg_error_site *sg_error_site_at(int i);
SG_HIDDEN const char *sg_error_name(enum sg_error kind);

/* ---- process ---------------------------------------------------------------- */

SG_HIDDEN void sg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
SG_HIDDEN int sg_write(const char *dir);
enum { SG_WRITE_CALL, SG_WRITE_FINALIZE, SG_WRITE_EXIT };
/* Writes the profile once (init.c); 'why' is one of the above. */
SG_HIDDEN void sg_write_profile_for(int why);
/* The in-job reduction (mpi-reduce.c, in libscalegate-mpi): writes the job's profile, or this
 * rank's own ones where asked (SCALEGATE_PER_RANK); -1 when this rank must write its own. */
SG_HIDDEN extern int (*sg_reduce_hook)(const char *dir, int at_exit);
SG_HIDDEN extern double sg_start_unix;
SG_HIDDEN extern int sg_rank, sg_ranks; /* -1 without MPI */
SG_HIDDEN extern const char *sg_omp_mode, *sg_mpi_mode;
/* exact collective waiting (a barrier before each) */
SG_HIDDEN extern int sg_mpi_wait_measured;
/* the ranks of this node share their arrivals at MPI calls: mpi_sync is captured (mpi-node.c) */
SG_HIDDEN extern int sg_mpi_sync_on;
/* 1 in libscalegate-mpi: only MPI ranks write a profile */
SG_HIDDEN extern int sg_mpi_library;

#endif
