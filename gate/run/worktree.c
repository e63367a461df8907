/* The base revision's tree for A/B runs: a scratch 'git worktree' at a revision, found and removed
 * by git itself. */
#include "run/worktree.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "run/runner-exec.h"
#include "run/runner-tree.h"

/* waitpid() through the interrupts. */
static int waitpid_retry(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return gate_error("cannot wait for git: %s", strerror(errno));
	return 0;
}

/* Waits for git; when 'stoppable', an interrupt of the gate ends it first, with all it started (a
 * hook and its children). Exit status, or -1. */
static int wait_git(pid_t pid, int stoppable)
{
	int status;

	if (stoppable ? exec_wait_group(pid, &status) < 0 : waitpid_retry(pid, &status) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs git with argv (NULL-terminated, argv[0] "git"); its stdout into 'out' when not NULL; ended
 * by an interrupt when 'stoppable' (the cleanup after one is not). Exit status or -1. */
static int git(char *const argv[], struct strbuf *out, int stoppable)
{
	int fd[2];
	pid_t pid;

	if (out && pipe(fd))
		return gate_error("cannot create a pipe: %s", strerror(errno));
	/* what a hook leaves behind stays the gate's, to be killed at an interrupt */
	if (tree_become_subreaper())
		return -1;
	pid = fork();
	if (pid < 0)
		return gate_error("cannot fork: %s", strerror(errno));
	if (!pid) {
		/* a gate killed outright takes git along; an interrupted one, git's group */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		setpgid(0, 0);
		if (out) {
			int null = open("/dev/null", O_WRONLY);
			dup2(fd[1], 1);
			if (null >= 0)
				dup2(null, 2); /* "not a git repository" is an answer here, not an
						  error */
			close(fd[0]);
			close(fd[1]);
		} else {
			/* git's chatter goes with the gate's progress, not into its output */
			dup2(2, 1);
		}
		execvp("git", argv);
		gate_error("cannot run git: %s", strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* as the child does: no race with killpg() */
	if (out) {
		char buf[4096];
		ssize_t n;
		close(fd[1]);
		while ((n = read(fd[0], buf, sizeof(buf))) > 0 ||
		       (n < 0 && errno == EINTR && !interrupt_signal))
			if (n > 0)
				strbuf_add(out, buf, (size_t)n);
		close(fd[0]);
	}
	return wait_git(pid, stoppable);
}

char *worktree_toplevel(const char *dir)
{
	char *argv[] = { "git", "-C", (char *)dir, "rev-parse", "--show-toplevel", NULL };
	struct strbuf sb = STRBUF_INIT;

	if (git(argv, &sb, 1) || !sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	while (sb.len && (sb.buf[sb.len - 1] == '\n' || sb.buf[sb.len - 1] == '\r'))
		sb.buf[--sb.len] = '\0';
	return strbuf_detach(&sb);
}

/* Whether git answers 'true' to rev-parse FLAG in 'repo'. */
static int git_true(const char *repo, const char *flag)
{
	char *argv[] = { "git", "-C", (char *)repo, "rev-parse", (char *)flag, NULL };
	struct strbuf sb = STRBUF_INIT;
	int yes = !git(argv, &sb, 1) && !strncmp(sb.buf, "true", 4);

	strbuf_release(&sb);
	return yes;
}

int worktree_check_rev(const char *repo, const char *rev)
{
	char *spec = xstrfmt("%s^{commit}", rev);
	char *argv[] = {
		"git", "-C", (char *)repo, "rev-parse", "--verify", "--quiet", spec, NULL,
	};
	struct strbuf sb = STRBUF_INIT;
	int found = !git(argv, &sb, 1);

	strbuf_release(&sb);
	free(spec);
	if (found)
		return 0;
	if (git_true(repo, "--is-shallow-repository"))
		return gate_error(
			"--against %s: no such revision in this shallow clone of '%s' (it "
			"holds only the last commits); fetch the history first: git fetch "
			"--unshallow (GitHub Actions: actions/checkout with 'fetch-depth: 0'; "
			"GitLab CI: 'GIT_DEPTH: 0')",
			rev, repo);
	return gate_error("--against %s: no such revision in '%s'; fetch it first, e.g. git fetch "
			  "origin %s, or name a branch, tag or commit that 'git log' shows",
			  rev, repo, rev);
}

int worktree_add(const char *repo, const char *rev, const char *path)
{
	char *argv[] = {"git",      "-C",      (char *)repo, "worktree",  "add",
			"--detach", "--force", (char *)path, (char *)rev, NULL};

	worktree_remove(repo, path); /* a leftover of an interrupted gate */
	if (!git(argv, NULL, 1))
		return 0;
	if (interrupt_signal)
		return gate_error("checking out '%s' into '%s' interrupted by %s: git and what it "
			     "started killed", rev, path, interrupt_name(interrupt_signal));
	return gate_error("cannot check out '%s' into '%s' (git worktree add failed)", rev, path);
}

void worktree_remove(const char *repo, const char *path)
{
	char *rm[] = {"git",    "-C",      (char *)repo, "worktree",
		      "remove", "--force", (char *)path, NULL};
	char *prune[] = { "git", "-C", (char *)repo, "worktree", "prune", NULL };

	if (access(path, F_OK))
		return;
	if (git(rm, NULL, 0)) {
		remove_tree(path);
		git(prune, NULL, 0);
	}
}
