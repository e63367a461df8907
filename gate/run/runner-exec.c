/* Runs one benchmark process in its own process group with a timeout, and checks what it left
 * behind. */
#include "run/runner-exec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/contention.h"
#include "run/runner-tree.h"
#include "base/escape.h"
#include "base/secret.h"

#define KILL_GRACE 2.0 /* seconds between SIGTERM and SIGKILL */
#define LINGER_MS 1000  /* how long what a run left may take to end by itself */

int runner_caught_signal(void)
{
	return (int)interrupt_signal;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

const char *exec_signal_name(int sig)
{
	return interrupt_name(sig);
}

static void child(const struct exec_spec *s, int out, int err, pid_t gate)
{
	int null = open("/dev/null", O_RDONLY);
	struct sigaction sa;

	/* A gate killed outright (SIGKILL, the OOM killer) takes the run's leader with it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) || getppid() != gate)
		_exit(127);
	setpgid(0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sa, NULL);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	if (chdir(s->cwd)) {
		dprintf(2, "scalegate: cannot enter '%s': %s\n", s->cwd, strerror(errno));
		_exit(127);
	}
	for (size_t i = 0; i < s->nr_unset; i++)
		unsetenv(s->unset[i]);
	for (char **e = s->env; e && *e; e++)
		putenv(*e);
	execl("/bin/sh", "sh", "-c", s->line, (char *)NULL);
	dprintf(2, "scalegate: cannot run /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

/* A run's stdout and stderr while it runs, and how far their middles were released. */
struct outputs {
	int fd[2];
	off_t released[2];
	long long limit;
};

#define TRIM_MARGIN 8192     /* kept beyond each half: cap_output looks 4 KiB back for a line */
#define TRIM_CHUNK (1 << 20) /* released at a time, at least */

/*
 * While a run goes on, the middle of an output past its limit, which
 * cap_output() cuts out at the end, is released from the disk (a hole
 * punched, the size kept), so that a run printing without end fills no disk.
 * Where the file system cannot punch holes, the output is cut at the end only.
 */
static void trim_outputs(struct outputs *o)
{
	for (int i = 0; o && o->limit > 0 && i < 2; i++) {
		struct stat st;
		off_t keep = (off_t)(o->limit / 2), from, to;
		if (o->fd[i] < 0 || fstat(o->fd[i], &st) || st.st_size <= o->limit)
			continue;
		from = (keep + TRIM_MARGIN + 4095) / 4096 * 4096;
		if (o->released[i] > from)
			from = o->released[i];
		to = (st.st_size - keep - TRIM_MARGIN) / 4096 * 4096;
		if (to - from < TRIM_CHUNK)
			continue;
		if (!fallocate(o->fd[i], FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, from,
			       to - from))
			o->released[i] = to;
	}
}

/* Waits up to 'seconds' for the leader to end (or, 'interruptible', for an interrupt), trimming 'o'
 * (or NULL) meanwhile; 1 with '*status' and its rusage when it did. */
static int wait_leader(pid_t pid, int pidfd, double seconds, int *status, struct rusage *ru,
		       struct outputs *o, int interruptible)
{
	double end = now() + seconds;

	for (;;) {
		pid_t r = wait4(pid, status, WNOHANG, ru);
		if (r == pid)
			return 1;
		trim_outputs(o);
		double left = end - now();
		if (left <= 0 || (interruptible && interrupt_signal))
			return 0;
		if (left > 0.25)
			left = 0.25;
		if (pidfd >= 0) {
			struct pollfd p = { .fd = pidfd, .events = POLLIN };
			poll(&p, 1, (int)(left * 1000) + 1);
		} else {
			struct timespec ts = { 0, 1000000 };
			nanosleep(&ts, NULL);
		}
	}
}

/* wait_leader up to the timeout, calling the spec's tick about once a second meanwhile. */
static int wait_ticking(const struct exec_spec *s, pid_t pid, int pidfd, double timeout,
			double start, int *status, struct rusage *ru, struct outputs *o)
{
	for (;;) {
		double left = start + timeout - now(), chunk = s->tick ? 1.0 : left;
		if (wait_leader(pid, pidfd, left < chunk ? left : chunk, status, ru, o, 1))
			return 1;
		if (left <= chunk || interrupt_signal)
			return 0;
		s->tick(s->tick_arg, now() - start);
	}
}

/*
 * SIGTERM to the group and to every descendant (MPI ranks live in groups of
 * their own), SIGKILL after the grace period; reaps the leader.
 */
static void kill_group(pid_t pid, int pidfd, int *status, struct rusage *ru)
{
	killpg(pid, SIGTERM);
	tree_signal(SIGTERM);
	/* the grace period holds after an interrupt too */
	if (!wait_leader(pid, pidfd, KILL_GRACE, status, ru, NULL, 0)) {
		killpg(pid, SIGKILL);
		tree_signal(SIGKILL);
		while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
			;
	}
}

int exec_wait_group(pid_t pid, int *status)
{
	int pidfd = pidfd_open(pid, 0), ended;
	struct rusage ru;

	interrupt_group = pid;
	ended = wait_leader(pid, pidfd, 1e9, status, &ru, NULL, 1);
	if (!ended) {
		struct strbuf outlived = STRBUF_INIT, escaped = STRBUF_INIT;
		kill_group(pid, pidfd, status, &ru);
		killpg(pid, SIGKILL); /* what outlived its leader */
		tree_sweep(NULL, &outlived, &escaped);
		strbuf_release(&outlived);
		strbuf_release(&escaped);
	}
	interrupt_group = 0;
	if (pidfd >= 0)
		close(pidfd);
	return ended ? 0 : -1;
}

/* Kills what the run left and says so: a process that outlives its run skews the next one. */
static void sweep(const struct exec_spec *s, const char *tag, pid_t pid, int ended)
{
	struct strbuf outlived = STRBUF_INIT, escaped = STRBUF_INIT;
	const char *label = s->label ? s->label : "the run";

	/* Helpers that end with the program (a singleton MPI run's orted) get a moment to do so. */
	for (int i = 0; ended && i < LINGER_MS / 10 && tree_signal(0); i++)
		usleep(10000);
	killpg(pid, SIGKILL);
	tree_sweep(tag, &outlived, &escaped);
	if (outlived.len && ended)
		warning("%s: left processes running after it ended, killed: %s", label,
			outlived.buf);
	if (escaped.len)
		warning("%s: processes left the run's process tree (reparented outside the gate), "
			"killed: %s",
			label, escaped.buf);
	strbuf_release(&outlived);
	strbuf_release(&escaped);
}

static void set_result(struct exec_result *res, int status)
{
	if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
	} else {
		res->exit_code = WEXITSTATUS(status);
		/* The shell reports a command killed by signal n as 128 + n. */
		if (res->exit_code > 128 && res->exit_code < 128 + NSIG)
			res->signal = res->exit_code - 128;
	}
}

/* Copies bytes [from, to) of 'in' to 'out'; 0 or -1 (errno set). */
static int copy_range(int in, int out, off_t from, off_t to)
{
	char buf[65536];

	while (from < to) {
		size_t want = (size_t)(to - from) < sizeof(buf) ? (size_t)(to - from) : sizeof(buf);
		ssize_t n = pread(in, buf, want, from);
		if (n <= 0 || write(out, buf, (size_t)n) != n)
			return -1;
		from += n;
	}
	return 0;
}

/* Where a cut at 'at' should fall: after the newline at or before it (within 4 KiB), so that no
 * line (and no secret on it) is split; 'at' itself otherwise. */
static off_t line_start(int fd, off_t at)
{
	char buf[4096];
	off_t from = at > (off_t)sizeof(buf) ? at - (off_t)sizeof(buf) : 0;
	ssize_t n = pread(fd, buf, (size_t)(at - from), from);

	while (n > 0 && buf[n - 1] != '\n')
		n--;
	return n > 0 ? from + n : at;
}

/* 'at' moved off any secret value a cut there would split in two readable pieces: back to the
 * value's start ('back'), else past its end. */
static off_t off_secret(int fd, off_t at, int back)
{
	size_t max = secret_max_len(), start, end;
	char *buf = xmalloc(2 * max + 1);

	for (;;) {
		off_t from = at > (off_t)max ? at - (off_t)max : 0;
		ssize_t n = max ? pread(fd, buf, 2 * max, from) : 0;
		if (n <= 0 || !secret_across(buf, (size_t)n, (size_t)(at - from), &start, &end))
			break;
		at = from + (off_t)(back ? start : end);
	}
	free(buf);
	return at;
}

/*
 * A run's output over 'limit' bytes keeps its first and its last half, and says what was cut
 * between them; streamed, in bounded memory. The cuts fall at a line's start, and never across a
 * secret value, so that the masking after the cut finds every value whole. 0 or gate_error().
 */
static int cap_output(const char *path, long long limit)
{
	struct stat st;
	char *tmp, *note;
	int in, out, ret = -1;
	off_t head, tail;

	if (limit <= 0 || stat(path, &st) || st.st_size <= limit)
		return 0;
	if ((in = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return gate_error("cannot read '%s': %s", path, strerror(errno));
	head = off_secret(in, line_start(in, (off_t)(limit / 2)), 1);
	tail = off_secret(in, line_start(in, st.st_size - (off_t)(limit / 2)), 0);
	tail = tail < head ? head : tail;
	tmp = xstrfmt("%s.cut", path);
	note = xstrfmt("\n[scalegate: %lld bytes cut here: a run keeps the first and the last %lld "
		       "of its output (output_limit)]\n", (long long)(tail - head), limit / 2);
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0 || copy_range(in, out, 0, head) ||
	    write(out, note, strlen(note)) != (ssize_t)strlen(note) ||
	    copy_range(in, out, tail, st.st_size) || rename(tmp, path))
		gate_error("cannot cut the output '%s': %s", path, strerror(errno));
	else
		ret = 0;
	if (out >= 0)
		close(out);
	if (ret)
		unlink(tmp);
	close(in);
	free(tmp);
	free(note);
	return ret;
}

int exec_run(const struct exec_spec *s, struct exec_result *res)
{
	char *out_path = xstrfmt("%s/stdout.txt", s->out_dir),
	     *err_path = xstrfmt("%s/stderr.txt", s->out_dir);
	int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret = -1, status = 0, pidfd;
	struct contention_sample before, after;
	struct rusage ru;
	double start, timeout = s->timeout > 0 ? s->timeout : 1e9;
	const char *tag;
	pid_t pid, gate;

	memset(res, 0, sizeof(*res));
	memset(&ru, 0, sizeof(ru));
	res->exit_code = -1;
	res->contention = NAN;
	if (out < 0 || err < 0) {
		gate_error("cannot create '%s': %s", out < 0 ? out_path : err_path,
			   strerror(errno));
		goto out;
	}
	if (interrupt_signal) { /* between two runs: none starts after an interrupt */
		res->interrupted = 1;
		ret = 0;
		goto out;
	}
	if (tree_become_subreaper())
		goto out;
	tag = tree_new_tag();
	fflush(NULL);
	contention_sample(&before);
	start = now();
	gate = getpid();
	pid = fork();
	if (pid < 0) {
		gate_error("cannot start '%s': %s", s->line, strerror(errno));
		goto out;
	}
	if (!pid) {
		setenv(TREE_TAG_VAR, tag, 1);
		child(s, out, err, gate);
	}
	setpgid(pid, pid); /* as the child does: no race with killpg() */
	interrupt_group = pid;
	pidfd = pidfd_open(pid, 0);
	if (wait_ticking(s, pid, pidfd, timeout, start, &status, &ru,
			 &(struct outputs){ { out, err }, { 0, 0 }, s->output_limit })) {
		res->wall = now() - start;
		contention_sample(&after);
		set_result(res, status);
	} else {
		res->wall = now() - start;
		res->timed_out = !interrupt_signal;
		res->interrupted = !!interrupt_signal;
		kill_group(pid, pidfd, &status, &ru);
		contention_sample(&after);
	}
	interrupt_group = 0;
	/* Counted once the shell (or the launcher) has reaped them: the whole tree, ranks included.
	 */
	res->cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
		   ru.ru_stime.tv_usec * 1e-6;
	res->contention = contention_between(&before, &after, res->cpu, res->wall);
	sweep(s, tag, pid, !res->timed_out && !res->interrupted);
	if (pidfd >= 0)
		close(pidfd);
	/* Cut first: the masking then holds at most the limit in memory. */
	if (cap_output(out_path, s->output_limit) || cap_output(err_path, s->output_limit) ||
	    secret_mask_file(out_path) || secret_mask_file(err_path))
		goto out;
	ret = 0;
out:
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	free(out_path);
	free(err_path);
	return ret;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) && errno != ENOENT)
		return gate_error("cannot remove '%s': %s", path, strerror(errno));
	return 0;
}

int remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT
			       ? 0
			       : gate_error("cannot remove '%s': %s", path, strerror(errno));
	return nftw(path, remove_one, 32, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

/* "run-<pid>-XXXXXX" or "warmup-<pid>-XXXXXX": the pid of the gate that made it, else 0. */
static long scratch_owner(const char *name)
{
	const char *p = !strncmp(name, "run-", 4) ? name + 4 :
		!strncmp(name, "warmup-", 7) ? name + 7 : NULL;
	char *end;
	long pid;

	if (!p)
		return 0;
	pid = strtol(p, &end, 10);
	return end != p && *end == '-' && pid > 0 ? pid : 0;
}

size_t exec_clean_scratch(const char *scratch)
{
	DIR *d = opendir(scratch);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		long pid = scratch_owner(e->d_name);
		char *path;
		if (!pid || pid == (long)getpid() || !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue; /* not a run directory, or its gate is alive */
		path = xstrfmt("%s/%s", scratch, e->d_name);
		if (!remove_tree(path)) {
			warning("removed '%s', left by a run whose gate was killed", path);
			n++;
		}
		free(path);
	}
	if (d)
		closedir(d);
	return n;
}

char *exec_resolve_command(const char *cmd, const char *workdir)
{
	struct strbuf sb = STRBUF_INIT;
	char quote = 0;
	/* at the start of a word: after an unquoted, unescaped separator */
	int first = 1, boundary = 1;

	for (size_t i = 0; cmd[i]; i++) {
		char c = cmd[i];
		if (boundary && !strchr(" \t\n", c)) {
			size_t end = i + strcspn(cmd + i, " \t\n;&|()'\"");
			int dotted = !strncmp(cmd + i, "./", 2) || !strncmp(cmd + i, "../", 3);
			int relative = c != '/' && c != '$' && c != '~' &&
				       memchr(cmd + i, '/', end - i) &&
				       !memchr(cmd + i, '=', end - i);
			if (dotted || (first && relative))
				strbuf_addf(&sb, "%s/", workdir);
			/* Assignments before the program (NAME=value) are not its first word. */
			if (!memchr(cmd + i, '=', end - i))
				first = 0;
		}
		boundary = !quote && strchr(" \t\n;&|(", c);
		if (quote ? c == quote : (c == '\'' || c == '"'))
			quote = quote ? 0 : c;
		else if (c == '\\' && quote != '\'' && cmd[i + 1]) {
			strbuf_addch(&sb, c);
			c = cmd[++i];
		}
		strbuf_addch(&sb, c);
	}
	return strbuf_detach(&sb);
}
