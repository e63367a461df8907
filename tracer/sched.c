/* On-CPU time and run-queue delay per thread and interval, from snapshots of the thread's clocks
 * taken at boundaries at least 250 µs apart: a short interval costs a compare (PROFILE.md). */
#include "internal.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SG_SNAP_SECONDS 250e-6

uint64_t sg_snap_ticks = UINT64_MAX;
double sg_ticks_per_ns = 1;
int sg_sched_on;
int sg_cpus;
/* The union of the threads' affinity masks (under sg_lock): a runtime that binds its threads to
 * places (OMP_PROC_BIND) has bound the main thread to one before the tracer starts. */
static cpu_set_t cpus_seen;

/* /proc/thread-self/schedstat; SCALEGATE_SCHEDSTAT names another (tests: one that is missing). */
static char schedstat_path[256] = "/proc/thread-self/schedstat";

/* A schedstat line: nanoseconds on a CPU, nanoseconds runnable but not running, and how many
 * times the thread was put on a CPU. */
static int parse_schedstat(const char *buf, uint64_t *rq, uint64_t *runs)
{
	char *end;

	strtoull(buf, &end, 10);
	if (end == buf || *end != ' ')
		return -1;
	buf = end + 1;
	*rq = strtoull(buf, &end, 10);
	if (end == buf || *end != ' ')
		return -1;
	buf = end + 1;
	*runs = strtoull(buf, &end, 10);
	return end == buf ? -1 : 0;
}

static int read_schedstat(int fd, uint64_t *rq, uint64_t *runs)
{
	char buf[96];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return parse_schedstat(buf, rq, runs);
}

static int open_schedstat(void)
{
	int fd = open(schedstat_path, O_RDONLY | O_CLOEXEC);
	uint64_t rq, runs;

	if (fd >= 0 && read_schedstat(fd, &rq, &runs)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

void sg_sched_start(void)
{
	const char *path = getenv("SCALEGATE_SCHEDSTAT");
	int fd;

	if (path && *path && strlen(path) < sizeof(schedstat_path))
		strcpy(schedstat_path, path);
	fd = open_schedstat();
	sg_sched_on = fd >= 0;
	if (fd >= 0)
		close(fd);
	CPU_ZERO(&cpus_seen);
	sg_cpus = -1;
	sg_sched_note_cpus();
	sg_snap_ticks = (uint64_t)(sg_clock_hz() * SG_SNAP_SECONDS);
	sg_ticks_per_ns = sg_clock_hz() * 1e-9;
}

void sg_sched_note_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	CPU_OR(&cpus_seen, &cpus_seen, &set);
	sg_cpus = CPU_COUNT(&cpus_seen);
}

static uint64_t cpu_ns(struct sg_thread *t)
{
	struct timespec ts;

	if (clock_gettime(t->cpu_clock, &ts)) {
		t->cpu_lost = 1;
		return t->snap_cpu;
	}
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Its run-queue delay in ns, and in *runs how many times it was put on a CPU. */
static uint64_t rq_ns(struct sg_thread *t, uint64_t *runs)
{
	uint64_t rq;

	*runs = t->snap_runs;
	if (t->sched_fd < 0)
		return 0;
	if (read_schedstat(t->sched_fd, &rq, runs)) {
		t->rq_lost = 1; /* stolen_ns() counts nothing from now on */
		*runs = t->snap_runs;
		return t->snap_rq;
	}
	return rq;
}

/*
 * A thread that stayed on its CPU between two readings (never put on one again) and was on it for
 * less than the time between them lost the rest to the machine: the hypervisor ran another guest
 * on its virtual CPU (steal), or interrupts ran there. To the thread it is a wait for a CPU like a
 * run-queue delay, and is counted as one. Below STOLEN_MIN of the span (plus the readings' own
 * jitter) it is noise. Only a thread reading its own clocks was running: another's (a team worker
 * asleep in its pool when the profile is written) may have gone to sleep and not been woken.
 */
#define STOLEN_MIN 0.01
#define STOLEN_JITTER_NS 2000.0

/* ns of the span since the last snapshot to 'now' that the thread was not on its CPU ('dcpu' of
 * it on), and whether that is past the noise of the readings. */
static double off_cpu_ns(const struct sg_thread *t, uint64_t now, double dcpu)
{
	return (double)(now - t->snap_tsc) / sg_ticks_per_ns - dcpu;
}

static int off_past_jitter(const struct sg_thread *t, uint64_t now, double dcpu)
{
	double span = (double)(now - t->snap_tsc) / sg_ticks_per_ns;

	return span - dcpu > STOLEN_MIN * span + STOLEN_JITTER_NS;
}

/* Whether t reads its own clocks, both of which it has. */
static int reads_own_clocks(const struct sg_thread *t)
{
	return t == sg_self && t->sched_fd >= 0 && !t->cpu_lost;
}

static double stolen_ns(const struct sg_thread *t, uint64_t now, double dcpu, uint64_t runs)
{
	if (!reads_own_clocks(t) || t->rq_lost || runs != t->snap_runs ||
	    !off_past_jitter(t, now, dcpu))
		return 0;
	return off_cpu_ns(t, now, dcpu);
}

void sg_sched_thread_start(struct sg_thread *t, uint64_t now)
{
	if (pthread_getcpuclockid(pthread_self(), &t->cpu_clock))
		t->cpu_clock = CLOCK_THREAD_CPUTIME_ID; /* own only: the writer cannot flush it */
	t->sched_fd = sg_sched_on ? open_schedstat() : -1;
	if (sg_sched_on && t->sched_fd < 0)
		t->rq_lost = 1;
	t->nr_pending = 0;
	t->snap_tsc = now;
	t->snap_due = now + sg_snap_ticks;
	t->snap_cpu = cpu_ns(t);
	t->snap_rq = rq_ns(t, &t->snap_runs);
}

void sg_sched_thread_stop(struct sg_thread *t)
{
	if (t->sched_fd >= 0)
		close(t->sched_fd);
	t->sched_fd = -1;
	t->snap_due = UINT64_MAX;
}

static struct sg_stat *stat_at(struct sg_thread *t, uint32_t node)
{
	return &t->chunks[node / SG_CHUNK][node % SG_CHUNK];
}

/* The share of the span ending at 'now' after 'start' (a phase's beginning). */
static double since_share(const struct sg_thread *t, uint64_t start, uint64_t now, double per_tick)
{
	return start <= t->snap_tsc ? 1.0 : start >= now ? 0.0 : (double)(now - start) * per_tick;
}

/* Frames below 'upto' whose time counts (not a worker's level 0) and pending nodes: their share. */
static void attribute(struct sg_thread *t, uint64_t now, uint32_t upto, double cpu, double rq)
{
	double per_tick = 1.0 / (double)(now - t->snap_tsc);

	for (uint32_t d = t->is_main ? 0 : 1; d < upto; d++) {
		const struct sg_frame *f = &t->stack[d];
		struct sg_stat *s = stat_at(t, f->node);
		double share = f->start <= t->snap_tsc ? 1.0 : (double)(now - f->start) * per_tick;
		s->cpu += cpu * share;
		s->rq += rq * share;
	}
	for (uint32_t i = 0; i < t->nr_pending; i++) {
		struct sg_stat *s = stat_at(t, t->pending[i]);
		double share = (double)s->pend * per_tick;
		s->cpu += cpu * share;
		s->rq += rq * share;
		s->pend = 0;
	}
	if (t->phase_start) { /* the team phase's part (team.c) */
		double share = since_share(t, t->phase_start, now, per_tick);
		t->phase_rq += rq * share;
		t->phase_cpu += cpu * share;
	}
	if (t->mpi_start) { /* the MPI lag's part (mpi-node.c) */
		double share = since_share(t, t->mpi_start, now, per_tick);
		t->mpi_rq += rq * share;
		t->mpi_cpu += cpu * share;
	}
}

/* The run-queue delay of the span: after spans that skipped schedstat, the delay read covers them
 * too, and no more than this span's time off the CPU is this span's (theirs was within the
 * jitter). */
static double span_rq(struct sg_thread *t, uint64_t now, double dcpu, uint64_t rq)
{
	double drq = rq > t->snap_rq ? (double)(rq - t->snap_rq) : 0;
	double off = off_cpu_ns(t, now, dcpu);

	if (t->rq_skipped && drq > off)
		drq = off > 0 ? off : 0;
	return drq;
}

uint64_t sg_snap(struct sg_thread *t, uint32_t upto)
{
	uint64_t runs = t->snap_runs, cpu = cpu_ns(t), rq = t->snap_rq;
	double dcpu = cpu > t->snap_cpu ? (double)(cpu - t->snap_cpu) : 0;
	/* The span ends after the reads: a wait for the CPU between the caller's clock and the
	 * reads is in rq, so it must be in the span's wall time too. */
	uint64_t now = sg_now();
	/* Off its CPU for at most the jitter, a thread reading its own clocks waited (in the run
	 * queue, or stolen) for at most that: its schedstat (3 us a read, against 0.3 for the CPU
	 * clock) need not be read. On a quiet machine that is nearly every span. */
	int skip = reads_own_clocks(t) && now > t->snap_tsc && !off_past_jitter(t, now, dcpu);

	if (!skip) {
		rq = rq_ns(t, &runs);
		now = sg_now();
	}
	if (now > t->snap_tsc)
		attribute(t, now, upto, dcpu,
			  skip ? 0 : span_rq(t, now, dcpu, rq) + stolen_ns(t, now, dcpu, runs));
	else
		for (uint32_t i = 0; i < t->nr_pending; i++)
			stat_at(t, t->pending[i])->pend = 0;
	t->rq_skipped = skip;
	t->nr_pending = 0;
	t->snap_tsc = now;
	t->snap_due = now + sg_snap_ticks;
	t->snap_cpu = cpu;
	t->snap_rq = rq;
	t->snap_runs = runs;
	return now;
}
