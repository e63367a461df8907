/* The analyzer: loads profiles and computes the characteristics of docs/design.md per interval,
 * configuration and repeat (docs/metrics.md). */
#ifndef SG_ANALYSIS_H
#define SG_ANALYSIS_H

#include <stddef.h>

#include "base/lost-table.h"
#include "results/profile.h"

/* What a figure needs captured to be known (the 'needs' column of base/lost-table.h). */
enum analysis_needs {
	ANALYSIS_NEEDS_NONE,
	ANALYSIS_NEEDS_OMP,         /* OpenMP captured */
	ANALYSIS_NEEDS_OMP_THREADS, /* OpenMP captured, when a rank has several threads */
	ANALYSIS_NEEDS_MPI,         /* MPI captured */
	ANALYSIS_NEEDS_MPI_RANKS,   /* MPI captured, when there are several ranks */
};

#define ANALYSIS_LOST_ROW(X, id, name, needs, ...) X(id, name, needs)

/*
 * The main characteristics of one interval in one run; names as in docs/design.md
 * and the JSON keys, then what must be captured for each to be known. The
 * terms of Lost_time and their parts come from base/lost-table.h.
 * Execution_time and Total_time are the program's (interference-free); the _wall ones as measured.
 * Reference_time is the run's, on each of its intervals: the machine speed reference the runner
 * measured beside it (docs/running.md).
 */
#define ANALYSIS_FIGURES(X) \
	X(EXECUTION_TIME, "Execution_time", NONE) \
	X(EXECUTION_TIME_WALL, "Execution_time_wall", NONE) \
	X(PROCESSORS, "Processors", NONE) \
	X(TOTAL_TIME, "Total_time", NONE) \
	X(TOTAL_TIME_WALL, "Total_time_wall", NONE) \
	X(PRODUCTIVE_TIME, "Productive_time", OMP_THREADS) \
	X(EFFICIENCY, "Efficiency", OMP_THREADS) \
	X(LOST_TIME, "Lost_time", OMP_THREADS) \
	LOST_TERMS(ANALYSIS_LOST_ROW, ANALYSIS_LOST_ROW, X) \
	X(LOAD_IMBALANCE, "Load_imbalance", OMP_THREADS) \
	X(LOAD_BALANCE, "Load_balance", OMP_THREADS) \
	X(COMMUNICATION_EFFICIENCY, "Communication_efficiency", OMP_THREADS) \
	X(PARALLEL_EFFICIENCY, "Parallel_efficiency", OMP_THREADS) \
	X(SERIAL_SHARE, "Serial_share", OMP) \
	X(SERIALIZED_WORK, "Serialized_work", OMP_THREADS) \
	X(COUNT, "Count", NONE) \
	X(REFERENCE_TIME, "Reference_time", NONE)

enum analysis_figure {
#define X(id, name, needs) ANALYSIS_##id,
	ANALYSIS_FIGURES(X)
#undef X
	ANALYSIS_NR_FIGURES
};

/* Per-processor quantities of the comparative characteristics, and what each needs captured. */
#define ANALYSIS_PER_PROCESSOR(X) \
	X(WORK, "work", NONE) \
	X(TIME, "time", NONE) \
	X(BARRIER, "omp_barrier", OMP) \
	X(LOCK, "omp_lock", OMP) \
	X(OMP_IDLE, "omp_idle", OMP) \
	X(MISSING, "no_work", OMP) \
	X(MPI, "mpi", MPI) \
	X(MPI_WAIT, "mpi_wait", MPI) \
	X(IDLE, "idle", NONE) \
	X(INTERFERENCE, "interference", NONE)

enum analysis_pq {
#define X(id, name, needs) ANALYSIS_PQ_##id,
	ANALYSIS_PER_PROCESSOR(X)
#undef X
	ANALYSIS_NR_PQ
};

struct analysis_cmp {
	double min, max, mean; /* NAN when not captured */
	int min_rank, min_thread, max_rank, max_thread;
};

/* One interval in one run (one configuration, one repeat). */
struct analysis_point {
	int present;                        /* the interval occurs in this run */
	double fig[ANALYSIS_NR_FIGURES];    /* NAN = absent (not captured) */
	struct analysis_cmp cmp[ANALYSIS_NR_PQ];
	int wait_estimated;                 /* MPI waiting estimated from the ranks' times */
	/* figures clamped by more than 1 % of Total_time (bit per figure), and by how much at most
	 */
	unsigned long inconsistent;
	double inconsistency;
};

struct analysis_interval {
	char *benchmark; /* intervals of different benchmarks are kept apart */
	char *path, *file;
	int line, depth;
};

struct analysis_run {
	int repeat;
	/* cores other processes used during the run (manifest.tsv); NAN: unknown */
	double contention;
	struct analysis_point *points; /* by interval id; ids >= nr_points are absent */
	size_t nr_points;
};

/* One benchmark × size × ranks × threads and its repeats. */
struct analysis_config {
	char *benchmark, *size;
	int ranks, threads;
	struct analysis_run *runs;
	size_t nr_runs, alloc_runs;
};

/* An annotation mistake at one site of a benchmark's code, over all its runs (tracer: 'error'
 * records). */
struct analysis_annotation {
	char *benchmark, *kind; /* "unmatched_end", "unclosed", "dropped" */
	/* the interval left open, or the one an unmatched SG_END named, as a call path */
	char *interval;
	char *file;
	int line;               /* the offending site */
	double count;           /* occurrences over all runs and ranks */
	size_t profiles;        /* profiles (one per rank and run) it occurred in */
	char *size;             /* the first configuration it occurred in */
	int ranks, threads;
};

struct analysis {
	char *dir;
	int single;                    /* a plain directory of profiles, not a results directory */
	size_t nr_skipped;             /* runs not 'ok' in the manifest */
	struct analysis_annotation *annotations;
	size_t nr_annotations, alloc_annotations;
	struct analysis_interval *intervals;
	size_t nr_intervals, alloc_intervals;
	struct analysis_config *configs;
	size_t nr_configs, alloc_configs;
	char **fingerprint;            /* key, value pairs */
	size_t nr_fingerprint, alloc_fingerprint;
	void *index;                   /* path -> interval id */
	/* Set before analysis_load: the manifest's runs this returns 0 for are not read (the first
	 * look of an adaptive gate run, docs/check.md); NULL: every run. */
	int (*keep)(void *arg, const char *benchmark, int repeat);
	void *keep_arg;
	/* Set before analysis_load: a run whose profiles cannot be read (damaged, of another run)
	 * is listed in 'damaged' and left out, and the other runs are still loaded; 0: it fails the
	 * load. */
	int keep_going;
	struct analysis_damage *damaged;
	size_t nr_damaged, alloc_damaged;
};

/* A run of the manifest whose profiles could not be read (keep_going). */
struct analysis_damage {
	char *benchmark, *size;
	int ranks, threads, repeat;
	char *message;                 /* the errors, naming the file and the line */
};

void analysis_init(struct analysis *a);
void analysis_release(struct analysis *a);

/* Loads a results directory (manifest.tsv) or a directory of *.sgprof files; 0 or gate_error(). */
int analysis_load(struct analysis *a, const char *dir);
struct results;
/* The same from the results in memory, which read each file once however often they are analysed
 * (the looks of an adaptive run, the base of an A/B run). */
int analysis_load_results(struct analysis *a, struct results *r);

/* Computes the points of one run from its ranks' profiles ('threads' 0: count them); 0 or
 * gate_error().
 */
int analysis_add_run(struct analysis *a, struct analysis_config *c, int repeat,
		     const struct profile *ranks, size_t nr_ranks);

/* The configuration for these keys, created when missing. */
struct analysis_config *analysis_config_get(struct analysis *a, const char *benchmark,
					    const char *size, int ranks, int threads);

/* Frees the interval index (analysis_release does). */
void analysis_index_release(struct analysis *a);
/* The id of a benchmark's interval path, added when missing. */
int analysis_interval_id(struct analysis *a, const char *benchmark, const char *path,
			 const char *file, int line, int depth);

const char *analysis_figure_name(enum analysis_figure f);
const char *analysis_pq_name(enum analysis_pq q);

#endif
