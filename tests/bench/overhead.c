/* The tracer's overhead: ns per enter+exit pair (1 and 2 threads) and its ratio to a bare timestamp
 * pair, the cost of the on-CPU and run-queue clocks on long instances, OpenMP constructs, and a
 * kernel's slowdown. */
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "bench.h"
#include "scalegate.h"

#define RUNS 7
#define PAIRS 5000000L

static volatile int sink;

static void sink_value(int v)
{
	sink = v;
}

static double bare_pair(void)
{
	volatile unsigned long long s = 0;
	double t0 = bench_now();

	for (long i = 0; i < PAIRS; i++) {
#if defined(__x86_64__)
		s += __rdtsc();
		s += __rdtsc();
#else
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += ts.tv_nsec;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += ts.tv_nsec;
#endif
	}
	sink_value((int)s); /* the readings are used: nothing to optimize away */
	return (bench_now() - t0) / PAIRS * 1e9;
}

static double traced_pairs(void)
{
	double t0 = bench_now();

	for (long i = 0; i < PAIRS; i++) {
		SG_BEGIN("pair");
		SG_END("pair");
	}
	return (bench_now() - t0) / PAIRS * 1e9;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* On-CPU seconds of one call of f: a wait for the CPU on a busy machine does not count. */
static double on_cpu(double (*f)(void))
{
	double t0 = cpu_now();

	f();
	return cpu_now() - t0;
}

/* The pair over the bare timestamp pair, side by side in each run (alternating), timed in on-CPU
 * time: load then moves both alike, through caches only. */
static void pair_ratio(void)
{
	enum { N = 21 };
	double ratio[N];

	for (int r = 0; r < N; r++) {
		double bare = r % 2 ? on_cpu(bare_pair) : 0, traced = on_cpu(traced_pairs);
		if (!(r % 2))
			bare = on_cpu(bare_pair);
		ratio[r] = traced / bare;
	}
	bench_report("short enter+exit pair / bare TSC pair, on-CPU", ratio, N, "x ");
}

static void spin_seconds(double s)
{
	double end = bench_now() + s;

	while (bench_now() < end)
		;
}

/* ns to time SG_BEGIN and SG_END of one instance; 'gap' seconds before and inside it. Past the
 * 250 us between snapshots each takes one (the thread's CPU clock, and a pread of its schedstat
 * when it was off its CPU meanwhile: here, on a busy machine); short ones take none. */
static double timed_pair(const char *what, double gap, int n)
{
	double cost = 0;
	sg_region_t r = sg_region(what, __FILE__, __LINE__);

	for (int i = 0; i < n; i++) {
		spin_seconds(gap);
		double t0 = bench_now();
		sg_begin(r);
		double t1 = bench_now();
		spin_seconds(gap);
		double t2 = bench_now();
		sg_end(r);
		cost += t1 - t0 + bench_now() - t2;
	}
	return cost / n * 1e9;
}

static double read_cost(int schedstat)
{
	const int n = 20000;
	struct timespec ts;
	char buf[96];
	int fd = schedstat ? open("/proc/thread-self/schedstat", O_RDONLY) : -1;
	double t0 = bench_now();

	if (schedstat && fd < 0)
		return NAN;
	for (int i = 0; i < n; i++) {
		if (schedstat)
			sink_value((int)pread(fd, buf, sizeof(buf), 0));
		else
			sink_value((int)clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts));
	}
	t0 = (bench_now() - t0) / n * 1e9;
	if (fd >= 0)
		close(fd);
	return t0;
}

/* What the new clocks cost: once per instance longer than 250 us, at its begin and its end; the
 * instance timed is just past that, where their share is largest. */
static void clock_costs(void)
{
	double lng[RUNS], shrt[RUNS], v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		lng[r] = timed_pair("long", 0.3e-3, 400);
		shrt[r] = timed_pair("short", 0, 20000);
	}
	bench_report("timed begin+end, instance of 0.3 ms", lng, RUNS, "ns");
	bench_report("timed begin+end, empty instance", shrt, RUNS, "ns");
	double extra = bench_median(lng, RUNS) - bench_median(shrt, RUNS);

	printf("%-44s %8.2f us per instance past 250 us (%.2f %% of a 0.3 ms instance)\n",
	       "  the clocks' cost", extra * 1e-3, extra / 0.3e6 * 100);
	for (int r = 0; r < RUNS; r++)
		v[r] = read_cost(0);
	bench_report("  of which: CLOCK_THREAD_CPUTIME_ID read", v, RUNS, "ns");
	for (int r = 0; r < RUNS; r++)
		v[r] = read_cost(1);
	bench_report("  of which: pread of /proc/thread-self/schedstat", v, RUNS, "ns");
}

/* Each of 'threads' threads runs the pairs; the figure is the slowest thread's ns per pair. */
static double traced_pairs_threads(int threads)
{
	double worst = 0;

#pragma omp parallel num_threads(threads) reduction(max : worst)
	worst = traced_pairs();
	return worst;
}

static double bare_pair_threads(int threads)
{
	double worst = 0;

#pragma omp parallel num_threads(threads) reduction(max : worst)
	worst = bare_pair();
	return worst;
}

/* A 2-D Jacobi sweep over rows; 'instrument' marks each sweep and each block of 16 rows. */
static double kernel(double *a, double *b, int n, int sweeps, int instrument)
{
	double t0 = bench_now();

	for (int s = 0; s < sweeps; s++) {
		if (instrument)
			SG_BEGIN("sweep");
		for (int i0 = 1; i0 < n - 1; i0 += 16) {
			if (instrument)
				SG_BEGIN("rows");
			for (int i = i0; i < i0 + 16 && i < n - 1; i++)
				for (int j = 1; j < n - 1; j++)
					b[i * n + j] = 0.25 *
						       (a[(i - 1) * n + j] + a[(i + 1) * n + j] +
							a[i * n + j - 1] + a[i * n + j + 1]);
			if (instrument)
				SG_END("rows");
		}
		if (instrument)
			SG_END("sweep");
		double *t = a;
		a = b;
		b = t;
	}
	return bench_now() - t0;
}

/* ns per empty parallel region, per barrier and per uncontended critical section, 2 threads. */
static double omp_region(void)
{
	const int n = 20000;
	double t0 = bench_now();

	for (int i = 0; i < n; i++) {
#pragma omp parallel num_threads(2)
		sink_value(i);
	}
	return (bench_now() - t0) / n * 1e9;
}

static double omp_barrier(void)
{
	const int n = 50000;
	double t = 0;

#pragma omp parallel num_threads(2)
	{
		double t0 = bench_now();
		for (int i = 0; i < n; i++) {
#pragma omp barrier
		}
#pragma omp master
		t = (bench_now() - t0) / n * 1e9;
	}
	return t;
}

/* libgomp's own GOMP_barrier, bypassing the tracer's wrapper: the same barrier, side by side. */
static double omp_barrier_direct(void)
{
	void (*real)(void) = (void (*)(void))dlsym(RTLD_NEXT, "GOMP_barrier");
	const int n = 50000;
	double t = 0;

	if (!real)
		return NAN;
#pragma omp parallel num_threads(2)
	{
		double t0 = bench_now();
		for (int i = 0; i < n; i++)
			real();
#pragma omp master
		t = (bench_now() - t0) / n * 1e9;
	}
	return t;
}

static double omp_critical(void)
{
	const int n = 200000;
	double t0 = bench_now();

	for (int i = 0; i < n; i++) {
#pragma omp critical
		sink_value(i);
	}
	return (bench_now() - t0) / n * 1e9;
}

static void omp_costs(void)
{
	double v[RUNS], direct[RUNS];

	for (int r = 0; r < RUNS; r++)
		v[r] = omp_region();
	bench_report("empty parallel region, 2 threads", v, RUNS, "ns");
	for (int r = 0; r < RUNS; r++) { /* alternating, so that noise hits both */
		v[r] = omp_barrier();
		direct[r] = omp_barrier_direct();
	}
	bench_report("barrier, 2 threads, through the wrapper", v, RUNS, "ns");
	bench_report("barrier, 2 threads, libgomp's directly", direct, RUNS, "ns");
	for (int r = 0; r < RUNS; r++)
		v[r] = omp_critical();
	bench_report("critical section, uncontended", v, RUNS, "ns");
}

static void kernel_slowdown(void)
{
	const int n = 512, sweeps = 100;
	double *a = calloc((size_t)n * n, sizeof(double)),
	       *b = calloc((size_t)n * n, sizeof(double));
	double ratio[4 * RUNS + 1], block_us;
	int runs = 4 * RUNS + 1;

	for (int i = 0; i < n; i++)
		a[i] = b[i] = 1.0;
	kernel(a, b, n, sweeps, 0); /* warm-up */
	for (int r = 0; r < runs; r++) {
		/* Side by side in one run, alternating order, so machine noise hits both. */
		double plain = r % 2 ? kernel(a, b, n, sweeps, 0) : 0;
		double traced = kernel(a, b, n, sweeps, 1);
		if (!(r % 2))
			plain = kernel(a, b, n, sweeps, 0);
		ratio[r] = (traced / plain - 1.0) * 100.0;
		block_us = plain / sweeps / ((n - 2 + 15) / 16) * 1e6;
	}
	bench_report("kernel slowdown (Jacobi 512x512, 16-row blocks)", ratio, runs, "% ");
	printf("%-44s %8.1f us per instrumented block\n", "  granularity", block_us);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	double v[RUNS];
	const char *only = argc > 1 ? argv[1] : "";

	printf("tracer %s, clock pairs of %ld, %s\n",
	       sg_enabled() ? "measuring" : "off (no SCALEGATE_OUT)", PAIRS, "medians over runs");
	if (!*only || !strcmp(only, "pairs")) {
		for (int r = 0; r < RUNS; r++)
			v[r] = bare_pair();
		bench_report("bare timestamp pair", v, RUNS, "ns");
		for (int r = 0; r < RUNS; r++)
			v[r] = traced_pairs();
		bench_report("enter+exit pair, 1 thread", v, RUNS, "ns");
		for (int r = 0; r < RUNS; r++)
			v[r] = bare_pair_threads(2);
		bench_report("bare timestamp pair, 2 threads (slowest)", v, RUNS, "ns");
		for (int r = 0; r < RUNS; r++)
			v[r] = traced_pairs_threads(2);
		bench_report("enter+exit pair, 2 threads (slowest)", v, RUNS, "ns");
	}
	if (!*only || !strcmp(only, "pairs") || !strcmp(only, "ratio"))
		pair_ratio();
	if (sg_enabled() && (!*only || !strcmp(only, "clocks")))
		clock_costs();
	if (!*only || !strcmp(only, "omp"))
		omp_costs();
	if (!*only || !strcmp(only, "kernel"))
		kernel_slowdown();
	return 0;
}
