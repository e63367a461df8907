/* A/B: the base revision's runs interleaved with the head's, round by round in a balanced random
 * order (ABBA). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/runner-priv.h"
#include "run/runner-exec.h"

static uint64_t mix(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

static uint64_t hash(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return h;
}

/*
 * Whether the base runs first in this round. Rounds come in pairs: a coin
 * (from the seed, the benchmark and the configuration) picks AB or BA for the
 * first round of a pair, the second round takes the other order (ABBA), so a
 * drift within a pair hits both sides alike.
 */
static int base_first(uint64_t seed, const char *bench, const char *point, int repeat)
{
	uint64_t pair = (uint64_t)(repeat - 1) / 2,
		 coin = mix(hash(hash(seed, bench), point) ^ mix(pair)) & 1;

	return (int)(repeat % 2 ? coin : !coin);
}

int runner_ab_init(struct runner *r)
{
	struct runner_options bo = { 0 };
	char *path;

	bo.results_dir = NULL;
	bo.benchmark = r->opt.benchmark;
	bo.dry_run = r->opt.dry_run;
	bo.quiet = r->opt.quiet;
	/* runs here, interleaved with the head, even when the head was submitted to Slurm */
	bo.local = 1;
	if (!r->opt.seed)
		r->opt.seed = mix((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
	r->base = xcalloc(1, sizeof(*r->base));
	path = xstrfmt("%s/base", r->results);
	bo.results_dir = path;
	bo.extend = r->opt.extend;
	bo.record = r->opt.record ? r->opt.record->base : NULL;
	if (runner_init_side(r->base, r->c, &bo) < 0) {
		free(path);
		return -1;
	}
	r->base->top = r;
	free(path);
	if (r->opt.dry_run)
		return 0;
	path = xstrfmt("%s/ab.tsv", r->results);
	r->ab = fopen(path, r->opt.extend ? "a" : "w");
	if (!r->ab) {
		gate_error("cannot write '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	if (r->opt.extend)
		return 0; /* the extra rounds continue the order of the same seed */
	fprintf(r->ab, "seed\t%llu\nbase_root\t%s\nhead_root\t%s\n",
		(unsigned long long)r->opt.seed, r->opt.base_root,
		r->opt.head_root ? r->opt.head_root : "-");
	fprintf(r->ab, "benchmark\tconfiguration\trepeat\torder\n");
	return 0;
}

/* The head's workdir moved into the base tree (the same path below the root); outside the tree:
 * unchanged. */
static char *base_workdir(const struct runner *r, const char *workdir)
{
	const char *head = r->opt.head_root;
	size_t n = head ? strlen(head) : 0;

	if (head && !strncmp(workdir, head, n) && (workdir[n] == '/' || !workdir[n]))
		return xstrfmt("%s%s", r->opt.base_root, workdir + n);
	warning("the workdir '%s' is outside the head's tree '%s': the base runs there too",
		workdir, head ? head : "-");
	return xstrdup(workdir);
}

int runner_ab_setup(struct runner *r, struct bench_run *head)
{
	struct bench_config *b = xmalloc(sizeof(*b));
	char resolved[PATH_MAX];
	const char *wd = realpath(head->b->workdir, resolved) ? resolved : head->b->workdir;

	*b = *head->b; /* shares every string with the head's but the workdir */
	b->workdir = base_workdir(r, wd);
	head->base_config = b;
	head->base = xcalloc(1, sizeof(*head->base));
	return runner_bench_setup(r->base, b, head->base);
}

void runner_ab_release(struct bench_run *head)
{
	if (head->base) {
		runner_bench_release(head->base);
		free(head->base);
	}
	if (head->base_config)
		free(head->base_config->workdir);
	free(head->base_config);
}

/* One run of the head (with the injected slowdown, if any) or of the base. */
static int run_side(struct runner *r, struct bench_run *head, size_t pt, int repeat, int base)
{
	int ret;

	if (base)
		return runner_one(r->base, head->base, pt, repeat);
	if (r->opt.inject)
		setenv("SCALEGATE_INJECT", r->opt.inject, 1);
	ret = runner_one(r, head, pt, repeat);
	if (r->opt.inject)
		unsetenv("SCALEGATE_INJECT");
	return ret;
}

/* A file's time of now, by the file system's own clock (coarser than the CPU's): 0, or -1. */
static int stamp(const char *results, struct timespec *t)
{
	char *path = xstrfmt("%s/.build-stamp", results);
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), ret = -1;

	if (fd >= 0 && !write(fd, "", 0) && !futimens(fd, NULL) && !fstat(fd, &st)) {
		*t = st.st_mtim;
		ret = 0;
	}
	if (fd >= 0)
		close(fd);
	unlink(path);
	free(path);
	return ret;
}

static int newer(const struct timespec *a, const struct timespec *than)
{
	return a->tv_sec > than->tv_sec ||
	       (a->tv_sec == than->tv_sec && a->tv_nsec >= than->tv_nsec);
}

/* Whether a file below 'dir' (not .git, not the results at 'skip') was written at or after 't'. */
static int changed_since(const char *dir, const struct timespec *t, const char *skip, int depth)
{
	DIR *d = depth < 32 ? opendir(dir) : NULL;
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		struct stat st;
		char *path;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strcmp(e->d_name, ".git"))
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		if (!lstat(path, &st) && strcmp(path, skip)) {
			if (S_ISDIR(st.st_mode))
				found = changed_since(path, t, skip, depth + 1);
			else
				found = newer(&st.st_mtim, t);
		}
		free(path);
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * The base is built in a fresh checkout; the head in the user's tree, where
 * an old build may stand. A head build that wrote nothing while the base's
 * wrote files may have left a stale program (a rule that misses a dependency).
 */
static int build_both_watched(struct runner *r, struct bench_run *head)
{
	struct timespec t0, t1;
	char resolved[PATH_MAX];
	const char *results = realpath(r->results, resolved) ? resolved : r->results;
	int watch = !stamp(r->results, &t0);

	if (runner_build(r, head))
		return -1;
	watch = watch && !head->build_failed && !stamp(r->results, &t1);
	if (runner_build(r->base, head->base))
		return -1;
	if (!watch || head->base->build_failed || changed_since(head->workdir, &t0, results, 0) ||
	    !changed_since(head->base->workdir, &t1, results, 0))
		return 0;
	warning("benchmark '%s': the head's build wrote no file in '%s' while the base's, in a "
		"fresh checkout, did: the head may run a stale program (a build rule that misses a "
		"dependency); build clean, e.g. 'build: make clean all', or run 'git clean -fdx' "
		"before the gate", head->b->name, head->workdir);
	return 0;
}

static int build_both(struct runner *r, struct bench_run *head)
{
	if (head->b->build && build_both_watched(r, head))
		return -1;
	if (!head->build_failed && !head->base->build_failed)
		return 0;
	r->total_runs -= 2 * head->nr_points * (size_t)(head->b->warmup + head->b->repeat);
	if (runner_record_build_failed(r, head))
		return -1;
	if (head->base->build_failed && !head->build_failed)
		head->build_failed = xstrfmt("the base revision's %s", head->base->build_failed);
	return runner_record_build_failed(r->base, head->base);
}

int runner_ab_bench(struct runner *r, struct bench_run *head)
{
	const struct bench_config *b = head->b;

	if (build_both(r, head))
		return -1;
	if (head->build_failed || head->base->build_failed)
		return 0;
	for (int w = 1; w <= b->warmup; w++)
		for (size_t pt = 0; pt < head->nr_points; pt++) {
			runner_progress(r, head, pt, 0, w);
			if (run_side(r, head, pt, 0, 1) || run_side(r, head, pt, 0, 0))
				return -1;
		}
	for (int repeat = 1; repeat <= b->repeat; repeat++)
		for (size_t pt = 0; pt < head->nr_points; pt++)
			if (runner_ab_round(r, head, pt, repeat))
				return -1;
	fflush(r->ab);
	return 0;
}

int runner_ab_round(struct runner *r, struct bench_run *head, size_t pt, int repeat)
{
	const char *name = head->b->name;
	int first = base_first(r->opt.seed, name, head->points[pt].name, repeat);

	runner_progress(r, head, pt, repeat, 0);
	fprintf(r->ab, "%s\t%s\t%d\t%s\n", name, head->points[pt].name, repeat,
		first ? "base,head" : "head,base");
	fflush(r->ab);
	return run_side(r, head, pt, repeat, first) || run_side(r, head, pt, repeat, !first) ? -1
											     : 0;
}
