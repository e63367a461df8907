/* OpenMP behaviours of known size, for checking what the capture measures. usage: omp_known MODE */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "scalegate.h"

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ms of this thread's own CPU time, spun. */
static void spin_cpu_ms(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000.0 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

/* 5 x 20 ms of serial code between parallel regions. */
static void serial_section(void)
{
	SG_BEGIN("step");
	for (int i = 0; i < 5; i++) {
#pragma omp parallel num_threads(2)
		sleep_ms(5);
		sleep_ms(20);
	}
	SG_END("step");
}

/* Thread 1 reaches an explicit barrier 20 ms after thread 0, five times. */
static void late_barrier(void)
{
	SG_BEGIN("step");
#pragma omp parallel num_threads(2)
	for (int i = 0; i < 5; i++) {
		if (omp_get_thread_num() == 1)
			sleep_ms(20);
#pragma omp barrier
	}
	SG_END("step");
}

/* Each of two threads holds a critical section for 10 ms, five times: ~50 ms of waiting in all. */
static void critical(void)
{
	SG_BEGIN("step");
#pragma omp parallel num_threads(2)
	for (int i = 0; i < 5; i++) {
#pragma omp critical
		sleep_ms(10);
#pragma omp barrier
	}
	SG_END("step");
}

static void lock(void)
{
	omp_lock_t l;

	omp_init_lock(&l);
	SG_BEGIN("step");
#pragma omp parallel num_threads(2)
	for (int i = 0; i < 5; i++) {
		omp_set_lock(&l);
		sleep_ms(10);
		omp_unset_lock(&l);
#pragma omp barrier
	}
	SG_END("step");
	omp_destroy_lock(&l);
}

/* One thread takes a critical section and a lock 100000 times each: nobody waits, it is all work.
 */
static void uncontended(void)
{
	omp_lock_t l;
	volatile long n = 0;

	omp_init_lock(&l);
	SG_BEGIN("step");
#pragma omp parallel num_threads(1)
	for (int i = 0; i < 100000; i++) {
#pragma omp critical
		n++;
		omp_set_lock(&l);
		n++;
		omp_unset_lock(&l);
	}
	SG_END("step");
	omp_destroy_lock(&l);
}

/* Each of two threads holds a critical section, then a lock, spinning 5 ms of its CPU inside, five
 * times: 100 ms of on-CPU work held (omp_held), whatever the load. */
static void held(void)
{
	omp_lock_t l;

	omp_init_lock(&l);
	SG_BEGIN("step");
#pragma omp parallel num_threads(2)
	for (int i = 0; i < 5; i++) {
#pragma omp critical
		spin_cpu_ms(5);
		omp_set_lock(&l);
		spin_cpu_ms(5);
		omp_unset_lock(&l);
	}
	SG_END("step");
	omp_destroy_lock(&l);
}

/* A worksharing loop (not combined) whose implicit barrier thread 0 waits at for 20 ms. */
static void loop_end(void)
{
	SG_BEGIN("step");
#pragma omp parallel num_threads(2)
	for (int r = 0; r < 5; r++) {
#pragma omp for schedule(static)
		for (int i = 0; i < 2; i++)
			sleep_ms(i == 1 ? 20 : 0);
	}
	SG_END("step");
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } modes[] = {
		{ "serial", serial_section }, { "barrier", late_barrier }, { "critical", critical },
		{ "lock", lock }, { "loop", loop_end }, { "uncontended", uncontended },
		{ "held", held },
	};

	for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[1], modes[i].name)) {
			modes[i].fn();
			return 0;
		}
	fprintf(stderr, "usage: omp_known serial|barrier|critical|lock|loop|uncontended|held\n");
	return 2;
}
