/* Private to the runner: one child process in its own process group, with a timeout, and the checks
 * of its outcome. */
#ifndef SG_RUNNER_EXEC_H
#define SG_RUNNER_EXEC_H

#include "base/interrupt.h"
#include "base/util.h"

struct exec_spec {
	const char *line;    /* given to /bin/sh -c */
	const char *cwd;
	const char *out_dir; /* stdout.txt and stderr.txt go here */
	char **env;          /* NAME=VALUE added to the inherited environment, NULL-terminated */
	char *const *unset;  /* names removed from it (the secrets), 'nr_unset' of them */
	size_t nr_unset;
	double timeout;      /* seconds; <= 0: none */
	long long output_limit; /* bytes kept of stdout and of stderr, head and tail; <= 0: all */
	/* called about once a second while it runs (or NULL) */
	void (*tick)(void *arg, double elapsed);
	void *tick_arg;
	const char *label;   /* names the run in warnings, e.g. "jacobi s--r1-t2 repeat 1" */
};

struct exec_result {
	int exit_code;  /* -1 when killed by a signal or at the timeout */
	/* the signal that killed the process (or, through the shell, 128+n), or 0 */
	int signal;
	int timed_out;
	int interrupted;
	double wall;    /* seconds from start to the end of the leader */
	double cpu;     /* user + system seconds of the leader and the descendants it reaped */
	double contention; /* cores other processes used meanwhile (contention.h); NAN: unknown */
};

/*
 * Runs 'line' with /bin/sh in a process group of its own, stdin from
 * /dev/null, the gate a child subreaper; at the timeout (or an interrupt)
 * every process of the run gets SIGTERM and, after a grace period, SIGKILL.
 * Whatever the run leaves behind, in any process group or session, is killed
 * when the leader ends, and named in a warning. stdout.txt and stderr.txt
 * are written with the secrets masked. Returns 0 (see 'res'), or -1 if the
 * process could not be started.
 */
int exec_run(const struct exec_spec *s, struct exec_result *res);

/*
 * Waits for child 'pid', started in a process group of its own and after
 * tree_become_subreaper() (the --against checkout). When the gate is
 * interrupted meanwhile, ends it as a run is ended: SIGTERM to the group and
 * every descendant, SIGKILL after the grace period, then SIGKILL to whatever
 * outlived the leader. 0 with its wait status in '*status', or -1 when it was
 * interrupted.
 */
int exec_wait_group(pid_t pid, int *status);
/* The last 'max' bytes of a file on one line ('\n' shown as " | "), "..." in front when cut;
 * caller frees (runner-excerpt.c). */
char *exec_tail(const char *path, size_t max);
/*
 * A failed run's or build's output for its reason, on one line: the whole file
 * when it is at most head + tail bytes, else its first lines (at most 'head'
 * bytes; blank lines and a banner's rules of '-', '=' or '*' skipped), " ... "
 * and its last 'tail' bytes. The cause is often first: Open MPI's refusal to run
 * as root starts "mpirun has detected an attempt to run as root", and a
 * compiler's first error comes before the rest. Caller frees.
 */
char *exec_excerpt(const char *path, size_t head, size_t tail);

/*
 * Checks the *.sgprof files of 'dir': 'expected' of them, each readable by
 * profile_read() and, unless 'program' is NULL, written by an executable whose
 * name matches the glob 'program'. Returns 0, or 1 (too few) / 2 (one
 * unreadable or of another program, or more than one per rank) with '*reason'
 * set (caller frees).
 */
int exec_check_profiles(const char *dir, int expected, const char *program, char **reason);

/*
 * The name of the one executable a shell command line names by path, when it
 * names exactly one: a word with a '/' that is an executable ELF file (a script
 * runs some other program; launchers and wrappers such as mpirun, env or
 * taskset run the program, they are not it). NULL when it names none or
 * several. Caller frees.
 */
char *exec_named_program(const char *line);
/* Whether the executable 'exe' (a path) has a name the glob 'pattern' matches. */
int exec_program_matches(const char *pattern, const char *exe);

/* Removes 'path' and everything under it, never following symbolic links; 0 or gate_error(). */
int remove_tree(const char *path);
/* Removes the run directories under 'scratch' of gates that are gone (killed mid-run); the number.
 */
size_t exec_clean_scratch(const char *scratch);

/*
 * The command with relative program paths made absolute against 'workdir':
 * every word that starts with './' or '../', and the first word of the
 * command when it holds a '/' but does not start with one. Caller frees.
 */
char *exec_resolve_command(const char *cmd, const char *workdir);

/* The name of signal 'sig', e.g. "SIGSEGV"; a static string. */
const char *exec_signal_name(int sig);

#endif
