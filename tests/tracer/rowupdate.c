/*
 * rowupdate: the shape of an assembly loop (finite elements, particle deposit, histogramming):
 * each thread computes a row of contributions and adds it into one shared vector.
 *
 *   usage: rowupdate THREADS N ITERATIONS
 *   the add, by knob (none set: each thread adds into its own copy, merged once per sweep):
 *          SG_KNOB_CRITICAL=1  under '#pragma omp critical' for every row
 *          SG_KNOB_LOCK=1      under one omp_lock_t for every row
 *          SG_KNOB_LOCKS=K     under K block locks, one per slice of the vector
 *          SG_KNOB_WEIGHT=W    W passes of work to compute a row (default 4): the add's share of
 *                              the work is about 1 / (W + 1)
 * Intervals: program, program/assemble (the parallel loop), program/scale (unchanged by the
 * knobs).
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalegate.h"

static int knob(const char *name, int fallback)
{
	return getenv(name) ? atoi(getenv(name)) : fallback;
}

static struct {
	int critical, lock, locks, weight;
	omp_lock_t one, *block;
} mode;

/* Row i's contributions: W passes over the row, as an element's quadrature would. */
static void compute_row(double *row, int n, int i)
{
	for (int j = 0; j < n; j++)
		row[j] = 0;
	for (int w = 0; w < mode.weight; w++)
		for (int j = 0; j < n; j++)
			row[j] += sin(0.001 * (i + 1) * (j + w + 1)) * 0.5;
}

static void add_row(double *acc, const double *row, int n)
{
	for (int j = 0; j < n; j++)
		acc[j] += row[j];
}

/* Adds the row into the shared vector under the knob's kind of mutual exclusion. */
static void add_shared(double *acc, const double *row, int n)
{
	if (mode.critical) {
#pragma omp critical(rowupdate_add)
		add_row(acc, row, n);
	} else if (mode.lock) {
		omp_set_lock(&mode.one);
		add_row(acc, row, n);
		omp_unset_lock(&mode.one);
	} else {
		int slice = (n + mode.locks - 1) / mode.locks;
		for (int k = 0; k < mode.locks; k++) {
			int from = k * slice, len = from + slice > n ? n - from : slice;
			omp_set_lock(&mode.block[k]);
			add_row(acc + from, row + from, len);
			omp_unset_lock(&mode.block[k]);
		}
	}
}

static void assemble(double *acc, int n)
{
	int shared = mode.critical || mode.lock || mode.locks;

#pragma omp parallel
	{
		double *row = malloc(sizeof(double) * (size_t)n);
		double *own = shared ? NULL : calloc((size_t)n, sizeof(double));
#pragma omp for schedule(static)
		for (int i = 0; i < n; i++) {
			compute_row(row, n, i);
			if (shared)
				add_shared(acc, row, n);
			else
				add_row(own, row, n);
		}
		if (!shared) {
#pragma omp critical(rowupdate_merge)
			add_row(acc, own, n);
		}
		free(own);
		free(row);
	}
}

static double scale(double *acc, int n)
{
	double sum = 0;

#pragma omp parallel for reduction(+ : sum) schedule(static)
	for (int j = 0; j < n; j++) {
		acc[j] *= 0.5;
		sum += acc[j];
	}
	return sum;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2, n = argc > 2 ? atoi(argv[2]) : 600;
	int iterations = argc > 3 ? atoi(argv[3]) : 20;
	double *acc, sum = 0;

	if (threads < 1 || n < 2 || iterations < 1) {
		fprintf(stderr, "usage: rowupdate THREADS N ITERATIONS\n");
		return 2;
	}
	mode.critical = knob("SG_KNOB_CRITICAL", 0);
	mode.lock = knob("SG_KNOB_LOCK", 0);
	mode.locks = knob("SG_KNOB_LOCKS", 0);
	mode.weight = knob("SG_KNOB_WEIGHT", 4);
	omp_init_lock(&mode.one);
	mode.block = malloc(sizeof(omp_lock_t) * (size_t)(mode.locks > 0 ? mode.locks : 1));
	for (int k = 0; k < mode.locks; k++)
		omp_init_lock(&mode.block[k]);
	omp_set_num_threads(threads);
	acc = calloc((size_t)n, sizeof(double));
	SG_BEGIN("program");
	for (int it = 0; it < iterations; it++) {
		SG_BEGIN("assemble");
		assemble(acc, n);
		SG_END("assemble");
		SG_BEGIN("scale");
		sum += scale(acc, n);
		SG_END("scale");
	}
	SG_END("program");
	printf("rowupdate: %d threads, n %d, sum %.6g\n", threads, n, sum);
	for (int k = 0; k < mode.locks; k++)
		omp_destroy_lock(&mode.block[k]);
	omp_destroy_lock(&mode.one);
	free(mode.block);
	free(acc);
	return 0;
}
