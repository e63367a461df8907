/* The Slurm commands the gate runs (sbatch, scontrol, sacct, scancel), each bounded in time, and the job's state. */
#include "run/slurm-priv.h"

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

int slurm_cmd(char *const argv[], struct strbuf *out)
{
	double deadline = now() + SLURM_CMD_TIMEOUT;
	int fds[2], status, killed = 0;
	pid_t pid;

	strbuf_reset(out);
	if (pipe(fds))
		return error("cannot create a pipe: %s", strerror(errno)), 127;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return error("cannot fork: %s", strerror(errno)), 127;
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
		strbuf_addf(out, "%s'%s' did not answer within %.0f s", out->len ? "; " : "", argv[0], SLURM_CMD_TIMEOUT);
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void slurm_job_release(struct slurm_job *j)
{
	free(j->id);
	free(j->state);
	free(j->reason);
	free(j->exit_code);
	free(j->nodes);
	memset(j, 0, sizeof(*j));
}

/* The value of ' KEY=' in scontrol's one-line output, up to the next space; NULL when absent. */
static char *field(const char *line, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = line; (p = strstr(p, key)); p += klen)
		if ((p == line || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			return xstrndup(p, strcspn(p, " \n"));
		}
	return NULL;
}

/* A Slurm date (2026-01-31T12:00:00, local time) in epoch seconds; 0 for 'Unknown', 'None', ... */
static double epoch(const char *s)
{
	struct tm tm;
	char *end;

	memset(&tm, 0, sizeof(tm));
	if (!s || !(end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)) || *end)
		return 0;
	tm.tm_isdst = -1;
	return (double)mktime(&tm);
}

static void set(char **field_, char *value)
{
	if (!value)
		return;
	free(*field_);
	*field_ = value;
}

static int query_scontrol(struct slurm_job *j, struct strbuf *out)
{
	char *argv[] = { "scontrol", "show", "job", "-o", j->id, NULL };
	char *v;

	if (slurm_cmd(argv, out) || !strstr(out->buf, "JobState="))
		return -1;
	set(&j->state, field(out->buf, "JobState"));
	set(&j->reason, field(out->buf, "Reason"));
	set(&j->exit_code, field(out->buf, "ExitCode"));
	set(&j->nodes, field(out->buf, "NodeList"));
	j->submit = epoch(v = field(out->buf, "SubmitTime"));
	free(v);
	j->start = epoch(v = field(out->buf, "StartTime"));
	free(v);
	j->end = epoch(v = field(out->buf, "EndTime"));
	free(v);
	if (j->start && !strcmp(j->state, "PENDING"))
		j->start = 0; /* the expected start, not a start */
	if (j->end && (!strcmp(j->state, "PENDING") || !strcmp(j->state, "RUNNING")))
		j->end = 0;   /* the time limit, not an end */
	return 0;
}

/* sacct -P: State|ExitCode|Submit|Start|End|NodeList of the job's allocation. */
static int query_sacct(struct slurm_job *j, struct strbuf *out)
{
	char *argv[] = { "sacct", "-n", "-X", "-P", "-j", j->id, "-o", "State,ExitCode,Submit,Start,End,NodeList", NULL };
	char *f[6], *save = NULL, *p;
	int n = 0;

	if (slurm_cmd(argv, out) || !out->len)
		return -1;
	out->buf[strcspn(out->buf, "\n")] = '\0';
	for (p = strtok_r(out->buf, "|", &save); p && n < 6; p = strtok_r(NULL, "|", &save))
		f[n++] = p;
	if (n < 5)
		return -1;
	f[0][strcspn(f[0], " ")] = '\0'; /* "CANCELLED by 0" */
	set(&j->state, xstrdup(f[0]));
	set(&j->exit_code, xstrdup(f[1]));
	j->submit = epoch(f[2]);
	j->start = epoch(f[3]);
	j->end = epoch(f[4]);
	if (n > 5)
		set(&j->nodes, xstrdup(f[5]));
	return 0;
}

int slurm_job_query(struct slurm_job *j, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	if (query_scontrol(j, &out)) {
		strbuf_reset(err);
		strbuf_addstr(err, out.buf ? out.buf : "");
		if (query_sacct(j, &out))
			ret = -1;
	}
	strbuf_release(&out);
	return ret;
}

int slurm_job_done(const struct slurm_job *j)
{
	static const char *const live[] = { "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED",
					    "REQUEUED", "RESIZING", "SIGNALING", "STAGE_OUT", "REQUEUE_HOLD",
					    "REQUEUE_FED", "RESV_DEL_HOLD", "STOPPED", NULL };

	if (!j->state)
		return 0;
	for (const char *const *s = live; *s; s++)
		if (!strcmp(j->state, *s))
			return 0;
	return 1;
}

int slurm_job_cancel(struct slurm_job *j)
{
	char *argv[] = { "scancel", j->id, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	double deadline = now() + SLURM_CMD_TIMEOUT;
	int ret = -1;

	if (slurm_cmd(argv, &out)) {
		warning("scancel %s failed: %s; the job may still be in the queue", j->id, out.buf);
		goto out;
	}
	/* Gone from the controller, or in a final state: nothing of it is left in the queue. */
	while (now() < deadline) {
		if (slurm_job_query(j, &err) || slurm_job_done(j)) {
			ret = 0;
			goto out;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 250000000 }, NULL);
	}
	warning("job %s is still %s %.0f s after scancel", j->id, j->state ? j->state : "in the queue",
		SLURM_CMD_TIMEOUT);
out:
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}
