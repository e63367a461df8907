/*
 * MPI capture for Fortran programs: Open MPI's Fortran library calls PMPI_*
 * directly, so the C wrappers never see a Fortran call. These wrappers take
 * the Fortran entry points (mpi_send_ and its other manglings) and call
 * through to the MPI library's own Fortran PMPI entry (pmpi_send_), which
 * converts every argument (MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE,
 * LOGICAL, request arrays, index + 1) exactly as the library does. Handles are
 * converted (MPI_*_f2c) only to count bytes and, in exact mode, to time the
 * barrier. The mpi_f08 module of Open MPI reaches the same code through
 * ompi_<name>_f, which is wrapped too.
 */
#include "mpi-wrap.h"

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "count arrays are read as int");

/* Open MPI's Fortran MPI_IN_PLACE is the address of this common block; absent elsewhere (then never
 * equal). */
extern int mpi_fortran_in_place_ __attribute__((weak));

#define FT(h) PMPI_Type_f2c(*(h))
#define FC(h) PMPI_Comm_f2c(*(h))
#define FIP(buf) ((void *)(buf) == (void *)&mpi_fortran_in_place_)
#define FI(p) ((const int *)(p))
#define NOCOMM MPI_COMM_NULL
#define NOX SG_XFER_NONE

/*
 * The Fortran PMPI entry points of the MPI Fortran library. Strong references:
 * libscalegate-mpi.so is linked with that library, and from the static library
 * this file is pulled into Fortran programs only, which link it anyway (and
 * under --as-needed it must stay: a program may call wrapped functions only).
 */
#define SG_MPI_F_PMPI(name, params) extern void pmpi_##name##_ params;

/* The other manglings: g77-style double underscore, none (xlf), upper case, Open MPI's mpi_f08
 * path. */
#define SG_MPI_F_ALIASES(name, NAME, params) \
	SG_MPI_API void mpi_##name##__ params __attribute__((alias("mpi_" #name "_"))); \
	SG_MPI_API void mpi_##name params __attribute__((alias("mpi_" #name "_"))); \
	SG_MPI_API void MPI_##NAME params __attribute__((alias("mpi_" #name "_"))); \
	SG_MPI_API void ompi_##name##_f params __attribute__((alias("mpi_" #name "_")));

#define F MPI_Fint *

/*
 * Every wrapped Fortran call, once: X(name, NAME, KIND, (parameters),
 * (arguments), communicator of the exact-mode barrier or NOCOMM, bytes).
 * Every argument is passed by reference; ierr is last.
 */
#define SG_MPI_F_CALLS(X) \
	X(send, SEND, SEND, (void *buf, F count, F type, F dest, F tag, F comm, F ierr), \
	  (buf, count, type, dest, tag, comm, ierr), NOCOMM, sg_x_send(*count, FT(type), *dest)) \
	X(ssend, SSEND, SEND, (void *buf, F count, F type, F dest, F tag, F comm, F ierr), \
	  (buf, count, type, dest, tag, comm, ierr), NOCOMM, sg_x_send(*count, FT(type), *dest)) \
	X(bsend, BSEND, SEND, (void *buf, F count, F type, F dest, F tag, F comm, F ierr), \
	  (buf, count, type, dest, tag, comm, ierr), NOCOMM, sg_x_send(*count, FT(type), *dest)) \
	X(rsend, RSEND, SEND, (void *buf, F count, F type, F dest, F tag, F comm, F ierr), \
	  (buf, count, type, dest, tag, comm, ierr), NOCOMM, sg_x_send(*count, FT(type), *dest)) \
	X(recv, RECV, RECV, \
	  (void *buf, F count, F type, F source, F tag, F comm, F status, F ierr), \
	  (buf, count, type, source, tag, comm, status, ierr), NOCOMM, \
	  sg_x_recv(*count, FT(type), *source)) \
	X(sendrecv, SENDRECV, SENDRECV, \
	  (void *sbuf, F scount, F stype, F dest, F stag, void *rbuf, F rcount, F rtype, F source, \
	   F rtag, F comm, F status, F ierr), \
	  (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status, \
	   ierr), \
	  NOCOMM, sg_x_sendrecv(*scount, FT(stype), *dest, *rcount, FT(rtype), *source)) \
	X(sendrecv_replace, SENDRECV_REPLACE, SENDRECV, \
	  (void *buf, F count, F type, F dest, F stag, F source, F rtag, F comm, F status, \
	   F ierr), \
	  (buf, count, type, dest, stag, source, rtag, comm, status, ierr), NOCOMM, \
	  sg_x_sendrecv(*count, FT(type), *dest, *count, FT(type), *source)) \
	X(isend, ISEND, ISEND, (void *buf, F count, F type, F dest, F tag, F comm, F req, F ierr), \
	  (buf, count, type, dest, tag, comm, req, ierr), NOCOMM, \
	  sg_x_send(*count, FT(type), *dest)) \
	X(issend, ISSEND, ISEND, \
	  (void *buf, F count, F type, F dest, F tag, F comm, F req, F ierr), \
	  (buf, count, type, dest, tag, comm, req, ierr), NOCOMM, \
	  sg_x_send(*count, FT(type), *dest)) \
	X(ibsend, IBSEND, ISEND, \
	  (void *buf, F count, F type, F dest, F tag, F comm, F req, F ierr), \
	  (buf, count, type, dest, tag, comm, req, ierr), NOCOMM, \
	  sg_x_send(*count, FT(type), *dest)) \
	X(irsend, IRSEND, ISEND, \
	  (void *buf, F count, F type, F dest, F tag, F comm, F req, F ierr), \
	  (buf, count, type, dest, tag, comm, req, ierr), NOCOMM, \
	  sg_x_send(*count, FT(type), *dest)) \
	X(irecv, IRECV, IRECV, \
	  (void *buf, F count, F type, F source, F tag, F comm, F req, F ierr), \
	  (buf, count, type, source, tag, comm, req, ierr), NOCOMM, \
	  sg_x_recv(*count, FT(type), *source)) \
	X(probe, PROBE, PROBE, (F source, F tag, F comm, F status, F ierr), \
	  (source, tag, comm, status, ierr), NOCOMM, NOX) \
	X(iprobe, IPROBE, PROBE, (F source, F tag, F comm, F flag, F status, F ierr), \
	  (source, tag, comm, flag, status, ierr), NOCOMM, NOX) \
	X(wait, WAIT, WAIT, (F req, F status, F ierr), (req, status, ierr), NOCOMM, NOX) \
	X(waitall, WAITALL, WAIT, (F n, F reqs, F statuses, F ierr), (n, reqs, statuses, ierr), \
	  NOCOMM, NOX) \
	X(waitany, WAITANY, WAIT, (F n, F reqs, F index, F status, F ierr), \
	  (n, reqs, index, status, ierr), NOCOMM, NOX) \
	X(waitsome, WAITSOME, WAIT, (F n, F reqs, F outcount, F indices, F statuses, F ierr), \
	  (n, reqs, outcount, indices, statuses, ierr), NOCOMM, NOX) \
	X(test, TEST, TEST, (F req, F flag, F status, F ierr), (req, flag, status, ierr), NOCOMM, \
	  NOX) \
	X(testall, TESTALL, TEST, (F n, F reqs, F flag, F statuses, F ierr), \
	  (n, reqs, flag, statuses, ierr), NOCOMM, NOX) \
	X(testany, TESTANY, TEST, (F n, F reqs, F index, F flag, F status, F ierr), \
	  (n, reqs, index, flag, status, ierr), NOCOMM, NOX) \
	X(testsome, TESTSOME, TEST, (F n, F reqs, F outcount, F indices, F statuses, F ierr), \
	  (n, reqs, outcount, indices, statuses, ierr), NOCOMM, NOX) \
	X(barrier, BARRIER, BARRIER, (F comm, F ierr), (comm, ierr), FC(comm), NOX) \
	X(bcast, BCAST, BCAST, (void *buf, F count, F type, F root, F comm, F ierr), \
	  (buf, count, type, root, comm, ierr), FC(comm), \
	  sg_x_bcast(*count, FT(type), *root, FC(comm))) \
	X(reduce, REDUCE, REDUCE, \
	  (void *sbuf, void *rbuf, F count, F type, F op, F root, F comm, F ierr), \
	  (sbuf, rbuf, count, type, op, root, comm, ierr), FC(comm), \
	  sg_x_reduce(*count, FT(type), *root, FC(comm))) \
	X(allreduce, ALLREDUCE, ALLREDUCE, \
	  (void *sbuf, void *rbuf, F count, F type, F op, F comm, F ierr), \
	  (sbuf, rbuf, count, type, op, comm, ierr), FC(comm), sg_x_allreduce(*count, FT(type))) \
	X(gather, GATHER, GATHER, \
	  (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F root, F comm, F ierr), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr), FC(comm), \
	  sg_x_gather(FIP(sbuf), *scount, FT(stype), *rcount, FT(rtype), *root, FC(comm))) \
	X(gatherv, GATHERV, GATHER, \
	  (void *sbuf, F scount, F stype, void *rbuf, F rcounts, F displs, F rtype, F root, \
	   F comm, F ierr), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, ierr), FC(comm), \
	  sg_x_gatherv(FIP(sbuf), *scount, FT(stype), FI(rcounts), FT(rtype), *root, FC(comm))) \
	X(allgather, ALLGATHER, ALLGATHER, \
	  (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F comm, F ierr), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr), FC(comm), \
	  sg_x_allgather(FIP(sbuf), *scount, FT(stype), *rcount, FT(rtype), FC(comm))) \
	X(allgatherv, ALLGATHERV, ALLGATHER, \
	  (void *sbuf, F scount, F stype, void *rbuf, F rcounts, F displs, F rtype, F comm, \
	   F ierr), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, ierr), FC(comm), \
	  sg_x_allgatherv(FIP(sbuf), *scount, FT(stype), FI(rcounts), FT(rtype), FC(comm))) \
	X(scatter, SCATTER, SCATTER, \
	  (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F root, F comm, F ierr), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr), FC(comm), \
	  sg_x_scatter(FIP(rbuf), *scount, FT(stype), *rcount, FT(rtype), *root, FC(comm))) \
	X(scatterv, SCATTERV, SCATTER, \
	  (void *sbuf, F scounts, F displs, F stype, void *rbuf, F rcount, F rtype, F root, \
	   F comm, F ierr), \
	  (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, ierr), FC(comm), \
	  sg_x_scatterv(FIP(rbuf), FI(scounts), FT(stype), *rcount, FT(rtype), *root, FC(comm))) \
	X(alltoall, ALLTOALL, ALLTOALL, \
	  (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F comm, F ierr), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr), FC(comm), \
	  sg_x_alltoall(FIP(sbuf), *scount, FT(stype), *rcount, FT(rtype), FC(comm))) \
	X(alltoallv, ALLTOALLV, ALLTOALL, \
	  (void *sbuf, F scounts, F sdispls, F stype, void *rbuf, F rcounts, F rdispls, F rtype, \
	   F comm, F ierr), \
	  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, ierr), FC(comm), \
	  sg_x_alltoallv(FIP(sbuf), FI(scounts), FT(stype), FI(rcounts), FT(rtype), FC(comm))) \
	X(reduce_scatter, REDUCE_SCATTER, REDUCE_SCATTER, \
	  (void *sbuf, void *rbuf, F rcounts, F type, F op, F comm, F ierr), \
	  (sbuf, rbuf, rcounts, type, op, comm, ierr), FC(comm), \
	  sg_x_reduce_scatter(FI(rcounts), FT(type), FC(comm))) \
	X(reduce_scatter_block, REDUCE_SCATTER_BLOCK, REDUCE_SCATTER, \
	  (void *sbuf, void *rbuf, F rcount, F type, F op, F comm, F ierr), \
	  (sbuf, rbuf, rcount, type, op, comm, ierr), FC(comm), \
	  sg_x_reduce_scatter_block(*rcount, FT(type), FC(comm))) \
	X(scan, SCAN, SCAN, (void *sbuf, void *rbuf, F count, F type, F op, F comm, F ierr), \
	  (sbuf, rbuf, count, type, op, comm, ierr), FC(comm), sg_x_allreduce(*count, FT(type))) \
	X(exscan, EXSCAN, SCAN, (void *sbuf, void *rbuf, F count, F type, F op, F comm, F ierr), \
	  (sbuf, rbuf, count, type, op, comm, ierr), FC(comm), sg_x_allreduce(*count, FT(type))) \
	X(ibarrier, IBARRIER, ICOLLECTIVE, (F comm, F req, F ierr), (comm, req, ierr), NOCOMM, \
	  NOX) \
	X(ibcast, IBCAST, ICOLLECTIVE, \
	  (void *buf, F count, F type, F root, F comm, F req, F ierr), \
	  (buf, count, type, root, comm, req, ierr), NOCOMM, \
	  sg_x_bcast(*count, FT(type), *root, FC(comm))) \
	X(ireduce, IREDUCE, ICOLLECTIVE, \
	  (void *sbuf, void *rbuf, F count, F type, F op, F root, F comm, F req, F ierr), \
	  (sbuf, rbuf, count, type, op, root, comm, req, ierr), NOCOMM, \
	  sg_x_reduce(*count, FT(type), *root, FC(comm))) \
	X(iallreduce, IALLREDUCE, ICOLLECTIVE, \
	  (void *sbuf, void *rbuf, F count, F type, F op, F comm, F req, F ierr), \
	  (sbuf, rbuf, count, type, op, comm, req, ierr), NOCOMM, \
	  sg_x_allreduce(*count, FT(type))) \
	X(iallgather, IALLGATHER, ICOLLECTIVE, \
	  (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F comm, F req, F ierr), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, req, ierr), NOCOMM, \
	  sg_x_allgather(FIP(sbuf), *scount, FT(stype), *rcount, FT(rtype), FC(comm))) \
	X(ialltoall, IALLTOALL, ICOLLECTIVE, \
	  (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F comm, F req, F ierr), \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, req, ierr), NOCOMM, \
	  sg_x_alltoall(FIP(sbuf), *scount, FT(stype), *rcount, FT(rtype), FC(comm)))

#define SG_MPI_F_WRAPPER(name, NAME, KIND, PARAMS, ARGS, COMM, XFER) \
	SG_MPI_F_PMPI(name, PARAMS) \
	SG_MPI_API void mpi_##name##_ PARAMS \
	{ \
		SG_MPI_SHAPE(KIND, pmpi_##name##_ ARGS, COMM, XFER, \
			     SG_MPI_ROUTE_##KIND(FC(comm), *dest, *source)); \
	} \
	SG_MPI_F_ALIASES(name, NAME, PARAMS)

SG_MPI_F_CALLS(SG_MPI_F_WRAPPER)

/* ---- life: init, finalize, Pcontrol (the same as the C wrappers) ---- */

SG_MPI_F_PMPI(init, (F ierr))
SG_MPI_F_PMPI(init_thread, (F required, F provided, F ierr))
SG_MPI_F_PMPI(finalize, (F ierr))
SG_MPI_F_PMPI(pcontrol, (F level))

SG_MPI_API void mpi_init_(F ierr)
{
	pmpi_init_(ierr);
	if (*ierr == MPI_SUCCESS)
		sg_mpi_started();
}
SG_MPI_F_ALIASES(init, INIT, (F ierr))

SG_MPI_API void mpi_init_thread_(F required, F provided, F ierr)
{
	pmpi_init_thread_(required, provided, ierr);
	if (*ierr == MPI_SUCCESS)
		sg_mpi_started();
}
SG_MPI_F_ALIASES(init_thread, INIT_THREAD, (F required, F provided, F ierr))

SG_MPI_API void mpi_finalize_(F ierr)
{
	sg_mpi_finalizing();
	pmpi_finalize_(ierr);
}
SG_MPI_F_ALIASES(finalize, FINALIZE, (F ierr))

SG_MPI_API void mpi_pcontrol_(F level)
{
	sg_mpi_pcontrol(*level);
	pmpi_pcontrol_(level);
}
SG_MPI_F_ALIASES(pcontrol, PCONTROL, (F level))
