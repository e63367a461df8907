/* Payload bytes of each wrapped MPI call on the calling rank: count x MPI_Type_size (tracer/MPI.md
 * has the table). */
#include "mpi-wrap.h"

/* Who this rank is in a rooted collective. */
enum { ROLE_NONE = 0, ROLE_ROOT = 1, ROLE_MEMBER = 2 };

struct comm_info {
	int rank;
	/* the group data goes to and comes from: the remote group of an intercommunicator */
	int size;
	int inter;
};

uint64_t sg_mpi_bytes(MPI_Count count, MPI_Datatype type)
{
	MPI_Count size;

	if (count <= 0 || type == MPI_DATATYPE_NULL ||
	    PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

static struct comm_info comm_info(MPI_Comm comm)
{
	struct comm_info c = { 0, 1, 0 };

	PMPI_Comm_test_inter(comm, &c.inter);
	PMPI_Comm_rank(comm, &c.rank);
	if (c.inter)
		PMPI_Comm_remote_size(comm, &c.size);
	else
		PMPI_Comm_size(comm, &c.size);
	return c;
}

/* Intracommunicator: the root is also a member. Intercommunicator: MPI_ROOT, MPI_PROC_NULL or the
 * other group. */
static int role(int root, const struct comm_info *c)
{
	if (c->inter)
		return root == MPI_ROOT        ? ROLE_ROOT
		       : root == MPI_PROC_NULL ? ROLE_NONE
					       : ROLE_MEMBER;
	return root == c->rank ? ROLE_ROOT | ROLE_MEMBER : ROLE_MEMBER;
}

static uint64_t sum_bytes(const int *counts, int n, MPI_Datatype type)
{
	MPI_Count total = 0;

	for (int i = 0; counts && i < n; i++)
		total += counts[i] > 0 ? counts[i] : 0;
	return sg_mpi_bytes(total, type);
}

struct sg_xfer sg_x_send(int count, MPI_Datatype type, int dest)
{
	return (struct sg_xfer){ dest == MPI_PROC_NULL ? 0 : sg_mpi_bytes(count, type), 0 };
}

struct sg_xfer sg_x_recv(int count, MPI_Datatype type, int source)
{
	return (struct sg_xfer){ 0, source == MPI_PROC_NULL ? 0 : sg_mpi_bytes(count, type) };
}

struct sg_xfer sg_x_sendrecv(int scount, MPI_Datatype stype, int dest, int rcount,
			     MPI_Datatype rtype, int source)
{
	return (struct sg_xfer){sg_x_send(scount, stype, dest).sent,
				sg_x_recv(rcount, rtype, source).recv};
}

struct sg_xfer sg_x_write(int count, MPI_Datatype type)
{
	return (struct sg_xfer){ sg_mpi_bytes(count, type), 0 };
}

struct sg_xfer sg_x_read(int count, MPI_Datatype type)
{
	return (struct sg_xfer){ 0, sg_mpi_bytes(count, type) };
}

struct sg_xfer sg_x_bcast(int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	int r = role(root, &c);
	uint64_t b = sg_mpi_bytes(count, type);

	if (r & ROLE_ROOT)
		return (struct sg_xfer){ b, 0 };
	return (struct sg_xfer){ 0, r & ROLE_MEMBER ? b : 0 };
}

struct sg_xfer sg_x_reduce(int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	int r = role(root, &c);
	uint64_t b = sg_mpi_bytes(count, type);

	return (struct sg_xfer){ r & ROLE_MEMBER ? b : 0, r & ROLE_ROOT ? b : 0 };
}

struct sg_xfer sg_x_allreduce(int count, MPI_Datatype type)
{
	uint64_t b = sg_mpi_bytes(count, type);

	return (struct sg_xfer){ b, b };
}

/* With MPI_IN_PLACE the send arguments are ignored: the contribution is the receive block already
 * in place. */
struct sg_xfer sg_x_gather(int sinplace, int scount, MPI_Datatype stype, int rcount,
			   MPI_Datatype rtype, int root, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	int r = role(root, &c);
	struct sg_xfer x = { 0, 0 };

	if (r & ROLE_MEMBER)
		x.sent = sinplace ? sg_mpi_bytes(rcount, rtype) : sg_mpi_bytes(scount, stype);
	if (r & ROLE_ROOT)
		x.recv = sg_mpi_bytes((MPI_Count)rcount * c.size, rtype);
	return x;
}

struct sg_xfer sg_x_gatherv(int sinplace, int scount, MPI_Datatype stype, const int *rcounts,
			    MPI_Datatype rtype, int root, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	int r = role(root, &c);
	struct sg_xfer x = { 0, 0 };

	if (r & ROLE_MEMBER)
		x.sent = sinplace ? sg_mpi_bytes(rcounts[c.rank], rtype)
				  : sg_mpi_bytes(scount, stype);
	if (r & ROLE_ROOT)
		x.recv = sum_bytes(rcounts, c.size, rtype);
	return x;
}

struct sg_xfer sg_x_allgather(int sinplace, int scount, MPI_Datatype stype, int rcount,
			      MPI_Datatype rtype, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);

	return (struct sg_xfer){sinplace ? sg_mpi_bytes(rcount, rtype)
					 : sg_mpi_bytes(scount, stype),
				sg_mpi_bytes((MPI_Count)rcount * c.size, rtype)};
}

struct sg_xfer sg_x_allgatherv(int sinplace, int scount, MPI_Datatype stype, const int *rcounts,
			       MPI_Datatype rtype, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);

	return (struct sg_xfer){sinplace ? sg_mpi_bytes(rcounts[c.rank], rtype)
					 : sg_mpi_bytes(scount, stype),
				sum_bytes(rcounts, c.size, rtype)};
}

struct sg_xfer sg_x_scatter(int rinplace, int scount, MPI_Datatype stype, int rcount,
			    MPI_Datatype rtype, int root, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	int r = role(root, &c);
	struct sg_xfer x = { 0, 0 };

	if (r & ROLE_ROOT)
		x.sent = sg_mpi_bytes((MPI_Count)scount * c.size, stype);
	if (r & ROLE_MEMBER)
		x.recv = rinplace ? sg_mpi_bytes(scount, stype) : sg_mpi_bytes(rcount, rtype);
	return x;
}

struct sg_xfer sg_x_scatterv(int rinplace, const int *scounts, MPI_Datatype stype, int rcount,
			     MPI_Datatype rtype, int root, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	int r = role(root, &c);
	struct sg_xfer x = { 0, 0 };

	if (r & ROLE_ROOT)
		x.sent = sum_bytes(scounts, c.size, stype);
	if (r & ROLE_MEMBER)
		x.recv = rinplace ? sg_mpi_bytes(scounts[c.rank], stype)
				  : sg_mpi_bytes(rcount, rtype);
	return x;
}

struct sg_xfer sg_x_alltoall(int sinplace, int scount, MPI_Datatype stype, int rcount,
			     MPI_Datatype rtype, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	uint64_t recv = sg_mpi_bytes((MPI_Count)rcount * c.size, rtype);

	return (struct sg_xfer){sinplace ? recv : sg_mpi_bytes((MPI_Count)scount * c.size, stype),
				recv};
}

struct sg_xfer sg_x_alltoallv(int sinplace, const int *scounts, MPI_Datatype stype,
			      const int *rcounts, MPI_Datatype rtype, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	uint64_t recv = sum_bytes(rcounts, c.size, rtype);

	return (struct sg_xfer){ sinplace ? recv : sum_bytes(scounts, c.size, stype), recv };
}

static uint64_t sum_bytes_w(const int *counts, const MPI_Datatype *types, int n)
{
	uint64_t total = 0;

	for (int i = 0; counts && types && i < n; i++)
		total += sg_mpi_bytes(counts[i], types[i]);
	return total;
}

struct sg_xfer sg_x_alltoallw(int sinplace, const int *scounts, const MPI_Datatype *stypes,
			      const int *rcounts, const MPI_Datatype *rtypes, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	uint64_t recv = sum_bytes_w(rcounts, rtypes, c.size);

	return (struct sg_xfer){ sinplace ? recv : sum_bytes_w(scounts, stypes, c.size), recv };
}

struct sg_xfer sg_x_reduce_scatter(const int *rcounts, MPI_Datatype type, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	int local = c.size;

	if (c.inter)
		PMPI_Comm_size(comm, &local);
	return (struct sg_xfer){sum_bytes(rcounts, local, type),
				sg_mpi_bytes(rcounts[c.rank], type)};
}

struct sg_xfer sg_x_reduce_scatter_block(int rcount, MPI_Datatype type, MPI_Comm comm)
{
	struct comm_info c = comm_info(comm);
	int local = c.size;

	if (c.inter)
		PMPI_Comm_size(comm, &local);
	return (struct sg_xfer){sg_mpi_bytes((MPI_Count)rcount * local, type),
				sg_mpi_bytes(rcount, type)};
}

/* In- and out-degree of a process topology (neighborhood collectives). */
static void degrees(MPI_Comm comm, int *in, int *out)
{
	int topo = MPI_UNDEFINED, n = 0, rank, weighted;

	*in = *out = 0;
	PMPI_Topo_test(comm, &topo);
	if (topo == MPI_CART) {
		PMPI_Cartdim_get(comm, &n);
		*in = *out = 2 * n;
	} else if (topo == MPI_GRAPH) {
		PMPI_Comm_rank(comm, &rank);
		PMPI_Graph_neighbors_count(comm, rank, &n);
		*in = *out = n;
	} else if (topo == MPI_DIST_GRAPH) {
		PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
	}
}

struct sg_xfer sg_x_neighbor(int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype,
			     MPI_Comm comm)
{
	int in, out;

	degrees(comm, &in, &out);
	return (struct sg_xfer){sg_mpi_bytes((MPI_Count)scount * out, stype),
				sg_mpi_bytes((MPI_Count)rcount * in, rtype)};
}

struct sg_xfer sg_x_neighbor_allgatherv(int scount, MPI_Datatype stype, const int *rcounts,
					MPI_Datatype rtype, MPI_Comm comm)
{
	int in, out;

	degrees(comm, &in, &out);
	return (struct sg_xfer){sg_mpi_bytes((MPI_Count)scount * out, stype),
				sum_bytes(rcounts, in, rtype)};
}

struct sg_xfer sg_x_neighbor_alltoallv(const int *scounts, MPI_Datatype stype, const int *rcounts,
				       MPI_Datatype rtype, MPI_Comm comm)
{
	int in, out;

	degrees(comm, &in, &out);
	return (struct sg_xfer){ sum_bytes(scounts, out, stype), sum_bytes(rcounts, in, rtype) };
}

struct sg_xfer sg_x_neighbor_alltoallw(const int *scounts, const MPI_Datatype *stypes,
				       const int *rcounts, const MPI_Datatype *rtypes,
				       MPI_Comm comm)
{
	int in, out;

	degrees(comm, &in, &out);
	return (struct sg_xfer){sum_bytes_w(scounts, stypes, out),
				sum_bytes_w(rcounts, rtypes, in)};
}
