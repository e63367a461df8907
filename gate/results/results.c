/* The results of one gate run in memory: each file of RESULTS read once, profiles on first use. */
#include "results/results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/tsv.h"

void results_init(struct results *r, const char *dir)
{
	memset(r, 0, sizeof(*r));
	r->dir = xstrdup(dir);
	complete_init(&r->complete);
	adaptive_init(&r->adaptive);
	strbuf_init(&r->text);
	manifest_init(&r->manifest);
}

static void run_release(struct results_run *run)
{
	for (size_t i = 0; i < run->n; i++)
		profile_data_release(&run->p[i]);
	free(run->p);
	memset(run, 0, sizeof(*run));
}

void results_release(struct results *r)
{
	if (r->base) {
		results_release(r->base);
		free(r->base);
	}
	for (size_t i = 0; i < r->manifest.nr; i++)
		run_release(&r->runs[i]);
	free(r->runs);
	run_release(&r->whole);
	for (size_t i = 0; i < r->nr_fingerprint; i++)
		free(r->fingerprint[i]);
	free(r->fingerprint);
	manifest_release(&r->manifest);
	strbuf_release(&r->text);
	adaptive_release(&r->adaptive);
	complete_release(&r->complete);
	free(r->dir);
	memset(r, 0, sizeof(*r));
}

const struct complete *results_complete(struct results *r)
{
	if (!r->complete_state)
		r->complete_state = complete_read(&r->complete, r->dir) ? -1 : 1;
	return r->complete_state > 0 ? &r->complete : NULL;
}

const struct adaptive *results_adaptive(struct results *r)
{
	if (!r->adaptive_state)
		r->adaptive_state = adaptive_read(&r->adaptive, r->dir) ? -1 : 1;
	return r->adaptive_state > 0 ? &r->adaptive : NULL;
}

static int read_text(struct results *r)
{
	char *path;

	if (!r->text_state) {
		path = xstrfmt("%s/manifest.tsv", r->dir);
		r->text_state = strbuf_read_file(&r->text, path) ? -1 : 1;
		free(path);
	}
	return r->text_state > 0 ? 0 : -1;
}

long results_manifest_lines(struct results *r, const char *benchmark)
{
	size_t len = strlen(benchmark);
	long n = 0;

	if (read_text(r))
		return -1;
	for (const char *line = r->text.buf; *line;) {
		const char *end = strchrnul(line, '\n');
		n += end - line > (long)len && !strncmp(line, benchmark, len) && line[len] == '\t';
		line = *end ? end + 1 : end;
	}
	return n;
}

int results_load_manifest(struct results *r)
{
	char *path;
	struct stat st;

	if (r->manifest_state)
		return r->manifest_state > 0 ? 0 : -1;
	path = xstrfmt("%s/manifest.tsv", r->dir);
	r->manifest_state = -1;
	if (!stat(path, &st)) {
		/* the text the completeness check counted, if read: the file is opened once */
		if (!read_text(r) && !manifest_parse(&r->manifest, xstrdup(r->text.buf), path)) {
			r->has_manifest = 1;
			r->runs = xcalloc(r->manifest.nr + 1, sizeof(*r->runs));
			r->alloc_runs = r->manifest.nr + 1;
			r->manifest_state = 1;
		}
	} else {
		r->manifest_state = 1; /* a plain directory of profiles */
	}
	free(path);
	return r->manifest_state > 0 ? 0 : -1;
}

char *const *results_fingerprint(struct results *r, size_t *nr)
{
	struct strbuf sb = STRBUF_INIT;
	char *path, *line = NULL, *save = NULL;
	struct stat st;

	if (!r->fingerprint_state) {
		r->fingerprint_state = 1;
		path = xstrfmt("%s/fingerprint.tsv", r->dir);
		if (!stat(path, &st) && !strbuf_read_file(&sb, path))
			line = strtok_r(sb.buf, "\n", &save);
		for (; line; line = strtok_r(NULL, "\n", &save)) {
			char *f[2];
			if (tsv_split(line, f, 2) != 2)
				continue;
			size_t n = r->nr_fingerprint + 2;
			r->fingerprint = xrealloc(r->fingerprint, n * sizeof(char *));
			r->fingerprint[r->nr_fingerprint++] = xstrdup(f[0]);
			r->fingerprint[r->nr_fingerprint++] = xstrdup(f[1]);
		}
		strbuf_release(&sb);
		free(path);
	}
	*nr = r->nr_fingerprint;
	return r->fingerprint;
}

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

static int is_profile(const char *name)
{
	size_t len = strlen(name);

	return len > 7 && !strcmp(name + len - 7, ".sgprof");
}

/* Reads every *.sgprof of 'dir' in rank order; run->n is 0 when there is none. */
static int read_profiles(const char *dir, struct results_run *run)
{
	char **names;
	long n = dir_names(dir, is_profile, &names);
	int ret = 0;

	if (n < 0 && errno == ENOTDIR)
		return gate_error("'%s' is not a directory", dir);
	if (n < 0)
		return gate_error("cannot open directory '%s': %s", dir, strerror(errno));
	qsort(names, (size_t)n, sizeof(*names), cmp_str);
	run->p = xcalloc((size_t)n + 1, sizeof(*run->p));
	for (long i = 0; i < n; i++) {
		char *path = xstrfmt("%s/%s", dir, names[i]);
		if (!ret && profile_read(&run->p[run->n], path) == 0)
			run->n++;
		else
			ret = -1;
		free(path);
		free(names[i]);
	}
	free(names);
	qsort(run->p, run->n, sizeof(*run->p), cmp_rank);
	return ret;
}

int results_profiles(struct results *r, size_t row, const struct profile **p, size_t *n)
{
	struct results_run *run = r->has_manifest ? &r->runs[row] : &r->whole;

	if (!run->state) {
		char *dir = r->has_manifest ? xstrfmt("%s/%s", r->dir, r->manifest.rows[row].dir) :
			xstrdup(r->dir);
		run->state = 1;
		if (read_profiles(dir, run)) {
			run_release(run);
			run->state = -1;
		}
		free(dir);
	}
	*p = run->p;
	*n = run->n;
	return run->state > 0 ? 0 : -1;
}

struct results *results_base(struct results *r)
{
	if (!r->base_state) {
		char *marker = xstrfmt("%s/ab.tsv", r->dir);
		char *manifest = xstrfmt("%s/base/manifest.tsv", r->dir);
		r->base_state = 1;
		if (!access(marker, R_OK) && !access(manifest, R_OK)) {
			char *dir = xstrfmt("%s/base", r->dir);
			r->base = xmalloc(sizeof(*r->base));
			results_init(r->base, dir);
			free(dir);
		}
		free(marker);
		free(manifest);
	}
	return r->base;
}

void results_add_row(struct results *r, const struct manifest_row *row)
{
	const struct complete_entry *e = complete_find(&r->complete, row->benchmark);

	if (!r->has_manifest)
		return;
	manifest_add_row(&r->manifest, row);
	ALLOC_GROW(r->runs, r->manifest.nr, r->alloc_runs);
	memset(&r->runs[r->manifest.nr - 1], 0, sizeof(*r->runs));
	if (e)
		complete_set(&r->complete, row->benchmark, e->configurations, e->repeat,
			     e->runs + 1);
}

void results_set_adaptive(struct results *r, struct adaptive *a)
{
	adaptive_release(&r->adaptive);
	r->adaptive = *a;
	r->adaptive_state = 1;
	adaptive_init(a);
}
