/* Intervals the rank's first thread never enters: a late pthread, OpenMP workers only, inner teams
 * of nested regions. */
#include <omp.h>
#include <pthread.h>
#include <scalegate.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static void *late(void *arg)
{
	(void)arg;
	SG_BEGIN("late");
	nap(17);
	SG_END("late");
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "late";

	SG_BEGIN("run");
	if (!strcmp(mode, "late")) {
		pthread_t th;
#pragma omp parallel num_threads(2)
		nap(1);
		if (pthread_create(&th, NULL, late, NULL) || pthread_join(th, NULL))
			return 1;
	} else if (!strcmp(mode, "workers")) {
#pragma omp parallel num_threads(2)
		if (omp_get_thread_num() == 1) {
			SG_BEGIN("worker_only");
			nap(10);
			SG_END("worker_only");
		}
	} else if (!strcmp(mode, "nested")) {
		omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
		if (omp_get_thread_num() == 1) {
			SG_BEGIN("inner_worker");
			nap(10);
			SG_END("inner_worker");
		}
	}
	SG_END("run");
	return 0;
}
