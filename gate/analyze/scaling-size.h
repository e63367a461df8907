/* Scaling with the problem size across a benchmark's sizes: weak scaling and the isoefficiency
 * series (docs/metrics.md). */
#ifndef SG_SCALING_SIZE_H
#define SG_SCALING_SIZE_H

#include "analyze/isoeff.h"
#include "analyze/matrix.h"

/* One configuration of a weak-scaling benchmark: its own size, its cell holds Weak_efficiency. */
struct matrix_weak_point {
	const struct matrix_series *series; /* the series of this size */
	struct matrix_cell *cell;
	double size;
};

/*
 * One interval of a benchmark whose size grows with p (each size measured at
 * one processor count only, at least 2 of them).
 */
struct matrix_weak {
	const char *benchmark;
	int interval;
	struct matrix_weak_point *points; /* ascending p, then ranks */
	size_t nr_points;
	int ref;                          /* the 1x1 configuration, else the smallest p */
	int ref_is_serial;
	struct matrix_figure average_parallelism_slope;
	const char *average_parallelism_trend;
};

/* Builds m->weak and m->iso from the series of 'm' (called by matrix_build); 0 or gate_error(). */
int scaling_size_build(struct matrix *m, const struct analysis *a);
/* Frees m->weak, m->iso and the memory models. */
void scaling_size_release(struct matrix *m);

/* Whether the benchmark's sizes grow with p: every size at one p, 2+ of them, all numeric. */
int scaling_size_is_weak(const struct analysis *a, const char *benchmark);

#endif
