/* Reader of the tracer's profile files (format: tracer/PROFILE.md), the only contract between
 * tracer and gate. */
#ifndef SG_PROFILE_H
#define SG_PROFILE_H

#include <stddef.h>

#include "format/columns.h"

/* The columns this reader knows, by name: the tracer's table (format/columns.h); others in a file
 * are ignored, and a known one the file lacks reads as not captured (NAN), as '-' does. */
enum profile_column {
#define X(id, name, field, unit, captured, sign) PROFILE_##id,
	SG_STAT_COLUMNS(X)
#undef X
	PROFILE_NR_COLUMNS
};

/* The per-(node, thread, MPI operation kind) columns. */
enum profile_mpi_column {
#define X(id, name, field, unit, captured, sign) PROFILE_MPI_##id,
	SG_MPI_COLUMNS(X)
#undef X
	PROFILE_MPI_NR_COLUMNS
};

/* The fields of a reduced profile's per-interval record (tracer/PROFILE.md, "Reduced profiles"):
 * sums over ranks and processors, maxima, and flags every rank had. */
enum profile_reduced_column {
#define X(id, name, op) PROFILE_RED_##id,
	SG_REDUCED_COLUMNS(X)
#undef X
	PROFILE_RED_NR_COLUMNS
};

/* The per-processor quantities a reduced profile holds the extremes of, in the analyzer's order
 * (analyze/analysis.h, ANALYSIS_PER_PROCESSOR). */
#define PROFILE_RED_NR_QUANTITIES SG_RED_NR_QUANTITIES

/* One quantity's extremes over the job's processors, and its sum. */
struct profile_extremes {
	double min, max, sum;
	int min_rank, min_thread, max_rank, max_thread;
};

/* One interval of a reduced profile. */
struct profile_reduced {
	double v[PROFILE_RED_NR_COLUMNS]; /* NAN where the file lacks the column */
	struct profile_extremes q[PROFILE_RED_NR_QUANTITIES];
	int has_q; /* bit k: quantity k was read */
};

struct profile_region {
	char *name;
	char *file;
	int line;
};

struct profile_node {
	int parent; /* -1 for the root (level 0) */
	int region;
	int has_tag;
	long long tag;
	int depth;  /* 0 for the root */
	char *path; /* "program/solve/step[3]" */
};

struct profile_thread {
	int omp_thread; /* -1 when unknown */
	int is_main;
};

struct profile_stat {
	int node;
	int thread;
	/* NAN where the file says '-' or lacks the column: not captured, never zero. */
	double v[PROFILE_NR_COLUMNS];
};

struct profile_mpi {
	int node;
	int thread;
	char kind[32]; /* "allreduce", "send", ... (tracer/mpi-kinds.h) */
	double v[PROFILE_MPI_NR_COLUMNS]; /* NAN where not captured */
};

/* An annotation mistake at one site (tracer/PROFILE.md, 'error' records). */
struct profile_error {
	char kind[16]; /* "unmatched_end", "unclosed", "dropped" */
	/* the interval left open, or the innermost open one at an unmatched SG_END */
	int node;
	int region;    /* the interval left open, or the one the SG_END named */
	int line;      /* the offending site: the SG_END's line, or the interval's SG_BEGIN */
	double count;
};

struct profile_meta {
	char *key;
	char *value;
};

struct profile {
	char *path;
	int version;
	struct profile_meta *meta;
	size_t nr_meta, alloc_meta;
	struct profile_region *regions;
	size_t nr_regions, alloc_regions;
	struct profile_node *nodes;
	size_t nr_nodes, alloc_nodes;
	struct profile_thread *threads;
	size_t nr_threads, alloc_threads;
	struct profile_stat *stats;
	size_t nr_stats, alloc_stats;
	struct profile_mpi *mpi;
	size_t nr_mpi, alloc_mpi;
	struct profile_error *errors;
	size_t nr_errors, alloc_errors;
	/* Bit c: the file's columns named stat (mpi) column c; one it lacks reads as not captured
	 * (an older tracer's, or one another tool wrote). */
	unsigned long stat_columns, mpi_columns;
	/* A job's one profile (meta reduced): per node, and the ranks and processors per rank it
	 * holds; 0 for a process's own profile. */
	struct profile_reduced *reduced; /* [nr_nodes] once read */
	int reduced_ranks, reduced_threads;
};

/* Version 2 added the reduced profile; version 1 files are read as they were. */
#define PROFILE_VERSION 2
/* Bounds no tracer's profile comes near (docs/running.md, "Limits"): the tracer nests at most 128
 * deep. */
#define PROFILE_MAX_DEPTH 128
#define PROFILE_MAX_DEPTH_TEXT "128"
#define PROFILE_MAX_PATH_BYTES ((size_t)64 << 20)
#define PROFILE_MAX_VALUE 1e15

void profile_data_init(struct profile *p);
/* Reads 'path'; on a truncated, corrupt or wrong-version file returns gate_error() naming it. */
int profile_read(struct profile *p, const char *path);
void profile_data_release(struct profile *p);
/*
 * Masks the registered secret values (base/secret.h) in the profile at 'path',
 * an interval named after a token say, and seals it again with the checksum of
 * what it then holds; a file without a valid end record is masked as it is.
 * 0, or gate_error().
 */
int profile_mask_secrets(const char *path);

/* The value of a 'meta' key, or NULL. */
const char *profile_meta(const struct profile *p, const char *key);
/* A numeric meta value, or 'fallback' when absent or '-'. */
double profile_meta_num(const struct profile *p, const char *key, double fallback);
/* Name of a stat column, e.g. "omp_barrier", and of an mpi column, e.g. "bytes_sent". */
const char *profile_column_name(enum profile_column c);
const char *profile_mpi_column_name(enum profile_mpi_column c);
/* A node's call path, "program/solve/step[3]", from its parent's; caller frees. */
char *profile_node_path(const struct profile *p, const struct profile_node *n);

/*
 * Building a profile in memory (profile-write.c), for the importers of other tools' data. Each adds
 * one item to 'p' (which owns its copies) and returns its id; a stat or mpi record starts with
 * every column NAN (not captured).
 */
void profile_add_meta(struct profile *p, const char *key, const char *value);
int profile_add_region(struct profile *p, const char *name, const char *file, int line);
int profile_add_node(struct profile *p, int parent, int region);
int profile_add_thread(struct profile *p, int omp_thread, int is_main);
struct profile_stat *profile_add_stat(struct profile *p, int node, int thread);
struct profile_mpi *profile_add_mpi(struct profile *p, int node, int thread, const char *kind);
/* Writes 'p' to 'path' (atomically) in the format the tracer writes, sealed; 0 or gate_error(). */
int profile_write(const struct profile *p, const char *path);

struct strbuf;
/* Appends the 'end' record: the checksum of everything 'sb' holds. */
void profile_seal(struct strbuf *sb);

#endif
