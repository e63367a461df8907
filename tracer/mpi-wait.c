/* The point-to-point calls whose waiting for a late partner is measured apart from the transfer (a
 * receive waits in MPI_Mprobe until its message is there, then MPI_Mrecv transfers it:
 * tracer/MPI.md), and those that tell whom a wait is for (MPI_Irecv, MPI_Wait, MPI_Waitall). */
#include "mpi-wrap.h"

/* Receives the message matching (source, tag, comm); *wait gets the ticks until it was there,
 * *from the rank that sent it (-1: none). */
static int recv_split(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
		      MPI_Status *status, uint64_t t0, uint64_t *wait, int *from)
{
	MPI_Message msg;
	MPI_Status probed;
	int ret = PMPI_Mprobe(source, tag, comm, &msg, &probed);

	*wait = sg_now() - t0;
	*from = ret == MPI_SUCCESS && source != MPI_PROC_NULL ? probed.MPI_SOURCE : -1;
	if (ret != MPI_SUCCESS)
		return ret;
	return PMPI_Mrecv(buf, count, type, &msg, status);
}

/*
 * The call began at t0, its wait for the message from 'from' ended 'wait' ticks later, and a send
 * to 'dest' (-1: none) completed by now: the part of the call that the partners' delay caused. The
 * sender is waited for when the message took a while to come; the receiver when the send then took
 * a while to complete (a message past the eager limit waits for its receive). Returns the call's
 * end (now, or past a reading of the clocks).
 */
static uint64_t waited(struct sg_thread *t, MPI_Comm comm, int from, int dest, uint64_t t0,
		       uint64_t wait)
{
	uint64_t now = sg_now(), end;
	struct sg_mpi_partner p[2];
	int n = 0;

	if (!sg_mpi_publishing(t, SG_MPI_RECV) || now - t0 < sg_mpi_min_wait)
		return now;
	if (from >= 0 && wait >= sg_mpi_min_wait)
		p[n++] = (struct sg_mpi_partner){ sg_mpi_to(comm, from), 1 };
	if (dest >= 0 && now - t0 - wait >= sg_mpi_min_wait)
		p[n++] = (struct sg_mpi_partner){ sg_mpi_to(comm, dest), 0 };
	end = sg_mpi_partners_waited(t, p, n, now, now - t0);
	return (int64_t)(end - now) > 0 ? end : now;
}

SG_MPI_API int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
			MPI_Status *status)
{
	struct sg_thread *t = sg_mpi_measuring();
	struct sg_mpi_ring *r;
	uint64_t t0, wait;
	int ret, from;

	if (!t)
		return PMPI_Recv(buf, count, type, source, tag, comm, status);
	t0 = sg_now();
	if ((r = sg_mpi_publishing(t, SG_MPI_RECV)))
		t0 = sg_mpi_arrive(r, t, t0, 1, SG_MPI_ROUTE_RECV_FROM(comm, source));
	sg_mpi_inside = 1;
	ret = recv_split(buf, count, type, source, tag, comm, status, t0, &wait, &from);
	sg_mpi_inside = 0;
	sg_mpi_account(t, SG_MPI_RECV, waited(t, comm, from, -1, t0, wait) - t0, wait,
		       sg_x_recv(count, type, source));
	return ret;
}

/* As MPI_Sendrecv is defined: the send started, the receive, then the send completed. */
SG_MPI_API int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
			    void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
			    MPI_Comm comm, MPI_Status *status)
{
	struct sg_thread *t = sg_mpi_measuring();
	struct sg_mpi_ring *r;
	MPI_Request req;
	uint64_t t0, wait = 0;
	int ret, from = -1;

	if (!t)
		return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source,
				     rtag, comm, status);
	t0 = sg_now();
	if ((r = sg_mpi_publishing(t, SG_MPI_SENDRECV)))
		t0 = sg_mpi_arrive(r, t, t0, 1, SG_MPI_ROUTE_SENDRECV(comm, dest, source));
	sg_mpi_inside = 1;
	ret = PMPI_Isend(sbuf, scount, stype, dest, stag, comm, &req);
	if (ret == MPI_SUCCESS) {
		ret = recv_split(rbuf, rcount, rtype, source, rtag, comm, status, t0, &wait,
				 &from);
		int sent = PMPI_Wait(&req, MPI_STATUS_IGNORE);
		if (ret == MPI_SUCCESS)
			ret = sent;
	}
	sg_mpi_inside = 0;
	sg_mpi_account(t, SG_MPI_SENDRECV, waited(t, comm, from, dest, t0, wait) - t0, wait,
		       sg_x_sendrecv(scount, stype, dest, rcount, rtype, source));
	return ret;
}

/* ---- non-blocking receives and their completion: whom MPI_Wait and MPI_Waitall wait for ---- */

#define MAX_PARTNERS 16 /* partners of one MPI_Waitall told apart */

/* Whether t is the rank's MPI thread while its arrivals are shared. */
static int sharing(const struct sg_thread *t)
{
	return t && t == sg_mpi_ring_owner && __atomic_load_n(&sg_mpi_ring_own, __ATOMIC_RELAXED);
}

/* A receive posted: a sender that waits for it to be posted (past the eager limit) may read its
 * arrival, and the wait for its request knows whom for. */
SG_MPI_API int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
			 MPI_Comm comm, MPI_Request *req)
{
	struct sg_thread *t = sg_mpi_measuring();
	uint64_t t0;
	int ret;

	if (!t)
		return PMPI_Irecv(buf, count, type, source, tag, comm, req);
	t0 = sg_now();
	if (sharing(t))
		t0 = sg_mpi_arrive(sg_mpi_ring_own, t, t0, 0, SG_MPI_ROUTE_RECV_FROM(comm, source));
	sg_mpi_inside = 1;
	ret = PMPI_Irecv(buf, count, type, source, tag, comm, req);
	sg_mpi_inside = 0;
	sg_mpi_account(t, SG_MPI_IRECV, sg_now() - t0, 0, sg_x_recv(count, type, source));
	if (ret == MPI_SUCCESS && sharing(t))
		sg_mpi_posted(*req, source == MPI_PROC_NULL ? SG_MPI_TO_NONE
					      : sg_mpi_from(comm, source));
	return ret;
}

/* An Isend's request, which may reuse the handle of a receive a test completed: no receive. */
struct sg_xfer sg_x_isend(int count, MPI_Datatype type, int dest, const MPI_Request *req)
{
	if (sharing(sg_self))
		sg_mpi_posted(*req, SG_MPI_TO_NONE);
	return sg_x_send(count, type, dest);
}

/* The wait for requests 'reqs' (n), which the receives among them say whom for: t arrives, CALL
 * runs, its wait (all of it) is settled against those partners. */
#define SG_MPI_WAIT_FOR(REQS, N, CALL) \
	do { \
		struct sg_thread *t_ = sg_mpi_measuring(); \
		struct sg_mpi_ring *r_ = t_ ? sg_mpi_publishing(t_, SG_MPI_WAIT) : NULL; \
		struct sg_mpi_partner p_[MAX_PARTNERS]; \
		int n_ = 0; \
		uint64_t t0_, t1_; \
		if (!t_) { \
			CALL; \
			break; \
		} \
		if (r_) \
			n_ = sg_mpi_posted_take((REQS), (N), p_, MAX_PARTNERS); \
		t0_ = sg_now(); \
		if (r_) \
			t0_ = sg_mpi_arrive(r_, t_, t0_, 1, SG_MPI_ROUTE_NONE); \
		sg_mpi_inside = 1; \
		CALL; \
		t1_ = sg_now(); \
		sg_mpi_inside = 0; \
		if (r_ && t1_ - t0_ >= sg_mpi_min_wait) \
			t1_ = sg_mpi_partners_waited(t_, p_, n_, t1_, t1_ - t0_); \
		sg_mpi_account(t_, SG_MPI_WAIT, t1_ - t0_, t1_ - t0_, SG_XFER_NONE); \
	} while (0)

SG_MPI_API int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	int ret;

	SG_MPI_WAIT_FOR(req, 1, ret = PMPI_Wait(req, status));
	return ret;
}

SG_MPI_API int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status *statuses)
{
	int ret;

	SG_MPI_WAIT_FOR(reqs, n, ret = PMPI_Waitall(n, reqs, statuses));
	return ret;
}
