/* scalegate history import: results directories and stored baselines into the history, all in one
 * transaction (a failed or killed import records nothing of it), taken only once every directory
 * is analysed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/matrix.h"
#include "base/exitcode.h"
#include "base/util.h"
#include "cmd/history-priv.h"
#include "history/history.h"
#include "judge/baseline.h"

/* One import: the open history and what every run of it shares. */
struct import {
	struct history *h;
	const char *where;
	const struct history_options *o;
	struct config *c;
	char *config_hash; /* of the configuration, NULL without one */
	struct history_stage *stage; /* the runs analysed, until all are */
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A new record of the import, its branch set; caller frees it or stages it. */
static struct history_record *new_record(const struct import *im)
{
	struct history_record *r = xmalloc(sizeof(*r));

	history_record_init(r);
	r->run.branch = dup_or_null(im->o->meta.branch);
	return r;
}

static void record_free(struct history_record *r)
{
	history_record_release(r);
	free(r);
}

/* A directory's name as a commit: 7 to 64 hex digits, which git may know (asked for its
 * subject). */
static int looks_like_sha(const char *s)
{
	size_t n = strlen(s);

	return n >= 7 && n <= 64 && strspn(s, "0123456789abcdef") == n;
}

/* One results directory: its name is its commit, its fingerprint's date its date. */
static int import_dir(struct import *im, const char *dir)
{
	const struct history_options *o = im->o;
	struct history_record *r = new_record(im);
	const char *slash;
	char *name = xstrdup(dir);
	int ret;

	while (strlen(name) > 1 && name[strlen(name) - 1] == '/')
		name[strlen(name) - 1] = 0;
	slash = strrchr(name, '/');
	r->run.commit = xstrdup(o->meta.commit ? o->meta.commit : slash ? slash + 1 : name);
	r->run.date = dup_or_null(o->meta.date);
	r->run.config_hash = dup_or_null(im->config_hash);
	r->run.subject = o->meta.subject ? xstrdup(o->meta.subject)
			 : looks_like_sha(r->run.commit) ? history_cmd_subject(r->run.commit)
							 : NULL;
	ret = history_cmd_analyse(r, im->c, dir);
	if (!ret && !r->run.date)
		r->run.date = history_cmd_now();
	free(name);
	if (ret) {
		record_free(r);
		return -1;
	}
	return history_stage_put(im->stage, r, dir);
}

/* ---- stored baselines: their samples as an analysis, their earlier sittings as runs of their own
 * ---- */

static struct analysis_point *baseline_point(struct analysis_config *cfg, int repeat, int id)
{
	struct analysis_run *run = NULL;

	for (size_t i = 0; i < cfg->nr_runs && !run; i++)
		if (cfg->runs[i].repeat == repeat)
			run = &cfg->runs[i];
	if (!run) {
		ALLOC_GROW(cfg->runs, cfg->nr_runs + 1, cfg->alloc_runs);
		run = &cfg->runs[cfg->nr_runs++];
		memset(run, 0, sizeof(*run));
		run->repeat = repeat;
		run->contention = NAN;
	}
	if ((size_t)id >= run->nr_points) {
		run->points = xrealloc(run->points, ((size_t)id + 1) * sizeof(*run->points));
		for (size_t k = run->nr_points; k <= (size_t)id; k++) {
			struct analysis_point *pt = &run->points[k];
			memset(pt, 0, sizeof(*pt));
			for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
				pt->fig[f] = NAN;
			for (int q = 0; q < ANALYSIS_NR_PQ; q++)
				pt->cmp[q].min = pt->cmp[q].max = pt->cmp[q].mean = NAN;
		}
		run->nr_points = (size_t)id + 1;
	}
	return &run->points[id];
}

/* The repeats of a stored baseline as the analysis of a results directory. */
static void baseline_analysis(struct analysis *a, const struct baseline *b)
{
	for (size_t i = 0; i < b->nr_cells; i++) {
		const struct baseline_cell *c = &b->cells[i];
		struct analysis_config *cfg =
			analysis_config_get(a, b->benchmark, c->size, c->ranks, c->threads);
		int depth = 0, id;
		for (const char *p = c->interval; *p; p++)
			depth += *p == '/';
		id = analysis_interval_id(a, b->benchmark, c->interval, NULL, 0, depth);
		for (size_t r = 0; r < c->n; r++) {
			struct analysis_point *pt = baseline_point(cfg, (int)r + 1, id);
			pt->present = 1;
			for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
				if (c->fig[f])
					pt->fig[f] = c->fig[f][r];
			pt->fig[ANALYSIS_PROCESSORS] = (double)c->ranks * c->threads;
		}
	}
	for (size_t i = 0; i < b->nr_fingerprint; i++) {
		ALLOC_GROW(a->fingerprint, a->nr_fingerprint + 1, a->alloc_fingerprint);
		a->fingerprint[a->nr_fingerprint++] = xstrdup(b->fingerprint[i]);
	}
}

/* Earlier sitting k of a baseline: the median time of each interval x configuration, one run. */
static void sitting_points(struct history_record *r, const struct baseline *b, size_t k)
{
	for (size_t i = 0; i < b->nr_cells; i++) {
		const struct baseline_cell *c = &b->cells[i];
		struct history_point p = { .metric = HISTORY_TIME, .lo = NAN, .hi = NAN, .n = 1 };
		if (!c->earlier || !isfinite(c->earlier[k]))
			continue;
		p.median = c->earlier[k];
		p.benchmark = xstrdup(b->benchmark);
		p.interval = xstrdup(c->interval);
		p.configuration = history_configuration(c->size, c->ranks, c->threads);
		ALLOC_GROW(r->points, r->nr + 1, r->alloc);
		r->points[r->nr++] = p;
	}
}

/* A stored baseline: its earlier sittings (times only), then its samples; commits
 * "baseline-NAME-..." */
static int import_baseline(struct import *im, const char *path)
{
	const struct history_options *o = im->o;
	struct baseline b;
	int ret = baseline_read(&b, path) ? -1 : 0;

	for (size_t k = 0; !ret && k < b.nr_sittings; k++) {
		struct history_record *r = new_record(im);
		r->run.commit = xstrfmt("baseline-%s-sitting-%zu", b.benchmark, k + 1);
		r->run.date = xstrdup(b.sittings[k]);
		sitting_points(r, &b, k);
		if (r->nr)
			ret = history_stage_put(im->stage, r, path);
		else
			record_free(r);
	}
	if (!ret) {
		struct history_record *r = new_record(im);
		struct analysis a;
		struct matrix m;
		analysis_init(&a);
		matrix_init(&m);
		m.skip_trend = 1;
		m.medians_only = 1;
		baseline_analysis(&a, &b);
		r->run.commit = o->meta.commit ? xstrdup(o->meta.commit)
					       : xstrfmt("baseline-%s", b.benchmark);
		r->run.date = dup_or_null(o->meta.date);
		r->run.config_hash = dup_or_null(im->config_hash);
		ret = matrix_build(&m, &a);
		if (!ret) {
			history_cmd_fill(r, &a, &m);
			if (!r->run.date)
				r->run.date = history_cmd_now();
		}
		matrix_release(&m);
		analysis_release(&a);
		if (!ret)
			ret = history_stage_put(im->stage, r, path);
		else
			record_free(r);
	}
	baseline_release(&b);
	return ret;
}

static int is_baseline(const char *path)
{
	size_t len = strlen(path);

	return len > strlen(BASELINE_EXT) &&
	       !strcmp(path + len - strlen(BASELINE_EXT), BASELINE_EXT);
}

int history_cmd_import(const char *where, struct config *c, const struct history_options *o)
{
	struct import im = { NULL, where, o, c, c ? history_cmd_file_hash(o->config) : NULL, NULL };
	int ret;

	if (!o->nr_dirs || ((o->meta.commit || o->meta.subject) && o->nr_dirs > 1)) {
		gate_error(o->nr_dirs ? "--commit and --subject name the commit of one directory"
				      : "no directory to import");
		free(im.config_hash);
		return SG_EXIT_USAGE;
	}
	/* opened first: a history that cannot be opened fails before the analyses, not after */
	ret = history_open(&im.h, where) || !(im.stage = history_stage_start()) ? -1 : 0;
	for (size_t i = 0; !ret && i < o->nr_dirs; i++)
		ret = is_baseline(o->dirs[i]) ? import_baseline(&im, o->dirs[i])
					      : import_dir(&im, o->dirs[i]);
	/* the write lock only now, for the inserts */
	if (!ret)
		ret = history_stage_write(im.stage, im.h, where);
	history_stage_free(im.stage);
	if (ret && im.h)
		gate_error("the import recorded nothing: all its runs are one transaction");
	history_close(im.h);
	free(im.config_hash);
	return ret ? SG_EXIT_USAGE : SG_EXIT_PASS;
}
