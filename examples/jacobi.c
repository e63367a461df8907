/*
 * jacobi: an OpenMP Jacobi solver for the Laplace equation on an N x N grid.
 *
 *   usage: jacobi THREADS N [ITERATIONS]
 *   knob:  SG_KNOB_SERIAL=1 computes the residual in a serial loop on one
 *          thread (the regression "the solver now has a serial section").
 *   knobs of the gate's own tests (tests/cli/gate-defaults.bash):
 *          SG_KNOB_SERIAL_MS=MS   MS ms of serial code at the start of solve
 *          SG_KNOB_NO_PARALLEL=1  the 'omp parallel for' of both loops removed
 *          SG_KNOB_CRITICAL=1     a critical section around the sweep's rows
 *   knobs of real code changes for the gate's power (make bench, tests/bench/gate_bench.sh):
 *          SG_KNOB_WORK_PCT=P     every row of the sweep does P % more work: each thread's
 *                                 parallel work grows P %, speedup stays
 *          SG_KNOB_SERIAL_PCT=P   before each sweep, one thread does P % of a sweep's work
 *                                 alone: serial code, time +P % at p = 1 and more beyond
 *          SG_KNOB_IMBALANCE=K    the rows of the top half do K times the work: K:1 between
 *                                 two threads of the static schedule
 *          SG_KNOB_THREADS_X=K    K times the threads asked for (oversubscribed cores)
 *          SG_KNOB_SLOW_PCT=P     every row of both loops does P % more work: each interval
 *                                 takes P % longer, as on a machine P % slower
 *                                 (tests/cli/check-reference.sh)
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "scalegate.h"

static int knob(const char *name)
{
	return getenv(name) ? atoi(getenv(name)) : 0;
}

/* The knobs of the work, read once. */
static struct {
	int work_pct, serial_pct, imbalance, slow_pct;
} extra;

/* Row i of the sweep over the columns 1 .. last - 1. */
static double sweep_cols(const double *u, double *v, int n, int i, int last)
{
	double diff = 0.0;

	for (int j = 1; j < last; j++) {
		double x = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
		diff = fmax(diff, fabs(x - u[i * n + j]));
		v[i * n + j] = x;
	}
	return diff;
}

/* Row i, and the work the knobs add to it (the same values computed again). */
static double sweep_row(const double *u, double *v, int n, int i)
{
	double diff = sweep_cols(u, v, n, i, n - 1);

	if (extra.work_pct > 0)
		diff = fmax(diff, sweep_cols(u, v, n, i, 1 + (n - 2) * extra.work_pct / 100));
	for (int k = 1; k < extra.imbalance && i < n / 2; k++)
		diff = fmax(diff, sweep_cols(u, v, n, i, n - 1));
	return diff;
}

/* SG_KNOB_SERIAL_PCT: P % of a sweep's rows computed by the calling thread alone. */
static double serial_rows(const double *u, double *v, int n)
{
	double diff = 0.0;
	int rows = (n - 2) * extra.serial_pct / 100;

	for (int i = 1; i <= rows; i++)
		diff = fmax(diff, sweep_cols(u, v, n, i, n - 1));
	return diff;
}

static double sweep(const double *u, double *v, int n, int no_parallel, int critical)
{
	double diff = 0.0;

	SG_BEGIN("sweep");
	if (extra.serial_pct > 0)
		diff = serial_rows(u, v, n);
	if (no_parallel) {
		for (int i = 1; i < n - 1; i++)
			diff = fmax(diff, sweep_row(u, v, n, i));
	} else if (critical) {
#pragma omp parallel for schedule(static) reduction(max : diff)
		for (int i = 1; i < n - 1; i++) {
#pragma omp critical
			diff = fmax(diff, sweep_row(u, v, n, i));
		}
	} else {
#pragma omp parallel for schedule(static) reduction(max : diff)
		for (int i = 1; i < n - 1; i++)
			diff = fmax(diff, sweep_row(u, v, n, i));
	}
	SG_END("sweep");
	return diff;
}

/* MS milliseconds of serial computation on the calling thread. */
static double serial_work(int ms)
{
	double start = omp_get_wtime(), x = 1.0;

	while (omp_get_wtime() - start < ms / 1000.0)
		for (int k = 0; k < 1000; k++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

/* Row i's squared residual over the columns 1 .. last - 1. */
static double residual_row(const double *u, int n, int i, int last)
{
	double r = 0.0;

	for (int j = 1; j < last; j++) {
		double d = 4 * u[i * n + j] - u[(i - 1) * n + j] - u[(i + 1) * n + j] - u[i * n + j - 1] - u[i * n + j + 1];
		r += d * d;
	}
	return r;
}

/* The squared residual of the rows over the columns 1 .. last - 1: in a serial loop or not. */
static double residual_cols(const double *u, int n, int last, int serial)
{
	double r = 0.0;

	if (serial) {
		for (int i = 1; i < n - 1; i++)
			r += residual_row(u, n, i, last);
	} else {
#pragma omp parallel for schedule(static) reduction(+ : r)
		for (int i = 1; i < n - 1; i++)
			r += residual_row(u, n, i, last);
	}
	return r;
}

static double residual(const double *u, int n, int serial)
{
	double r;

	SG_BEGIN("residual");
	r = residual_cols(u, n, n - 1, serial);
	if (extra.slow_pct > 0 && residual_cols(u, n, 1 + (n - 2) * extra.slow_pct / 100, serial) < 0)
		r = -1; /* keeps the work */
	SG_END("residual");
	return sqrt(r);
}

int main(int argc, char **argv)
{
	int threads, n, iterations;
	int serial = knob("SG_KNOB_SERIAL") || knob("SG_KNOB_NO_PARALLEL");
	int no_parallel = knob("SG_KNOB_NO_PARALLEL"), critical = knob("SG_KNOB_CRITICAL");
	int serial_ms = knob("SG_KNOB_SERIAL_MS"), threads_x = knob("SG_KNOB_THREADS_X");
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
	extra.work_pct = knob("SG_KNOB_WORK_PCT");
	extra.serial_pct = knob("SG_KNOB_SERIAL_PCT");
	extra.imbalance = knob("SG_KNOB_IMBALANCE");
	extra.slow_pct = knob("SG_KNOB_SLOW_PCT");
	extra.work_pct += extra.slow_pct;
	omp_set_num_threads(threads * (threads_x > 1 ? threads_x : 1));
	u = calloc((size_t)n * n, sizeof(double));
	v = calloc((size_t)n * n, sizeof(double));
	if (!u || !v) {
		fprintf(stderr, "jacobi: out of memory\n");
		return 1;
	}
	for (int j = 0; j < n; j++)
		u[j] = v[j] = 1.0; /* a hot top edge */

	SG_BEGIN("solve");
	if (serial_ms > 0 && serial_work(serial_ms) < 0)
		diff = -1; /* keeps the work */
	for (int it = 0; it < iterations; it++) {
		double *t;
		diff = sweep(u, v, n, no_parallel, critical);
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
