/* After the batch job: the manifest it wrote, completed with the runs it did not do, and
 * <scheduler>.tsv. */
#include "run/batch-priv.h"
#include "results/manifest.h"
#include "run/runner-exec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char *batch_one_line(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++)
		if (*s == '\n')
			strbuf_addstr(&sb, " | ");
		else
			strbuf_addch(&sb, *s == '\t' || *s == '\r' ? ' ' : *s);
	if (!sb.len)
		strbuf_addch(&sb, '-');
	return strbuf_detach(&sb);
}

static int has_row(const struct manifest *m, const char *bench, const char *size,
		   const struct config_point *p, int repeat)
{
	for (size_t i = 0; i < m->nr; i++) {
		const struct manifest_row *row = &m->rows[i];
		if (row->repeat == repeat && row->ranks == p->ranks && row->threads == p->threads &&
		    !strcmp(row->benchmark, bench) && !strcmp(row->size, size))
			return 1;
	}
	return 0;
}

/* The 'job-failed' lines of one benchmark's runs that 'm' lacks; the number written. */
static long add_missing(FILE *out, const struct manifest *m, const struct bench_config *b,
			const char *reason)
{
	size_t nr;
	struct config_point *all = config_matrix_points(b, &nr);
	long added = 0;

	for (int repeat = 1; repeat <= b->repeat; repeat++)
		for (size_t i = 0; i < nr; i++) {
			struct config_point p = all[i];
			char size[32] = "-", *dir;
			if (p.size != CONFIG_NO_SIZE)
				snprintf(size, sizeof(size), "%lld", p.size);
			if (has_row(m, b->name, size, &p, repeat))
				continue;
			dir = xstrfmt("%s/s%s-r%d-t%d/%d", b->name, size, p.ranks, p.threads,
				      repeat);
			struct manifest_row row = {
				.benchmark = b->name,
				.size = size,
				.ranks = p.ranks,
				.threads = p.threads,
				.repeat = repeat,
				.status = run_status_name(RUN_JOB_FAILED),
				.exit_code = -1,
				.wall = 0,
				.dir = dir,
				.reason = reason,
				.contention = NAN,
				.reference = NAN,
			};
			manifest_write_row(out, &row);
			free(dir);
			added++;
		}
	free(all);
	return added;
}

/* The manifest the job left: manifest.tsv.partial when it was killed before renaming it, else
 * manifest.tsv. */
static int read_job_manifest(const struct runner *r, struct manifest *m)
{
	char *partial = xstrfmt("%s/manifest.tsv.partial", r->results),
	     *full = xstrfmt("%s/manifest.tsv", r->results);
	const char *path = !access(partial, F_OK) ? partial : full;
	int ret = 0;

	manifest_init(m);
	if (!access(path, F_OK))
		ret = manifest_read(m, path);
	free(partial);
	free(full);
	return ret;
}

static void write_job_tsv(const struct runner *r, const struct batch_backend *b,
			  const struct batch_job *j, const char *reason)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/%s.tsv", r->results, b->name),
	     *why = batch_one_line(reason ? reason : "");
	double queue = j->start && j->submit ? j->start - j->submit : NAN;
	double run = j->end && j->start ? j->end - j->start : NAN;

	strbuf_addf(&sb, "job_id\t%s\nstate\t%s\nnodes\t%s\n", j->id ? j->id : "-",
		    j->state ? j->state : "-", j->nodes ? j->nodes : "-");
	strbuf_addf(&sb, isnan(queue) ? "queue_s\t-\n" : "queue_s\t%.0f\n", queue);
	strbuf_addf(&sb, isnan(run) ? "run_s\t-\n" : "run_s\t%.0f\n", run);
	strbuf_addf(&sb, "exit_code\t%s\nreason\t%s\n", j->exit_code ? j->exit_code : "-", why);
	write_file_atomic(path, sb.buf, sb.len);
	if (j->id) {
		char q[32] = "-", t[32] = "-";
		if (!isnan(queue))
			snprintf(q, sizeof(q), "%.0f", queue);
		if (!isnan(run))
			snprintf(t, sizeof(t), "%.0f", run);
		fprintf(stderr, "%s: job %s %s on %s: %s s in the queue, %s s running\n", b->name,
			j->id, j->state ? j->state : "?", j->nodes ? j->nodes : "-", q, t);
	}
	strbuf_release(&sb);
	free(why);
	free(path);
}

long batch_collect(struct runner *r, const struct batch_backend *b, const struct batch_job *j,
		   const char *reason)
{
	char *tmp = xstrfmt("%s/manifest.tsv.%s", r->results, b->name),
	     *to = xstrfmt("%s/manifest.tsv", r->results);
	char *partial = xstrfmt("%s/manifest.tsv.partial", r->results),
	     *why = batch_one_line(reason);
	struct manifest m;
	long failed = -1;
	FILE *out = NULL;

	if (read_job_manifest(r, &m))
		goto out;
	if (!(out = fopen(tmp, "w"))) {
		gate_error("cannot create '%s': %s", tmp, strerror(errno));
		goto out;
	}
	failed = 0;
	manifest_write_header(out);
	for (size_t i = 0; i < m.nr; i++) {
		manifest_write_row(out, &m.rows[i]);
		if (runner_selected_name(r, m.rows[i].benchmark) && strcmp(m.rows[i].status, "ok"))
			failed++;
	}
	for (size_t i = 0; i < r->c->nr_benchmarks; i++)
		if (runner_selected_name(r, r->c->benchmarks[i].name))
			failed += add_missing(out, &m, &r->c->benchmarks[i], why);
	if (fclose(out) | rename(tmp, to)) {
		failed = gate_error("cannot write '%s': %s", to, strerror(errno));
		goto out;
	}
	unlink(partial);
	write_job_tsv(r, b, j, failed ? reason : NULL);
	/* Every run of the selected benchmarks is now in the manifest, done or 'job-failed':
	 * complete, unless the gate itself was interrupted (then, as without the scheduler, the
	 * results say they are incomplete). */
	if (interrupt_signal)
		goto out;
	for (size_t i = 0; i < r->c->nr_benchmarks; i++) {
		const struct bench_config *b = &r->c->benchmarks[i];
		long points = (long)config_matrix_size(b);
		if (runner_selected_name(r, b->name))
			complete_set(&r->complete, b->name, points, b->repeat, points * b->repeat);
	}
	if (complete_write(&r->complete, r->results))
		failed = -1;
out:
	manifest_release(&m);
	free(why);
	free(partial);
	free(to);
	free(tmp);
	return failed;
}
