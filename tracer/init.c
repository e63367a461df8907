/* Process-level life of the tracer: start when SCALEGATE_OUT is set, write the profile once at
 * exit. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

int sg_on;
double sg_start_unix;
int sg_rank = -1, sg_ranks = -1;
const char *sg_omp_mode = "none";
const char *sg_mpi_mode = "none";
int sg_mpi_wait_measured;
int sg_mpi_sync_on;
int sg_mpi_library;
int (*sg_reduce_hook)(const char *dir, int at_exit);

/* Nothing in a program refers to ompt.c (the OpenMP runtime looks up ompt_start_tool by
 * name): refer to it here so that linking the static library pulls it in with the rest. */
__attribute__((used)) static const int *const pull_ompt = &sg_ompt_on;

static pid_t start_pid;
static int written;
static int warned;

/* The tracer lives in someone else's program: one warning at most, never an exit. */
void sg_warn(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		return;
	fputs("scalegate: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (tracing disabled)\n", stderr);
}

int sg_enabled(void)
{
	return sg_on;
}

/* A child forked without exec must not write its parent's profile. */
static void after_fork_child(void)
{
	sg_on = 0;
	sg_self = NULL;
}

/* The rank a launcher gave a process that does not initialize MPI (mpirun -np 2 of a program
 * without MPI): Open MPI's and MPICH's variables, which only the launched processes carry. */
static void launcher_rank(void)
{
	static const char *const vars[][2] = {
		{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" },
		{ "PMI_RANK", "PMI_SIZE" },
	};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *r = getenv(vars[i][0]), *n = getenv(vars[i][1]);
		char *end1, *end2;
		long rank, size;
		if (!r || !n)
			continue;
		rank = strtol(r, &end1, 10);
		size = strtol(n, &end2, 10);
		if (*r && *n && !*end1 && !*end2 && rank >= 0 && rank < size && size < 1L << 30) {
			sg_rank = (int)rank;
			sg_ranks = (int)size;
			return;
		}
	}
}

/* 'why': SG_WRITE_CALL (sg_write_profile), _FINALIZE or _EXIT; the last two offer the profile to
 * the in-job reduction first (mpi-reduce.c), which writes the job's one profile. */
void sg_write_profile_for(int why)
{
	const char *dir = getenv("SCALEGATE_OUT");
	uint64_t now = sg_now();

	if (!sg_on || !dir || getpid() != start_pid)
		return;
	/* With the MPI capture, a process that never initialized MPI and was given no rank by a
	 * launcher is not one of the benchmark's ranks: a launcher's daemon (orted, prted), a
	 * wrapper (timeout). */
	if (sg_rank < 0)
		launcher_rank();
	if (sg_mpi_library && sg_rank < 0)
		return;
	if (__atomic_exchange_n(&written, 1, __ATOMIC_ACQ_REL))
		return;
	sg_threads_close(now);
	sg_clock_stop();
	sg_on = 0;
	sg_self = NULL;
	if (why != SG_WRITE_CALL && sg_reduce_hook && !sg_reduce_hook(dir, why == SG_WRITE_EXIT))
		return;
	if (sg_write(dir))
		sg_warn("cannot write the profile into '%s'", dir);
}

void sg_write_profile(void)
{
	sg_write_profile_for(SG_WRITE_CALL);
}

static void at_exit(void)
{
	sg_write_profile_for(SG_WRITE_EXIT);
}

static void program_name(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
}

/* The helpers of MPI launchers: they inherit LD_PRELOAD and SCALEGATE_OUT, and are never the
 * benchmark. */
static int launcher_helper(const char *exe)
{
	static const char *const names[] = {
		"orted",           "prted",  "prte",       "prterun",
		"orterun",         "mpirun", "mpiexec",    "mpiexec.hydra",
		"hydra_pmi_proxy", "srun",   "slurmstepd",
	};
	const char *base = strrchr(exe, '/');

	base = base ? base + 1 : exe;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(base, names[i]))
			return 1;
	return 0;
}

__attribute__((constructor)) static void sg_init(void)
{
	const char *dir = getenv("SCALEGATE_OUT");
	char exe[4096];
	struct timeval tv;
	struct sg_thread *t;

	if (!dir || !*dir)
		return;
	program_name(exe, sizeof(exe));
	if (launcher_helper(exe))
		return;
	start_pid = getpid();
	gettimeofday(&tv, NULL);
	sg_start_unix = (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
	sg_clock_start();
	sg_sched_start();
	sg_regions_init(exe);
	sg_on = 1;
	t = sg_thread_get();
	if (!t || !sg_stat_get(t, 0)) {
		sg_on = 0;
		sg_warn("out of memory at start-up");
		return;
	}
	t->is_main = 1;
	pthread_atfork(NULL, NULL, after_fork_child);
	atexit(at_exit);
}
