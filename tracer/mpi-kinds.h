/* The kinds of MPI operation the tracer accounts separately: one list for the wrappers, the writer
 * and the docs. */
#ifndef SG_MPI_KINDS_H
#define SG_MPI_KINDS_H

/* X(ID, "name in the profile", collective?) */
#define SG_MPI_KINDS(X) \
	X(SEND, "send", 0) \
	X(RECV, "recv", 0) \
	X(ISEND, "isend", 0) \
	X(IRECV, "irecv", 0) \
	X(SENDRECV, "sendrecv", 0) \
	X(PROBE, "probe", 0) \
	X(WAIT, "wait", 0) \
	X(TEST, "test", 0) \
	X(BARRIER, "barrier", 1) \
	X(BCAST, "bcast", 1) \
	X(REDUCE, "reduce", 1) \
	X(ALLREDUCE, "allreduce", 1) \
	X(GATHER, "gather", 1) \
	X(ALLGATHER, "allgather", 1) \
	X(SCATTER, "scatter", 1) \
	X(ALLTOALL, "alltoall", 1) \
	X(REDUCE_SCATTER, "reduce_scatter", 1) \
	X(SCAN, "scan", 1) \
	X(ICOLLECTIVE, "icollective", 0) \
	X(IO, "io", 0) \
	X(OTHER, "other", 0)

enum sg_mpi_kind {
#define X(id, name, coll) SG_MPI_##id,
	SG_MPI_KINDS(X)
#undef X
	SG_MPI_NKINDS
};

#endif
