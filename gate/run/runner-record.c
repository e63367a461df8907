/* The runner's records: manifest.tsv (incremental, then atomic) and the progress a person watches.
 */
#include "run/runner-priv.h"
#include "results/manifest.h"
#include "base/words.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Adds 'name' to the list of dropped benchmarks once. */
static void note_dropped(struct strbuf *dropped, const char *name)
{
	char *quoted = xstrfmt("'%s'", name);

	if (!strstr(dropped->buf ? dropped->buf : "", quoted))
		strbuf_addf(dropped, "%s%s", dropped->len ? ", " : "", quoted);
	free(quoted);
}

/*
 * The lines of an existing manifest that belong to benchmarks this run leaves alone: with
 * --benchmark, the others'. A run of the whole configuration drops the lines of benchmarks no
 * longer in it (a renamed or removed one, another configuration's): no later check judges them.
 */
static void keep_old_lines(struct runner *r, FILE *out)
{
	char *path = xstrfmt("%s/manifest.tsv", r->results);
	struct strbuf sb = STRBUF_INIT, dropped = STRBUF_INIT;
	char *line, *save = NULL;

	if (!access(path, F_OK) && !strbuf_read_file(&sb, path)) {
		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *name;
			int selected;
			if (!strncmp(line, "benchmark\t", 10))
				continue; /* the header: written anew */
			name = xstrndup(line, strcspn(line, "\t"));
			selected = runner_selected_name(r, name);
			if (r->opt.extend || (r->opt.benchmark && !selected))
				fprintf(out, "%s\n", line);
			else if (!selected)
				note_dropped(&dropped, name); /* a whole run: not configured */
			free(name);
		}
	}
	if (dropped.len)
		warning("'%s' held results of benchmarks not in the configuration (%s): dropped",
			r->results, dropped.buf);
	strbuf_release(&dropped);
	strbuf_release(&sb);
	free(path);
}

int runner_manifest_start(struct runner *r)
{
	char *path = xstrfmt("%s/manifest.tsv.partial", r->results);
	int ret = 0;

	r->partial = fopen(path, "w");
	if (!r->partial) {
		ret = gate_error("cannot create '%s': %s", path, strerror(errno));
	} else {
		manifest_write_header(r->partial);
		keep_old_lines(r, r->partial);
		fflush(r->partial);
	}
	free(path);
	return ret;
}

int runner_manifest_finish(struct runner *r)
{
	char *from = xstrfmt("%s/manifest.tsv.partial", r->results),
	     *to = xstrfmt("%s/manifest.tsv", r->results);
	int ret = 0;

	if (!r->partial)
		goto out;
	if (fclose(r->partial))
		ret = gate_error("cannot write '%s': %s", from, strerror(errno));
	r->partial = NULL;
	if (!ret && rename(from, to))
		ret = gate_error("cannot rename '%s' to '%s': %s", from, to, strerror(errno));
out:
	free(from);
	free(to);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void tell_point_done(struct runner *r, const struct bench_run *br, size_t pt)
{
	struct point_state *ps = &br->points[pt];
	struct strbuf sb = STRBUF_INIT;

	if ((r->top ? r->top : r)->opt.quiet)
		return;
	strbuf_addstr(&sb, runner_side(r));
	runner_point_label(&sb, br, pt);
	strbuf_addf(&sb, ": %d/%d ok", ps->nr_ok, ps->nr_done);
	if (ps->nr_ok)
		strbuf_addf(&sb, ", median %.3f s", median(ps->walls, ps->nr_ok));
	runner_clear_line(r);
	fprintf(stderr, "%s\n", sb.buf);
	strbuf_release(&sb);
}

static void tell_failure(struct runner *r, const struct bench_run *br, size_t pt, int repeat,
			 const struct run_record *rec)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, runner_side(r));
	runner_point_label(&sb, br, pt);
	runner_clear_line(r);
	fprintf(stderr, "%s repeat %d: %s: %s\n", sb.buf, repeat, run_status_name(rec->status),
		rec->reason ? rec->reason : "");
	strbuf_release(&sb);
}

void runner_tell_busy(struct runner *r, const struct bench_run *br, size_t pt, int repeat,
		      double contention, int n)
{
	struct strbuf sb = STRBUF_INIT;

	runner_point_label(&sb, br, pt);
	runner_clear_line(r);
	fprintf(stderr,
		"%s repeat %d: machine busy (%.2f cores used by other processes), run again "
		"(%d/%d)\n",
		sb.buf, repeat, contention, n, br->b->contention_retries);
	strbuf_release(&sb);
}

void runner_tell_still_busy(struct runner *r, const struct bench_run *br, size_t pt, int repeat,
			    double contention)
{
	struct strbuf sb = STRBUF_INIT;

	runner_point_label(&sb, br, pt);
	runner_clear_line(r);
	fprintf(stderr,
		"%s repeat %d: machine still busy after %d more attempt%s; keeping the least busy "
		"one (%.2f cores)\n",
		sb.buf, repeat, br->b->contention_retries,
		br->b->contention_retries == 1 ? "" : "s", contention);
	strbuf_release(&sb);
}

int runner_record(struct runner *r, struct bench_run *br, size_t pt, int repeat,
		  const struct run_record *rec)
{
	struct point_state *ps = &br->points[pt];
	const struct config_point *p = &ps->p;
	char size[32] = "-";
	struct manifest_row row = {
		.benchmark = br->b->name,
		.size = size,
		.ranks = p->ranks,
		.threads = p->threads,
		.repeat = repeat,
		.status = run_status_name(rec->status),
		.exit_code = rec->exit_code,
		.wall = rec->wall,
		.dir = rec->dir,
		.reason = rec->reason,
		.contention = rec->contention,
		.reference = rec->reference,
	};

	if (p->size != CONFIG_NO_SIZE)
		snprintf(size, sizeof(size), "%lld", p->size);
	if (manifest_write_row(r->partial, &row))
		return gate_error("cannot write '%s/manifest.tsv.partial': %s", r->results,
				  strerror(errno));
	if (r->opt.record)
		results_add_row(r->opt.record, &row);
	ps->nr_done++;
	if (rec->status == RUN_OK)
		ps->walls[ps->nr_ok++] = rec->wall;
	else
		r->failed_runs++;
	if (rec->status == RUN_OK && br->b->max_contention >= 0 &&
	    rec->contention > br->b->max_contention)
		r->busy_runs++;
	if (rec->status != RUN_OK && rec->status != RUN_BUILD_FAILED)
		tell_failure(r, br, pt, repeat, rec);
	if (repeat == ps->last)
		tell_point_done(r, br, pt);
	return 0;
}
