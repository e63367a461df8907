/* Loading for the analyzer: a results directory (manifest.tsv) or a plain directory of profiles
 * (the tables themselves: analysis.c, intervals.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "results/results.h"
#include "base/srcpath.h"
#include "base/util.h"

/*
 * The profiles of one run must be the ranks it was configured with, each once: MPI ranks
 * 0 … size − 1 of one size (the configured rank count), or one process without MPI. Anything else,
 * a launcher's helper process among them, would be merged as processors.
 */
static const char *meta_or_dash(const struct profile *p, const char *key)
{
	const char *v = profile_meta(p, key);

	return v ? v : "-";
}

/* A job's one profile stands alone, for all its ranks (tracer/PROFILE.md, "Reduced profiles"). */
static int check_reduced(const char *dir, const struct profile *p, size_t n, int ranks)
{
	for (size_t i = 0; i < n; i++)
		if (n > 1 && p[i].reduced_ranks)
			return gate_error("'%s': a job's reduced profile beside %zu other "
					  "profiles in '%s' (two runs' profiles in one directory?)",
					  p[i].path, n - 1, dir);
	if (ranks && p[0].reduced_ranks != ranks)
		return gate_error("'%s': the profile is of %d ranks, the configuration runs %d",
				  p[0].path, p[0].reduced_ranks, ranks);
	return 0;
}

static int check_ranks(const char *dir, const struct profile *p, size_t n, int ranks)
{
	double size = profile_meta_num(&p[0], "ranks", -1);

	for (size_t i = 0; i < n; i++)
		if (p[i].reduced_ranks)
			return check_reduced(dir, p, n, ranks);
	for (size_t i = 0; i < n; i++) {
		double r = profile_meta_num(&p[i], "rank", -1),
		       s = profile_meta_num(&p[i], "ranks", -1);
		if (!i && (r < 0) != (s < 0))
			return gate_error(
				"'%s': rank %s of %s: a rank without a rank count, or a count "
				"without a rank",
				p[i].path, meta_or_dash(&p[i], "rank"),
				meta_or_dash(&p[i], "ranks"));
		if ((r < 0) != (size < 0) || s != size)
			return gate_error(
				"'%s': rank %s of %s, but '%s' is rank %s of %s: profiles of "
				"different runs or of "
				"a process that is not a rank",
				p[i].path, meta_or_dash(&p[i], "rank"),
				meta_or_dash(&p[i], "ranks"), p[0].path,
				meta_or_dash(&p[0], "rank"), meta_or_dash(&p[0], "ranks"));
		if (r >= 0 && r >= s)
			return gate_error("'%s': rank %.0f of %.0f ranks", p[i].path, r, s);
		if (i && r >= 0 && r == profile_meta_num(&p[i - 1], "rank", -1))
			return gate_error("'%s' and '%s' are both rank %.0f", p[i - 1].path,
					  p[i].path, r);
	}
	if (size < 0 && n > 1)
		return gate_error(
			"%zu profiles without an MPI rank in '%s': a run without MPI is one "
			"process "
			"(a wrapper or a helper process was measured too?)",
			n, dir);
	if (size >= 0 && ranks && size != ranks)
		return gate_error("'%s': the profiles are of %.0f ranks, the configuration runs %d",
				  dir, size, ranks);
	if (size >= 0 && (double)n != size)
		return gate_error("'%s': %zu profiles for %.0f ranks", dir, n, size);
	return 0;
}

/* The annotation mistakes of one run's profiles, merged per site into a->annotations. */
static void add_annotations(struct analysis *a, const struct analysis_config *c,
			    const struct profile *p, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < p[k].nr_errors; i++) {
			const struct profile_error *e = &p[k].errors[i];
			const struct profile_region *r = &p[k].regions[e->region];
			char *path = !strcmp(e->kind, "unclosed")
					     ? xstrdup(p[k].nodes[e->node].path)
					     : xstrfmt("%s/%s", p[k].nodes[e->node].path, r->name);
			struct analysis_annotation *x = NULL;
			char *file = srcpath_normalize(r->file, NULL);
			for (size_t j = 0; j < a->nr_annotations && !x; j++) {
				struct analysis_annotation *y = &a->annotations[j];
				if (!strcmp(y->benchmark, c->benchmark) &&
				    !strcmp(y->kind, e->kind) && !strcmp(y->interval, path) &&
				    !strcmp(y->file, file) && y->line == e->line)
					x = y;
			}
			if (!x) {
				ALLOC_GROW(a->annotations, a->nr_annotations + 1,
					   a->alloc_annotations);
				x = memset(&a->annotations[a->nr_annotations++], 0, sizeof(*x));
				x->benchmark = xstrdup(c->benchmark);
				x->kind = xstrdup(e->kind);
				x->interval = path;
				x->file = xstrdup(file);
				x->line = e->line;
				x->size = xstrdup(c->size);
				x->ranks = c->ranks;
				x->threads = c->threads;
			} else {
				free(path);
			}
			free(file);
			x->count += e->count;
			x->profiles++;
		}
	}
}

/* The machine speed reference of the run (manifest.tsv) on each interval it has. */
static void set_reference(struct analysis_run *run, double reference)
{
	for (size_t i = 0; i < run->nr_points; i++)
		if (run->points[i].present)
			run->points[i].fig[ANALYSIS_REFERENCE_TIME] = reference;
}

/* The run of manifest row i ('row'; NULL: the whole directory without a manifest), from the
 * profiles in 'dir'. */
static int add_run(struct analysis *a, struct results *r, size_t i, const char *dir,
		   const struct manifest_row *row)
{
	const char *benchmark = row ? row->benchmark : NULL, *size = row ? row->size : "-";
	int ranks = row ? row->ranks : 0, threads = row ? row->threads : 0;
	const struct profile *p;
	size_t n;
	int ret = results_profiles(r, i, &p, &n);

	if (!ret && !n)
		ret = gate_error("no profile in '%s'", dir);
	if (!ret)
		ret = check_ranks(dir, p, n, ranks);
	if (!ret) {
		const char *base = strrchr(p[0].regions[0].file, '/');
		base = base ? base + 1 : p[0].regions[0].file;
		struct analysis_config *c = analysis_config_get(
			a, benchmark ? benchmark : base, size,
			ranks ? ranks : p[0].reduced_ranks ? p[0].reduced_ranks : (int)n, threads);
		ret = analysis_add_run(a, c, row ? row->repeat : 1, p, n);
		if (!ret) {
			struct analysis_run *run = &c->runs[c->nr_runs - 1];
			run->contention = row ? row->contention : NAN;
			set_reference(run, row ? row->reference : NAN);
			add_annotations(a, c, p, n);
		}
	}
	return ret;
}

/* The run, or its damage listed with the errors that named the files: the other runs are still
 * judged. */
static int add_run_or_damage(struct analysis *a, struct results *r, size_t i, const char *dir)
{
	const struct manifest_row *row = &r->manifest.rows[i];
	struct strbuf messages = STRBUF_INIT;
	struct strbuf *was = set_message_sink(&messages);
	struct analysis_damage *d;
	int ret = add_run(a, r, i, dir, row);

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

static int add_rows(struct analysis *a, struct results *r)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < r->manifest.nr; i++) {
		const struct manifest_row *row = &r->manifest.rows[i];
		char *dir;
		if (a->keep && !a->keep(a->keep_arg, row->benchmark, row->repeat))
			continue;
		if (strcmp(row->status, "ok")) {
			a->nr_skipped++;
			continue;
		}
		dir = xstrfmt("%s/%s", a->dir, row->dir);
		ret = a->keep_going ? add_run_or_damage(a, r, i, dir) :
			add_run(a, r, i, dir, row);
		free(dir);
	}
	return ret;
}

static void add_fingerprint(struct analysis *a, struct results *r)
{
	size_t n;
	char *const *f = results_fingerprint(r, &n);

	ALLOC_GROW(a->fingerprint, a->nr_fingerprint + n, a->alloc_fingerprint);
	for (size_t i = 0; i < n; i++)
		a->fingerprint[a->nr_fingerprint++] = xstrdup(f[i]);
}

int analysis_load_results(struct analysis *a, struct results *r)
{
	int ret;

	a->dir = xstrdup(r->dir);
	if (results_load_manifest(r))
		return -1;
	if (r->has_manifest) {
		ret = add_rows(a, r);
		if (!ret)
			add_fingerprint(a, r);
	} else {
		a->single = 1;
		ret = add_run(a, r, 0, r->dir, NULL);
	}
	return ret;
}

int analysis_load(struct analysis *a, const char *dir)
{
	struct results r;
	int ret;

	results_init(&r, dir);
	ret = analysis_load_results(a, &r);
	results_release(&r);
	return ret;
}
