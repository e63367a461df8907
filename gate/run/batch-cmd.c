/* The scheduler's commands the gate runs (submit, query, cancel), each bounded in time, and the
 * job's end. */
#include "run/batch-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void child(char *const argv[], int fd)
{
	int null = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	if (null >= 0)
		dup2(null, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	execvp(argv[0], argv);
	dprintf(fd, "cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

int batch_cmd(char *const argv[], struct strbuf *out)
{
	double deadline = now() + BATCH_CMD_TIMEOUT;
	int fds[2], status, killed = 0;
	pid_t pid;

	strbuf_reset(out);
	if (pipe(fds))
		return gate_error("cannot create a pipe: %s", strerror(errno)), 127;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return gate_error("cannot fork: %s", strerror(errno)), 127;
	}
	if (!pid)
		child(argv, fds[1]);
	close(fds[1]);
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		char buf[4096];
		double left = deadline - now();
		ssize_t n;

		if (left <= 0) {
			kill(-pid, SIGKILL);
			killed = 1;
			break;
		}
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue; /* the gate's signal: the command still ends, bounded */
			break;
		}
		if ((n = read(fds[0], buf, sizeof(buf))) > 0)
			strbuf_add(out, buf, (size_t)n);
		else if (n == 0 || errno != EINTR)
			break;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	while (out->len && (out->buf[out->len - 1] == '\n' || out->buf[out->len - 1] == ' '))
		out->buf[--out->len] = '\0';
	if (killed) {
		strbuf_addf(out, "%s'%s' did not answer within %.0f s", out->len ? "; " : "",
			    argv[0], BATCH_CMD_TIMEOUT);
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void batch_free_argv(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}

void batch_job_release(struct batch_job *j)
{
	free(j->id);
	free(j->state);
	free(j->reason);
	free(j->exit_code);
	free(j->nodes);
	memset(j, 0, sizeof(*j));
}

int batch_job_cancel(const struct batch_backend *b, struct batch_job *j)
{
	char **argv = b->cancel_argv(j);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	double deadline = now() + BATCH_CMD_TIMEOUT;
	int ret = -1;

	if (batch_cmd(argv, &out)) {
		warning("%s %s failed: %s; the job may still be in the queue", argv[0], j->id,
			out.buf);
		goto out;
	}
	/* Gone from the controller, or in a final state: nothing of it is left in the queue. */
	while (now() < deadline) {
		if (b->query(j, &err) || j->phase == BATCH_ENDED) {
			ret = 0;
			goto out;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 250000000 }, NULL);
	}
	warning("job %s is still %s %.0f s after %s", j->id, j->state ? j->state : "in the queue",
		BATCH_CMD_TIMEOUT, argv[0]);
out:
	batch_free_argv(argv);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}
