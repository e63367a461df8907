/* Contention of one run: the CPU time of the machine's other processes during it, in cores. */
#include "run/contention.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The busy jiffies of one 'cpu…' line's counters; -1 when it has fewer than 8. */
static int line_busy(const char *p, unsigned long long *busy)
{
	/* user nice system idle iowait irq softirq steal [guest guest_nice]: guest is already in
	 * user */
	unsigned long long v[8];
	char *end;

	for (int i = 0; i < 8; i++) {
		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	return 0;
}

int contention_parse_stat(const char *text, const cpu_set_t *cpus, unsigned long long *busy)
{
	unsigned long long sum = 0, all = 0, b;
	int have_all = 0, have_some = 0;

	for (const char *line = text, *next; line && *line; line = next) {
		char *end;
		next = strchr(line, '\n');
		next = next ? next + 1 : NULL;
		if (strncmp(line, "cpu", 3))
			continue;
		if (line[3] == ' ') {
			have_all = !line_busy(line + 3, &all);
			continue;
		}
		unsigned long n = strtoul(line + 3, &end, 10);
		if (end == line + 3 || *end != ' ' || !cpus || n >= CPU_SETSIZE ||
		    !CPU_ISSET(n, cpus))
			continue;
		if (!line_busy(end, &b)) {
			sum += b;
			have_some = 1;
		}
	}
	if (have_some) {
		*busy = sum;
		return 0;
	}
	if (have_all) {
		*busy = all;
		return 0;
	}
	return -1;
}

void contention_sample(struct contention_sample *s)
{
	char buf[16384];
	FILE *f = fopen("/proc/stat", "re");
	size_t n;
	cpu_set_t cpus;
	int have_cpus = !sched_getaffinity(0, sizeof(cpus), &cpus);

	s->valid = 0;
	if (!f)
		return;
	/* The cpu lines come first; a machine with more CPUs than fit is summed from the aggregate.
	 */
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n == sizeof(buf) - 1) {
		char *cut = strrchr(buf, '\n');
		if (cut)
			cut[1] = '\0';
		have_cpus = 0;
	}
	s->valid = !contention_parse_stat(buf, have_cpus ? &cpus : NULL, &s->busy);
}

double contention_cores(unsigned long long busy_jiffies, long clk_tck, double own_cpu, double wall)
{
	double others;

	/* Counted in ticks: over a shorter run one tick of anything would read as a busy core. */
	if (clk_tck <= 0 || wall * (double)clk_tck < CONTENTION_MIN_TICKS)
		return NAN;
	others = ((double)busy_jiffies / (double)clk_tck - own_cpu) / wall;
	return others > 0 ? others : 0;
}

double contention_between(const struct contention_sample *start,
			  const struct contention_sample *end, double own_cpu, double wall)
{
	if (!start->valid || !end->valid || end->busy < start->busy)
		return NAN;
	return contention_cores(end->busy - start->busy, sysconf(_SC_CLK_TCK), own_cpu, wall);
}

double contention_beyond_free(double others, int run_cores, int machine)
{
	double free_cores = machine > run_cores ? machine - run_cores : 0,
	       beyond = others - free_cores;

	if (isnan(others))
		return NAN;
	return beyond > 0 ? beyond : 0;
}

int contention_machine_cores(void)
{
	cpu_set_t cpus;
	int n;

	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		return 1;
	n = CPU_COUNT(&cpus);
	return n > 0 ? n : 1;
}
