/*
 * imbalance: an OpenMP loop whose first half of iterations costs three times
 * the second half. With schedule(static) on two threads, thread 0 gets 3/4 of
 * the work (a 3:1 imbalance) and thread 1 waits at the loop's end.
 *
 *   usage: imbalance THREADS ITERATIONS [REPEATS]
 *   knob:  SG_KNOB_SCHEDULE=static (imbalanced); default dynamic (balanced)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalegate.h"

/* About one microsecond of arithmetic per unit. */
static double work(int units)
{
	double x = 1.0;

	for (int i = 0; i < units * 250; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

int main(int argc, char **argv)
{
	const char *knob = getenv("SG_KNOB_SCHEDULE");
	int threads, iterations, repeats, is_static = knob && !strcmp(knob, "static");
	double sum = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: imbalance THREADS ITERATIONS [REPEATS]\n");
		return 2;
	}
	threads = atoi(argv[1]);
	iterations = atoi(argv[2]);
	repeats = argc > 3 ? atoi(argv[3]) : 10;
	if (threads < 1 || iterations < 2 || repeats < 1) {
		fprintf(stderr, "imbalance: THREADS >= 1, ITERATIONS >= 2, REPEATS >= 1\n");
		return 2;
	}
	omp_set_num_threads(threads);
	/* The schedule is a run-time choice so that one binary has both behaviours. */
	omp_set_schedule(is_static ? omp_sched_static : omp_sched_dynamic, is_static ? 0 : 4);

	SG_BEGIN("loop");
	for (int r = 0; r < repeats; r++) {
#pragma omp parallel for schedule(runtime) reduction(+ : sum)
		for (int i = 0; i < iterations; i++)
			sum += work(i < iterations / 2 ? 30 : 10);
	}
	SG_END("loop");

	printf("imbalance: threads=%d iterations=%d schedule=%s sum=%.6g\n", threads, iterations,
	       is_static ? "static" : "dynamic", sum);
	return 0;
}
