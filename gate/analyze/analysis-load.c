/* Loading for the analyzer: a results directory (manifest.tsv) or a plain directory of profiles (the tables themselves: analysis.c, intervals.c). */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/analysis.h"
#include "results/manifest.h"
#include "results/tsv.h"
#include "base/util.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_rank(const void *a, const void *b)
{
	const struct profile *x = a, *y = b;
	double rx = profile_meta_num(x, "rank", -1), ry = profile_meta_num(y, "rank", -1);

	return (rx > ry) - (rx < ry);
}

/* Reads every *.sgprof of 'dir' in rank order; *nr is 0 when there is none. */
static int read_profiles(const char *dir, struct profile **out, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (!d)
		return error("cannot open directory '%s'", dir);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 7 && !strcmp(e->d_name + len - 7, ".sgprof")) {
			ALLOC_GROW(names, n + 1, alloc);
			names[n++] = xstrfmt("%s/%s", dir, e->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	*out = xcalloc(n + 1, sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		if (!ret && profile_read(&(*out)[*nr], names[i]) == 0)
			(*nr)++;
		else
			ret = -1;
		free(names[i]);
	}
	free(names);
	qsort(*out, *nr, sizeof(**out), cmp_rank);
	return ret;
}

static void free_profiles(struct profile *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		profile_release(&p[i]);
	free(p);
}

/*
 * The profiles of one run must be the ranks it was configured with, each once: MPI ranks 0 … size − 1
 * of one size (the configured rank count), or one process without MPI. Anything else, a launcher's
 * helper process among them, would be merged as processors.
 */
static const char *meta_or_dash(const struct profile *p, const char *key)
{
	const char *v = profile_meta(p, key);

	return v ? v : "-";
}

static int check_ranks(const char *dir, const struct profile *p, size_t n, int ranks)
{
	double size = profile_meta_num(&p[0], "ranks", -1);

	for (size_t i = 0; i < n; i++) {
		double r = profile_meta_num(&p[i], "rank", -1), s = profile_meta_num(&p[i], "ranks", -1);
		if (!i && (r < 0) != (s < 0))
			return error("'%s': rank %s of %s: a rank without a rank count, or a count "
				     "without a rank", p[i].path, meta_or_dash(&p[i], "rank"), meta_or_dash(&p[i], "ranks"));
		if ((r < 0) != (size < 0) || s != size)
			return error("'%s': rank %s of %s, but '%s' is rank %s of %s: profiles of different runs or of "
				     "a process that is not a rank", p[i].path, meta_or_dash(&p[i], "rank"),
				     meta_or_dash(&p[i], "ranks"), p[0].path, meta_or_dash(&p[0], "rank"),
				     meta_or_dash(&p[0], "ranks"));
		if (r >= 0 && r >= s)
			return error("'%s': rank %.0f of %.0f ranks", p[i].path, r, s);
		if (i && r >= 0 && r == profile_meta_num(&p[i - 1], "rank", -1))
			return error("'%s' and '%s' are both rank %.0f", p[i - 1].path, p[i].path, r);
	}
	if (size < 0 && n > 1)
		return error("%zu profiles without an MPI rank in '%s': a run without MPI is one process "
			     "(a wrapper or a helper process was measured too?)", n, dir);
	if (size >= 0 && ranks && size != ranks)
		return error("'%s': the profiles are of %.0f ranks, the configuration runs %d", dir, size, ranks);
	if (size >= 0 && (double)n != size)
		return error("'%s': %zu profiles for %.0f ranks", dir, n, size);
	return 0;
}

/* The annotation mistakes of one run's profiles, merged per site into a->annotations. */
static void add_annotations(struct analysis *a, const struct analysis_config *c, const struct profile *p, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < p[k].nr_errors; i++) {
			const struct profile_error *e = &p[k].errors[i];
			const struct profile_region *r = &p[k].regions[e->region];
			char *path = !strcmp(e->kind, "unclosed") ? xstrdup(p[k].nodes[e->node].path) :
				xstrfmt("%s/%s", p[k].nodes[e->node].path, r->name);
			struct analysis_annotation *x = NULL;
			for (size_t j = 0; j < a->nr_annotations && !x; j++) {
				struct analysis_annotation *y = &a->annotations[j];
				if (!strcmp(y->benchmark, c->benchmark) && !strcmp(y->kind, e->kind) &&
				    !strcmp(y->interval, path) && !strcmp(y->file, r->file) && y->line == e->line)
					x = y;
			}
			if (!x) {
				ALLOC_GROW(a->annotations, a->nr_annotations + 1, a->alloc_annotations);
				x = memset(&a->annotations[a->nr_annotations++], 0, sizeof(*x));
				x->benchmark = xstrdup(c->benchmark);
				x->kind = xstrdup(e->kind);
				x->interval = path;
				x->file = xstrdup(r->file);
				x->line = e->line;
				x->size = xstrdup(c->size);
				x->ranks = c->ranks;
				x->threads = c->threads;
			} else {
				free(path);
			}
			x->count += e->count;
			x->profiles++;
		}
	}
}

static int add_run_from_dir(struct analysis *a, const char *dir, const char *benchmark,
			    const char *size, int ranks, int threads, int repeat, double contention)
{
	struct profile *p;
	size_t n;
	int ret = read_profiles(dir, &p, &n);

	if (!ret && !n)
		ret = error("no profile in '%s'", dir);
	if (!ret)
		ret = check_ranks(dir, p, n, ranks);
	if (!ret) {
		const char *base = strrchr(p[0].regions[0].file, '/');
		base = base ? base + 1 : p[0].regions[0].file;
		struct analysis_config *c = analysis_config_get(a, benchmark ? benchmark : base, size,
								ranks ? ranks : (int)n, threads);
		ret = analysis_add_run(a, c, repeat, p, n);
		if (!ret) {
			c->runs[c->nr_runs - 1].contention = contention;
			add_annotations(a, c, p, n);
		}
	}
	free_profiles(p, n);
	return ret;
}

static int read_fingerprint(struct analysis *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/fingerprint.tsv", a->dir), *line, *save = NULL;
	struct stat st;

	if (stat(path, &st) || strbuf_read_file(&sb, path)) {
		free(path);
		strbuf_release(&sb);
		return 0; /* optional */
	}
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[2];
		if (tsv_split(line, f, 2) != 2)
			continue;
		ALLOC_GROW(a->fingerprint, a->nr_fingerprint + 2, a->alloc_fingerprint);
		a->fingerprint[a->nr_fingerprint++] = xstrdup(f[0]);
		a->fingerprint[a->nr_fingerprint++] = xstrdup(f[1]);
	}
	free(path);
	strbuf_release(&sb);
	return 0;
}

/* The run, or its damage listed with the errors that named the files: the other runs are still
 * judged. */
static int add_run_or_damage(struct analysis *a, const char *dir, const struct manifest_row *row)
{
	struct strbuf messages = STRBUF_INIT;
	struct strbuf *was = set_message_sink(&messages);
	struct analysis_damage *d;
	int ret = add_run_from_dir(a, dir, row->benchmark, row->size, row->ranks, row->threads,
				   row->repeat, row->contention);

	set_message_sink(was);
	if (!ret) {
		strbuf_release(&messages);
		return 0;
	}
	ALLOC_GROW(a->damaged, a->nr_damaged + 1, a->alloc_damaged);
	d = &a->damaged[a->nr_damaged++];
	d->benchmark = xstrdup(row->benchmark);
	d->size = xstrdup(row->size);
	d->ranks = row->ranks;
	d->threads = row->threads;
	d->repeat = row->repeat;
	d->message = messages.len ? strbuf_detach(&messages) :
		xstrfmt("cannot read the profiles in '%s'", dir);
	strbuf_release(&messages);
	return 0;
}

static int read_manifest(struct analysis *a, const char *mpath)
{
	struct manifest m;
	int ret;

	manifest_init(&m);
	ret = manifest_read(&m, mpath);
	for (size_t i = 0; !ret && i < m.nr; i++) {
		const struct manifest_row *row = &m.rows[i];
		char *dir;
		if (a->keep && !a->keep(a->keep_arg, row->benchmark, row->repeat))
			continue;
		if (strcmp(row->status, "ok")) {
			a->nr_skipped++;
			continue;
		}
		dir = xstrfmt("%s/%s", a->dir, row->dir);
		ret = a->keep_going ? add_run_or_damage(a, dir, row) :
			add_run_from_dir(a, dir, row->benchmark, row->size, row->ranks, row->threads,
					 row->repeat, row->contention);
		free(dir);
	}
	manifest_release(&m);
	return ret;
}

int analysis_load(struct analysis *a, const char *dir)
{
	char *mpath = xstrfmt("%s/manifest.tsv", dir);
	struct stat st;
	int ret;

	a->dir = xstrdup(dir);
	if (!stat(mpath, &st)) {
		ret = read_manifest(a, mpath);
		if (!ret)
			ret = read_fingerprint(a);
	} else {
		a->single = 1;
		ret = add_run_from_dir(a, dir, NULL, "-", 0, 0, 1, NAN);
	}
	free(mpath);
	return ret;
}
