/* MPI capture through the PMPI profiling interface: the list of wrapped C calls, one wrapper shape,
 * init/finalize/Pcontrol. */
#include "mpi-wrap.h"

#include <stdlib.h>
#include <strings.h>

int sg_mpi_paused;
int sg_mpi_exact;
__thread int sg_mpi_inside __attribute__((tls_model("initial-exec")));

__attribute__((constructor)) static void mpi_library(void)
{
	sg_mpi_library = 1;
	sg_reduce_hook = sg_mpi_reduce;
}

void sg_mpi_started(void)
{
	const char *wait = getenv("SCALEGATE_MPI_WAIT");

	if (!sg_on)
		return;
	PMPI_Comm_rank(MPI_COMM_WORLD, &sg_rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &sg_ranks);
	sg_mpi_mode = "pmpi";
	/* Set before the program can start a second thread calling MPI: read-only from here on. */
	if (wait && !strcasecmp(wait, "exact")) {
		sg_mpi_exact = 1;
		sg_mpi_wait_measured = 1;
	}
	sg_mpi_node_start();
}

void sg_mpi_finalizing(void)
{
	sg_write_profile_for(SG_WRITE_FINALIZE);
	sg_mpi_node_stop();
}

void sg_mpi_pcontrol(int level)
{
	__atomic_store_n(&sg_mpi_paused, level == 0, __ATOMIC_RELAXED);
}

uint64_t sg_mpi_sync(MPI_Comm comm, uint64_t t0)
{
	PMPI_Barrier(comm);
	return sg_now() - t0;
}

SG_MPI_API int MPI_Init(int *argc, char ***argv)
{
	int ret = PMPI_Init(argc, argv);

	if (ret == MPI_SUCCESS)
		sg_mpi_started();
	return ret;
}

SG_MPI_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int ret = PMPI_Init_thread(argc, argv, required, provided);

	if (ret == MPI_SUCCESS)
		sg_mpi_started();
	return ret;
}

/* Each rank writes its profile while MPI still works; the write at exit is then a no-op. */
SG_MPI_API int MPI_Finalize(void)
{
	sg_mpi_finalizing();
	return PMPI_Finalize();
}

/* 0 pauses the MPI accounting of the whole process, any other level resumes it. */
SG_MPI_API int MPI_Pcontrol(const int level, ...)
{
	sg_mpi_pcontrol(level);
	return PMPI_Pcontrol(level);
}

#define IP(buf) ((buf) == MPI_IN_PLACE)
#define NOCOMM MPI_COMM_NULL
#define NOX SG_XFER_NONE

/*
 * Every wrapped C call, once: X(Name, KIND, (parameters), (arguments),
 * communicator of the timed barrier in exact mode (blocking collectives) or
 * NOCOMM, payload bytes). Kinds: tracer/mpi-kinds.h; bytes: tracer/mpi-bytes.c. MPI_Recv and
 * MPI_Sendrecv, whose waiting is measured apart, and MPI_Irecv, MPI_Wait and MPI_Waitall, which
 * note whom a wait is for, are in tracer/mpi-wait.c.
 */
#define SG_MPI_C_CALLS(X) \
	/* point-to-point, blocking */ \
	X(Send, SEND, \
	  (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm), \
	  (buf, count, type, dest, tag, comm), NOCOMM, sg_x_send(count, type, dest)) \
	X(Ssend, SEND, \
	  (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm), \
	  (buf, count, type, dest, tag, comm), NOCOMM, sg_x_send(count, type, dest)) \
	X(Bsend, SEND, \
	  (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm), \
	  (buf, count, type, dest, tag, comm), NOCOMM, sg_x_send(count, type, dest)) \
	X(Rsend, SEND, \
	  (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm), \
	  (buf, count, type, dest, tag, comm), NOCOMM, sg_x_send(count, type, dest)) \
	X(Mrecv, RECV, \
	  (void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status), \
	  (buf, count, type, message, status), NOCOMM, sg_x_recv(count, type, MPI_ANY_SOURCE)) \
	X(Sendrecv_replace, SENDRECV, \
	  (void *buf, int count, MPI_Datatype type, int dest, int stag, int source, int rtag, \
	   MPI_Comm comm, MPI_Status *status), \
	  (buf, count, type, dest, stag, source, rtag, comm, status), NOCOMM, \
	  sg_x_sendrecv(count, type, dest, count, type, source)) \
	/* point-to-point, non-blocking: bytes when posted, the completion is a wait/test */ \
	X(Isend, ISEND, \
	  (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
	   MPI_Request *req), \
	  (buf, count, type, dest, tag, comm, req), NOCOMM, sg_x_isend(count, type, dest, req)) \
	X(Issend, ISEND, \
	  (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
	   MPI_Request *req), \
	  (buf, count, type, dest, tag, comm, req), NOCOMM, sg_x_isend(count, type, dest, req)) \
	X(Ibsend, ISEND, \
	  (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
	   MPI_Request *req), \
	  (buf, count, type, dest, tag, comm, req), NOCOMM, sg_x_isend(count, type, dest, req)) \
	X(Irsend, ISEND, \
	  (const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
	   MPI_Request *req), \
	  (buf, count, type, dest, tag, comm, req), NOCOMM, sg_x_isend(count, type, dest, req)) \
	X(Imrecv, IRECV, \
	  (void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Request *req), \
	  (buf, count, type, message, req), NOCOMM, sg_x_recv(count, type, MPI_ANY_SOURCE)) \
	X(Probe, PROBE, (int source, int tag, MPI_Comm comm, MPI_Status *status), \
	  (source, tag, comm, status), NOCOMM, NOX) \
	X(Iprobe, PROBE, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status), \
	  (source, tag, comm, flag, status), NOCOMM, NOX) \
	X(Mprobe, PROBE, \
	  (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status), \
	  (source, tag, comm, message, status), NOCOMM, NOX) \
	X(Improbe, PROBE, \
	  (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, \
	   MPI_Status *status), \
	  (source, tag, comm, flag, message, status), NOCOMM, NOX) \
	/* completion */ \
	X(Waitany, WAIT, (int n, MPI_Request reqs[], int *index, MPI_Status *status), \
	  (n, reqs, index, status), NOCOMM, NOX) \
	X(Waitsome, WAIT, \
	  (int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]), \
	  (n, reqs, outcount, indices, statuses), NOCOMM, NOX) \
	X(Test, TEST, (MPI_Request * req, int *flag, MPI_Status *status), (req, flag, status), \
	  NOCOMM, NOX) \
	X(Testall, TEST, (int n, MPI_Request reqs[], int *flag, MPI_Status statuses[]), \
	  (n, reqs, flag, statuses), NOCOMM, NOX) \
	X(Testany, TEST, (int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status), \
	  (n, reqs, index, flag, status), NOCOMM, NOX) \
	X(Testsome, TEST, \
	  (int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]), \
	  (n, reqs, outcount, indices, statuses), NOCOMM, NOX) \
	/* blocking collectives */ \
	X(Barrier, BARRIER, (MPI_Comm comm), (comm), comm, NOX) \
	X(Bcast, BCAST, (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm), \
	  (buf, count, type, root, comm), comm, sg_x_bcast(count, type, root, comm)) \
	X(Reduce, REDUCE, \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root, \
	   MPI_Comm comm), \
	  (sbuf, rbuf, count, type, op, root, comm), comm, sg_x_reduce(count, type, root, comm)) \
	X(Allreduce, ALLREDUCE, \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm), \
	  (sbuf, rbuf, count, type, op, comm), comm, sg_x_allreduce(count, type)) \
	X(Gather, GATHER, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, int root, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm), comm, \
	  sg_x_gather(IP(sbuf), scount, stype, rcount, rtype, root, comm)) \
	X(Gatherv, GATHER, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[], \
	   const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm), comm, \
	  sg_x_gatherv(IP(sbuf), scount, stype, rcounts, rtype, root, comm)) \
	X(Allgather, ALLGATHER, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm), comm, \
	  sg_x_allgather(IP(sbuf), scount, stype, rcount, rtype, comm)) \
	X(Allgatherv, ALLGATHER, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[], \
	   const int displs[], MPI_Datatype rtype, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm), comm, \
	  sg_x_allgatherv(IP(sbuf), scount, stype, rcounts, rtype, comm)) \
	X(Scatter, SCATTER, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, int root, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm), comm, \
	  sg_x_scatter(IP(rbuf), scount, stype, rcount, rtype, root, comm)) \
	X(Scatterv, SCATTER, \
	  (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype, \
	   void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm), \
	  (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm), comm, \
	  sg_x_scatterv(IP(rbuf), scounts, stype, rcount, rtype, root, comm)) \
	X(Alltoall, ALLTOALL, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm), comm, \
	  sg_x_alltoall(IP(sbuf), scount, stype, rcount, rtype, comm)) \
	X(Alltoallv, ALLTOALL, \
	  (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, \
	   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, \
	   MPI_Comm comm), \
	  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm), comm, \
	  sg_x_alltoallv(IP(sbuf), scounts, stype, rcounts, rtype, comm)) \
	X(Alltoallw, ALLTOALL, \
	  (const void *sbuf, const int scounts[], const int sdispls[], \
	   const MPI_Datatype stypes[], void *rbuf, const int rcounts[], const int rdispls[], \
	   const MPI_Datatype rtypes[], MPI_Comm comm), \
	  (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm), comm, \
	  sg_x_alltoallw(IP(sbuf), scounts, stypes, rcounts, rtypes, comm)) \
	X(Reduce_scatter, REDUCE_SCATTER, \
	  (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op, \
	   MPI_Comm comm), \
	  (sbuf, rbuf, rcounts, type, op, comm), comm, sg_x_reduce_scatter(rcounts, type, comm)) \
	X(Reduce_scatter_block, REDUCE_SCATTER, \
	  (const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm), \
	  (sbuf, rbuf, rcount, type, op, comm), comm, \
	  sg_x_reduce_scatter_block(rcount, type, comm)) \
	X(Scan, SCAN, \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm), \
	  (sbuf, rbuf, count, type, op, comm), comm, sg_x_allreduce(count, type)) \
	X(Exscan, SCAN, \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm), \
	  (sbuf, rbuf, count, type, op, comm), comm, sg_x_allreduce(count, type)) \
	X(Neighbor_allgather, ALLGATHER, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm), comm, \
	  sg_x_neighbor(scount, stype, rcount, rtype, comm)) \
	X(Neighbor_allgatherv, ALLGATHER, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[], \
	   const int displs[], MPI_Datatype rtype, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm), comm, \
	  sg_x_neighbor_allgatherv(scount, stype, rcounts, rtype, comm)) \
	X(Neighbor_alltoall, ALLTOALL, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, MPI_Comm comm), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm), comm, \
	  sg_x_neighbor(scount, stype, rcount, rtype, comm)) \
	X(Neighbor_alltoallv, ALLTOALL, \
	  (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, \
	   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, \
	   MPI_Comm comm), \
	  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm), comm, \
	  sg_x_neighbor_alltoallv(scounts, stype, rcounts, rtype, comm)) \
	X(Neighbor_alltoallw, ALLTOALL, \
	  (const void *sbuf, const int scounts[], const MPI_Aint sdispls[], \
	   const MPI_Datatype stypes[], void *rbuf, const int rcounts[], const MPI_Aint rdispls[], \
	   const MPI_Datatype rtypes[], MPI_Comm comm), \
	  (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm), comm, \
	  sg_x_neighbor_alltoallw(scounts, stypes, rcounts, rtypes, comm)) \
	/* non-blocking collectives: starting one; bytes as for the blocking call */ \
	X(Ibarrier, ICOLLECTIVE, (MPI_Comm comm, MPI_Request * req), (comm, req), NOCOMM, NOX) \
	X(Ibcast, ICOLLECTIVE, \
	  (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *req), \
	  (buf, count, type, root, comm, req), NOCOMM, sg_x_bcast(count, type, root, comm)) \
	X(Ireduce, ICOLLECTIVE, \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root, \
	   MPI_Comm comm, MPI_Request *req), \
	  (sbuf, rbuf, count, type, op, root, comm, req), NOCOMM, \
	  sg_x_reduce(count, type, root, comm)) \
	X(Iallreduce, ICOLLECTIVE, \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, \
	   MPI_Request *req), \
	  (sbuf, rbuf, count, type, op, comm, req), NOCOMM, sg_x_allreduce(count, type)) \
	X(Igather, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req), NOCOMM, \
	  sg_x_gather(IP(sbuf), scount, stype, rcount, rtype, root, comm)) \
	X(Igatherv, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[], \
	   const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req), NOCOMM, \
	  sg_x_gatherv(IP(sbuf), scount, stype, rcounts, rtype, root, comm)) \
	X(Iallgather, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, req), NOCOMM, \
	  sg_x_allgather(IP(sbuf), scount, stype, rcount, rtype, comm)) \
	X(Iallgatherv, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[], \
	   const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req), NOCOMM, \
	  sg_x_allgatherv(IP(sbuf), scount, stype, rcounts, rtype, comm)) \
	X(Iscatter, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req), NOCOMM, \
	  sg_x_scatter(IP(rbuf), scount, stype, rcount, rtype, root, comm)) \
	X(Iscatterv, ICOLLECTIVE, \
	  (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype, \
	   void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req), NOCOMM, \
	  sg_x_scatterv(IP(rbuf), scounts, stype, rcount, rtype, root, comm)) \
	X(Ialltoall, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, req), NOCOMM, \
	  sg_x_alltoall(IP(sbuf), scount, stype, rcount, rtype, comm)) \
	X(Ialltoallv, ICOLLECTIVE, \
	  (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, \
	   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, \
	   MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req), NOCOMM, \
	  sg_x_alltoallv(IP(sbuf), scounts, stype, rcounts, rtype, comm)) \
	X(Ialltoallw, ICOLLECTIVE, \
	  (const void *sbuf, const int scounts[], const int sdispls[], \
	   const MPI_Datatype stypes[], void *rbuf, const int rcounts[], const int rdispls[], \
	   const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req), NOCOMM, \
	  sg_x_alltoallw(IP(sbuf), scounts, stypes, rcounts, rtypes, comm)) \
	X(Ireduce_scatter, ICOLLECTIVE, \
	  (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op, \
	   MPI_Comm comm, MPI_Request *req), \
	  (sbuf, rbuf, rcounts, type, op, comm, req), NOCOMM, \
	  sg_x_reduce_scatter(rcounts, type, comm)) \
	X(Ireduce_scatter_block, ICOLLECTIVE, \
	  (const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm, \
	   MPI_Request *req), \
	  (sbuf, rbuf, rcount, type, op, comm, req), NOCOMM, \
	  sg_x_reduce_scatter_block(rcount, type, comm)) \
	X(Iscan, ICOLLECTIVE, \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, \
	   MPI_Request *req), \
	  (sbuf, rbuf, count, type, op, comm, req), NOCOMM, sg_x_allreduce(count, type)) \
	X(Iexscan, ICOLLECTIVE, \
	  (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, \
	   MPI_Request *req), \
	  (sbuf, rbuf, count, type, op, comm, req), NOCOMM, sg_x_allreduce(count, type)) \
	X(Ineighbor_allgather, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, req), NOCOMM, \
	  sg_x_neighbor(scount, stype, rcount, rtype, comm)) \
	X(Ineighbor_allgatherv, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[], \
	   const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req), NOCOMM, \
	  sg_x_neighbor_allgatherv(scount, stype, rcounts, rtype, comm)) \
	X(Ineighbor_alltoall, ICOLLECTIVE, \
	  (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, req), NOCOMM, \
	  sg_x_neighbor(scount, stype, rcount, rtype, comm)) \
	X(Ineighbor_alltoallv, ICOLLECTIVE, \
	  (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, \
	   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, \
	   MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req), NOCOMM, \
	  sg_x_neighbor_alltoallv(scounts, stype, rcounts, rtype, comm)) \
	X(Ineighbor_alltoallw, ICOLLECTIVE, \
	  (const void *sbuf, const int scounts[], const MPI_Aint sdispls[], \
	   const MPI_Datatype stypes[], void *rbuf, const int rcounts[], const MPI_Aint rdispls[], \
	   const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Request *req), \
	  (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req), NOCOMM, \
	  sg_x_neighbor_alltoallw(scounts, stypes, rcounts, rtypes, comm)) \
	/* MPI-IO: written bytes count as sent, read bytes as received */ \
	X(File_open, IO, \
	  (MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh), \
	  (comm, name, amode, info, fh), NOCOMM, NOX) \
	X(File_close, IO, (MPI_File * fh), (fh), NOCOMM, NOX) \
	X(File_sync, IO, (MPI_File fh), (fh), NOCOMM, NOX) \
	X(File_set_view, IO, \
	  (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype ftype, const char *rep, \
	   MPI_Info info), \
	  (fh, disp, etype, ftype, rep, info), NOCOMM, NOX) \
	SG_MPI_IO_CALLS(X, read, void, sg_x_read) \
	SG_MPI_IO_CALLS(X, write, const void, sg_x_write)

/* The read and write families have the same shapes: 'dir' is read or write. */
#define SG_MPI_IO_CALLS(X, dir, buf_t, xfer) \
	X(File_##dir, IO, \
	  (MPI_File fh, buf_t * buf, int count, MPI_Datatype type, MPI_Status *status), \
	  (fh, buf, count, type, status), NOCOMM, xfer(count, type)) \
	X(File_##dir##_all, IO, \
	  (MPI_File fh, buf_t * buf, int count, MPI_Datatype type, MPI_Status *status), \
	  (fh, buf, count, type, status), NOCOMM, xfer(count, type)) \
	X(File_##dir##_at, IO, \
	  (MPI_File fh, MPI_Offset off, buf_t * buf, int count, MPI_Datatype type, \
	   MPI_Status *status), \
	  (fh, off, buf, count, type, status), NOCOMM, xfer(count, type)) \
	X(File_##dir##_at_all, IO, \
	  (MPI_File fh, MPI_Offset off, buf_t * buf, int count, MPI_Datatype type, \
	   MPI_Status *status), \
	  (fh, off, buf, count, type, status), NOCOMM, xfer(count, type)) \
	X(File_##dir##_shared, IO, \
	  (MPI_File fh, buf_t * buf, int count, MPI_Datatype type, MPI_Status *status), \
	  (fh, buf, count, type, status), NOCOMM, xfer(count, type)) \
	X(File_##dir##_ordered, IO, \
	  (MPI_File fh, buf_t * buf, int count, MPI_Datatype type, MPI_Status *status), \
	  (fh, buf, count, type, status), NOCOMM, xfer(count, type)) \
	X(File_i##dir, IO, \
	  (MPI_File fh, buf_t * buf, int count, MPI_Datatype type, MPI_Request *req), \
	  (fh, buf, count, type, req), NOCOMM, xfer(count, type)) \
	X(File_i##dir##_all, IO, \
	  (MPI_File fh, buf_t * buf, int count, MPI_Datatype type, MPI_Request *req), \
	  (fh, buf, count, type, req), NOCOMM, xfer(count, type)) \
	X(File_i##dir##_at, IO, \
	  (MPI_File fh, MPI_Offset off, buf_t * buf, int count, MPI_Datatype type, \
	   MPI_Request *req), \
	  (fh, off, buf, count, type, req), NOCOMM, xfer(count, type)) \
	X(File_i##dir##_at_all, IO, \
	  (MPI_File fh, MPI_Offset off, buf_t * buf, int count, MPI_Datatype type, \
	   MPI_Request *req), \
	  (fh, off, buf, count, type, req), NOCOMM, xfer(count, type)) \
	X(File_i##dir##_shared, IO, \
	  (MPI_File fh, buf_t * buf, int count, MPI_Datatype type, MPI_Request *req), \
	  (fh, buf, count, type, req), NOCOMM, xfer(count, type)) \
	X(File_##dir##_all_begin, IO, (MPI_File fh, buf_t * buf, int count, MPI_Datatype type), \
	  (fh, buf, count, type), NOCOMM, xfer(count, type)) \
	X(File_##dir##_all_end, IO, (MPI_File fh, buf_t * buf, MPI_Status * status), \
	  (fh, buf, status), NOCOMM, NOX) \
	X(File_##dir##_at_all_begin, IO, \
	  (MPI_File fh, MPI_Offset off, buf_t * buf, int count, MPI_Datatype type), \
	  (fh, off, buf, count, type), NOCOMM, xfer(count, type)) \
	X(File_##dir##_at_all_end, IO, (MPI_File fh, buf_t * buf, MPI_Status * status), \
	  (fh, buf, status), NOCOMM, NOX) \
	X(File_##dir##_ordered_begin, IO, \
	  (MPI_File fh, buf_t * buf, int count, MPI_Datatype type), (fh, buf, count, type), \
	  NOCOMM, xfer(count, type)) \
	X(File_##dir##_ordered_end, IO, (MPI_File fh, buf_t * buf, MPI_Status * status), \
	  (fh, buf, status), NOCOMM, NOX)

#define SG_MPI_C_WRAPPER(Name, KIND, PARAMS, ARGS, COMM, XFER) \
	SG_MPI_API int MPI_##Name PARAMS \
	{ \
		int ret_; \
		SG_MPI_SHAPE(KIND, ret_ = PMPI_##Name ARGS, COMM, XFER, \
			     SG_MPI_ROUTE_##KIND(comm, dest, source)); \
		return ret_; \
	}

SG_MPI_C_CALLS(SG_MPI_C_WRAPPER)
