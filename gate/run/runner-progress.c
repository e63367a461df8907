/*
 * What a person watching 'scalegate run' sees. On a terminal (stderr), one live line rewritten
 * before and during each run, retries included. When stdout is no terminal (a CI log), stdout is
 * line-buffered and gets one line per finished run, and a "still running" line every
 * SG_PROGRESS_SECONDS (default 30) of a long run, so the log shows life.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "run/runner-priv.h"
#include "base/util.h"

#define LOG_EVERY_DEFAULT 30.0

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void runner_progress_init(struct runner *r)
{
	const char *every = getenv("SG_PROGRESS_SECONDS");
	char *end;

	r->tty = isatty(2) && !r->opt.dry_run && !r->opt.quiet;
	r->log = !isatty(1) && !r->opt.dry_run && !r->opt.quiet;
	r->log_every = LOG_EVERY_DEFAULT;
	if (every && *every) {
		double v = strtod(every, &end);
		if (!*end && v > 0)
			r->log_every = v;
		else
			warning("SG_PROGRESS_SECONDS='%s' is not a positive number of seconds: %g "
				"s",
				every, r->log_every);
	}
	/* a pipe is block-buffered: a CI log would stay empty until the matrix ends */
	if (r->log)
		setvbuf(stdout, NULL, _IOLBF, 0);
}

/* "[3/12] jacobi 1 rank × 2 threads repeat 2/5"; in an A/B run "[3/12] base jacobi …" */
static void run_label(struct strbuf *sb, const struct runner *r, const struct bench_run *br,
		      size_t pt, int repeat, int warm)
{
	const struct runner *t = r->top ? r->top : r;

	strbuf_addf(sb, "[%zu/%zu] %s", t->done_runs + (t->done_runs < t->total_runs),
		    t->total_runs, runner_side(r));
	runner_point_label(sb, br, pt);
	if (repeat)
		strbuf_addf(sb, " repeat %d/%d", repeat, br->points[pt].last);
	else
		strbuf_addf(sb, " warm-up %d/%d", warm, br->b->warmup);
}

static void live_line(struct runner *r, double run_elapsed)
{
	struct strbuf sb = STRBUF_INIT;
	const struct runner *t = r->top ? r->top : r;
	double elapsed = monotonic() - t->started;

	if (!r->tty || !r->now.br)
		return;
	run_label(&sb, r, r->now.br, r->now.pt, r->now.repeat, r->now.warm);
	if (r->retry)
		strbuf_addf(&sb, "  machine busy: retry %d/%d", r->retry,
			    r->now.br->b->contention_retries);
	if (run_elapsed >= 1)
		strbuf_addf(&sb, "  this run %.0fs", run_elapsed);
	strbuf_addf(&sb, "  elapsed %.0fs", elapsed);
	if (t->done_runs && t->done_runs < t->total_runs)
		strbuf_addf(&sb, "  remaining ~%.0fs",
			    t->run_seconds / t->done_runs * (double)(t->total_runs - t->done_runs));
	fprintf(stderr, "\r\033[K%s", sb.buf);
	fflush(stderr);
	strbuf_release(&sb);
}

void runner_progress(struct runner *r, const struct bench_run *br, size_t pt, int repeat, int warm)
{
	r->now.br = br;
	r->now.pt = pt;
	r->now.repeat = repeat;
	r->now.warm = warm;
	r->now.next_log = r->log_every;
	live_line(r, 0);
}

void runner_tick(void *arg, double run_elapsed)
{
	struct runner *r = arg;
	struct strbuf sb = STRBUF_INIT;

	live_line(r, run_elapsed);
	if (!r->log || !r->now.br || run_elapsed < r->now.next_log)
		return;
	while (r->now.next_log <= run_elapsed)
		r->now.next_log += r->log_every;
	run_label(&sb, r, r->now.br, r->now.pt, r->now.repeat, r->now.warm);
	runner_clear_line(r);
	printf("%s: still running after %.0f s\n", sb.buf, run_elapsed);
	strbuf_release(&sb);
}

void runner_log_run(struct runner *r, const struct bench_run *br, size_t pt, int repeat, int warm,
		    const struct run_record *rec)
{
	struct strbuf sb = STRBUF_INIT;

	if (!r->log)
		return;
	/* done_runs already counts this run */
	strbuf_addf(&sb, "[%zu/%zu] %s", (r->top ? r->top : r)->done_runs,
		    (r->top ? r->top : r)->total_runs, runner_side(r));
	runner_point_label(&sb, br, pt);
	if (repeat)
		strbuf_addf(&sb, " repeat %d/%d", repeat, br->points[pt].last);
	else
		strbuf_addf(&sb, " warm-up %d/%d", warm, br->b->warmup);
	strbuf_addf(&sb, ": %.3f s, %s", rec->wall, run_status_name(rec->status));
	if (!isnan(rec->contention) && br->b->max_contention >= 0 &&
	    rec->contention > br->b->max_contention)
		strbuf_addf(&sb, " (machine busy: %.2f cores used by other processes)",
			    rec->contention);
	runner_clear_line(r);
	printf("%s\n", sb.buf);
	strbuf_release(&sb);
}
