/* One measured or warm-up attempt of a run, its outcome, and the retries of runs on a busy machine
 * (docs/running.md). */
#include "run/runner-priv.h"
#include "run/contention.h"
#include "run/reference.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/runner-exec.h"
#include "results/profile.h"
#include "base/secret.h"

/* files and directories of a run's $SCALEGATE_OUT masked at most (profiles: one per rank) */
#define MASK_MAX_ENTRIES 100000
#define CONTENTION_PAUSE \
	1.5 /* seconds before a contended run runs again: time for the other process to end */

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int expected_exit(const struct bench_config *b, int code)
{
	for (size_t i = 0; i < b->nr_expect_exit; i++)
		if (b->expect_exit[i] == code)
			return 1;
	return 0;
}

/* An exit code not in expect_exit. 127 is the shell's "not found", often a wrapper's ./program:
 * the run does not happen in its workdir (docs/running.md, "One run"). Caller frees. */
static char *exit_reason(const struct bench_config *b, int code)
{
	return xstrfmt("exit code %d, expected %d%s%s", code, b->expect_exit[0],
		       b->nr_expect_exit > 1 ? " or another of expect_exit" : "",
		       code != 127 ? ""
				   : " (a command not found: the run's directory is a scratch one, "
				     "not 'workdir'; a script finds its files through "
				     "$SCALEGATE_WORKDIR)");
}

/* The status and reason of a finished run. */
static void judge(const struct bench_run *br, const struct config_point *p,
		  const struct exec_result *res, const char *dir, const char *line,
		  struct run_record *rec)
{
	const struct bench_config *b = br->b;
	char *why = NULL, *tail, *err, *program = NULL;
	int found;

	rec->exit_code = res->timed_out || (res->signal && res->exit_code < 0) ? -1
									       : res->exit_code;
	rec->wall = res->wall;
	if (res->timed_out) {
		rec->status = RUN_TIMEOUT;
		why = xstrfmt("timed out after %g s; every process of the run killed", b->timeout);
	} else if (res->signal && !(res->exit_code >= 0 && expected_exit(b, res->exit_code))) {
		rec->status = RUN_CRASH;
		why = res->exit_code < 0 ? xstrfmt("killed by %s", exec_signal_name(res->signal))
					 : xstrfmt("killed by %s (exit code %d from the shell)",
						   exec_signal_name(res->signal), res->exit_code);
	} else if (!expected_exit(b, res->exit_code)) {
		rec->status = RUN_EXIT;
		why = exit_reason(b, res->exit_code);
	} else if ((found = exec_check_profiles(dir, p->ranks,
						b->program ? b->program
							   : (program = exec_named_program(line)),
						&why))) {
		rec->status = found == 1 ? RUN_NO_PROFILE : RUN_BAD_PROFILE;
	} else {
		rec->status = RUN_OK;
		free(program);
		return;
	}
	free(program);
	err = xstrfmt("%s/stderr.txt", dir);
	tail = exec_excerpt(err, STDERR_HEAD, STDERR_TAIL);
	rec->reason = *tail ? xstrfmt("%s; stderr: %s", why, tail) : xstrdup(why);
	free(tail);
	free(err);
	free(why);
}

/*
 * Masks the secret values in everything a run left in its $SCALEGATE_OUT (a
 * token written to a file, a file or an interval named after it, a link to
 * it), before anything reads them: the profiles stay sealed. What cannot be
 * masked is removed, so that no secret is uploaded with the results. 0, or -1
 * (reported).
 */
static int mask_run_dir(const char *dir)
{
	if (!secret_mask_tree(dir, MASK_MAX_ENTRIES, profile_mask_secrets))
		return 0;
	remove_tree(dir);
	return gate_error("removed '%s': it may hold a secret that could not be masked", dir);
}

int runner_attempt(struct runner *r, struct bench_run *br, size_t pt, int repeat, const char *out,
		   struct run_record *rec)
{
	const struct config_point *p = &br->points[pt].p;
	struct exec_spec spec = { 0 };
	struct exec_result res;
	char *cwd = xstrfmt("%s/run-%ld-XXXXXX", r->scratch, (long)getpid()), *line, *label;
	double reference;
	int ret = -1;

	if (!mkdtemp(cwd)) {
		gate_error("cannot create a run directory under '%s': %s", r->scratch,
			   strerror(errno));
		free(cwd);
		return -1;
	}
	spec.env = runner_run_env(br, p, out);
	line = runner_command_line(br, p, repeat, spec.env);
	if (runner_uses_launcher(br->b, p))
		runner_drop_preload(spec.env);
	spec.line = line;
	spec.cwd = cwd;
	spec.out_dir = out;
	spec.timeout = br->b->timeout;
	spec.output_limit = br->b->output_limit;
	spec.tick = runner_tick;
	spec.tick_arg = r;
	spec.unset = r->c->secret_env;
	spec.nr_unset = r->c->nr_secret_env;
	label = repeat ? xstrfmt("%s %s repeat %d", br->b->name, br->points[pt].name, repeat)
		       : xstrfmt("%s %s warm-up run", br->b->name, br->points[pt].name);
	spec.label = label;
	/* the machine's speed just before, under the load the run meets (docs/running.md); a
	 * warm-up run is not recorded, so it needs none */
	reference = repeat ? reference_measure(p->ranks * p->threads) : NAN;
	if (!exec_run(&spec, &res) && !mask_run_dir(out) && !res.interrupted) {
		rec->reference = reference;
		r->top->run_seconds += res.wall;
		free(rec->reason);
		rec->reason = NULL;
		judge(br, p, &res, out, line, rec);
		/* what the run felt: the others' cores beyond those it left free (docs/running.md)
		 */
		rec->contention = contention_beyond_free(res.contention, p->ranks * p->threads,
							 contention_machine_cores());
		ret = 0;
	}
	runner_free_env(spec.env);
	remove_tree(cwd);
	free(cwd);
	free(line);
	free(label);
	return ret;
}

static int too_busy(const struct bench_config *b, const struct run_record *rec)
{
	return rec->status == RUN_OK && b->max_contention >= 0 &&
	       rec->contention > b->max_contention;
}

/* Sleeps 'seconds' unless the gate is interrupted meanwhile; 0, or -1 when it was. */
static int pause_for(double seconds)
{
	double end = monotonic() + seconds, left;

	while (!interrupt_signal && (left = end - monotonic()) > 0) {
		struct timespec ts = { (time_t)left, (long)((left - (time_t)left) * 1e9) };
		nanosleep(&ts, NULL);
	}
	return interrupt_signal ? -1 : 0;
}

int runner_retry_busy(struct runner *r, struct bench_run *br, size_t pt, int repeat,
		      const char *out, struct run_record *rec)
{
	const struct bench_config *b = br->b;
	struct run_record kept = { 0 };
	char *kept_dir = NULL;
	int ret = 0;

	for (int n = 1; !ret && too_busy(b, rec) && n <= b->contention_retries; n++) {
		runner_tell_busy(r, br, pt, repeat, rec->contention, n);
		/* the live line stays during the pause and the new attempt, saying which retry it
		 * is */
		r->retry = n;
		runner_progress(r, br, pt, repeat, 0);
		if (!kept_dir || rec->contention < kept.contention) {
			if (!kept_dir) {
				kept_dir = xstrfmt("%s/kept-XXXXXX", r->scratch);
				if (!mkdtemp(kept_dir)) {
					ret = gate_error("cannot create a directory under '%s': %s",
							 r->scratch, strerror(errno));
					break;
				}
			}
			/* onto the empty or previously kept directory */
			if (remove_tree(kept_dir) || rename(out, kept_dir)) {
				ret = gate_error("cannot move '%s' aside: %s", out,
						 strerror(errno));
				break;
			}
			kept = *rec;
			kept.reason = NULL;
		} else if (remove_tree(out)) {
			ret = -1;
			break;
		}
		if (mkdir_p(out) || pause_for(CONTENTION_PAUSE) ||
		    runner_attempt(r, br, pt, repeat, out, rec))
			ret = -1;
	}
	r->retry = 0;
	if (!ret && kept_dir && rec->status == RUN_OK && kept.contention < rec->contention) {
		if (remove_tree(out) || rename(kept_dir, out))
			ret = gate_error("cannot move the kept attempt to '%s': %s", out,
					 strerror(errno));
		rec->exit_code = kept.exit_code;
		rec->wall = kept.wall;
		rec->contention = kept.contention;
		rec->reference = kept.reference;
	}
	if (!ret && kept_dir && too_busy(b, rec))
		runner_tell_still_busy(r, br, pt, repeat, rec->contention);
	if (kept_dir)
		remove_tree(kept_dir);
	free(kept_dir);
	return ret;
}
