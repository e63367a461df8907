/*
 * The process tree of a run. The gate is a child subreaper (prctl
 * PR_SET_CHILD_SUBREAPER): a process of the run whose parent ends, MPI ranks
 * whose mpirun was killed, a daemon that called setsid() and forked again, is
 * reparented to the gate, not to init. So every process the run left is a
 * descendant of the gate, found by walking /proc, whatever its process group
 * or session. A process that left the tree anyway (started through ssh, a
 * service manager or another subreaper) is found by the tag in its environment.
 */
#include "run/runner-tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define SWEEP_ROUNDS 50 /* a fork bomb between two walks is caught by the next */

struct proc {
	pid_t pid, ppid;
	char state;
	char comm[32];
};

/* The guard (below), never one of the run's processes. */
static pid_t guard_pid;

/* Whether /proc/PID/environ holds 'want' ("NAME=value"), or with 'prefix' a string starting so. */
static int environ_has(pid_t pid, const char *want, int prefix)
{
	char path[64];
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(want);
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/environ", (long)pid);
	if ((f = fopen(path, "re"))) {
		char chunk[4096];
		size_t n;
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			strbuf_add(&sb, chunk, n);
		fclose(f);
		for (size_t i = 0; !found && i < sb.len; i += strlen(sb.buf + i) + 1)
			found = !(prefix ? strncmp(sb.buf + i, want, len)
					 : strcmp(sb.buf + i, want));
	}
	strbuf_release(&sb);
	return found;
}

/* Kills every process that carries a tag of gate 'gate'; the guard's last act. */
static void guard_sweep(pid_t gate)
{
	char want[96];

	snprintf(want, sizeof(want), "%s=%ld-", TREE_TAG_VAR, (long)gate);
	for (int round = 0; round < SWEEP_ROUNDS; round++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		int killed = 0;

		while (d && (e = readdir(d))) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);
			if (*end || pid <= 0 || pid == (long)getpid())
				continue;
			if (environ_has((pid_t)pid, want, 1) && !kill((pid_t)pid, SIGKILL))
				killed++;
		}
		if (d)
			closedir(d);
		if (!killed)
			break;
		usleep(2000);
	}
}

/*
 * The guard: a child of the gate in a process group of its own that waits for
 * the gate to end. A gate killed outright (SIGKILL, the OOM killer) cannot
 * sweep its runs, and its orphans go to init, not to it; the guard then kills
 * every process that carries one of the gate's run tags (TREE_TAG_VAR).
 */
static void guard(int fd, pid_t gate)
{
	struct sigaction sa;
	int null = open("/dev/null", O_RDWR);
	char c;

	setpgid(0, 0); /* a Ctrl-C to the gate's group is not for the guard */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	/* none of the gate's files held open: its stdout may be a CI log waiting for the end */
	if (null >= 0)
		for (int i = 0; i < 3; i++)
			dup2(null, i);
	if (dup2(fd, 3) < 0)
		_exit(1);
	close_range(4, ~0U, 0);
	while (read(3, &c, 1) < 0 && errno == EINTR)
		;
	guard_sweep(gate);
	_exit(0);
}

/* Starts the guard; 0, or -1 when it cannot (then only the leader dies with the gate). */
static int guard_start(void)
{
	int fd[2];
	pid_t gate = getpid();

	if (pipe2(fd, O_CLOEXEC))
		return -1;
	fflush(NULL);
	guard_pid = fork();
	if (guard_pid < 0) {
		close(fd[0]);
		close(fd[1]);
		guard_pid = 0;
		return -1;
	}
	if (!guard_pid) {
		close(fd[1]);
		guard(fd[0], gate);
	}
	close(fd[0]);
	/* fd[1] stays open, close-on-exec, until the gate ends: then the guard reads EOF */
	return 0;
}

int tree_become_subreaper(void)
{
	static int done;

	if (done)
		return 0;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		return gate_error("cannot become a child subreaper: %s", strerror(errno));
	if (guard_start())
		warning("cannot start the guard that kills the runs of a killed gate: %s",
			strerror(errno));
	done = 1;
	return 0;
}

const char *tree_new_tag(void)
{
	static char tag[64];
	static unsigned long n;

	snprintf(tag, sizeof(tag), "%ld-%lu", (long)getpid(), ++n);
	return tag;
}

/* pid, comm, state and ppid from /proc/PID/stat; 0, or -1 when the process is gone. */
static int read_stat(pid_t pid, struct proc *p)
{
	char path[64], buf[512], *open, *close;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) S ppid ...": comm may hold spaces and parentheses, so the last ')' ends it.
	 */
	if (!(open = strchr(buf, '(')) || !(close = strrchr(buf, ')')) || close[1] != ' ')
		return -1;
	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)(close - open - 1), open + 1);
	if (sscanf(close + 2, "%c %d", &p->state, &p->ppid) != 2)
		return -1;
	return 0;
}

/* Every process of the system; caller frees. */
static struct proc *list_procs(size_t *nr)
{
	DIR *d = opendir("/proc");
	struct proc *list = NULL;
	size_t alloc = 0;
	struct dirent *e;

	*nr = 0;
	while (d && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		ALLOC_GROW(list, *nr + 1, alloc);
		if (!read_stat((pid_t)pid, &list[*nr]))
			(*nr)++;
	}
	if (d)
		closedir(d);
	return list;
}

/* Marks in 'mine' the descendants of the gate; returns how many. */
static size_t mark_descendants(const struct proc *list, size_t nr, char *mine)
{
	pid_t self = getpid();
	size_t count = 0;
	int changed = 1;

	memset(mine, 0, nr);
	while (changed) {
		changed = 0;
		for (size_t i = 0; i < nr; i++) {
			if (mine[i] || (guard_pid && list[i].pid == guard_pid))
				continue;
			int parent_mine = list[i].ppid == self;
			for (size_t j = 0; !parent_mine && j < nr; j++)
				parent_mine = mine[j] && list[j].pid == list[i].ppid;
			if (parent_mine) {
				mine[i] = 1;
				changed = 1;
				count++;
			}
		}
	}
	return count;
}

/* Whether /proc/PID/environ holds TREE_TAG_VAR=tag. */
static int has_tag(pid_t pid, const char *tag)
{
	char *want = xstrfmt("%s=%s", TREE_TAG_VAR, tag);
	int found = environ_has(pid, want, 0);

	free(want);
	return found;
}

static void reap(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

size_t tree_signal(int sig)
{
	size_t nr, count = 0;
	struct proc *list = list_procs(&nr);
	char *mine = xmalloc(nr + 1);

	mark_descendants(list, nr, mine);
	for (size_t i = 0; i < nr; i++)
		if (mine[i] && list[i].state != 'Z' && !kill(list[i].pid, sig))
			count++;
	free(mine);
	free(list);
	return count;
}

static void describe(struct strbuf *sb, const struct proc *p)
{
	if (sb)
		strbuf_addf(sb, "%spid %ld (%s)", sb->len ? ", " : "", (long)p->pid, p->comm);
}

/* Whether 'pid' was seen (and told) before. */
static int seen(pid_t **known, size_t *nr, pid_t pid)
{
	for (size_t i = 0; i < *nr; i++)
		if ((*known)[i] == pid)
			return 1;
	*known = xrealloc(*known, (*nr + 1) * sizeof(**known));
	(*known)[(*nr)++] = pid;
	return 0;
}

size_t tree_sweep(const char *tag, struct strbuf *outlived, struct strbuf *escaped)
{
	pid_t *known = NULL;
	size_t nr_known = 0;

	reap();
	for (int round = 0; round < SWEEP_ROUNDS; round++) {
		size_t nr, alive = 0;
		struct proc *list = list_procs(&nr);
		char *mine = xmalloc(nr + 1);

		mark_descendants(list, nr, mine);
		for (size_t i = 0; i < nr; i++) {
			int out = !mine[i] && tag && list[i].pid != getpid() &&
				  has_tag(list[i].pid, tag);
			if ((!mine[i] && !out) || list[i].state == 'Z')
				continue;
			alive++;
			if (!seen(&known, &nr_known, list[i].pid))
				describe(out ? escaped : outlived, &list[i]);
			kill(list[i].pid, SIGKILL);
		}
		free(mine);
		free(list);
		if (!alive)
			break;
		usleep(2000);
		reap();
	}
	reap();
	free(known);
	return nr_known;
}
