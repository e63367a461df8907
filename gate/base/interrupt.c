/* The gate's interrupts: a flag each phase polls, and a deadline past which the gate just ends. */
#include "base/interrupt.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/exitcode.h"

volatile sig_atomic_t interrupt_signal;
volatile sig_atomic_t interrupt_group;

/* Only async-signal-safe calls from here on: kill, _exit. */
static void exit_now(void)
{
	if (interrupt_group > 0)
		kill(-(pid_t)interrupt_group, SIGKILL);
	_exit(SG_EXIT_SIGNAL + (interrupt_signal ? interrupt_signal : SIGTERM));
}

static void on_signal(int sig)
{
	if (interrupt_signal)
		exit_now();
	interrupt_signal = sig;
	alarm(INTERRUPT_GRACE);
}

static void on_alarm(int sig)
{
	(void)sig;
	if (interrupt_signal)
		exit_now();
}

void interrupt_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	/* No SA_RESTART: a blocking read or wait returns EINTR and the phase looks at the flag. */
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int interrupt_exit_code(void)
{
	return interrupt_signal ? SG_EXIT_SIGNAL + interrupt_signal : 0;
}

int interrupt_sleep(double seconds)
{
	struct timespec ts;

	while (!interrupt_signal && seconds > 0) {
		double step = seconds < 0.1 ? seconds : 0.1;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(step * 1e9);
		nanosleep(&ts, NULL);
		seconds -= step;
	}
	return interrupt_signal ? -1 : 0;
}

const char *interrupt_name(int sig)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}
