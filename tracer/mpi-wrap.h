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
 * and return; else timestamp, [exact mode: timed barrier on 'comm'], call,
 * timestamp, account. 'comm' is MPI_COMM_NULL for calls that are not blocking
 * collectives; bytes are counted after the second timestamp, off the clock.
 * CALL is the call through ("ret = PMPI_Send(...)" in C, "pmpi_send_(...)" in Fortran).
 */
#define SG_MPI_SHAPE(KIND, CALL, COMM, XFER) \
	do { \
		struct sg_thread *t_ = sg_mpi_measuring(); \
		uint64_t t0_, t1_, w_ = 0; \
		if (!t_) { \
			CALL; \
			break; \
		} \
		t0_ = sg_now(); \
		if (SG_UNLIKELY(sg_mpi_exact)) { \
			MPI_Comm c_ = (COMM); \
			if (c_ != MPI_COMM_NULL) \
				w_ = sg_mpi_sync(c_, t0_); \
		} \
		sg_mpi_inside = 1; \
		CALL; \
		t1_ = sg_now(); \
		sg_mpi_inside = 0; \
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
