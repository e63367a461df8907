/* The runner's parts that both sides of an A/B run use: opening a results directory, and one
 * benchmark's runs and build. */
#include "run/runner-priv.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/fingerprint.h"
#include "run/runner-exec.h"
#include "run/batch.h"


static double runner_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The directory the tracer libraries are installed in: ../lib from the scalegate binary. */
static char *find_lib_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return xstrdup("/usr/local/lib");
	exe[n] = '\0';
	return xstrfmt("%s/../lib", dirname(exe));
}

/* The library to preload into 'b', or NULL after gate_error() when there is none; caller frees. */
static char *runner_preload_library(const struct runner *r, const struct bench_config *b)
{
	char *mpi = xstrfmt("%s/libscalegate-mpi.so", r->lib_dir), *plain;
	char resolved[PATH_MAX];

	if (b->mpi && !access(mpi, R_OK) && realpath(mpi, resolved)) {
		free(mpi);
		return xstrdup(resolved);
	}
	free(mpi);
	plain = xstrfmt("%s/libscalegate.so", r->lib_dir);
	if (access(plain, R_OK) || !realpath(plain, resolved)) {
		gate_error("benchmark '%s' has 'preload: true' but '%s' is missing", b->name,
			   plain);
		free(plain);
		return NULL;
	}
	free(plain);
	if (b->mpi)
		warning("benchmark '%s': no libscalegate-mpi.so next to libscalegate.so; MPI calls "
			"are not captured",
			b->name);
	return xstrdup(resolved);
}

/* A run without a base: the base runs of an earlier A/B run no longer belong to these results. */
static int runner_forget_ab(struct runner *r)
{
	char *base = xstrfmt("%s/base", r->results), *ab = xstrfmt("%s/ab.tsv", r->results);
	int ret = r->opt.dry_run ? 0 : remove_tree(base);

	if (!r->opt.dry_run)
		unlink(ab);
	free(base);
	free(ab);
	return ret;
}

int runner_init_side(struct runner *r, struct config *c, const struct runner_options *opt)
{
	const char *dir = opt->results_dir ? opt->results_dir : c->results_dir;
	char resolved[PATH_MAX];

	memset(r, 0, sizeof(*r));
	r->top = r;
	r->c = c;
	r->opt = *opt;
	r->lib_dir = find_lib_dir();
	runner_progress_init(r);
	r->started = runner_monotonic();
	if (opt->benchmark && !config_find(c, opt->benchmark))
		return gate_error("no benchmark '%s' in the configuration", opt->benchmark);
	for (size_t i = 0; i < c->nr_benchmarks; i++) {
		char *lib;
		if (!runner_selected(r, &c->benchmarks[i]) || !c->benchmarks[i].preload)
			continue;
		if (!(lib = runner_preload_library(r, &c->benchmarks[i])))
			return -1;
		free(lib);
	}
	if (opt->dry_run) {
		r->results = realpath(dir, resolved) ? xstrdup(resolved) : xstrdup(dir);
		return 0;
	}
	if (mkdir_p(dir))
		return -1;
	if (!realpath(dir, resolved))
		return gate_error("cannot resolve '%s': %s", dir, strerror(errno));
	r->results = xstrdup(resolved);
	/* First: from here until the end, the results are incomplete and say so. */
	if (complete_read(&r->complete, r->results)) {
		warning("'%s/%s' is not readable: the benchmarks this run leaves alone count as "
			"incomplete",
			r->results, COMPLETE_FILE);
		complete_release(&r->complete);
	}
	if (complete_remove(r->results))
		return -1;
	if (!opt->benchmark && !opt->extend)
		complete_release(&r->complete);
	r->top = r;
	r->scratch = xstrfmt("%s/.scratch", r->results);
	if (mkdir_p(r->scratch))
		return -1;
	exec_clean_scratch(r->scratch);
	if (opt->extend) /* the extra rounds of an adaptive run: everything else stays */
		return runner_manifest_start(r) ? -1 : 1;
	if (adaptive_remove(r->results))
		return -1;
	for (size_t i = 0; i < c->nr_benchmarks; i++) {
		char *sub;
		if (!runner_selected(r, &c->benchmarks[i]))
			continue;
		sub = xstrfmt("%s/%s", r->results, c->benchmarks[i].name);
		int ret = remove_tree(sub);
		free(sub);
		if (ret)
			return -1;
	}
	if (!opt->base_root && runner_forget_ab(r))
		return -1;
	if (runner_manifest_start(r))
		return -1;
	/* Submitted: the job writes the fingerprint of its node and runs the A/B base beside the
	 * head; the manifest holds the kept lines meanwhile. */
	if (batch_wanted(r))
		return runner_manifest_finish(r);
	if (fingerprint_write(r->results, c, opt->benchmark))
		return -1;
	return 1;
}

int runner_bench_setup(struct runner *r, const struct bench_config *b, struct bench_run *br)
{
	char resolved[PATH_MAX];
	struct config_point *all;

	memset(br, 0, sizeof(*br));
	br->b = b;
	br->workdir = realpath(b->workdir, resolved) ? xstrdup(resolved) : xstrdup(b->workdir);
	if (b->preload && !(br->preload = runner_preload_library(r, b)))
		return -1;
	all = config_matrix_points(b, &br->nr_points);
	br->points = xcalloc(br->nr_points, sizeof(*br->points));
	for (size_t i = 0; i < br->nr_points; i++) {
		struct point_state *ps = &br->points[i];
		ps->p = all[i];
		if (ps->p.size == CONFIG_NO_SIZE)
			ps->name = xstrfmt("s--r%d-t%d", ps->p.ranks, ps->p.threads);
		else
			ps->name = xstrfmt("s%lld-r%d-t%d", ps->p.size, ps->p.ranks, ps->p.threads);
		ps->walls = xcalloc((size_t)(b->repeat > b->max_repeat ? b->repeat : b->max_repeat),
				    sizeof(double));
		ps->last = b->repeat;
	}
	free(all);
	return 0;
}

void runner_bench_release(struct bench_run *br)
{
	for (size_t i = 0; i < br->nr_points; i++) {
		free(br->points[i].name);
		free(br->points[i].walls);
	}
	free(br->points);
	free(br->workdir);
	free(br->preload);
	free(br->build_failed);
}

/*
 * One run of configuration 'pt': measured when 'repeat' > 0 (recorded, and
 * retried on a busy machine), else a warm-up run. Returns 0, or -1 when the
 * gate must stop.
 */
int runner_one(struct runner *r, struct bench_run *br, size_t pt, int repeat)
{
	struct run_record rec = { .contention = NAN, .reference = NAN };
	char *out;
	int ret = -1;

	rec.dir = xstrfmt("%s/%s/%d", br->b->name, br->points[pt].name, repeat);
	out = repeat ? xstrfmt("%s/%s", r->results, rec.dir) :
		xstrfmt("%s/warmup-%ld-XXXXXX", r->scratch, (long)getpid());
	if (repeat ? mkdir_p(out) : !mkdtemp(out)) {
		gate_error("cannot create a run directory under '%s': %s", r->results,
			   strerror(errno));
		goto out;
	}
	if (runner_attempt(r, br, pt, repeat, out, &rec))
		goto out;
	r->top->done_runs++;
	if (repeat && runner_retry_busy(r, br, pt, repeat, out, &rec))
		goto out;
	ret = 0;
	runner_log_run(r, br, pt, repeat, r->now.warm, &rec);
	if (repeat)
		ret = runner_record(r, br, pt, repeat, &rec);
	else if (rec.status != RUN_OK)
		warning("%s %s warm-up run: %s: %s", br->b->name, br->points[pt].name,
			run_status_name(rec.status), rec.reason);
out:
	if (!repeat)
		remove_tree(out);
	free(out);
	free(rec.dir);
	free(rec.reason);
	return ret;
}

/* Runs the benchmark's 'build' in its workdir; sets br->build_failed on failure. */
int runner_build(struct runner *r, struct bench_run *br)
{
	char *out = xstrfmt("%s/%s/build", r->results, br->b->name), *tail, *err;
	char *env[] = { NULL, NULL };
	struct exec_spec spec = {.line = br->b->build,
				 .cwd = br->workdir,
				 .out_dir = out,
				 .env = env,
				 .unset = r->c->secret_env,
				 .nr_unset = r->c->nr_secret_env,
				 .label = br->b->name};
	struct exec_result res;
	int ret = 0;

	env[0] = xstrfmt("SCALEGATE_WORKDIR=%s", br->workdir);
	runner_clear_line(r);
	if (!(r->top ? r->top : r)->opt.quiet)
		fprintf(stderr, "%s: build: %s\n", br->b->name, br->b->build);
	if (mkdir_p(out) || exec_run(&spec, &res) || res.interrupted) {
		ret = -1;
		goto out;
	}
	if (res.exit_code == 0 && !res.signal)
		goto out;
	err = xstrfmt("%s/stderr.txt", out);
	tail = exec_excerpt(err, STDERR_HEAD, STDERR_TAIL);
	br->build_failed = res.signal ? xstrfmt("build killed by %s", exec_signal_name(res.signal))
				      : xstrfmt("build exited with code %d", res.exit_code);
	if (*tail) {
		char *with = xstrfmt("%s; stderr: %s", br->build_failed, tail);
		free(br->build_failed);
		br->build_failed = with;
	}
	gate_error("benchmark '%s': %s (see %s)", br->b->name, br->build_failed, out);
	free(tail);
	free(err);
out:
	free(env[0]);
	free(out);
	return ret;
}

int runner_record_build_failed(struct runner *r, struct bench_run *br)
{
	for (int repeat = 1; repeat <= br->b->repeat; repeat++)
		for (size_t pt = 0; pt < br->nr_points; pt++) {
			struct run_record rec = { .status = RUN_BUILD_FAILED, .exit_code = -1,
						  .reason = br->build_failed, .contention = NAN,
						  .reference = NAN };
			rec.dir = xstrfmt("%s/%s/%d", br->b->name, br->points[pt].name, repeat);
			int ret = runner_record(r, br, pt, repeat, &rec);
			free(rec.dir);
			if (ret)
				return -1;
		}
	return 0;
}
