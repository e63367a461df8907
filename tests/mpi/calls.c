/*
 * Makes known MPI calls with known sizes, each group in its own interval, for
 * tests/cli/mpi-calls.sh.
 *
 *   usage: calls all FILE   point-to-point, wait/test, collectives, non-blocking collectives,
 * MPI-IO on FILE.RANK calls pcontrol   5 allreduces measured, 10 paused by MPI_Pcontrol(0), 2 after
 * MPI_Pcontrol(1) calls threads N  MPI_THREAD_MULTIPLE: N OpenMP threads each make 20 allreduces
 * and 10 sendrecvs
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalegate.h"

static int rank, ranks;

#define CHECK(call) \
	do { \
		if ((call) != MPI_SUCCESS) { \
			fprintf(stderr, "calls: %s failed\n", #call); \
			MPI_Abort(MPI_COMM_WORLD, 1); \
		} \
	} while (0)

/* A ring: each rank sends to the right and receives from the left (itself with 1 rank). */
static void p2p(void)
{
	int right = (rank + 1) % ranks, left = (rank + ranks - 1) % ranks, flag = 0;
	double d[100], dr[100] = { 0 }, s[10] = { 0 }, sr[10];
	int i[50] = { 0 }, ir[50], one = 1, got;
	MPI_Request req[2];
	MPI_Status st;

	for (int k = 0; k < 100; k++)
		d[k] = k;
	SG_BEGIN("p2p");
	/* send: 800 bytes; irecv: 800 + 200; isend: 200; wait: 1 + 1 (Waitall) */
	CHECK(MPI_Irecv(dr, 100, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]));
	CHECK(MPI_Send(d, 100, MPI_DOUBLE, right, 0, MPI_COMM_WORLD));
	CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
	CHECK(MPI_Irecv(ir, 50, MPI_INT, left, 1, MPI_COMM_WORLD, &req[0]));
	CHECK(MPI_Isend(i, 50, MPI_INT, right, 1, MPI_COMM_WORLD, &req[1]));
	CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	/* sendrecv: 80 + 80 bytes, then one with MPI_PROC_NULL on both sides: 0 bytes */
	CHECK(MPI_Sendrecv(s, 10, MPI_DOUBLE, right, 2, sr, 10, MPI_DOUBLE, left, 2, MPI_COMM_WORLD,
			   &st));
	CHECK(MPI_Sendrecv(s, 10, MPI_DOUBLE, MPI_PROC_NULL, 3, sr, 10, MPI_DOUBLE, MPI_PROC_NULL,
			   3, MPI_COMM_WORLD, &st));
	/* probe: 1; recv: 4 bytes; isend: +4 bytes; wait: +1 */
	CHECK(MPI_Isend(&one, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &req[1]));
	CHECK(MPI_Probe(left, 4, MPI_COMM_WORLD, &st));
	CHECK(MPI_Recv(&got, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
	/* test: at least 1; irecv: +4 bytes, isend: +4 bytes */
	CHECK(MPI_Irecv(&got, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &req[0]));
	CHECK(MPI_Isend(&one, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &req[1]));
	while (!flag)
		CHECK(MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE));
	SG_END("p2p");
}

static void collectives(void)
{
	char bytes[1000] = { 0 };
	double d4[4] = {1, 2, 3, 4}, r4[4], d2[2] = {1, 2},
	       *all = calloc((size_t)ranks * 2, sizeof(double));
	int i8[8] = {0}, r8[8], i3[3] = {0}, *gath = calloc((size_t)ranks * 5, sizeof(int)), i5[5];
	int *counts = calloc((size_t)ranks, sizeof(int)),
	    *displs = calloc((size_t)ranks, sizeof(int));
	double *a2a = calloc((size_t)ranks * 2, sizeof(double)),
	       *a2b = calloc((size_t)ranks * 2, sizeof(double));
	long long s = rank, sr;
	int rs;

	for (int k = 0; k < ranks; k++) {
		counts[k] = 2;
		displs[k] = 2 * k;
	}
	SG_BEGIN("collectives");
	CHECK(MPI_Barrier(MPI_COMM_WORLD));                                            /* barrier */
	CHECK(MPI_Bcast(bytes, 1000, MPI_BYTE, 0, MPI_COMM_WORLD)); /* root 1000 out, others in */
	CHECK(MPI_Reduce(d4, r4, 4, MPI_DOUBLE, MPI_SUM, 0,
			 MPI_COMM_WORLD)); /* 32 out, root 32 in */
	for (int k = 0; k < 3; k++) /* 3 x 32 both ways */
		CHECK(MPI_Allreduce(i8, r8, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	CHECK(MPI_Allreduce(MPI_IN_PLACE, d2, 2, MPI_DOUBLE, MPI_SUM,
			    MPI_COMM_WORLD)); /* 16 both ways */
	CHECK(MPI_Gather(i3, 3, MPI_INT, gath, 3, MPI_INT, 0,
			 MPI_COMM_WORLD)); /* 12 out, root 12p in */
	CHECK(MPI_Gatherv(d2, 2, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
			  MPI_COMM_WORLD)); /* 16, root 16p */
	CHECK(MPI_Allgather(d2, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE,
			    MPI_COMM_WORLD)); /* 16 out, 16p in */
	CHECK(MPI_Allgatherv(d2, 2, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE,
			     MPI_COMM_WORLD)); /* 16, 16p */
	CHECK(MPI_Scatter(gath, 5, MPI_INT, i5, 5, MPI_INT, 0,
			  MPI_COMM_WORLD)); /* root 20p out, 20 in */
	CHECK(MPI_Scatterv(all, counts, displs, MPI_DOUBLE, d2, 2, MPI_DOUBLE, 0,
			   MPI_COMM_WORLD)); /* root 16p, 16 */
	CHECK(MPI_Alltoall(a2a, 2, MPI_DOUBLE, a2b, 2, MPI_DOUBLE,
			   MPI_COMM_WORLD)); /* 16p both ways */
	CHECK(MPI_Alltoallv(a2a, counts, displs, MPI_DOUBLE, a2b, counts, displs, MPI_DOUBLE,
			    MPI_COMM_WORLD));
	CHECK(MPI_Reduce_scatter_block(counts, &rs, 1, MPI_INT, MPI_SUM,
				       MPI_COMM_WORLD)); /* 4p out, 4 in */
	CHECK(MPI_Scan(&s, &sr, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD)); /* 8 both ways */
	CHECK(MPI_Exscan(&s, &sr, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD)); /* 8 both ways */
	SG_END("collectives");

	SG_BEGIN("nonblocking");
	MPI_Request req[2];
	CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &req[0]));
	CHECK(MPI_Iallreduce(d4, r4, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
			     &req[1])); /* 32 both ways */
	CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	SG_END("nonblocking");
	free(all);
	free(gath);
	free(counts);
	free(displs);
	free(a2a);
	free(a2b);
}

/* write: 256 bytes out; read: 256 bytes in; open and close: 0 bytes. */
static void io(const char *base)
{
	char path[4096], buf[256];
	MPI_File fh;

	memset(buf, rank, sizeof(buf));
	snprintf(path, sizeof(path), "%s.%d", base, rank);
	SG_BEGIN("io");
	CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
			    &fh));
	CHECK(MPI_File_write_at(fh, 0, buf, 256, MPI_CHAR, MPI_STATUS_IGNORE));
	CHECK(MPI_File_read_at(fh, 0, buf, 64, MPI_INT, MPI_STATUS_IGNORE));
	CHECK(MPI_File_close(&fh));
	SG_END("io");
}

static void pcontrol(void)
{
	double x = 1, y;

	SG_BEGIN("pcontrol");
	for (int k = 0; k < 5; k++)
		CHECK(MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	MPI_Pcontrol(0);
	for (int k = 0; k < 10; k++)
		CHECK(MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	MPI_Pcontrol(1);
	for (int k = 0; k < 2; k++)
		CHECK(MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	SG_END("pcontrol");
}

/* Each thread talks on its own communicator, so the calls of different threads never match each
 * other. */
static void threads(int n)
{
	MPI_Comm *comm = calloc((size_t)n, sizeof(MPI_Comm));

	for (int k = 0; k < n; k++)
		CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm[k]));
	SG_BEGIN("threads");
#pragma omp parallel num_threads(n)
	{
		int me = omp_get_thread_num(), right = (rank + 1) % ranks,
		    left = (rank + ranks - 1) % ranks;
		double x = me, y;

		SG_BEGIN("thread");
		for (int k = 0; k < 20; k++)
			CHECK(MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, comm[me]));
		for (int k = 0; k < 10; k++)
			CHECK(MPI_Sendrecv(&x, 1, MPI_DOUBLE, right, k, &y, 1, MPI_DOUBLE, left, k,
					   comm[me], MPI_STATUS_IGNORE));
		SG_END("thread");
	}
	SG_END("threads");
	for (int k = 0; k < n; k++)
		MPI_Comm_free(&comm[k]);
	free(comm);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int provided;

	if (!strcmp(mode, "threads")) {
		MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
		if (provided < MPI_THREAD_MULTIPLE) {
			fprintf(stderr, "calls: MPI_THREAD_MULTIPLE not provided\n");
			MPI_Abort(MPI_COMM_WORLD, 3);
		}
	} else {
		MPI_Init(&argc, &argv);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	if (!strcmp(mode, "all") && argc > 2) {
		p2p();
		collectives();
		io(argv[2]);
	} else if (!strcmp(mode, "pcontrol")) {
		pcontrol();
	} else if (!strcmp(mode, "threads") && argc > 2) {
		threads(atoi(argv[2]));
	} else {
		if (rank == 0)
			fprintf(stderr, "usage: calls all FILE | pcontrol | threads N\n");
		MPI_Finalize();
		return 2;
	}
	MPI_Finalize();
	return 0;
}
