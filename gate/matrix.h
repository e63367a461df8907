/* Across repeats and configurations: medians with intervals, speedup, efficiency, Karp-Flatt and its trend, projections. */
#ifndef SG_MATRIX_H
#define SG_MATRIX_H

#include <stddef.h>

#include "analysis.h"

#define MATRIX_LEVEL 0.95

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
};

struct matrix {
	struct matrix_series *series;
	size_t nr_series, alloc_series;
};

void matrix_init(struct matrix *m);
void matrix_release(struct matrix *m);
/* Builds every series of the analysis; 0 or error(). */
int matrix_build(struct matrix *m, const struct analysis *a);

/* Karp-Flatt serial fraction for speedup psi on p processors (p > 1). */
double matrix_karp_flatt(double psi, double p);
/* The trend rule of docs/metrics.md for a slope of e over [p_min, p_max] with interval [lo, hi]. */
const char *matrix_classify(double slope, double lo, double hi, double p_min, double p_max, double mean_e);

#endif
