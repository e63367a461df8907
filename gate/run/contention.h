/* How much CPU other processes used while a run ran: /proc/stat against the run's own rusage
 * (docs/running.md). */
#ifndef SG_CONTENTION_H
#define SG_CONTENTION_H

#include <sched.h>

/* Runs shorter than this many clock ticks (0.2 s at 100 Hz) have no measurable contention. */
#define CONTENTION_MIN_TICKS 20

/* The busy jiffies of the CPUs a run may use, at one instant. */
struct contention_sample {
	unsigned long long busy; /* user + nice + system + irq + softirq + steal */
	int valid;               /* 0: /proc/stat was unreadable */
};

/*
 * The busy jiffies in a /proc/stat text: the sum of the 'cpuN' lines whose N
 * is in 'cpus' (so CPUs the run cannot use do not count), or the aggregate
 * 'cpu' line when 'cpus' is NULL or names none of them. 0, or -1 when the
 * text has no usable line.
 */
int contention_parse_stat(const char *text, const cpu_set_t *cpus, unsigned long long *busy);

/* Reads /proc/stat for the CPUs of this process's affinity; s->valid says whether it could. */
void contention_sample(struct contention_sample *s);

/*
 * Cores used by other processes during a run: (busy − own) / wall, where busy
 * is 'busy_jiffies' at 'clk_tck' per second and 'own_cpu' the run's user +
 * system seconds; at least 0. NAN when 'clk_tck' is not positive or the run
 * lasted fewer than CONTENTION_MIN_TICKS ticks.
 */
double contention_cores(unsigned long long busy_jiffies, long clk_tck, double own_cpu, double wall);

/*
 * The contention a run felt: the cores other processes used beyond those the
 * run left free ('machine' cores, the run using 'run_cores' of them), at least
 * 0. A 1-thread run on 2 cores with one busy neighbour is not contended; NAN in, NAN out.
 */
double contention_beyond_free(double others, int run_cores, int machine);
/* The CPUs of this process's affinity (at least 1). */
int contention_machine_cores(void);

/* contention_cores() between two samples; NAN when either is not valid. */
double contention_between(const struct contention_sample *start,
			  const struct contention_sample *end, double own_cpu, double wall);

#endif
