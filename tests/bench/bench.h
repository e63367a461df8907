/* Helpers the benchmark programs share: a monotonic clock and medians over runs. */
#ifndef SG_BENCH_H
#define SG_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts 'v' and returns its median. */
static inline double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
	return v[n / 2];
}

/* One line: median, min and max of 'n' runs. Sorts 'v'. */
static inline void bench_report(const char *what, double *v, int n, const char *unit)
{
	double med = bench_median(v, n);

	printf("%-44s median %8.2f %s   min %8.2f   max %8.2f   (%d runs)\n", what, med, unit, v[0],
	       v[n - 1], n);
}

#endif
