/* What interop/talp.c reads of a TALP JSON file and interop/talp-model.c turns into profiles. */
#ifndef SG_TALP_PRIV_H
#define SG_TALP_PRIV_H

#include <stddef.h>

#include "interop/interop.h"

/*
 * The fields of a region that the import reads (docs/interop.md lists their sources): its key in
 * the JSON, and a second name it had in some DLB release (NULL: none). Times are nanoseconds.
 */
#define TALP_FIELDS(X) \
	X(NUM_CPUS, "numCpus", NULL) X(NUM_RANKS, "numMpiRanks", NULL) \
	X(NUM_NODES, "numNodes", NULL) X(MEASUREMENTS, "numMeasurements", NULL) \
	X(ELAPSED, "elapsedTime", NULL) X(USEFUL, "usefulTime", NULL) X(MPI, "mpiTime", NULL) \
	X(OMP_IMBALANCE, "ompLoadImbalanceTime", NULL) \
	X(OMP_SCHEDULING, "ompSchedulingTime", NULL) \
	X(OMP_SERIALIZATION, "ompSerializationTime", NULL) \
	X(USEFUL_NORMD_APP, "usefulNormdApp", "usefulNomrdApp") \
	X(MPI_NORMD_APP, "mpiNormdApp", NULL) \
	X(MAX_USEFUL_NORMD_PROC, "maxUsefulNormdProc", NULL) \
	X(MAX_USEFUL_NORMD_NODE, "maxUsefulNormdNode", NULL) \
	X(MPI_NORMD_OF_MAX_USEFUL, "mpiNormdOfMaxUseful", NULL) \
	X(MIN_MPI_NORMD_PROC, "minMpiNormdProc", NULL) \
	X(MIN_MPI_NORMD_NODE, "minMpiNormdNode", NULL) \
	X(PARALLEL_EFFICIENCY, "parallelEfficiency", NULL) \
	X(MPI_PARALLEL_EFFICIENCY, "mpiParallelEfficiency", NULL) \
	X(MPI_COMMUNICATION_EFFICIENCY, "mpiCommunicationEfficiency", NULL) \
	X(MPI_LOAD_BALANCE, "mpiLoadBalance", NULL) \
	X(MPI_LOAD_BALANCE_IN, "mpiLoadBalanceIn", NULL) \
	X(MPI_LOAD_BALANCE_OUT, "mpiLoadBalanceOut", NULL) \
	X(OMP_PARALLEL_EFFICIENCY, "ompParallelEfficiency", NULL) \
	X(OMP_LOAD_BALANCE, "ompLoadBalance", NULL) \
	X(OMP_SCHEDULING_EFFICIENCY, "ompSchedulingEfficiency", NULL) \
	X(OMP_SERIALIZATION_EFFICIENCY, "ompSerializationEfficiency", NULL)

enum talp_field {
#define X(id, name, alias) TALP_##id,
	TALP_FIELDS(X)
#undef X
	TALP_NR_FIELDS
};

/* The first field that is one of TALP's own efficiencies (kept as meta records). */
#define TALP_FIRST_EFFICIENCY TALP_PARALLEL_EFFICIENCY

struct talp_region {
	char *name;
	double f[TALP_NR_FIELDS]; /* NAN where the file lacks the field */
};

struct talp_file {
	const char *path;
	char *version, *timestamp;
	int ranks;                 /* resources.numMpiRanks; 0 without MPI */
	int cpus;                  /* resources.numCpus */
	struct talp_region *region;
	size_t nr, alloc;
	int global;                /* the index of the whole program's region */
};

/* The key of a field, e.g. "elapsedTime" (here, so that the reader and the model, which call one
 * way, both have it). */
static inline const char *talp_field_name(enum talp_field f)
{
	static const char *const names[] = {
#define X(id, name, alias) name,
		TALP_FIELDS(X)
#undef X
	};
	return names[f];
}

/* The profiles of one TALP file's run into 'r' (r->ranks and r->threads set); 0 or gate_error(). */
int talp_model(struct import_run *r, const struct talp_file *t);

#endif
