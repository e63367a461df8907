/* OpenMP capture through OMPT, the tool interface of LLVM's libomp: the quantities of omp.c, from
 * runtime events. */
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>

#if __has_include(<omp-tools.h>)
#include <omp-tools.h>
#else
/* The part of omp-tools.h (OpenMP 5.1; a fixed ABI) used here, for compilers that do not ship
 * the header (GCC 12). 'make' checks this file against the real header with clang. */
typedef union ompt_data_t {
	uint64_t value;
	void *ptr;
} ompt_data_t;

typedef struct ompt_frame_t {
	ompt_data_t exit_frame;
	ompt_data_t enter_frame;
	int exit_frame_flags;
	int enter_frame_flags;
} ompt_frame_t;

typedef uint64_t ompt_wait_id_t;
typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *interface_function_name);
typedef void (*ompt_callback_t)(void);
typedef int (*ompt_initialize_t)(ompt_function_lookup_t lookup, int initial_device_num,
				 ompt_data_t *tool_data);
typedef void (*ompt_finalize_t)(ompt_data_t *tool_data);

typedef struct ompt_start_tool_result_t {
	ompt_initialize_t initialize;
	ompt_finalize_t finalize;
	ompt_data_t tool_data;
} ompt_start_tool_result_t;

typedef enum ompt_callbacks_t {
	ompt_callback_thread_begin = 1,
	ompt_callback_thread_end = 2,
	ompt_callback_parallel_begin = 3,
	ompt_callback_parallel_end = 4,
	ompt_callback_implicit_task = 7,
	ompt_callback_sync_region_wait = 16,
	ompt_callback_mutex_released = 17,
	ompt_callback_sync_region = 23,
	ompt_callback_mutex_acquire = 26,
	ompt_callback_mutex_acquired = 27,
} ompt_callbacks_t;

typedef enum ompt_set_result_t {
	ompt_set_error = 0,
	ompt_set_never = 1,
	ompt_set_impossible = 2,
	ompt_set_sometimes = 3,
	ompt_set_sometimes_paired = 4,
	ompt_set_always = 5
} ompt_set_result_t;

typedef enum ompt_scope_endpoint_t {
	ompt_scope_begin = 1,
	ompt_scope_end = 2,
	ompt_scope_beginend = 3
} ompt_scope_endpoint_t;

typedef enum ompt_thread_t {
	ompt_thread_initial = 1,
	ompt_thread_worker = 2,
	ompt_thread_other = 3,
	ompt_thread_unknown = 4
} ompt_thread_t;

typedef enum ompt_sync_region_t {
	ompt_sync_region_barrier = 1,
	ompt_sync_region_barrier_implicit = 2,
	ompt_sync_region_barrier_explicit = 3,
	ompt_sync_region_barrier_implementation = 4,
	ompt_sync_region_taskwait = 5,
	ompt_sync_region_taskgroup = 6,
	ompt_sync_region_reduction = 7,
	ompt_sync_region_barrier_implicit_workshare = 8,
	ompt_sync_region_barrier_implicit_parallel = 9,
	ompt_sync_region_barrier_teams = 10
} ompt_sync_region_t;

typedef enum ompt_mutex_t {
	ompt_mutex_lock = 1,
	ompt_mutex_test_lock = 2,
	ompt_mutex_nest_lock = 3,
	ompt_mutex_test_nest_lock = 4,
	ompt_mutex_critical = 5,
	ompt_mutex_atomic = 6,
	ompt_mutex_ordered = 7
} ompt_mutex_t;

typedef enum ompt_task_flag_t {
	ompt_task_initial = 0x00000001,
	ompt_task_implicit = 0x00000002
} ompt_task_flag_t;

typedef enum ompt_parallel_flag_t {
	ompt_parallel_league = 0x40000000,
	ompt_parallel_team = 0x80000000
} ompt_parallel_flag_t;

typedef ompt_set_result_t (*ompt_set_callback_t)(ompt_callbacks_t event, ompt_callback_t callback);
typedef int (*ompt_get_task_info_t)(int ancestor_level, int *flags, ompt_data_t **task_data,
				    ompt_frame_t **task_frame, ompt_data_t **parallel_data,
				    int *thread_num);
typedef void (*ompt_callback_thread_begin_t)(ompt_thread_t thread_type, ompt_data_t *thread_data);
typedef void (*ompt_callback_thread_end_t)(ompt_data_t *thread_data);
typedef void (*ompt_callback_parallel_begin_t)(ompt_data_t *encountering_task_data,
					       const ompt_frame_t *encountering_task_frame,
					       ompt_data_t *parallel_data,
					       unsigned int requested_parallelism, int flags,
					       const void *codeptr_ra);
typedef void (*ompt_callback_parallel_end_t)(ompt_data_t *parallel_data,
					     ompt_data_t *encountering_task_data, int flags,
					     const void *codeptr_ra);
typedef void (*ompt_callback_implicit_task_t)(ompt_scope_endpoint_t endpoint,
					      ompt_data_t *parallel_data, ompt_data_t *task_data,
					      unsigned int actual_parallelism, unsigned int index,
					      int flags);
typedef void (*ompt_callback_sync_region_t)(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
					    ompt_data_t *parallel_data, ompt_data_t *task_data,
					    const void *codeptr_ra);
typedef void (*ompt_callback_mutex_acquire_t)(ompt_mutex_t kind, unsigned int hint,
					      unsigned int impl, ompt_wait_id_t wait_id,
					      const void *codeptr_ra);
typedef void (*ompt_callback_mutex_t)(ompt_mutex_t kind, ompt_wait_id_t wait_id,
				      const void *codeptr_ra);
#endif

int sg_ompt_on;

static ompt_get_task_info_t get_task_info;

/* A team record, hung on the region's parallel_data; each member's part hangs on its task_data. */
struct ompt_team {
	struct sg_team team;
	struct sg_member member[SG_MAX_TEAM];
	struct ompt_team *next; /* the forking thread's spare records */
};

/* Per thread: spare team records (regions forked from here are nested, so few), the wait in
 * progress. */
struct ompt_local {
	struct ompt_team *spare;
	uint64_t wait_start;
	int wait_depth;   /* waits nest: a task run at a barrier may wait at a taskwait */
	int wait_counted; /* the outermost wait is a barrier, taskwait or taskgroup */
	uint64_t lock_start;
	ompt_wait_id_t lock_id;
	int locking;
};

static __thread struct ompt_local local __attribute__((tls_model("initial-exec")));

static struct ompt_team *team_take(void)
{
	struct ompt_team *rec = local.spare;

	if (rec) {
		local.spare = rec->next;
		return rec;
	}
	return malloc(sizeof(*rec));
}

static void team_put(struct ompt_team *rec)
{
	rec->next = local.spare;
	local.spare = rec;
}

/* On the forking thread: the team inherits its innermost interval, as with the GOMP wrappers. */
static void on_parallel_begin(ompt_data_t *encountering_task_data,
			      const ompt_frame_t *encountering_task_frame,
			      ompt_data_t *parallel_data, unsigned int requested_parallelism,
			      int flags, const void *codeptr_ra)
{
	struct sg_thread *t = sg_thread_get();
	struct ompt_team *rec;

	(void)encountering_task_data, (void)encountering_task_frame, (void)codeptr_ra;
	parallel_data->ptr = NULL;
	if (!t || (flags & ompt_parallel_league) || !sg_stat_get(t, t->cur) || !(rec = team_take()))
		return;
	sg_team_fork(&rec->team, t,
		     requested_parallelism < SG_MAX_TEAM ? (int)requested_parallelism
							 : SG_MAX_TEAM);
	parallel_data->ptr = rec;
	SG_HANDOFF_RELEASE(parallel_data);
}

/* A member's body is over: at its join barrier, or at the end of its implicit task when there is
 * none. */
static void member_leave(ompt_data_t *task_data)
{
	struct sg_member *m = task_data->ptr;

	if (!m)
		return;
	task_data->ptr = NULL;
	sg_team_leave(m);
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
			    int flags, const void *codeptr_ra)
{
	struct ompt_team *rec = parallel_data->ptr;

	(void)encountering_task_data, (void)flags, (void)codeptr_ra;
	if (!rec)
		return;
	sg_team_join(&rec->team);
	team_put(rec);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
			     ompt_data_t *task_data, unsigned int actual_parallelism,
			     unsigned int index, int flags)
{
	struct ompt_team *rec;

	(void)actual_parallelism;
	if (flags & ompt_task_initial) /* the program's initial task: no team */
		return;
	if (endpoint == ompt_scope_end) {
		member_leave(task_data);
		return;
	}
	if (endpoint != ompt_scope_begin)
		return;
	task_data->ptr = NULL;
	if (!parallel_data)
		return;
	SG_HANDOFF_ACQUIRE(parallel_data);
	rec = parallel_data->ptr;
	if (!rec || index >= SG_MAX_TEAM)
		return;
	sg_team_enter(&rec->team, &rec->member[index], (int)index);
	task_data->ptr = &rec->member[index];
}

/*
 * The barrier that ends a parallel region. Newer runtimes say so (barrier_implicit_parallel);
 * libomp 14 reports it, and the barrier at the end of a worksharing construct, as the
 * deprecated barrier_implicit. Only at the join has the body returned: the implicit task
 * has no exit frame any more (OpenMP 5.1, 4.4.4.28).
 */
static int join_barrier(ompt_sync_region_t kind)
{
	ompt_data_t *task, *parallel;
	ompt_frame_t *frame = NULL;
	int flags, thread_num;

	if (kind == ompt_sync_region_barrier_implicit_parallel)
		return 1;
	if (kind != ompt_sync_region_barrier_implicit)
		return 0;
	return get_task_info(0, &flags, &task, &frame, &parallel, &thread_num) > 0 && frame &&
	       !frame->exit_frame.ptr;
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
			   ompt_data_t *parallel_data, ompt_data_t *task_data,
			   const void *codeptr_ra)
{
	(void)parallel_data, (void)codeptr_ra;
	if (endpoint == ompt_scope_begin && task_data && task_data->ptr && join_barrier(kind))
		member_leave(task_data);
}

/* Waiting at a barrier, taskwait or taskgroup: omp_barrier. The join barrier's wait is idle
 * (omp_idle). */
static int barrier_wait(ompt_sync_region_t kind)
{
	switch (kind) {
	case ompt_sync_region_barrier_implicit:
		return !join_barrier(kind);
	case ompt_sync_region_barrier:
	case ompt_sync_region_barrier_explicit:
	case ompt_sync_region_barrier_implementation:
	case ompt_sync_region_barrier_implicit_workshare:
	case ompt_sync_region_taskwait:
	case ompt_sync_region_taskgroup:
		return 1;
	default:
		return 0;
	}
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
				ompt_data_t *parallel_data, ompt_data_t *task_data,
				const void *codeptr_ra)
{
	struct sg_thread *t = sg_self;

	(void)parallel_data, (void)task_data, (void)codeptr_ra;
	if (!t)
		return;
	if (endpoint == ompt_scope_begin) {
		if (local.wait_depth++ == 0) {
			local.wait_counted = barrier_wait(kind);
			local.wait_start = sg_now();
		}
	} else if (endpoint == ompt_scope_end && local.wait_depth > 0 && --local.wait_depth == 0 &&
		   local.wait_counted)
		sg_account_wait(t, local.wait_start, offsetof(struct sg_stat, omp_barrier));
}

/* Waiting to get into critical, a lock, ordered, or an atomic the runtime serializes: omp_lock. */
static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
			     ompt_wait_id_t wait_id, const void *codeptr_ra)
{
	(void)hint, (void)impl, (void)codeptr_ra;
	if (!sg_self)
		return;
	/* a test does not wait; a nest lock the thread holds already reports no 'acquired' */
	local.locking = kind != ompt_mutex_test_lock && kind != ompt_mutex_test_nest_lock;
	local.lock_id = wait_id;
	local.lock_start = sg_now();
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
	struct sg_thread *t = sg_self;

	(void)kind, (void)codeptr_ra;
	if (!t)
		return;
	if (local.locking && local.lock_id == wait_id) {
		local.locking = 0;
		if (sg_lock_contended())
			sg_account_wait(t, local.lock_start, offsetof(struct sg_stat, omp_lock));
	}
	sg_held_begin(t);
}

/* The work done holding it (omp_held) ends as it is given back; a nest lock's inner levels come
 * as nest_lock callbacks, which leave it held. */
static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
	(void)kind, (void)wait_id, (void)codeptr_ra;
	if (sg_self)
		sg_held_end(sg_self);
}

static void on_thread_end(ompt_data_t *thread_data)
{
	struct ompt_team *rec;

	(void)thread_data;
	while ((rec = local.spare)) {
		local.spare = rec->next;
		free(rec);
	}
}

static int ompt_initialize(ompt_function_lookup_t lookup, int initial_device_num,
			   ompt_data_t *tool_data)
{
	ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
	ompt_callback_parallel_begin_t parallel_begin = on_parallel_begin;
	ompt_callback_parallel_end_t parallel_end = on_parallel_end;
	ompt_callback_implicit_task_t implicit_task = on_implicit_task;
	ompt_callback_sync_region_t sync_region = on_sync_region,
				    sync_region_wait = on_sync_region_wait;
	ompt_callback_mutex_acquire_t mutex_acquire = on_mutex_acquire;
	ompt_callback_mutex_t mutex_acquired = on_mutex_acquired;
	ompt_callback_mutex_t mutex_released = on_mutex_released;
	ompt_callback_thread_end_t thread_end = on_thread_end;
	const struct {
		ompt_callbacks_t event;
		ompt_callback_t fn;
	} callbacks[] = {
		{ ompt_callback_parallel_begin, (ompt_callback_t)parallel_begin },
		{ ompt_callback_parallel_end, (ompt_callback_t)parallel_end },
		{ ompt_callback_implicit_task, (ompt_callback_t)implicit_task },
		{ ompt_callback_sync_region, (ompt_callback_t)sync_region },
		{ ompt_callback_sync_region_wait, (ompt_callback_t)sync_region_wait },
		{ ompt_callback_mutex_acquire, (ompt_callback_t)mutex_acquire },
		{ ompt_callback_mutex_acquired, (ompt_callback_t)mutex_acquired },
		{ ompt_callback_mutex_released, (ompt_callback_t)mutex_released },
		{ ompt_callback_thread_end, (ompt_callback_t)thread_end },
	};

	(void)initial_device_num, (void)tool_data;
	get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
	if (!set_callback || !get_task_info)
		return 0;
	/* All or nothing: a quantity half captured would read as measured. Returning 0 turns the
	 * tool off. */
	for (size_t i = 0; i < sizeof(callbacks) / sizeof(callbacks[0]); i++)
		if (set_callback(callbacks[i].event, callbacks[i].fn) != ompt_set_always)
			return 0;
	__atomic_store_n(&sg_ompt_on, 1, __ATOMIC_RELAXED);
	sg_omp_mode = "ompt";
	return 1;
}

static void ompt_finalize(ompt_data_t *tool_data)
{
	(void)tool_data;
}

/*
 * The runtime looks this up by name as it starts (libomp does; libgomp has no OMPT). That can
 * be before the tracer's own constructor has run, so ask the environment, as sg_init does.
 */
SG_API ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
						 const char *runtime_version);
SG_API ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
						 const char *runtime_version)
{
	static ompt_start_tool_result_t result = { ompt_initialize, ompt_finalize, { 0 } };
	const char *dir = getenv("SCALEGATE_OUT");

	(void)omp_version, (void)runtime_version;
	return dir && *dir ? &result : NULL;
}
