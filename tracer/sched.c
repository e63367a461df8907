/* On-CPU time and run-queue delay per thread and interval, from snapshots of the thread's clocks
 * taken at boundaries at least 1 ms apart: a short interval costs a compare (tracer/PROFILE.md). */
#include "internal.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SG_SNAP_SECONDS 1e-3

uint64_t sg_snap_ticks = UINT64_MAX;
double sg_ticks_per_ns = 1;
int sg_sched_on;
int sg_cpus;
/* The union of the threads' affinity masks (under sg_lock): a runtime that binds its threads to
 * places (OMP_PROC_BIND) has bound the main thread to one before the tracer starts. */
static cpu_set_t cpus_seen;

/* /proc/thread-self/schedstat; SCALEGATE_SCHEDSTAT names another (tests: one that is missing). */
static char schedstat_path[256] = "/proc/thread-self/schedstat";

/* The second field of a schedstat line: nanoseconds runnable but not running. */
static int parse_rq(const char *buf, uint64_t *rq)
{
	char *end;

	strtoull(buf, &end, 10);
	if (end == buf || *end != ' ')
		return -1;
	buf = end + 1;
	*rq = strtoull(buf, &end, 10);
	return end == buf || *end != ' ' ? -1 : 0;
}

static int read_rq(int fd, uint64_t *rq)
{
	char buf[96];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return parse_rq(buf, rq);
}

static int open_schedstat(void)
{
	int fd = open(schedstat_path, O_RDONLY | O_CLOEXEC);
	uint64_t rq;

	if (fd >= 0 && read_rq(fd, &rq)) {
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

static uint64_t rq_ns(struct sg_thread *t)
{
	uint64_t rq;

	if (t->sched_fd < 0)
		return 0;
	if (read_rq(t->sched_fd, &rq)) {
		t->rq_lost = 1;
		return t->snap_rq;
	}
	return rq;
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
	t->snap_rq = rq_ns(t);
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
		double share = t->phase_start <= t->snap_tsc ? 1.0
			       : t->phase_start >= now ? 0.0
						       : (double)(now - t->phase_start) * per_tick;
		t->phase_rq += rq * share;
		t->phase_cpu += cpu * share;
	}
}

uint64_t sg_snap(struct sg_thread *t, uint32_t upto)
{
	uint64_t cpu = cpu_ns(t), rq = rq_ns(t);
	/* The span ends after the reads: a wait for the CPU between the caller's clock and the
	 * reads is in rq, so it must be in the span's wall time too. */
	uint64_t now = sg_now();

	if (now > t->snap_tsc) {
		attribute(t, now, upto, cpu > t->snap_cpu ? (double)(cpu - t->snap_cpu) : 0,
			  rq > t->snap_rq ? (double)(rq - t->snap_rq) : 0);
	} else {
		for (uint32_t i = 0; i < t->nr_pending; i++)
			stat_at(t, t->pending[i])->pend = 0;
	}
	t->nr_pending = 0;
	t->snap_tsc = now;
	t->snap_due = now + sg_snap_ticks;
	t->snap_cpu = cpu;
	t->snap_rq = rq;
	return now;
}

