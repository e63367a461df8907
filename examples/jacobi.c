/*
 * jacobi: an OpenMP Jacobi solver for the Laplace equation on an N x N grid.
 *
 *   usage: jacobi THREADS N [ITERATIONS]
 *   knob:  SG_KNOB_SERIAL=1 computes the residual in a serial loop on one
 *          thread (the regression "the solver now has a serial section").
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "scalegate.h"

static double sweep(const double *u, double *v, int n)
{
	double diff = 0.0;

	SG_BEGIN("sweep");
#pragma omp parallel for schedule(static) reduction(max : diff)
	for (int i = 1; i < n - 1; i++) {
		for (int j = 1; j < n - 1; j++) {
			double x = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
			diff = fmax(diff, fabs(x - u[i * n + j]));
			v[i * n + j] = x;
		}
	}
	SG_END("sweep");
	return diff;
}

static double residual(const double *u, int n, int serial)
{
	double r = 0.0;

	SG_BEGIN("residual");
	if (serial) {
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++) {
				double d = 4 * u[i * n + j] - u[(i - 1) * n + j] - u[(i + 1) * n + j] - u[i * n + j - 1] - u[i * n + j + 1];
				r += d * d;
			}
	} else {
#pragma omp parallel for schedule(static) reduction(+ : r)
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++) {
				double d = 4 * u[i * n + j] - u[(i - 1) * n + j] - u[(i + 1) * n + j] - u[i * n + j - 1] - u[i * n + j + 1];
				r += d * d;
			}
	}
	SG_END("residual");
	return sqrt(r);
}

int main(int argc, char **argv)
{
	int threads, n, iterations;
	int serial = getenv("SG_KNOB_SERIAL") && atoi(getenv("SG_KNOB_SERIAL"));
	double *u, *v, diff = 0, res = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: jacobi THREADS N [ITERATIONS]\n");
		return 2;
	}
	threads = atoi(argv[1]);
	n = atoi(argv[2]);
	iterations = argc > 3 ? atoi(argv[3]) : 50;
	if (threads < 1 || n < 3 || iterations < 1) {
		fprintf(stderr, "jacobi: THREADS >= 1, N >= 3, ITERATIONS >= 1\n");
		return 2;
	}
	omp_set_num_threads(threads);
	u = calloc((size_t)n * n, sizeof(double));
	v = calloc((size_t)n * n, sizeof(double));
	if (!u || !v) {
		fprintf(stderr, "jacobi: out of memory\n");
		return 1;
	}
	for (int j = 0; j < n; j++)
		u[j] = v[j] = 1.0; /* a hot top edge */

	SG_BEGIN("solve");
	for (int it = 0; it < iterations; it++) {
		double *t;
		diff = sweep(u, v, n);
		t = u;
		u = v;
		v = t;
		if (it % 5 == 4)
			res = residual(u, n, serial);
	}
	SG_END("solve");

	printf("jacobi: n=%d threads=%d iterations=%d diff=%.3e residual=%.3e%s\n", n, threads, iterations, diff,
	       res, serial ? " (serial residual)" : "");
	free(u);
	free(v);
	return 0;
}
