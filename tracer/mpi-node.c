/*
 * Waiting for a delayed rank (tracer/MPI.md, mpi_sync): the ranks of one node publish their
 * arrivals at MPI calls, with their run-queue delay since their last wait, in a shared window; a
 * rank whose wait ends reads its partners' and charges the part of the wait their delay caused.
 */
#include "mpi-wrap.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mpi-sync.h"

struct sg_mpi_ring *sg_mpi_ring_own;
struct sg_thread *sg_mpi_ring_owner;
const int *sg_mpi_world_slot;

/* Shorter waits are left alone: a partner's delay is read at most every 250 µs, so a wait of less
 * than a twenty-fifth of that (10 µs) holds little of it, and reading the partners' rings costs a
 * cache miss each. */
#define MIN_WAIT_SHARE 25
uint64_t sg_mpi_min_wait = UINT64_MAX;

/* A communicator's ranks as slots of this node's window: -1 on other nodes. */
struct comm_map {
	int size;
	int nr_local;     /* members on this node, this rank left out */
	int *slot;        /* comm rank -> slot */
	int local[];      /* their slots */
};

static MPI_Comm node_comm = MPI_COMM_NULL;
static MPI_Win window = MPI_WIN_NULL;
static MPI_Group world_group = MPI_GROUP_NULL;
static int keyval = MPI_KEYVAL_INVALID;
static struct sg_mpi_ring **rings; /* by slot */
static struct comm_map *world_map;
static int own_slot;
static int in_init; /* the first wait is in MPI_Init, whose time is not MPI time: no charges */

static struct comm_map *map_new(int size)
{
	struct comm_map *m = calloc(1, sizeof(*m) + (size_t)size * sizeof(int));

	if (m)
		m->slot = malloc(((size_t)size + 1) * sizeof(int));
	if (m && !m->slot) {
		free(m);
		return NULL;
	}
	if (m)
		m->size = size;
	return m;
}

static void map_free(struct comm_map *m)
{
	if (m)
		free(m->slot);
	free(m);
}

/* Slots of the members of 'group', through their world ranks' in 'world'; this rank is left out
 * of the local list. */
static struct comm_map *map_group(MPI_Group group, const struct comm_map *world)
{
	int size, *ranks, *in_world;
	struct comm_map *m;

	PMPI_Group_size(group, &size);
	m = map_new(size);
	ranks = malloc(((size_t)size + 1) * sizeof(int));
	in_world = malloc(((size_t)size + 1) * sizeof(int));
	if (m && ranks && in_world) {
		for (int i = 0; i < size; i++)
			ranks[i] = i;
		PMPI_Group_translate_ranks(group, size, ranks, world_group, in_world);
		for (int i = 0; i < size; i++) {
			int w = in_world[i];
			m->slot[i] = w >= 0 && w < world->size ? world->slot[w] : -1;
			if (m->slot[i] >= 0 && m->slot[i] != own_slot)
				m->local[m->nr_local++] = m->slot[i];
		}
	}
	free(ranks);
	free(in_world);
	return m;
}

static int map_delete(MPI_Comm comm, int key, void *value, void *extra)
{
	(void)comm, (void)key, (void)extra;
	map_free(value);
	return MPI_SUCCESS;
}

/* The map of 'comm', made at its first wait and kept on it (an attribute: freed with it). NULL for
 * an intercommunicator, or out of memory. */
static const struct comm_map *comm_map(MPI_Comm comm)
{
	struct comm_map *m;
	MPI_Group group;
	int found, inter;

	if (comm == MPI_COMM_WORLD)
		return world_map;
	if (PMPI_Comm_get_attr(comm, keyval, &m, &found) != MPI_SUCCESS)
		return NULL;
	if (found)
		return m;
	if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
		return NULL;
	PMPI_Comm_group(comm, &group);
	m = map_group(group, world_map);
	PMPI_Group_free(&group);
	if (m && PMPI_Comm_set_attr(comm, keyval, m) != MPI_SUCCESS) {
		map_free(m);
		m = NULL;
	}
	return m;
}

int sg_mpi_comm_slot(MPI_Comm comm, int rank)
{
	const struct comm_map *m = comm_map(comm);
	int slot = m && rank < m->size ? m->slot[rank] : -1;

	return m ? (slot >= 0 ? slot : SG_MPI_TO_AWAY) : SG_MPI_TO_UNKNOWN;
}

static uint64_t to_ticks(double ns)
{
	return ns > 0 ? (uint64_t)(ns * sg_ticks_per_ns) : 0;
}

/* Whether an arrival's route ('to' or 'from' half) names 'want' (a slot: this rank; SG_MPI_TO_ALL:
 * a collective): a partner not known there may have been this rank. */
static int routed(int32_t half, int want)
{
	return half == want || (want >= 0 && half == SG_MPI_TO_UNKNOWN);
}

/* Whether an arrival with 'route' is one a wait of this rank may have been for: a send to this
 * rank ('sends'), a receive from it, or a collective (want SG_MPI_TO_ALL). */
static int wanted_route(int64_t route, int want, int sends)
{
	uint64_t u = (uint64_t)route;

	return routed((int32_t)(uint32_t)(sends ? u : u >> 32), want);
}

/* The latest arrival of ring 'r' at or before 'end' that 'wanted_route' takes; 0 when there is
 * none (it made more than SG_MPI_RING calls since, or none). A slot being rewritten is skipped: a
 * newer one is no use. */
static int ring_find(const struct sg_mpi_ring *r, uint64_t end, int want, int sends,
		     struct sg_mpi_side *out)
{
	uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);

	for (uint64_t k = 0; k < SG_MPI_RING && k < head; k++) {
		uint64_t i = head - 1 - k;
		const struct sg_mpi_arrival *e = &r->e[i % SG_MPI_RING];
		uint64_t seq = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
		uint64_t at = __atomic_load_n(&e->at, __ATOMIC_RELAXED);
		uint64_t ns = __atomic_load_n(&e->delay_ns, __ATOMIC_RELAXED);
		int64_t route = __atomic_load_n(&e->route, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (seq != 2 * i + 2 || __atomic_load_n(&e->seq, __ATOMIC_RELAXED) != seq)
			continue;
		if ((int64_t)(at - end) <= 0 && wanted_route(route, want, sends)) {
			*out = (struct sg_mpi_side){ at, to_ticks((double)ns) };
			return 1;
		}
	}
	return 0;
}

/* Charges t's innermost interval with 'ticks' of mpi_sync (signed), after its own delay and its
 * time on a CPU while it waited ('own' ticks, 'cpu' ns: neither was its work's). */
static void charge(struct sg_thread *t, uint64_t own, double cpu, int64_t ticks)
{
	struct sg_stat *s = !in_init ? sg_stat_get(t, t->cur) : NULL;

	if (!s)
		return;
	s->mpi_rq += (double)own / sg_ticks_per_ns;
	s->mpi_cpu += cpu > 0 ? cpu : 0;
	s->mpi_sync += (double)ticks / sg_ticks_per_ns;
}

/* t's lag at 'end', its clocks read there when the wait lasted the snapshot period (a long wait
 * may hold a delay of its own: team.c's rule), or they were not read for that long. */
static uint64_t lag_at(struct sg_thread *t, uint64_t *end)
{
	if (t->sched_fd >= 0 && (*end - t->mpi_at >= sg_snap_ticks || *end >= t->snap_due))
		*end = sg_snap(t, t->depth);
	return to_ticks(t->mpi_lag + t->mpi_rq);
}

/*
 * t's wait, begun at its arrival, ended at 'end' after 'wait' ticks; 'b' is its partner (or the
 * members of a collective folded into one, sg_mpi_fold; found: 'have'), 'last' the latest arrival
 * among them. When the wait was for them (they arrived after t), the machine's part of it is
 * charged, and t's lag is theirs, or its own plus the wait (sg_mpi_lag_after); else t's lag goes
 * on (its own path: it waited for no partner, or for one this rank cannot see).
 */
static uint64_t settle(struct sg_thread *t, uint64_t end, uint64_t wait, struct sg_mpi_side b,
		       int have, uint64_t last)
{
	struct sg_mpi_side a = { t->mpi_at, to_ticks(t->mpi_delay) };
	uint64_t lag = lag_at(t, &end), own = lag > a.delay ? lag - a.delay : 0, late;
	double cpu = t->mpi_cpu - t->mpi_cpu_at;

	if (!have || (int64_t)(last - a.at) <= 0) {
		charge(t, own, cpu, 0);
		return end;
	}
	charge(t, own, cpu, sg_mpi_sync_of(a, b, last, end, wait, own));
	late = sg_mpi_late_notice(end, last, own);
	t->mpi_lag = (double)sg_mpi_lag_after(a, b, last, late) / sg_ticks_per_ns;
	t->mpi_start = end;
	t->mpi_rq = t->mpi_cpu = 0;
	return end;
}

/* As a collective's members, the partners a wait was for: the latest undelayed arrival among
 * their sends to this rank, or receives from it, decides. */
uint64_t sg_mpi_partners_waited(struct sg_thread *t, const struct sg_mpi_partner *p, int n,
				uint64_t end, uint64_t wait)
{
	struct sg_mpi_side b = { 0, 0 }, e;
	uint64_t last = 0;
	int have = 0;

	if (t != sg_mpi_ring_owner)
		return end;
	for (int i = 0; i < n; i++) {
		if (p[i].slot < 0) /* another node's, or unknown: whom it waited for is unknown */
			return settle(t, end, wait, b, 0, 0);
		if (p[i].slot == own_slot ||
		    !ring_find(rings[p[i].slot], end, own_slot, p[i].sends, &e))
			continue;
		sg_mpi_fold(&b, e, !have);
		if (!have || (int64_t)(e.at - last) > 0)
			last = e.at;
		have = 1;
	}
	return settle(t, end, wait, b, have, last);
}

/* ---- the receives the rank's MPI thread posted: whom a wait for their requests is for ---- */

#define NR_POSTED 64 /* more are forgotten, oldest first: their waits are not corrected */

static struct {
	MPI_Request req;
	int slot;
} posted[NR_POSTED];
static int nr_posted, next_out;

void sg_mpi_posted(MPI_Request req, int slot)
{
	int i;

	for (i = 0; i < nr_posted && posted[i].req != req; i++)
		;
	if (i == nr_posted && slot == SG_MPI_TO_NONE)
		return;
	if (slot == SG_MPI_TO_NONE) {
		posted[i] = posted[--nr_posted];
		return;
	}
	if (i == nr_posted && nr_posted == NR_POSTED)
		i = next_out++ % NR_POSTED;
	else if (i == nr_posted)
		nr_posted++;
	posted[i].req = req;
	posted[i].slot = slot;
}

int sg_mpi_posted_take(const MPI_Request *reqs, int n, struct sg_mpi_partner *p, int max)
{
	int found = 0;

	for (int r = 0; r < n && nr_posted; r++)
		for (int i = 0; i < nr_posted; i++) {
			if (posted[i].req != reqs[r])
				continue;
			int j = 0;
			while (j < found && p[j].slot != posted[i].slot)
				j++;
			if (j == found && found < max)
				p[found++] = (struct sg_mpi_partner){ posted[i].slot, 1 };
			posted[i] = posted[--nr_posted];
			break;
		}
	return found;
}

/*
 * A wait for a collective's members, from t's arrival at t0 to t1: exact mode's barrier (its wait
 * measured), or the call (after that barrier in exact mode), whose time holds the wait (the gate
 * estimates it from the ranks' times) with the transfer and t's own delay, which the charge leaves
 * out.
 */
uint64_t sg_mpi_coll_waited(struct sg_thread *t, MPI_Comm comm, uint64_t t0, uint64_t t1)
{
	const struct comm_map *m;
	struct sg_mpi_side b = { 0, 0 }, e;
	uint64_t end = t1, last = 0;
	int have = 0;

	if (t != sg_mpi_ring_owner)
		return t1;
	/* members on other nodes: it may have waited for one of them, whose arrival is not known */
	if ((m = comm_map(comm)) && m->nr_local + 1 == m->size)
		for (int i = 0; i < m->nr_local; i++) {
			if (!ring_find(rings[m->local[i]], end, SG_MPI_TO_ALL, 1, &e))
				continue;
			sg_mpi_fold(&b, e, !have);
			if (!have || (int64_t)(e.at - last) > 0)
				last = e.at;
			have = 1;
		}
	end = settle(t, end, t1 - t0, b, have, last);
	return (int64_t)(end - t1) > 0 ? end : t1;
}

/*
 * Exact mode: the barrier before a collective, begun at t0 (t's arrival), took 'w' ticks: a wait
 * of its own. Then t arrives at the collective proper, whose time is a wait too when a member was
 * held up after the barrier (on 2 cores beside hogs, as long as the barrier's). Returns that
 * arrival.
 */
uint64_t sg_mpi_rearrive(struct sg_mpi_ring *r, struct sg_thread *t, MPI_Comm comm, uint64_t t0,
			 uint64_t w)
{
	uint64_t now = sg_mpi_depart(t, comm, t0, t0 + w);
	uint64_t clock = sg_now();

	return sg_mpi_arrive(r, t, (int64_t)(clock - now) > 0 ? clock : now, 1, SG_MPI_ROUTE_ALL);
}

/* ---- the node's window: made in MPI_Init, freed in MPI_Finalize ---- */

/* Every rank of MPI_COMM_WORLD as a slot of this node's window, or -1. */
static struct comm_map *world_slots(int node_size)
{
	struct comm_map *m = map_new(sg_ranks);
	MPI_Group node_group;
	int *ranks = malloc(((size_t)node_size + 1) * sizeof(int));
	int *in_world = malloc(((size_t)node_size + 1) * sizeof(int));

	if (m && ranks && in_world) {
		PMPI_Comm_group(node_comm, &node_group);
		for (int i = 0; i < node_size; i++)
			ranks[i] = i;
		PMPI_Group_translate_ranks(node_group, node_size, ranks, world_group, in_world);
		PMPI_Group_free(&node_group);
		for (int w = 0; w < sg_ranks; w++)
			m->slot[w] = -1;
		for (int i = 0; i < node_size; i++) {
			if (in_world[i] >= 0 && in_world[i] < sg_ranks)
				m->slot[in_world[i]] = i;
			if (i != own_slot)
				m->local[m->nr_local++] = i;
		}
	} else {
		map_free(m);
		m = NULL;
	}
	free(ranks);
	free(in_world);
	return m;
}

/* The window of one ring per rank of the node, each on its own pages; 0 when every rank has it. */
static int window_make(int node_size)
{
	MPI_Info info;
	void *base;
	int ok;

	PMPI_Info_create(&info);
	PMPI_Info_set(info, "alloc_shared_noncontig", "true");
	ok = PMPI_Win_allocate_shared(sizeof(struct sg_mpi_ring), 1, info, node_comm, &base,
				      &window) == MPI_SUCCESS;
	PMPI_Info_free(&info);
	rings = ok ? calloc((size_t)node_size, sizeof(*rings)) : NULL;
	for (int i = 0; rings && i < node_size; i++) {
		MPI_Aint size;
		int unit;
		if (PMPI_Win_shared_query(window, i, &size, &unit, &rings[i]) != MPI_SUCCESS ||
		    (size_t)size < sizeof(struct sg_mpi_ring))
			ok = 0;
	}
	ok = ok && rings;
	if (ok)
		memset(rings[own_slot], 0, sizeof(struct sg_mpi_ring));
	PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, node_comm);
	return ok ? 0 : -1;
}

/*
 * t's lag counts from here, where a span of its clocks begins too (its delay in MPI_Init is not
 * shared into it). The ranks leave MPI_Init at different times: a first wait, on a barrier of the
 * node, like any other (every rank calls it).
 */
static void first_wait(struct sg_thread *t)
{
	uint64_t t0 = 0;

	if (t) {
		t->mpi_start = t->sched_fd >= 0 ? sg_snap(t, t->depth) : sg_now();
		sg_mpi_min_wait = sg_snap_ticks / MIN_WAIT_SHARE;
		sg_mpi_sync_on = 1;
		__atomic_store_n(&sg_mpi_ring_own, rings[own_slot], __ATOMIC_RELEASE);
		t0 = sg_mpi_arrive(rings[own_slot], t, t->mpi_start, 1, SG_MPI_ROUTE_ALL);
	}
	PMPI_Barrier(node_comm);
	if (t) {
		uint64_t t1 = sg_now();
		in_init = 1;
		sg_mpi_depart(t, MPI_COMM_WORLD, t0, t1);
		in_init = 0;
	}
}

static int wanted(void)
{
	const char *v = getenv("SCALEGATE_MPI_SYNC");

	return !v || strcasecmp(v, "off");
}

/*
 * In MPI_Init, on every rank alike (the calls are collective): the ranks of this node make the
 * window when each can read its run-queue delay. The thread that initialized MPI is the one that
 * publishes and is corrected (a program's MPI thread under MPI_THREAD_FUNNELED).
 */
void sg_mpi_node_start(void)
{
	int size, ok = sg_sched_on;

	if (sg_ranks < 2 || !wanted() ||
	    PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
				 &node_comm) != MPI_SUCCESS)
		return;
	PMPI_Comm_set_errhandler(node_comm, MPI_ERRORS_RETURN);
	PMPI_Comm_size(node_comm, &size);
	PMPI_Comm_rank(node_comm, &own_slot);
	PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, node_comm);
	if (size < 2 || !ok || window_make(size)) {
		if (window != MPI_WIN_NULL)
			PMPI_Win_free(&window);
		PMPI_Comm_free(&node_comm);
		return;
	}
	PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
	world_map = world_slots(size);
	PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, map_delete, &keyval, NULL);
	sg_mpi_world_slot = world_map ? world_map->slot : NULL;
	PMPI_Win_lock_all(MPI_MODE_NOCHECK, window);
	/* every ring is zeroed before any rank writes or reads one */
	PMPI_Barrier(node_comm);
	sg_mpi_ring_owner = world_map ? sg_thread_get() : NULL;
	first_wait(sg_mpi_ring_owner);
}

MPI_Comm sg_mpi_node_comm(void)
{
	return node_comm;
}

/* In MPI_Finalize, after the profile is written. */
void sg_mpi_node_stop(void)
{
	if (node_comm == MPI_COMM_NULL)
		return;
	__atomic_store_n(&sg_mpi_ring_own, NULL, __ATOMIC_RELEASE);
	sg_mpi_ring_owner = NULL;
	PMPI_Win_unlock_all(window);
	PMPI_Win_free(&window);
	PMPI_Comm_free(&node_comm);
	if (keyval != MPI_KEYVAL_INVALID)
		PMPI_Comm_free_keyval(&keyval);
	if (world_group != MPI_GROUP_NULL)
		PMPI_Group_free(&world_group);
	map_free(world_map);
	world_map = NULL;
	sg_mpi_world_slot = NULL;
	free(rings);
	rings = NULL;
}
