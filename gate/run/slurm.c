/* Slurm behind the batch seam: sbatch submits, scontrol (sacct once the controller forgot the job)
 * reads the state, scancel cancels (docs/running.md, "On a Slurm cluster"). */
#include "run/batch-priv.h"
#include "config/config-slurm.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* sbatch's argument vector for 'script', NULL-terminated. */
static char **submit_argv(const struct batch_section *sec, const char *script, const char *output)
{
	const struct slurm_config *s = sec->own;
	char **argv = xcalloc(13 + s->nr_options, sizeof(*argv));
	size_t n = 0;

	argv[n++] = xstrdup("sbatch");
	argv[n++] = xstrdup("--parsable");
	/* sbatch's own variable names it otherwise (ci/gitlab-slurm.yml) */
	if (!getenv("SBATCH_JOB_NAME"))
		argv[n++] = xstrdup("--job-name=scalegate");
	/* PATH, the MPI and OpenMP variables, SLURM_CONF: as the gate has them */
	argv[n++] = xstrdup("--export=ALL");
	argv[n++] = xstrfmt("--output=%s", output);
	if (s->partition)
		argv[n++] = xstrfmt("--partition=%s", s->partition);
	if (s->account)
		argv[n++] = xstrfmt("--account=%s", s->account);
	if (sec->limits.time)
		argv[n++] = xstrfmt("--time=%s", sec->limits.time);
	argv[n++] = xstrfmt("--nodes=%d", s->nodes ? s->nodes : 1);
	if (s->exclusive)
		argv[n++] = xstrdup("--exclusive");
	for (size_t i = 0; i < s->nr_options; i++)
		argv[n++] = xstrdup(s->options[i]);
	argv[n++] = xstrdup(script);
	return argv;
}

/* --parsable: "ID" or "ID;CLUSTER" on the last line, warnings before it. */
static char *parse_id(const char *out)
{
	const char *last = strrchr(out, '\n') ? strrchr(out, '\n') + 1 : out;
	size_t len = strspn(last, "0123456789");

	return len ? xstrndup(last, len) : NULL;
}

static char **cancel_argv(const struct batch_job *j)
{
	char **argv = xcalloc(3, sizeof(*argv));

	argv[0] = xstrdup("scancel");
	argv[1] = xstrdup(j->id);
	return argv;
}

/* The gate's view of Slurm's state word. */
static void set_phase(struct batch_job *j)
{
	static const char *const live[] = { "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED",
					    "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED", NULL };
	static const char *const queued[] = { "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED",
					      "RESV_DEL_HOLD", NULL };

	j->phase = BATCH_ENDED;
	for (const char *const *s = queued; *s; s++)
		if (!strcmp(j->state, *s))
			j->phase = BATCH_QUEUED;
	for (const char *const *s = live; *s; s++)
		if (!strcmp(j->state, *s))
			j->phase = BATCH_RUNNING;
	j->timed_out = !strcmp(j->state, "TIMEOUT");
	/* exit code 3: runs failed, told by the job itself */
	j->ended_clean = !strcmp(j->state, "COMPLETED") ||
			 (!strcmp(j->state, "FAILED") && j->exit_code &&
			  !strcmp(j->exit_code, "3:0"));
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

static int query_scontrol(struct batch_job *j, struct strbuf *out)
{
	char *argv[] = { "scontrol", "show", "job", "-o", j->id, NULL };
	char *v;

	if (batch_cmd(argv, out) || !strstr(out->buf, "JobState="))
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
static int query_sacct(struct batch_job *j, struct strbuf *out)
{
	char *argv[] = {"sacct", "-n",  "-X", "-P",
			"-j",    j->id, "-o", "State,ExitCode,Submit,Start,End,NodeList",
			NULL};
	char *f[6], *save = NULL, *p;
	int n = 0;

	if (batch_cmd(argv, out) || !out->len)
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

static int query(struct batch_job *j, struct strbuf *err)
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
	if (!ret)
		set_phase(j);
	return ret;
}


const struct batch_backend batch_slurm = {
	.name = "slurm",
	.title = "Slurm",
	.section = &config_slurm,
	.submit_argv = submit_argv,
	.parse_id = parse_id,
	.query = query,
	.cancel_argv = cancel_argv,
};
