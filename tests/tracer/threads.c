/* Intervals from many kinds of threads: short-lived pthreads, a late thread, OpenMP teams, nested
 * teams, master. */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalegate.h"

static double sink;

static void spin(int n)
{
	double x = 0;

	for (int i = 0; i < n; i++)
		x += i * 0.5;
	__atomic_store(&sink, &x, __ATOMIC_RELAXED);
}

static void *short_lived(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++) {
		SG_BEGIN("thread-work");
		spin(1000);
		SG_END("thread-work");
	}
	return NULL;
}

/* 64 threads, at most 4 alive at once. */
static void many_threads(void)
{
	for (int round = 0; round < 16; round++) {
		pthread_t t[4];
		for (int i = 0; i < 4; i++)
			pthread_create(&t[i], NULL, short_lived, NULL);
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
	}
}

static void *late(void *arg)
{
	(void)arg;
	SG_BEGIN("late");
	spin(100000);
	SG_END("late");
	return NULL;
}

static void late_thread(void)
{
	pthread_t t;

	SG_BEGIN("before");
	spin(200000);
	SG_END("before");
	pthread_create(&t, NULL, late, NULL);
	pthread_join(t, NULL);
}

static void omp_teams(void)
{
	SG_BEGIN("team");
#pragma omp parallel num_threads(4)
	{
		SG_BEGIN("body");
		spin(100000);
		SG_END("body");
	}
	SG_END("team");
}

static void nested_teams(void)
{
	omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
	{
		SG_BEGIN("outer");
#pragma omp parallel num_threads(2)
		{
			SG_BEGIN("inner");
			spin(50000);
			SG_END("inner");
		}
		SG_END("outer");
	}
}

static void in_master(void)
{
#pragma omp parallel num_threads(2)
	{
#pragma omp master
		{
			SG_BEGIN("master-only");
			spin(100000);
			SG_END("master-only");
		}
	}
}

static void *writer(void *arg)
{
	(void)arg;
	sg_write_profile();
	return NULL;
}

/* The profile written by another thread (as MPI_Finalize may be): level 0 still ends. */
static void write_from_thread(void)
{
	pthread_t t;

	spin(200000);
	pthread_create(&t, NULL, writer, NULL);
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "many"))
		many_threads();
	else if (!strcmp(mode, "late"))
		late_thread();
	else if (!strcmp(mode, "team"))
		omp_teams();
	else if (!strcmp(mode, "nested"))
		nested_teams();
	else if (!strcmp(mode, "master"))
		in_master();
	else if (!strcmp(mode, "write-from-thread"))
		write_from_thread();
	else {
		fprintf(stderr, "usage: threads many|late|team|nested|master|write-from-thread\n");
		return 2;
	}
	return 0;
}
