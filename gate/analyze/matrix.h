/* Across repeats and configurations: medians with intervals, speedup, efficiency, Karp-Flatt and
 * its trend, projections. */
#ifndef SG_MATRIX_H
#define SG_MATRIX_H

#include <stddef.h>

#include "analyze/analysis.h"

#define MATRIX_LEVEL 0.95

struct isoeff;       /* isoeff.h */
struct matrix_weak;  /* scaling-size.h */

/* n == 0: absent (not captured, or undefined here). */
struct matrix_figure {
	size_t n;
	double median, lo, hi;
};

/* One interval in one configuration, over its repeats. */
struct matrix_cell {
	const struct analysis_config *config;
	int p;
	struct matrix_figure fig[ANALYSIS_NR_FIGURES];
	struct analysis_cmp cmp[ANALYSIS_NR_PQ]; /* of the run with the median Execution_time */
	struct matrix_figure speedup, efficiency, karp_flatt;
	struct matrix_figure computation_scalability, amdahl_bound, gustafson_speedup;
	struct matrix_figure average_parallelism; /* Productive_time / Execution_time, per repeat */
	struct matrix_figure total_overhead;      /* T0 = p T(p) - T(1); serial reference only */
	/* weak-scaling benchmarks: T(1, n_1) / T(p, n_p) */
	struct matrix_figure weak_efficiency;
	/* set after matrix_build by whoever scaled the analysis's times (judge/: to the stored
	 * baseline's machine speed): the factor; 0: as measured */
	double speed;
	int superlinear;     /* speedup > p: Karp-Flatt is negative */
	int wait_estimated;  /* MPI waiting estimated in some repeat */
	unsigned long inconsistent;
	double inconsistency;
};

/* One interval of one benchmark and size, across the configurations. */
struct matrix_series {
	const char *benchmark, *size;
	int interval;
	struct matrix_cell *cells; /* sorted by p, then ranks */
	size_t nr_cells;
	int ref;                   /* index of the reference cell */
	int ref_is_serial;         /* the reference is the 1x1 configuration */
	struct matrix_figure karp_flatt_slope;
	const char *trend;         /* "flat", "rising", "falling", or NULL when too few points */
	double serial_fraction;    /* mean Karp-Flatt e, for the flat trend */
	/* projection of Measured_efficiency at 2x and 4x the largest p */
	const char *projection_refused; /* why not, or NULL */
	double projection_p[2], projection_efficiency[2], projection_r2;
	/* least-squares slope of Average_parallelism over p, and "growing", "saturating", "flat",
	 * "falling" */
	struct matrix_figure average_parallelism_slope;
	const char *average_parallelism_trend;
	int weak;                  /* one size of a weak-scaling benchmark: see matrix.weak */
};

/* A memory model declared for a benchmark (NULL: every benchmark without its own). */
struct matrix_memory {
	char *benchmark, *model;
};

struct matrix {
	struct matrix_series *series;
	size_t nr_series, alloc_series;
	/* scaling with the problem size (scaling-size.h, isoeff.h); set the inputs before
	 * matrix_build */
	/* input: leave out the series' Karp-Flatt slope interval and trend (no bootstrap): most of
	 * the matrix's time, and what 'history record' neither records nor shows */
	int skip_trend;
	/* input: the cells' figures, average parallelism and computation scalability as medians
	 * without their intervals, and no overhead (no bootstrap); speedup and efficiency keep
	 * theirs: what 'history record' records, in a third of the time */
	int medians_only;
	/* input: isoefficiency target E; 0 means ISOEFF_TARGET (0.8) */
	double target_efficiency;
	struct matrix_memory *memory;  /* input: see matrix_set_memory */
	size_t nr_memory, alloc_memory;
	struct matrix_weak *weak;      /* per weak-scaling benchmark x interval */
	size_t nr_weak;
	struct isoeff *iso;            /* per benchmark x interval with 2+ sizes, not weak */
	size_t nr_iso;
};

void matrix_init(struct matrix *m);
void matrix_release(struct matrix *m);
/* Builds every series of the analysis; 0 or gate_error(). */
int matrix_build(struct matrix *m, const struct analysis *a);
/* Declares M(n) for 'benchmark' (NULL: all others), e.g. "n^2" (memory_model_parse); 0 or
 * gate_error().
 */
int matrix_set_memory(struct matrix *m, const char *benchmark, const char *model);

/* The finite values of figure f over c's repeats where the interval occurs; x holds c->nr_runs
 * values. */
size_t matrix_samples(const struct analysis_config *c, int interval, enum analysis_figure f,
		      double *x);
/* median(a) / median(b) with its bootstrap interval; n == 0 when undefined. */
void matrix_ratio(const double *a, size_t na, const double *b, size_t nb,
		  struct matrix_figure *out);

/* Karp-Flatt serial fraction for speedup psi on p processors (p > 1). */
double matrix_karp_flatt(double psi, double p);
/* The least-squares slope of e over p / p_ref = rp[0..k-1], from T(ref) = t[0] and T(p) = t[1..k];
 * the one slope of reports and checks. */
double matrix_karp_flatt_slope(const double *rp, const double *t, size_t k);
/* What the series' Karp-Flatt trend means, in words ("rising: overhead grows with p", ...); nothing
 * without a trend. */
struct strbuf;
void matrix_trend_describe(struct strbuf *sb, const struct matrix_series *s);
/* Slope of Average_parallelism A over p (n >= 2 distinct p; interval from 3) and its trend, NULL
 * when too few. */
const char *matrix_parallelism_trend(const double *p, const double *A, size_t n,
				     struct matrix_figure *slope);

#endif
