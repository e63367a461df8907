/* The machine speed reference: a fixed loop on the run's thread count, timed in on-CPU time. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "base/util.h"
#include "run/reference.h"

#define GRID 256     /* two grids of 512 KiB: in L2 or L3, as a real kernel's working set */
#define SWEEPS 40
#define CHAIN 2500000 /* dependent multiplies: the core's speed with no memory in it */

struct worker {
	pthread_t tid;
	double seconds;
};

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sweep(const double *a, double *b)
{
	for (int i = 1; i < GRID - 1; i++)
		for (int j = 1; j < GRID - 1; j++)
			b[i * GRID + j] = 0.25 * (a[(i - 1) * GRID + j] + a[(i + 1) * GRID + j] +
						  a[i * GRID + j - 1] + a[i * GRID + j + 1]);
}

static uint64_t chain(uint64_t x)
{
	for (long i = 0; i < CHAIN; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		x ^= x >> 17;
	}
	return x;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	double *a = xcalloc(2 * GRID * GRID, sizeof(double)), *b = a + GRID * GRID, start;
	volatile double sink;

	for (int i = 0; i < GRID * GRID; i++)
		a[i] = (double)(i % 7); /* touched before the clock starts: no page faults timed */
	sweep(a, b);
	start = thread_cpu();
	for (int s = 0; s < SWEEPS; s++)
		sweep(s % 2 ? b : a, s % 2 ? a : b);
	sink = (double)chain((uint64_t)a[GRID + 1]) + b[GRID + 1];
	w->seconds = thread_cpu() - start;
	(void)sink;
	free(a);
	return NULL;
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double reference_measure(int threads)
{
	int n = threads < 1 ? 1 : threads > REFERENCE_MAX_THREADS ? REFERENCE_MAX_THREADS : threads;
	struct worker *w = xcalloc((size_t)n, sizeof(*w));
	double *s = xcalloc((size_t)n, sizeof(double)), median = NAN;
	int started = 0;

	while (started < n && !pthread_create(&w[started].tid, NULL, work, &w[started]))
		started++;
	for (int i = 0; i < started; i++) {
		pthread_join(w[i].tid, NULL);
		s[i] = w[i].seconds;
	}
	if (started == n) {
		qsort(s, (size_t)n, sizeof(double), double_cmp);
		median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
	}
	free(s);
	free(w);
	return median;
}
