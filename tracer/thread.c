/* Per-thread state and the hot path: entering and leaving intervals touch only this thread's
 * memory. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

__thread struct sg_thread *sg_self __attribute__((tls_model("initial-exec")));

static struct sg_thread **threads; /* every slot ever created, for the writer */
static int nr_threads, alloc_threads;
static struct sg_thread *free_slots; /* slots of threads that exited, for reuse */
int sg_threads_alive;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void thread_exit(void *arg);

static void make_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

static void cache_clear(struct sg_thread *t)
{
	for (int i = 0; i < SG_CACHE_SIZE; i++)
		t->cache[i].parent = UINT32_MAX;
}

/* A slot from a thread that exited is reused so memory follows the live thread count. */
static struct sg_thread *slot_take(void)
{
	struct sg_thread *t = free_slots;

	if (t) {
		free_slots = t->next_free;
		return t;
	}
	if (nr_threads == alloc_threads) {
		int n = alloc_threads ? alloc_threads * 2 : 16;
		struct sg_thread **p = realloc(threads, (size_t)n * sizeof(*p));
		if (!p)
			return NULL;
		threads = p;
		alloc_threads = n;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->slot = nr_threads;
	threads[nr_threads++] = t;
	return t;
}

struct sg_thread *sg_thread_get(void)
{
	struct sg_thread *t = sg_self;

	if (SG_LIKELY(t) || !sg_on)
		return t;
	pthread_once(&key_once, make_key);
	pthread_mutex_lock(&sg_lock);
	t = slot_take();
	sg_sched_note_cpus();
	pthread_mutex_unlock(&sg_lock);
	if (!t) {
		sg_warn("out of memory for a thread's statistics; this thread is not measured");
		return NULL;
	}
	__atomic_fetch_add(&sg_threads_alive, 1, __ATOMIC_RELAXED);
	cache_clear(t);
	t->omp_thread = sg_omp_thread_num();
	t->live = 1;
	t->depth = 1;
	t->cur = 0;
	t->overflow = 0;
	t->inject_inherited = 0;
	t->stack[0] = (struct sg_frame){ .node = 0, .start = sg_now() };
	sg_sched_thread_start(t, t->stack[0].start);
	sg_self = t;
	pthread_setspecific(exit_key, t);
	return t;
}

struct sg_stat *sg_stat_get(struct sg_thread *t, uint32_t node)
{
	struct sg_stat **chunk = &t->chunks[node / SG_CHUNK];

	if (SG_UNLIKELY(!*chunk)) {
		struct sg_stat *c = calloc(SG_CHUNK, sizeof(*c));
		if (!c)
			return NULL;
		for (int i = 0; i < SG_CHUNK; i++)
			c[i].min = UINT64_MAX;
		*chunk = c;
	}
	return &(*chunk)[node % SG_CHUNK];
}

struct sg_mpi_stat *sg_mpi_stat_get(struct sg_thread *t, uint32_t node, enum sg_mpi_kind kind)
{
	struct sg_mpi_stat **chunk = &t->mpi_chunks[node / SG_CHUNK];

	if (SG_UNLIKELY(!*chunk) &&
	    !(*chunk = calloc((size_t)SG_CHUNK * SG_MPI_NKINDS, sizeof(**chunk))))
		return NULL;
	return &(*chunk)[(node % SG_CHUNK) * SG_MPI_NKINDS + kind];
}

uint64_t sg_par_now(const struct sg_thread *t, uint64_t now)
{
	return t->par_acc + (t->par_mask & (now - t->par_start));
}

/* The first entry of a node closed in this span: listed for the next snapshot, or the list is full
 * and the span ends here (f still counted as open). Out of line: the hot path only adds. */
static __attribute__((noinline)) void pend_first(struct sg_thread *t, const struct sg_frame *f,
						 struct sg_stat *s, uint64_t ticks)
{
	if (!ticks)
		return;
	if (SG_UNLIKELY(t->nr_pending == SG_MAX_PENDING)) {
		sg_snap(t, (uint32_t)(f - t->stack) + 1);
		return;
	}
	t->pending[t->nr_pending++] = f->node;
	s->pend = ticks;
}

/* The part of an entry since the thread's last snapshot: its cpu and rq_wait come at the next.
 * Every caller ends entries at or after that snapshot (sg_snap returns the clock to go on with). */
static inline void pend(struct sg_thread *t, const struct sg_frame *f, struct sg_stat *s,
			uint64_t now)
{
	uint64_t ticks = now - (f->start > t->snap_tsc ? f->start : t->snap_tsc);

	if (SG_LIKELY(s->pend))
		s->pend += ticks;
	else
		pend_first(t, f, s, ticks);
}

static inline __attribute__((always_inline)) void record(struct sg_thread *t,
							 const struct sg_frame *f, uint64_t now)
{
	struct sg_stat *s = &t->chunks[f->node / SG_CHUNK][f->node % SG_CHUNK];
	uint64_t d = now - f->start;

	s->time += d;
	s->par += sg_par_now(t, now) - f->par_start;
	if (!f->inherited) {
		double x = (double)(int64_t)d; /* ticks apart: far below 2^63 */
		s->count++;
		s->sumsq += x * x;
		if (d < s->min)
			s->min = d;
		if (d > s->max)
			s->max = d;
	}
	pend(t, f, s, now); /* last: its rare case is then a jump, not a call */
}

void sg_frame_push(struct sg_thread *t, uint32_t node, uint32_t region, uint64_t now, int inherited)
{
	struct sg_frame *f = &t->stack[t->depth++];

	f->node = node;
	f->region = region;
	f->start = now;
	f->par_start = sg_par_now(t, now);
	f->inherited = inherited;
	t->cur = node;
}

/* The innermost frame closed at 'now'; recorded last, so that record's rare case is a jump. */
static inline __attribute__((always_inline)) void pop(struct sg_thread *t, uint64_t now)
{
	const struct sg_frame *f = &t->stack[--t->depth];

	t->cur = f[-1].node;
	record(t, f, now);
}

void sg_frame_pop(struct sg_thread *t, uint64_t now)
{
	pop(t, now);
}

static inline struct sg_cache_entry *cache_slot(struct sg_thread *t, sg_region_t region, long tag)
{
	return &t->cache[(t->cur * 31u + (uint32_t)region * 17u + (uint32_t)tag) % SG_CACHE_SIZE];
}

static inline int cache_hit(const struct sg_thread *t, const struct sg_cache_entry *e,
			    sg_region_t region, long tag)
{
	return e->parent == t->cur && e->region == (uint32_t)region && e->tag == tag;
}

/* Whether 'region' is the innermost interval t opened itself (an end that matches). */
static inline int ends_innermost(const struct sg_thread *t, sg_region_t region)
{
	return t->depth > 1 && t->stack[t->depth - 1].region == (uint32_t)region &&
	       !t->stack[t->depth - 1].inherited;
}

/* Cache miss: find or create the node, and make sure its statistics exist. */
static int64_t node_lookup(struct sg_thread *t, struct sg_cache_entry *e, uint32_t region, long tag)
{
	int64_t node;

	if (!region || region >= (uint32_t)INT32_MAX)
		return -1;
	node = sg_node_get(t->cur, region, tag);
	if (node < 0 || !sg_stat_get(t, (uint32_t)node))
		return -1;
	*e = (struct sg_cache_entry){ t->cur, region, tag, (uint32_t)node };
	return node;
}

/* A begin at 'now' on t past the common case: a snapshot due, a full stack, a node not in the
 * cache. Out of line, as the other rare cases below: the common case then saves no registers. */
static __attribute__((noinline)) void begin_rare(struct sg_thread *t, sg_region_t region, long tag,
						 uint64_t now)
{
	struct sg_cache_entry *e;
	int64_t node;

	now = sg_snap_maybe(t, now);
	if (SG_UNLIKELY(t->depth >= SG_MAX_DEPTH || t->overflow)) {
		t->overflow++;
		t->dropped++;
		sg_annotation_error(SG_ERR_DROPPED, t->cur, (uint32_t)region, 0);
		return;
	}
	e = cache_slot(t, region, tag);
	if (SG_LIKELY(cache_hit(t, e, region, tag)))
		node = e->node;
	else if ((node = node_lookup(t, e, (uint32_t)region, tag)) < 0) {
		t->overflow++;
		t->dropped++;
		sg_annotation_error(SG_ERR_DROPPED, t->cur, (uint32_t)region, 0);
		return;
	}
	sg_frame_push(t, (uint32_t)node, (uint32_t)region, now, 0);
}

/* The first begin of a thread, or any without the TSC. */
static __attribute__((noinline)) void begin_first(struct sg_thread *t, sg_region_t region,
						  long tag)
{
	/* Not measuring: no clock read, nothing but this test. */
	if (t || (t = sg_thread_get()))
		begin_rare(t, region, tag, sg_now());
}

void sg_begin_tag(sg_region_t region, long tag)
{
	struct sg_thread *t = sg_self;
	const struct sg_cache_entry *e;
	uint64_t now;

	if (SG_UNLIKELY(!t || !sg_clock_tsc)) {
		begin_first(t, region, tag);
		return;
	}
	now = sg_tsc();
	e = cache_slot(t, region, tag);
	if (SG_UNLIKELY(now >= t->snap_due || t->depth >= SG_MAX_DEPTH || t->overflow ||
			!cache_hit(t, e, region, tag))) {
		begin_rare(t, region, tag, now);
		return;
	}
	sg_frame_push(t, e->node, (uint32_t)region, now, 0);
}

void sg_begin(sg_region_t region)
{
	sg_begin_tag(region, SG_NO_TAG);
}

/* Pops the innermost frame, an interval left open: reported with its SG_BEGIN's site. */
void sg_pop_unclosed(struct sg_thread *t, uint64_t now)
{
	const struct sg_frame *f = &t->stack[t->depth - 1];

	t->unclosed++;
	sg_annotation_error(SG_ERR_UNCLOSED, f->node, f->region, 0);
	sg_frame_pop(t, now);
}

/*
 * The end did not match the innermost region. Recovery: the intervals opened inside the matching
 * one and
 * left open are closed with it (so what follows keeps its parents); an end that matches no open
 * interval
 * of this thread is ignored.
 */
static void end_mismatch(struct sg_thread *t, uint32_t region, int line, uint64_t now)
{
	uint32_t d = t->depth;

	while (d > 1 && (t->stack[d - 1].region != region || t->stack[d - 1].inherited))
		d--;
	if (d <= 1) {
		t->unmatched_end++;
		sg_annotation_error(SG_ERR_UNMATCHED_END, t->cur, region, line);
		return;
	}
	while (t->depth > d)
		sg_pop_unclosed(t, now);
	sg_frame_pop(t, now);
}

/* An end at 'now' on t past the common case: inside dropped begins, an injection, a snapshot due,
 * an end that does not match the innermost interval. */
static __attribute__((noinline)) void end_rare(struct sg_thread *t, sg_region_t region, int line,
					       uint64_t now)
{
	if (SG_UNLIKELY(t->overflow)) {
		t->overflow--;
		return;
	}
	if (SG_LIKELY(ends_innermost(t, region))) {
		if (SG_UNLIKELY(sg_inject_on))
			now = sg_inject_end(t, &t->stack[t->depth - 1], now);
		pop(t, sg_snap_maybe(t, now));
		return;
	}
	now = sg_snap_maybe(t, now);
	end_mismatch(t, (uint32_t)region, line, now);
}

/* Any end without the TSC (a clock read is a call). */
static __attribute__((noinline)) void end_no_tsc(struct sg_thread *t, sg_region_t region, int line)
{
	end_rare(t, region, line, sg_now());
}

void sg_end_line(sg_region_t region, int line)
{
	struct sg_thread *t = sg_self;
	uint64_t now;

	if (SG_UNLIKELY(!t))
		return;
	if (SG_UNLIKELY(!sg_clock_tsc)) {
		end_no_tsc(t, region, line);
		return;
	}
	now = sg_tsc();
	if (SG_UNLIKELY(t->overflow || !ends_innermost(t, region) || sg_inject_on ||
			now >= t->snap_due)) {
		end_rare(t, region, line, now);
		return;
	}
	pop(t, now);
}

void sg_end(sg_region_t region)
{
	sg_end_line(region, 0);
}

/* Closes a thread's open regions (counted as unclosed) and, for the main thread, level 0. */
static void close_frames(struct sg_thread *t, uint64_t now)
{
	now = sg_snap(t, t->depth);
	while (t->depth > 1) {
		if (!t->stack[t->depth - 1].inherited)
			sg_pop_unclosed(t, now);
		else
			sg_frame_pop(t, now);
	}
	if (t->is_main && t->depth == 1) {
		record(t, &t->stack[0], now);
		t->depth = 0;
	}
}

static void thread_exit(void *arg)
{
	struct sg_thread *t = arg;

	close_frames(t, sg_now());
	sg_sched_thread_stop(t);
	sg_self = NULL;
	__atomic_fetch_sub(&sg_threads_alive, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&sg_lock);
	t->live = 0;
	t->next_free = free_slots;
	free_slots = t;
	pthread_mutex_unlock(&sg_lock);
}

void sg_threads_close(uint64_t now)
{
	/* Only the calling thread's frames can be closed safely; others keep running. */
	if (sg_self)
		close_frames(sg_self, now);
	/* Written from another thread (MPI_Finalize under MPI_THREAD_MULTIPLE): the main
	 * thread's level-0 interval still ends now; its open intervals stay unrecorded. */
	for (int i = 0; i < nr_threads; i++) {
		struct sg_thread *t = threads[i];
		/* A live thread's last span (a team worker idle in its pool, say): only its closed
		 * entries and the main thread's level 0 take their part: only they are recorded. */
		uint64_t end = now;
		if (t->live && t != sg_self && t->cpu_clock != CLOCK_THREAD_CPUTIME_ID)
			end = sg_snap(t, t->depth < 1 ? t->depth : 1);
		if (t->is_main && t != sg_self && t->depth >= 1) {
			t->unclosed += t->depth - 1;
			record(t, &t->stack[0], end);
		}
	}
}

int sg_thread_count(void)
{
	return nr_threads;
}

struct sg_thread *sg_thread_at(int slot)
{
	return threads[slot];
}
