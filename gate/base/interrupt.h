/* The gate's SIGINT, SIGTERM and SIGHUP: caught, so that every phase stops within a second, kills
 * what it started and writes the reports it can, marked interrupted (docs/running.md,
 * "Interrupts"). */
#ifndef SG_INTERRUPT_H
#define SG_INTERRUPT_H

#include <signal.h>
#include <sys/types.h>

/* The longest the gate takes after an interrupt to kill its runs and write its reports: past it,
 * it exits at once (as at a second interrupt). */
#define INTERRUPT_GRACE 15

/* The signal that interrupted the gate, or 0. */
extern volatile sig_atomic_t interrupt_signal;
/* The process group of the run going on (killed if the gate must exit at once), or 0. */
extern volatile sig_atomic_t interrupt_group;

/*
 * Catches SIGINT, SIGTERM and SIGHUP from now on (again and again: no harm).
 * The first sets interrupt_signal for the phase going on to see; a second, or
 * INTERRUPT_GRACE seconds after the first, kills interrupt_group and exits
 * 128 + the first signal at once.
 */
void interrupt_catch(void);

/* 128 + interrupt_signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP), or 0 when not interrupted. */
int interrupt_exit_code(void);

/* "SIGTERM", "SIGINT", ...: a static string. */
const char *interrupt_name(int sig);

/* Sleeps 'seconds', or less when interrupted; 0, or -1 when interrupted. */
int interrupt_sleep(double seconds);

#endif
