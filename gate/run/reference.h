/* The machine's speed beside each run: scalegate's own fixed loop, timed in on-CPU time
 * (docs/running.md, "Machine speed reference"). */
#ifndef SG_REFERENCE_H
#define SG_REFERENCE_H

/* Threads the reference runs at most, whatever the configuration's ranks x threads. */
#define REFERENCE_MAX_THREADS 64

/*
 * Runs the reference loop (5-point stencil sweeps over a grid in cache and a
 * chain of integer multiplies, about 8 ms on a current core) on 'threads'
 * threads at once, the load of the run it precedes, and returns the median of
 * their on-CPU seconds (CLOCK_THREAD_CPUTIME_ID): what the same work cost on
 * this machine now. NAN when a thread could not be started. Shorter loops
 * tracked the machine less: on the development VM, 2 ms saw half of a +10 %
 * slowdown of one thread beside two CPU hogs that 8 ms saw whole.
 */
double reference_measure(int threads);

#endif
