/* The tracer's clock: an invariant TSC calibrated against CLOCK_MONOTONIC, else CLOCK_MONOTONIC
 * itself. */
#include "internal.h"

#include <math.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int sg_clock_tsc;

static uint64_t tick0, tick1;
static double mono0, mono1;
static double hz_start, hz_run;

static double mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPUID 0x80000007 EDX bit 8: the TSC ticks at a constant rate in every P-, C- and T-state. */
static int tsc_invariant(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return 0;
	__get_cpuid(0x80000007, &a, &b, &c, &d);
	return (d >> 8) & 1;
#else
	return 0;
#endif
}

/* Ticks per second over a short spin: the check the whole-run rate is compared with. */
static double tsc_rate_sample(double seconds)
{
	double m0 = mono_seconds(), m1;
	uint64_t t0 = sg_now(), t1;

	do {
		m1 = mono_seconds();
		t1 = sg_now();
	} while (m1 - m0 < seconds);
	return (double)(t1 - t0) / (m1 - m0);
}

void sg_clock_start(void)
{
	sg_clock_tsc = tsc_invariant();
	hz_start = sg_clock_tsc ? tsc_rate_sample(0.002) : 1e9;
	hz_run = hz_start;
	mono0 = mono_seconds();
	tick0 = sg_now();
}

void sg_clock_stop(void)
{
	tick1 = sg_now();
	mono1 = mono_seconds();
	/* Over a long run the two endpoints give the best rate; a short run keeps the sample. */
	if (sg_clock_tsc && mono1 - mono0 > 0.05)
		hz_run = (double)(tick1 - tick0) / (mono1 - mono0);
}

double sg_clock_hz(void)
{
	return hz_run;
}

double sg_clock_drift(void)
{
	return fabs(hz_run / hz_start - 1.0);
}

double sg_clock_resolution(void)
{
	struct timespec res;

	if (sg_clock_tsc)
		return 1.0 / hz_run;
	clock_getres(CLOCK_MONOTONIC, &res);
	return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}

const char *sg_clock_name(void)
{
	return sg_clock_tsc ? "tsc" : "monotonic";
}
