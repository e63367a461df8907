/* On-CPU time and run-queue delay per interval (cli/tracer-sched), and the injection per thread. */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "scalegate.h"

static volatile double sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Busy for 'seconds' of wall time: on a CPU, or waiting for one. */
static void spin_for(double seconds)
{
	double end = now() + seconds, x = 0;

	while (now() < end)
		x += 1.0;
	sink = x;
}

/* A fixed amount of work, however long it takes. */
static void work(long units)
{
	double x = 0;

	for (long i = 0; i < units * 1000; i++)
		x += (double)i * 0.5;
	sink = x;
}

static void basic(void)
{
	struct timespec nap = { 0, 60000000 };

	SG_BEGIN("spin");
	spin_for(0.06);
	SG_END("spin");
	SG_BEGIN("sleep");
	nanosleep(&nap, NULL);
	SG_END("sleep");
	/* Entries far shorter than the 250 us between snapshots: they get their share at the next.
	 */
	SG_BEGIN("loop");
	for (int i = 0; i < 20000; i++) {
		SG_BEGIN("tiny");
		spin_for(2e-6);
		SG_END("tiny");
	}
	SG_END("loop");
	SG_BEGIN("team");
#pragma omp parallel num_threads(2)
	spin_for(0.04);
	SG_END("team");
}

/* 'a' and 'b' do the same work, interleaved so that load hits both alike: a serial part, then a
 * parallel loop. SCALEGATE_INJECT=a:… slows one of them down. */
static void twins(void)
{
	for (int it = 0; it < 20; it++) {
		SG_BEGIN("a");
		work(1000);
#pragma omp parallel for num_threads(2) schedule(static)
		for (int i = 0; i < 16; i++)
			work(500);
		SG_END("a");
		SG_BEGIN("b");
		work(1000);
#pragma omp parallel for num_threads(2) schedule(static)
		for (int i = 0; i < 16; i++)
			work(500);
		SG_END("b");
	}
}

/* A team's short bodies, then its worker asleep in the pool until the profile is written: the
 * writer reads the clocks of a thread that is not running (its last span, from another thread). */
static void idle(void)
{
	struct timespec nap = { 0, 60000000 };

	SG_BEGIN("brief");
#pragma omp parallel num_threads(2)
	spin_for(50e-6);
	SG_END("brief");
	nanosleep(&nap, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";

	if (!strcmp(mode, "basic"))
		basic();
	else if (!strcmp(mode, "twins"))
		twins();
	else if (!strcmp(mode, "idle"))
		idle();
	else
		return 2;
	return 0;
}
