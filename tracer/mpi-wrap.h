/* What the PMPI wrappers (tracer/mpi*.c) share: the one wrapper shape, the on/off test, accounting,
 * byte counting. */
#ifndef SG_MPI_WRAP_H
#define SG_MPI_WRAP_H

#include <mpi.h>

#include "internal.h"

/* The wrappers are the library's interface: visible even under -fvisibility=hidden. */
#define SG_MPI_API __attribute__((visibility("default")))

/* Payload bytes of one call on this rank. */
struct sg_xfer {
	uint64_t sent, recv;
};

SG_HIDDEN extern int sg_mpi_paused; /* MPI_Pcontrol(0) */
/* SCALEGATE_MPI_WAIT=exact: a timed barrier before each collective */
SG_HIDDEN extern int sg_mpi_exact;
/* 1 while this thread is inside a wrapped call: MPI calls made from inside MPI are part of the
 * outer one. */
SG_HIDDEN extern __thread int sg_mpi_inside __attribute__((tls_model("initial-exec")));

/* After PMPI_Init(_thread) succeeded (C or Fortran): rank, size, mode. */
SG_HIDDEN void sg_mpi_started(void);
/* In MPI_Finalize (C or Fortran), before PMPI_Finalize: the profile, then the node's window. */
SG_HIDDEN void sg_mpi_finalizing(void);
/* The communicator of this node's ranks while they share their arrivals, else MPI_COMM_NULL. */
SG_HIDDEN MPI_Comm sg_mpi_node_comm(void);
/* The in-job reduction (mpi-reduce.c): sg_reduce_hook. */
SG_HIDDEN int sg_mpi_reduce(const char *dir, int at_exit);
/* MPI_Pcontrol's effect on the tracer. */
SG_HIDDEN void sg_mpi_pcontrol(int level);

/* The calling thread's state when this call is to be measured, else NULL (then: call PMPI and
 * return). */
static inline struct sg_thread *sg_mpi_measuring(void)
{
	struct sg_thread *t;

	if (SG_LIKELY(!sg_on) || __atomic_load_n(&sg_mpi_paused, __ATOMIC_RELAXED) || sg_mpi_inside)
		return NULL;
	t = sg_self;
	return SG_LIKELY(t) ? t : sg_thread_get();
}

/* Exact mode: a barrier on the collective's communicator; returns the ticks spent in it (the
 * waiting). */
SG_HIDDEN uint64_t sg_mpi_sync(MPI_Comm comm, uint64_t t0);

/* ---- waiting for a delayed rank (mpi-node.c): the node's ranks share their arrivals ---- */

#define SG_MPI_RING 8 /* a rank's last arrivals kept for the others */

/* One arrival: written by its rank only (a sequence number, odd while it is being written),
 * read by the node's others. */
struct sg_mpi_arrival {
	uint64_t seq;
	uint64_t at;       /* clock ticks */
	uint64_t delay_ns; /* its lag there (mpi-sync.h) */
	int64_t route;     /* whom it sends to and receives from (sg_mpi_route) */
};

/* Whom an arrival sends to or receives from, when not a slot of this node: */
#define SG_MPI_TO_UNKNOWN (-1) /* a send or a receive whose partner is not known here */
#define SG_MPI_TO_ALL (-2)     /* a collective */
#define SG_MPI_TO_NONE (-3)    /* nobody: a wait, a receive's destination */
#define SG_MPI_TO_AWAY (-4)    /* a rank on another node, MPI_PROC_NULL */

/* An arrival's route: the slot it sends to in the low half, the one it receives from in the
 * high. */
static inline int64_t sg_mpi_route(int to, int from)
{
	return (int64_t)((uint64_t)(uint32_t)from << 32 | (uint32_t)to);
}

#define SG_MPI_ROUTE_NONE sg_mpi_route(SG_MPI_TO_NONE, SG_MPI_TO_NONE)
#define SG_MPI_ROUTE_ALL sg_mpi_route(SG_MPI_TO_ALL, SG_MPI_TO_ALL)

/* Per kind, a wrapper's arrival's route from its 'comm', 'dest' and 'source' (unused but for
 * sends and sendrecvs). */
#define SG_MPI_ROUTE_SEND(comm, dest, source) sg_mpi_route(sg_mpi_to(comm, dest), SG_MPI_TO_NONE)
#define SG_MPI_ROUTE_ISEND(comm, dest, source) SG_MPI_ROUTE_SEND(comm, dest, source)
#define SG_MPI_ROUTE_SENDRECV(comm, dest, source) \
	sg_mpi_route(sg_mpi_to(comm, dest), sg_mpi_from(comm, source))
#define SG_MPI_ROUTE_RECV(comm, dest, source) sg_mpi_route(SG_MPI_TO_NONE, SG_MPI_TO_UNKNOWN)
#define SG_MPI_ROUTE_RECV_FROM(comm, source) sg_mpi_route(SG_MPI_TO_NONE, sg_mpi_from(comm, source))
#define SG_MPI_ROUTE_IRECV(comm, dest, source) SG_MPI_ROUTE_RECV(comm, dest, source)
#define SG_MPI_ROUTE_PROBE(comm, dest, source) SG_MPI_ROUTE_NONE
#define SG_MPI_ROUTE_WAIT(comm, dest, source) SG_MPI_ROUTE_NONE
#define SG_MPI_ROUTE_TEST(comm, dest, source) SG_MPI_ROUTE_NONE
#define SG_MPI_ROUTE_IO(comm, dest, source) SG_MPI_ROUTE_NONE
#define SG_MPI_ROUTE_OTHER(comm, dest, source) SG_MPI_ROUTE_NONE
#define SG_MPI_ROUTE_BARRIER(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_BCAST(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_REDUCE(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_ALLREDUCE(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_GATHER(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_ALLGATHER(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_SCATTER(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_ALLTOALL(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_REDUCE_SCATTER(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_SCAN(comm, dest, source) SG_MPI_ROUTE_ALL
#define SG_MPI_ROUTE_ICOLLECTIVE(comm, dest, source) SG_MPI_ROUTE_ALL

struct sg_mpi_ring {
	uint64_t head; /* arrivals written so far */
	uint64_t pad[7];
	struct sg_mpi_arrival e[SG_MPI_RING];
};

/* This rank's ring in the node's window, NULL when mpi_sync is not captured; the one thread that
 * writes it and whose waits are corrected. */
SG_HIDDEN extern struct sg_mpi_ring *sg_mpi_ring_own;
SG_HIDDEN extern struct sg_thread *sg_mpi_ring_owner;
/* Waits shorter than this many ticks are not corrected (mpi-node.c). */
SG_HIDDEN extern uint64_t sg_mpi_min_wait;
/* The slot of each rank of MPI_COMM_WORLD, -1 on other nodes. */
SG_HIDDEN extern const int *sg_mpi_world_slot;
SG_HIDDEN int sg_mpi_comm_slot(MPI_Comm comm, int rank);

/* The slot of rank 'dest' of 'comm' as an arrival's destination. */
static inline int sg_mpi_to(MPI_Comm comm, int dest)
{
	int slot;

	if (dest < 0)
		return SG_MPI_TO_AWAY;
	if (comm != MPI_COMM_WORLD)
		return sg_mpi_comm_slot(comm, dest);
	slot = dest < sg_ranks ? sg_mpi_world_slot[dest] : -1;
	return slot >= 0 ? slot : SG_MPI_TO_AWAY;
}

/* The same for a receive's source: MPI_ANY_SOURCE may be anybody. */
static inline int sg_mpi_from(MPI_Comm comm, int source)
{
	return source == MPI_ANY_SOURCE ? SG_MPI_TO_UNKNOWN : sg_mpi_to(comm, source);
}

SG_HIDDEN void sg_mpi_node_start(void);
SG_HIDDEN void sg_mpi_node_stop(void);
/* A partner a wait is for: a slot of the node, and whether the partner sends to this rank (a
 * receive's sender) or receives from it (a send's receiver). */
struct sg_mpi_partner {
	int slot;
	int sends;
};

/* t's wait, begun at its last arrival, ended: for the members of a collective's 'comm' at t1, or
 * for the partners in 'p' (n of them: a receive's sender, a send's receiver, MPI_Waitall's) at
 * 'end' after 'wait' ticks. Return the clock past a reading of t's clocks (its wait's time: the
 * reading holds its delay there). */
SG_HIDDEN uint64_t sg_mpi_coll_waited(struct sg_thread *t, MPI_Comm comm, uint64_t t0,
				      uint64_t t1);
SG_HIDDEN uint64_t sg_mpi_partners_waited(struct sg_thread *t, const struct sg_mpi_partner *p,
					  int n, uint64_t end, uint64_t wait);
/* The rank's MPI thread posted a receive from 'slot' as 'req' (SG_MPI_TO_AWAY, _UNKNOWN: from
 * another node, from any source; SG_MPI_TO_NONE: a request that is no receive, forgotten); the
 * partners that requests 'reqs' wait for, at most 'max', each once (their requests forgotten:
 * they complete). */
SG_HIDDEN void sg_mpi_posted(MPI_Request req, int slot);
SG_HIDDEN int sg_mpi_posted_take(const MPI_Request *reqs, int n, struct sg_mpi_partner *p,
				 int max);

/* The calls a partner may wait for: those that send, or contribute to a collective; and the waits,
 * which keep their arrival for their end. */
static inline int sg_mpi_kind_arrives(enum sg_mpi_kind kind)
{
	return kind != SG_MPI_IRECV && kind != SG_MPI_PROBE && kind != SG_MPI_TEST &&
	       kind != SG_MPI_IO && kind != SG_MPI_OTHER;
}

/* Whether t's arrival at a call of 'kind' is published: it is the rank's MPI thread. */
static inline struct sg_mpi_ring *sg_mpi_publishing(const struct sg_thread *t,
						    enum sg_mpi_kind kind)
{
	struct sg_mpi_ring *r = __atomic_load_n(&sg_mpi_ring_own, __ATOMIC_RELAXED);

	return sg_mpi_kind_arrives(kind) && r && t == sg_mpi_ring_owner ? r : NULL;
}

static inline void sg_mpi_publish(struct sg_mpi_ring *r, uint64_t at, double delay_ns,
				  int64_t route)
{
	uint64_t i = r->head;
	struct sg_mpi_arrival *e = &r->e[i % SG_MPI_RING];

	__atomic_store_n(&e->seq, 2 * i + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&e->at, at, __ATOMIC_RELAXED);
	__atomic_store_n(&e->delay_ns, (uint64_t)delay_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&e->route, route, __ATOMIC_RELAXED);
	__atomic_store_n(&e->seq, 2 * i + 2, __ATOMIC_RELEASE);
	__atomic_store_n(&r->head, i + 1, __ATOMIC_RELEASE);
}

/*
 * t arrives at an MPI call at 'now' (sg_mpi_publishing gave 'r'): the arrival is published with t's
 * lag (its clocks read first when they were not for the snapshot period, as at an interval's
 * boundary) and whom the call sends to and receives from ('route'); a call that may wait
 * ('waits') keeps it for the wait's end. Returns the clock to go on with.
 */
static inline uint64_t sg_mpi_arrive(struct sg_mpi_ring *r, struct sg_thread *t, uint64_t now,
				     int waits, int64_t route)
{
	double lag;

	now = sg_snap_maybe(t, now);
	lag = t->mpi_lag + t->mpi_rq;
	sg_mpi_publish(r, now, lag, route);
	if (waits) {
		t->mpi_at = now;
		t->mpi_delay = lag;
		t->mpi_cpu_at = t->mpi_cpu;
	}
	return now;
}

/* t's wait from its arrival at t0 ended at t1: MPI_Wait* (for nobody known), or a wait for the
 * members of a collective on 'comm'. A short one was no wait for a partner: t's lag goes on.
 * Returns the wait's end (t1, or past a reading of the clocks). */
static inline uint64_t sg_mpi_depart(struct sg_thread *t, MPI_Comm comm, uint64_t t0, uint64_t t1)
{
	if (!__atomic_load_n(&sg_mpi_ring_own, __ATOMIC_RELAXED) || t != sg_mpi_ring_owner ||
	    t1 - t0 < sg_mpi_min_wait)
		return t1;
	if (comm != MPI_COMM_NULL)
		return sg_mpi_coll_waited(t, comm, t0, t1);
	return sg_mpi_partners_waited(t, NULL, 0, t1, t1 - t0);
}

/* Exact mode, after the barrier before a collective (mpi-node.c). */
SG_HIDDEN uint64_t sg_mpi_rearrive(struct sg_mpi_ring *r, struct sg_thread *t, MPI_Comm comm,
				   uint64_t t0, uint64_t w);

static inline void sg_mpi_account(struct sg_thread *t, enum sg_mpi_kind kind, uint64_t time,
				  uint64_t wait, struct sg_xfer x)
{
	struct sg_mpi_stat *m = sg_mpi_stat_get(t, t->cur, kind);

	if (SG_UNLIKELY(!m))
		return;
	m->count++;
	m->time += time;
	m->wait += wait;
	m->bytes_sent += x.sent;
	m->bytes_recv += x.recv;
}

/*
 * The one wrapper shape (mpiP's): when not measuring, call the real function
 * and return; else timestamp (an arrival the node's other ranks may wait for:
 * sg_mpi_arrive), [exact mode: timed barrier on 'comm'], call, timestamp,
 * account, [a wait: its part the other ranks' delay caused]. 'comm' is
 * MPI_COMM_NULL for calls that are not blocking collectives; bytes are counted
 * after the second timestamp, off the clock. CALL is the call through
 * ("ret = PMPI_Send(...)" in C, "pmpi_send_(...)" in Fortran); ROUTE whom it
 * sends to and receives from (SG_MPI_ROUTE_KIND(comm, dest, source)),
 * evaluated only when it is published.
 */
#define SG_MPI_SHAPE(KIND, CALL, COMM, XFER, ROUTE) \
	do { \
		struct sg_thread *t_ = sg_mpi_measuring(); \
		struct sg_mpi_ring *r_; \
		uint64_t t0_, ta_, t1_, w_ = 0; \
		MPI_Comm c_; \
		if (!t_) { \
			CALL; \
			break; \
		} \
		c_ = (COMM); \
		t0_ = sg_now(); \
		if ((r_ = sg_mpi_publishing(t_, SG_MPI_##KIND))) \
			t0_ = sg_mpi_arrive(r_, t_, t0_, \
					    c_ != MPI_COMM_NULL || SG_MPI_##KIND == SG_MPI_WAIT, \
					    (ROUTE)); \
		ta_ = t0_; \
		if (SG_UNLIKELY(sg_mpi_exact) && c_ != MPI_COMM_NULL) { \
			w_ = sg_mpi_sync(c_, t0_); \
			if (r_) \
				ta_ = sg_mpi_rearrive(r_, t_, c_, t0_, w_); \
		} \
		sg_mpi_inside = 1; \
		CALL; \
		t1_ = sg_now(); \
		sg_mpi_inside = 0; \
		if (c_ != MPI_COMM_NULL || SG_MPI_##KIND == SG_MPI_WAIT) \
			t1_ = sg_mpi_depart(t_, c_, ta_, t1_); \
		/* a wait blocks for a partner or the network: all of it is waiting \
		 * (tracer/MPI.md) */ \
		sg_mpi_account(t_, SG_MPI_##KIND, t1_ - t0_, \
			       SG_MPI_##KIND == SG_MPI_WAIT ? t1_ - t0_ : w_, (XFER)); \
	} while (0)

/* ---- byte counting: count x MPI_Type_size; payload this rank supplies (sent) and gets (recv) ----
 */

SG_HIDDEN uint64_t sg_mpi_bytes(MPI_Count count, MPI_Datatype type);

#define SG_XFER_NONE ((struct sg_xfer){ 0, 0 })

SG_HIDDEN struct sg_xfer sg_x_send(int count, MPI_Datatype type, int dest);
/* The same for a non-blocking send, its request 'req' noted as no receive (mpi-wait.c). */
SG_HIDDEN struct sg_xfer sg_x_isend(int count, MPI_Datatype type, int dest, const MPI_Request *req);
SG_HIDDEN struct sg_xfer sg_x_recv(int count, MPI_Datatype type, int source);
SG_HIDDEN struct sg_xfer sg_x_sendrecv(int scount, MPI_Datatype stype, int dest, int rcount,
				       MPI_Datatype rtype, int source);
SG_HIDDEN struct sg_xfer sg_x_write(int count, MPI_Datatype type);
SG_HIDDEN struct sg_xfer sg_x_read(int count, MPI_Datatype type);
SG_HIDDEN struct sg_xfer sg_x_bcast(int count, MPI_Datatype type, int root, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_reduce(int count, MPI_Datatype type, int root, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_allreduce(int count, MPI_Datatype type);
SG_HIDDEN struct sg_xfer sg_x_gather(int sinplace, int scount, MPI_Datatype stype, int rcount,
				     MPI_Datatype rtype, int root, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_gatherv(int sinplace, int scount, MPI_Datatype stype,
				      const int *rcounts, MPI_Datatype rtype, int root,
				      MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_allgather(int sinplace, int scount, MPI_Datatype stype, int rcount,
					MPI_Datatype rtype, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_allgatherv(int sinplace, int scount, MPI_Datatype stype,
					 const int *rcounts, MPI_Datatype rtype, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_scatter(int rinplace, int scount, MPI_Datatype stype, int rcount,
				      MPI_Datatype rtype, int root, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_scatterv(int rinplace, const int *scounts, MPI_Datatype stype,
				       int rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_alltoall(int sinplace, int scount, MPI_Datatype stype, int rcount,
				       MPI_Datatype rtype, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_alltoallv(int sinplace, const int *scounts, MPI_Datatype stype,
					const int *rcounts, MPI_Datatype rtype, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_alltoallw(int sinplace, const int *scounts,
					const MPI_Datatype *stypes, const int *rcounts,
					const MPI_Datatype *rtypes, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_reduce_scatter(const int *rcounts, MPI_Datatype type, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_reduce_scatter_block(int rcount, MPI_Datatype type, MPI_Comm comm);
/* Neighbor_allgather and Neighbor_alltoall: one block to each out-neighbor, one from each
 * in-neighbor. */
SG_HIDDEN struct sg_xfer sg_x_neighbor(int scount, MPI_Datatype stype, int rcount,
				       MPI_Datatype rtype, MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_neighbor_allgatherv(int scount, MPI_Datatype stype,
						  const int *rcounts, MPI_Datatype rtype,
						  MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_neighbor_alltoallv(const int *scounts, MPI_Datatype stype,
						 const int *rcounts, MPI_Datatype rtype,
						 MPI_Comm comm);
SG_HIDDEN struct sg_xfer sg_x_neighbor_alltoallw(const int *scounts, const MPI_Datatype *stypes,
						 const int *rcounts, const MPI_Datatype *rtypes,
						 MPI_Comm comm);

#endif
