/*
 * The matrix as one Slurm batch job. The gate writes a script that runs this
 * same binary ('scalegate run --local') on the allocated node, submits it with
 * sbatch, streams the job's output, polls its state and collects the results
 * the job writes into the results directory (a shared file system).
 */
#include "run/slurm-priv.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/escape.h"
#include "run/runner-exec.h"

#define RUN_GRACE 300.0 /* seconds past the time limit before the gate gives up on Slurm ending the job */

int slurm_wanted(const struct runner *r)
{
	return r->c->slurm && !r->opt.local;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The batch script: this binary, the configuration and the results directory, all absolute. */
static char *job_script(const struct runner *r)
{
	struct strbuf sb = STRBUF_INIT;
	char exe[PATH_MAX], cwd[PATH_MAX], cfg[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	if (!realpath(r->c->doc.path, cfg))
		snprintf(cfg, sizeof(cfg), "%s", r->c->doc.path);
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/");
	strbuf_addstr(&sb, "#!/bin/sh\n# Written by scalegate: runs the matrix on the allocated node "
			   "(docs/running.md, \"On a Slurm cluster\").\ncd ");
	sh_add_quoted(&sb, cwd);
	strbuf_addstr(&sb, " || exit 2\nexec ");
	sh_add_quoted(&sb, n > 0 ? exe : "scalegate");
	strbuf_addstr(&sb, " run --local -c ");
	sh_add_quoted(&sb, cfg);
	strbuf_addstr(&sb, " -o ");
	sh_add_quoted(&sb, r->results);
	if (r->opt.benchmark) {
		strbuf_addstr(&sb, " --benchmark ");
		sh_add_quoted(&sb, r->opt.benchmark);
	}
	/* A/B: the base tree (checked out by this gate under RESULTS, or given) runs in the same job, interleaved. */
	if (r->opt.base_root) {
		strbuf_addstr(&sb, " --against-dir ");
		sh_add_quoted(&sb, r->opt.base_root);
	}
	if (r->opt.inject) {
		strbuf_addstr(&sb, " --inject ");
		sh_add_quoted(&sb, r->opt.inject);
	}
	if (r->opt.seed)
		strbuf_addf(&sb, " --seed %llu", (unsigned long long)r->opt.seed);
	strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb);
}

/* sbatch's argument vector, NULL-terminated; free with free_argv(). */
static char **sbatch_argv(const struct runner *r)
{
	const struct slurm_config *s = r->c->slurm;
	char **argv = xcalloc(13 + s->nr_options, sizeof(*argv));
	size_t n = 0;

	argv[n++] = xstrdup("sbatch");
	argv[n++] = xstrdup("--parsable");
	if (!getenv("SBATCH_JOB_NAME")) /* sbatch's own variable names it otherwise (ci/gitlab-slurm.yml) */
		argv[n++] = xstrdup("--job-name=scalegate");
	argv[n++] = xstrdup("--export=ALL"); /* PATH, the MPI and OpenMP variables, SLURM_CONF: as the gate has them */
	argv[n++] = xstrfmt("--output=%s/.slurm/job.out", r->results);
	if (s->partition)
		argv[n++] = xstrfmt("--partition=%s", s->partition);
	if (s->account)
		argv[n++] = xstrfmt("--account=%s", s->account);
	if (s->time)
		argv[n++] = xstrfmt("--time=%s", s->time);
	argv[n++] = xstrfmt("--nodes=%d", s->nodes ? s->nodes : 1);
	if (s->exclusive)
		argv[n++] = xstrdup("--exclusive");
	for (size_t i = 0; i < s->nr_options; i++)
		argv[n++] = xstrdup(s->options[i]);
	argv[n++] = xstrfmt("%s/.slurm/job.sh", r->results);
	return argv;
}

static void free_argv(char **argv)
{
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

void slurm_print_plan(const struct runner *r)
{
	char **argv = sbatch_argv(r), *script = job_script(r);

	printf("# submitted as one Slurm batch job:");
	for (char **a = argv; *a; a++)
		printf(" %s", *a);
	printf("\n# %s/.slurm/job.sh:\n", r->results);
	for (char *line = script; *line;) {
		size_t len = strcspn(line, "\n");
		printf("#   %.*s\n", (int)len, line);
		line += len + (line[len] == '\n');
	}
	printf("# the job runs, on its node:\n");
	free(script);
	free_argv(argv);
}

/* Writes the script and submits it; the job's id, or NULL with Slurm's message in 'err'. */
static char *submit(struct runner *r, struct strbuf *err)
{
	char *dir = xstrfmt("%s/.slurm", r->results), *path = xstrfmt("%s/job.sh", dir);
	char *out = xstrfmt("%s/job.out", dir), *script = job_script(r), **argv = sbatch_argv(r), *id = NULL;
	int code;

	if (mkdir_p(dir) || write_file_atomic(path, script, strlen(script)) || chmod(path, 0755)) {
		strbuf_addf(err, "cannot write '%s'", path);
		goto out;
	}
	unlink(out);
	code = slurm_cmd(argv, err);
	if (code == 0) {
		/* --parsable: "ID" or "ID;CLUSTER" on the last line, warnings before it. */
		const char *last = strrchr(err->buf, '\n') ? strrchr(err->buf, '\n') + 1 : err->buf;
		size_t len = strspn(last, "0123456789");
		if (len)
			id = xstrndup(last, len);
	}
	if (!id && !err->len)
		strbuf_addf(err, "sbatch exited with code %d and printed no job id", code);
out:
	free_argv(argv);
	free(script);
	free(out);
	free(path);
	free(dir);
	return id;
}

/* Copies the lines the job has added to its output since 'at' to stderr; a last unfinished one only when 'all'. */
static void stream(const struct runner *r, long *at, int all)
{
	char *path = xstrfmt("%s/.slurm/job.out", r->results), buf[8192];
	FILE *f = fopen(path, "r");

	free(path);
	if (!f)
		return;
	if (!fseek(f, *at, SEEK_SET))
		while (fgets(buf, sizeof(buf), f)) {
			size_t len = strlen(buf);
			if (buf[len - 1] != '\n' && len < sizeof(buf) - 1 && !all)
				break; /* the rest of the line is not written yet */
			fputs(buf, stderr);
			if (buf[len - 1] != '\n' && all)
				fputc('\n', stderr);
			*at += (long)len;
		}
	fclose(f);
}

static int has_reason(const struct slurm_job *j)
{
	return j->reason && strcmp(j->reason, "None") && strcmp(j->reason, "(null)");
}

static void tell_state(const struct slurm_job *j, char **told)
{
	char *now_ = xstrfmt("%s %s", j->state, has_reason(j) ? j->reason : "");

	if (*told && !strcmp(*told, now_)) {
		free(now_);
		return;
	}
	if (!strcmp(j->state, "PENDING"))
		fprintf(stderr, "slurm: job %s pending%s%s%s\n", j->id, has_reason(j) ? " (" : "",
			has_reason(j) ? j->reason : "", has_reason(j) ? ")" : "");
	else if (!strcmp(j->state, "RUNNING"))
		fprintf(stderr, "slurm: job %s running on %s after %.0f s in the queue\n", j->id,
			j->nodes ? j->nodes : "?", j->start && j->submit ? j->start - j->submit : 0.0);
	free(*told);
	*told = now_;
}

struct follow {
	double submitted, started;   /* monotonic */
	double next_poll;
	int failed_polls;
	char *told;                  /* the state last told */
	char *stop;                  /* why the gate cancelled the job; NULL: it did not */
};

/* One look at the job: its state, and whether the gate must give up on it (sets f->stop). */
static void poll_job(const struct runner *r, struct slurm_job *j, struct follow *f)
{
	const struct slurm_config *s = r->c->slurm;
	struct strbuf err = STRBUF_INIT;
	double t = now();

	f->next_poll = t + s->poll;
	if (slurm_job_query(j, &err)) {
		/* The controller may be restarting: a minute of failed polls, then the gate gives up. */
		if (++f->failed_polls * s->poll >= 60 && f->failed_polls >= 3)
			f->stop = xstrfmt("cannot read the state of job %s: %s", j->id, err.buf);
		strbuf_release(&err);
		return;
	}
	strbuf_release(&err);
	f->failed_polls = 0;
	tell_state(j, &f->told);
	if (strcmp(j->state, "PENDING") && !f->started)
		f->started = t;
	if (!strcmp(j->state, "PENDING") && t - f->submitted > s->queue_timeout)
		f->stop = xstrfmt("job %s still pending after %.0f s in the queue (%s); cancelled (queue_timeout)",
				  j->id, t - f->submitted, has_reason(j) ? j->reason : "no reason given");
	else if (f->started && s->time_s > 0 && t - f->started > s->time_s + RUN_GRACE)
		f->stop = xstrfmt("job %s still %s %.0f s after its time limit %s; cancelled", j->id, j->state,
				  t - f->started - s->time_s, s->time);
}

/* Follows the job until it ends, the gate is interrupted or gives up; sets f->stop when it cancels. */
static void follow(struct runner *r, struct slurm_job *j, struct follow *f)
{
	long at = 0;

	f->submitted = now();
	f->next_poll = f->submitted + 0.5;
	while (!slurm_job_done(j)) {
		stream(r, &at, 0);
		if (runner_interrupted)
			f->stop = xstrfmt("the gate was interrupted by %s; job %s cancelled",
					  exec_signal_name(runner_interrupted), j->id);
		else if (now() >= f->next_poll)
			poll_job(r, j, f);
		if (f->stop) {
			slurm_job_cancel(j);
			break;
		}
		if (!slurm_job_done(j))
			nanosleep(&(struct timespec){ .tv_nsec = 200000000 }, NULL);
	}
	stream(r, &at, 1);
}

/* Why the runs the job did not do failed: Slurm's state and reason. Caller frees. */
static char *job_reason(const struct runner *r, const struct slurm_job *j, const struct follow *f)
{
	if (f->stop)
		return xstrdup(f->stop);
	if (!strcmp(j->state, "TIMEOUT"))
		return xstrfmt("slurm job %s TIMEOUT: it reached its time limit (%s%s)", j->id,
			       r->c->slurm->time ? "time: " : "the partition's", r->c->slurm->time ? r->c->slurm->time : "");
	return xstrfmt("slurm job %s %s%s%s, exit code %s; see %s/.slurm/job.out", j->id, j->state,
		       has_reason(j) ? " " : "", has_reason(j) ? j->reason : "", j->exit_code ? j->exit_code : "-",
		       r->results);
}

long slurm_run(struct runner *r)
{
	struct slurm_job j = { 0 };
	struct follow f = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *reason;
	long failed;

	runner_catch_signals();
	if (!(j.id = submit(r, &err))) {
		char *msg = slurm_one_line(err.buf);
		reason = xstrfmt("sbatch refused the job: %s", msg);
		free(msg);
		error("%s", reason);
		failed = slurm_collect(r, &j, reason);
		goto out;
	}
	fprintf(stderr, "slurm: submitted job %s%s%s; its output: %s/.slurm/job.out\n", j.id,
		r->c->slurm->partition ? " to partition " : "", r->c->slurm->partition ? r->c->slurm->partition : "",
		r->results);
	follow(r, &j, &f);
	reason = job_reason(r, &j, &f);
	if (f.stop)
		error("%s", f.stop);
	else if (strcmp(j.state, "COMPLETED") && !(!strcmp(j.state, "FAILED") && j.exit_code &&
						   !strcmp(j.exit_code, "3:0")))
		error("%s", reason); /* exit code 3: runs failed, told by the job itself */
	failed = slurm_collect(r, &j, reason);
	if (runner_interrupted)
		failed = -1;
out:
	free(reason);
	free(f.told);
	free(f.stop);
	strbuf_release(&err);
	slurm_job_release(&j);
	return failed;
}
