/* A token passed around a ring of ranks with blocking calls: each rank holds it 20 ms (asleep), so
 * every receive waits for a late sender. usage: token ROUNDS [sendrecv] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scalegate.h"

static void hold(void)
{
	struct timespec ts = { 0, 20 * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

int main(int argc, char **argv)
{
	int rank, size, token = 0, rounds = argc > 1 ? atoi(argv[1]) : 5;
	int sendrecv = argc > 2 && !strcmp(argv[2], "sendrecv");

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	SG_BEGIN("chain");
	for (int r = 0; r < rounds; r++) {
		int next = (rank + 1) % size, prev = (rank + size - 1) % size;
		if (rank == 0) {
			hold();
			token++;
			MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
			MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (sendrecv) {
			/* receive the token, hold it, pass it on while receiving nothing
			 * (PROC_NULL) */
			MPI_Sendrecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, &token, 1, MPI_INT, prev,
				     0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			hold();
			MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
		} else {
			MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			hold();
			MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
		}
	}
	SG_END("chain");
	if (rank == 0)
		printf("token: %d ranks, %d rounds, token %d\n", size, rounds, token);
	MPI_Finalize();
	return 0;
}
