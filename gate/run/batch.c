/*
 * The matrix as one batch job. The gate writes a script that runs this same
 * binary ('scalegate run --local') on the allocated node, submits it with the
 * scheduler's command, streams the job's output, polls its state and collects
 * the results the job writes into the results directory (a shared file
 * system). Everything here is the scheduler's only through struct batch_backend.
 */
#include "run/batch-priv.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/escape.h"
#include "run/runner-exec.h"

/* seconds past the time limit before the gate gives up on the scheduler ending the job */
#define RUN_GRACE 300.0

/* One row per scheduler; a new one adds its row here and its commands in its own file. */
const struct batch_backend *const batch_backends[] = {
	&batch_slurm,
	NULL,
};

/* The scheduler of the configuration's section; NULL: none. */
static const struct batch_backend *batch_backend_of(const struct config *c)
{
	for (const struct batch_backend *const *b = batch_backends; c->batch && *b; b++)
		if ((*b)->section == c->batch->scheduler)
			return *b;
	return NULL;
}

int batch_wanted(const struct runner *r)
{
	return batch_backend_of(r->c) && !r->opt.local;
}

/* RESULTS/.<scheduler>/NAME: the job's script and output. Caller frees. */
static char *job_file(const struct runner *r, const struct batch_backend *b, const char *name)
{
	return xstrfmt("%s/.%s%s%s", r->results, b->name, name ? "/" : "", name ? name : "");
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
	strbuf_addstr(&sb,
		      "#!/bin/sh\n# Written by scalegate: runs the matrix on the allocated node "
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
	/* A/B: the base tree (checked out by this gate under RESULTS, or given) runs in the same
	 * job, interleaved. */
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

/* The submit command of the job's script. */
static char **submit_argv(const struct runner *r, const struct batch_backend *b)
{
	char *script = job_file(r, b, "job.sh"), *output = job_file(r, b, "job.out");
	char **argv = b->submit_argv(r->c->batch, script, output);

	free(output);
	free(script);
	return argv;
}

void batch_print_plan(const struct runner *r)
{
	const struct batch_backend *b = batch_backend_of(r->c);
	char **argv = submit_argv(r, b), *script = job_script(r), *path = job_file(r, b, "job.sh");

	printf("# submitted as one %s batch job:", b->title);
	for (char **a = argv; *a; a++)
		printf(" %s", *a);
	printf("\n# %s:\n", path);
	for (char *line = script; *line;) {
		size_t len = strcspn(line, "\n");
		printf("#   %.*s\n", (int)len, line);
		line += len + (line[len] == '\n');
	}
	printf("# the job runs, on its node:\n");
	free(path);
	free(script);
	batch_free_argv(argv);
}

/* Writes the script and submits it; the job's id, or NULL with "CMD refused the job: why" in 'err'.
 */
static char *submit(struct runner *r, const struct batch_backend *b, struct strbuf *err)
{
	char *dir = job_file(r, b, NULL), *path = job_file(r, b, "job.sh");
	char *out = job_file(r, b, "job.out"), *script = job_script(r), **argv = submit_argv(r, b);
	char *id = NULL;
	int code = -1;

	if (mkdir_p(dir) || write_file_atomic(path, script, strlen(script)) || chmod(path, 0755)) {
		strbuf_addf(err, "cannot write '%s'", path);
		goto out;
	}
	unlink(out);
	code = batch_cmd(argv, err);
	if (code == 0)
		id = b->parse_id(err->buf);
	if (!id && !err->len)
		strbuf_addf(err, "%s exited with code %d and printed no job id", argv[0], code);
out:
	if (!id) {
		char *msg = batch_one_line(err->buf);
		strbuf_reset(err);
		strbuf_addf(err, "%s refused the job: %s", argv[0], msg);
		free(msg);
	}
	batch_free_argv(argv);
	free(script);
	free(out);
	free(path);
	free(dir);
	return id;
}

/* Copies the lines the job has added to its output since 'at' to stderr; a last unfinished one only
 * when 'all'. */
static void stream(const struct runner *r, const struct batch_backend *b, long *at, int all)
{
	char *path = job_file(r, b, "job.out"), buf[8192];
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

static int has_reason(const struct batch_job *j)
{
	return j->reason && strcmp(j->reason, "None") && strcmp(j->reason, "(null)");
}

static void tell_state(const struct batch_backend *b, const struct batch_job *j, char **told)
{
	char *now_ = xstrfmt("%s %s", j->state, has_reason(j) ? j->reason : "");

	if (*told && !strcmp(*told, now_)) {
		free(now_);
		return;
	}
	if (j->phase == BATCH_QUEUED)
		fprintf(stderr, "%s: job %s pending%s%s%s\n", b->name, j->id,
			has_reason(j) ? " (" : "", has_reason(j) ? j->reason : "",
			has_reason(j) ? ")" : "");
	else if (j->phase == BATCH_RUNNING)
		fprintf(stderr, "%s: job %s running on %s after %.0f s in the queue\n", b->name,
			j->id, j->nodes ? j->nodes : "?",
			j->start && j->submit ? j->start - j->submit : 0.0);
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
static void poll_job(const struct runner *r, const struct batch_backend *b, struct batch_job *j,
		     struct follow *f)
{
	const struct batch_limits *s = &r->c->batch->limits;
	struct strbuf err = STRBUF_INIT;
	double t = now();

	f->next_poll = t + s->poll;
	if (b->query(j, &err)) {
		/* The controller may be restarting: a minute of failed polls, then the gate gives
		 * up. */
		if (++f->failed_polls * s->poll >= 60 && f->failed_polls >= 3)
			f->stop = xstrfmt("cannot read the state of job %s: %s", j->id, err.buf);
		strbuf_release(&err);
		return;
	}
	strbuf_release(&err);
	f->failed_polls = 0;
	tell_state(b, j, &f->told);
	if (j->phase != BATCH_QUEUED && !f->started)
		f->started = t;
	if (j->phase == BATCH_QUEUED && t - f->submitted > s->queue_timeout)
		f->stop = xstrfmt("job %s still pending after %.0f s in the queue (%s); cancelled "
				  "(queue_timeout)",
				  j->id, t - f->submitted,
				  has_reason(j) ? j->reason : "no reason given");
	else if (f->started && s->time_s > 0 && t - f->started > s->time_s + RUN_GRACE)
		f->stop = xstrfmt("job %s still %s %.0f s after its time limit %s; cancelled",
				  j->id, j->state, t - f->started - s->time_s, s->time);
}

/* Follows the job until it ends, the gate is interrupted or gives up; sets f->stop when it cancels.
 */
static void follow(struct runner *r, const struct batch_backend *b, struct batch_job *j,
		   struct follow *f)
{
	long at = 0;

	f->submitted = now();
	f->next_poll = f->submitted + 0.5;
	while (j->phase != BATCH_ENDED) {
		stream(r, b, &at, 0);
		if (interrupt_signal)
			f->stop = xstrfmt("the gate was interrupted by %s; job %s cancelled",
					  exec_signal_name(interrupt_signal), j->id);
		else if (now() >= f->next_poll)
			poll_job(r, b, j, f);
		if (f->stop) {
			batch_job_cancel(b, j);
			break;
		}
		if (j->phase != BATCH_ENDED)
			nanosleep(&(struct timespec){ .tv_nsec = 200000000 }, NULL);
	}
	stream(r, b, &at, 1);
}

/* Why the runs the job did not do failed: the scheduler's state and reason. Caller frees. */
static char *job_reason(const struct runner *r, const struct batch_backend *b,
			const struct batch_job *j, const struct follow *f)
{
	const char *limit = r->c->batch->limits.time;
	char *out;
	char *reason;

	if (f->stop)
		return xstrdup(f->stop);
	if (j->timed_out)
		return xstrfmt("%s job %s %s: it reached its time limit (%s%s)", b->name, j->id,
			       j->state, limit ? "time: " : "the partition's", limit ? limit : "");
	out = job_file(r, b, "job.out");
	reason = xstrfmt("%s job %s %s%s%s, exit code %s; see %s", b->name, j->id, j->state,
			 has_reason(j) ? " " : "", has_reason(j) ? j->reason : "",
			 j->exit_code ? j->exit_code : "-", out);
	free(out);
	return reason;
}

long batch_run(struct runner *r)
{
	return batch_run_with(r, batch_backend_of(r->c));
}

long batch_run_with(struct runner *r, const struct batch_backend *b)
{
	struct batch_job j = { 0 };
	struct follow f = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *reason, *out;
	long failed;

	interrupt_catch();
	if (!(j.id = submit(r, b, &err))) {
		reason = strbuf_detach(&err);
		gate_error("%s", reason);
		failed = batch_collect(r, b, &j, reason);
		goto out;
	}
	out = job_file(r, b, "job.out");
	fprintf(stderr, "%s: submitted job %s%s%s; its output: %s\n", b->name, j.id,
		r->c->batch->limits.where ? " to " : "",
		r->c->batch->limits.where ? r->c->batch->limits.where : "", out);
	free(out);
	follow(r, b, &j, &f);
	reason = job_reason(r, b, &j, &f);
	if (f.stop)
		gate_error("%s", f.stop);
	else if (!j.ended_clean)
		gate_error("%s", reason);
	failed = batch_collect(r, b, &j, reason);
	if (interrupt_signal)
		failed = -1;
out:
	free(reason);
	free(f.told);
	free(f.stop);
	strbuf_release(&err);
	batch_job_release(&j);
	return failed;
}
