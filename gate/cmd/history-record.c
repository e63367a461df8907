/* scalegate history record, and ci --record: what names a run (options, the CI's environment, git),
 * its figures from the analysis, and one run written into the history database. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/matrix.h"
#include "base/util.h"
#include "cmd/history-cmd.h"
#include "cmd/history-priv.h"
#include "config/config.h"
#include "history/history.h"

/* ---- what names a run: options, the CI's environment, git ---- */

const char *history_cmd_env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* The first line git prints for 'args' in the current directory, or NULL; caller frees. */
static char *git_line(const char *args)
{
	char *cmd = xstrfmt("git %s 2>/dev/null", args), line[4096];
	FILE *p = popen(cmd, "r");
	char *out = NULL;

	free(cmd);
	if (!p)
		return NULL;
	if (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\r\n")] = 0;
		if (*line)
			out = xstrdup(line);
	}
	if (pclose(p) != 0) {
		free(out);
		out = NULL;
	}
	return out;
}

/* A commit as git may take it on a command line: hex digits, letters of ref names, no shell syntax.
 */
static int plain_revision(const char *s)
{
	return s && *s &&
	       strspn(s, "0123456789abcdefABCDEFghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ_./-") ==
		       strlen(s);
}

char *history_cmd_subject(const char *commit)
{
	char *cmd, *subject;

	if (!plain_revision(commit))
		return NULL;
	cmd = xstrfmt("show -s --format=%%s %s --", commit);
	subject = git_line(cmd);
	free(cmd);
	return subject;
}

char *history_cmd_now(void)
{
	char buf[32];
	time_t t = time(NULL);

	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	return xstrdup(buf);
}

static char *dup_or(const char *a, const char *b)
{
	return a ? xstrdup(a) : b ? xstrdup(b) : NULL;
}

static char *default_branch(void)
{
	const char *e = history_cmd_env("GITHUB_HEAD_REF");
	char *b;

	if (!e)
		e = history_cmd_env("GITHUB_REF_NAME");
	if (!e)
		e = history_cmd_env("CI_COMMIT_BRANCH");
	if (!e)
		e = history_cmd_env("CI_COMMIT_REF_NAME");
	if (!e)
		e = history_cmd_env("BRANCH_NAME");
	if (e)
		return xstrdup(e);
	b = git_line("rev-parse --abbrev-ref HEAD");
	if (b && !strcmp(b, "HEAD")) { /* detached */
		free(b);
		b = NULL;
	}
	return b;
}

static char *default_job_url(void)
{
	const char *server = history_cmd_env("GITHUB_SERVER_URL"),
		   *repo = history_cmd_env("GITHUB_REPOSITORY"),
		   *id = history_cmd_env("GITHUB_RUN_ID");

	if (server && repo && id)
		return xstrfmt("%s/%s/actions/runs/%s", server, repo, id);
	return dup_or(history_cmd_env("CI_JOB_URL"), history_cmd_env("BUILD_URL"));
}

/* Fills r from 'meta', the CI's environment and git; 0, or gate_error() when there is no commit. */
static int run_names(struct history_run *r, const struct history_meta *meta)
{
	char *cmd;

	r->commit = dup_or(meta->commit, history_cmd_env("GITHUB_SHA"));
	if (!r->commit)
		r->commit = dup_or(history_cmd_env("CI_COMMIT_SHA"), history_cmd_env("GIT_COMMIT"));
	if (!r->commit)
		r->commit = git_line("rev-parse HEAD");
	if (!r->commit)
		return gate_error(
			"no commit: give --commit SHA (no GITHUB_SHA, CI_COMMIT_SHA, nor a "
			"git checkout here)");
	r->branch = meta->branch ? xstrdup(meta->branch) : default_branch();
	r->job_url = meta->job_url ? xstrdup(meta->job_url) : default_job_url();
	if (meta->parent) {
		r->parent = xstrdup(meta->parent);
	} else if (plain_revision(r->commit)) {
		cmd = xstrfmt("rev-parse --verify --quiet %s^", r->commit);
		r->parent = git_line(cmd);
		free(cmd);
	}
	r->subject = dup_or(meta->subject, history_cmd_env("CI_COMMIT_TITLE"));
	if (!r->subject)
		r->subject = history_cmd_subject(r->commit);
	if (meta->date) {
		r->date = xstrdup(meta->date);
	} else if (plain_revision(r->commit)) {
		cmd = xstrfmt("show -s --format=%%cI %s", r->commit);
		r->date = git_line(cmd);
		free(cmd);
	}
	if (!r->date)
		r->date = history_cmd_now();
	if (strlen(r->date) < 10 || r->date[4] != '-' || r->date[7] != '-')
		return gate_error(
			"'%s' is not an ISO-8601 date (2026-11-25 or 2026-11-25T22:00:00Z)",
			r->date);
	return 0;
}

/* The machine: a hash of the fingerprint's keys that describe it (not the date nor the job). */
static char *machine_of(const struct analysis *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *out = NULL;

	for (size_t i = 0; i + 1 < a->nr_fingerprint; i += 2) {
		const char *k = a->fingerprint[i];
		if (!strcmp(k, "date") || !strcmp(k, "slurm_job") ||
		    !strcmp(k, "scalegate_version"))
			continue;
		strbuf_addf(&sb, "%s\t%s\n", k, a->fingerprint[i + 1]);
	}
	if (sb.len)
		out = xstrfmt("%016llx", fnv1a64(sb.buf, sb.len));
	strbuf_release(&sb);
	return out;
}

static const char *fingerprint_value(const struct analysis *a, const char *key)
{
	for (size_t i = 0; i + 1 < a->nr_fingerprint; i += 2)
		if (!strcmp(a->fingerprint[i], key) && strcmp(a->fingerprint[i + 1], "-"))
			return a->fingerprint[i + 1];
	return NULL;
}

char *history_cmd_file_hash(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *out = NULL;

	if (path && !access(path, R_OK) && !strbuf_read_file(&sb, path))
		out = xstrfmt("%016llx", fnv1a64(sb.buf, sb.len));
	strbuf_release(&sb);
	return out;
}

void history_cmd_fill(struct history_record *r, const struct analysis *a, const struct matrix *m)
{
	history_record_add(r, a, m);
	r->run.machine = machine_of(a);
	if (!r->run.date && fingerprint_value(a, "date"))
		r->run.date = xstrdup(fingerprint_value(a, "date"));
}

int history_cmd_analyse(struct history_record *r, struct config *c, const char *results)
{
	struct analysis a;
	struct matrix m;
	int ret = -1;

	analysis_init(&a);
	matrix_init(&m);
	m.skip_trend = 1; /* not recorded */
	m.medians_only = 1;
	for (size_t i = 0; c && i < c->nr_benchmarks; i++)
		if (c->benchmarks[i].memory)
			matrix_set_memory(&m, c->benchmarks[i].name, c->benchmarks[i].memory);
	if (!analysis_load(&a, results) && !matrix_build(&m, &a)) {
		history_cmd_fill(r, &a, &m);
		ret = 0;
	}
	matrix_release(&m);
	analysis_release(&a);
	return ret;
}

int history_cmd_write(struct history *h, const char *where, struct history_record *r,
		      const char *results)
{
	char *text;

	if (!r->nr)
		return gate_error("'%s' holds no figure to record", results);
	if (history_write(h, r))
		return -1;
	text = history_where_text(where);
	printf("history: recorded run %lld of commit %s (%zu figures) into %s\n", r->run.id,
	       r->run.commit, r->nr, text);
	free(text);
	return 0;
}

/* One run in a transaction of its own. */
static int write_record(const char *where, struct history_record *r, const char *results)
{
	struct history *h;
	int ret;

	if (!r->nr)
		return gate_error("'%s' holds no figure to record", results);
	if (history_open(&h, where))
		return -1;
	ret = history_cmd_write(h, where, r, results);
	history_close(h);
	return ret;
}

int history_cmd_record(const char *where, struct config *c, const char *config_path,
		       const char *results, const struct history_meta *meta)
{
	struct history_record r;
	int ret;

	history_record_init(&r);
	ret = run_names(&r.run, meta) || history_cmd_analyse(&r, c, results) ? -1 : 0;
	if (!ret) {
		r.run.config_hash = c ? history_cmd_file_hash(config_path) : NULL;
		ret = write_record(where, &r, results);
	}
	history_record_release(&r);
	return ret;
}

int history_cmd_record_analysis(const char *where, struct config *c, const char *config_path,
				const struct analysis *a, const struct matrix *m,
				const struct history_meta *meta)
{
	struct history_record r;
	int ret;

	history_record_init(&r);
	ret = run_names(&r.run, meta);
	if (!ret) {
		history_cmd_fill(&r, a, m);
		r.run.config_hash = c ? history_cmd_file_hash(config_path) : NULL;
		ret = write_record(where, &r, a->dir);
	}
	history_record_release(&r);
	return ret;
}
