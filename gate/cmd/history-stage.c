/* The staging of 'history import': every run analysed first into a temporary file, then all of them
 * written in one transaction, so that the write lock is held for the inserts only, not for the
 * analysis of every directory (a concurrent 'history record' waits seconds, not the whole import).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cmd/history-priv.h"
#include "history/series-ids.h"

/* The names of a point's series (benchmark, interval, configuration), kept once in memory: the
 * file holds their number. */
struct stage_key {
	char *benchmark, *interval, *configuration;
};

struct history_stage {
	FILE *f;
	char *path; /* for messages; unlinked at once */
	struct series_ids ids; /* the keys by their names */
	struct stage_key *keys;
	size_t nr_keys, alloc_keys;
	size_t nr_runs;
	int failed;
};

/* A point as the file holds it, followed by its samples. */
struct stage_point {
	uint32_t key, metric, nr_samples;
	double median, lo, hi;
	uint64_t n;
};

struct stage_sample {
	int32_t repeat;
	double value;
};

struct history_stage *history_stage_start(void)
{
	struct history_stage *s = xcalloc(1, sizeof(*s));
	const char *tmp = history_cmd_env("TMPDIR");
	int fd;

	s->path = xstrfmt("%s/scalegate-import-XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(s->path);
	if (fd < 0 || !(s->f = fdopen(fd, "w+b"))) {
		gate_error("cannot create a temporary file '%s' for the import: %s", s->path,
			   strerror(errno));
		if (fd >= 0)
			close(fd);
		free(s->path);
		free(s);
		return NULL;
	}
	unlink(s->path); /* gone with the process, however it ends */
	return s;
}

void history_stage_free(struct history_stage *s)
{
	if (!s)
		return;
	fclose(s->f);
	series_ids_release(&s->ids);
	for (size_t i = 0; i < s->nr_keys; i++) {
		free(s->keys[i].benchmark);
		free(s->keys[i].interval);
		free(s->keys[i].configuration);
	}
	free(s->keys);
	free(s->path);
	free(s);
}

static uint32_t key_of(struct history_stage *s, const struct history_point *p)
{
	long long id;
	struct stage_key *k;

	if (series_ids_find(&s->ids, p->benchmark, p->interval, p->configuration, "", &id))
		return (uint32_t)id;
	ALLOC_GROW(s->keys, s->nr_keys + 1, s->alloc_keys);
	k = &s->keys[s->nr_keys];
	k->benchmark = xstrdup(p->benchmark);
	k->interval = xstrdup(p->interval);
	k->configuration = xstrdup(p->configuration);
	series_ids_add(&s->ids, p->benchmark, p->interval, p->configuration, "",
		       (long long)s->nr_keys);
	return (uint32_t)s->nr_keys++;
}

static void put(struct history_stage *s, const void *p, size_t n)
{
	if (!s->failed && n && fwrite(p, n, 1, s->f) != 1)
		s->failed = errno ? errno : EIO;
}

/* A string, or NULL: its length + 1 (0 for NULL), then its bytes. */
static void put_str(struct history_stage *s, const char *str)
{
	uint32_t n = str ? (uint32_t)strlen(str) + 1 : 0;

	put(s, &n, sizeof(n));
	put(s, str, n ? n - 1 : 0);
}

static int stage_error(struct history_stage *s, const char *what)
{
	return gate_error("cannot %s the import's temporary file '%s': %s", what, s->path,
			  strerror(s->failed ? s->failed : EIO));
}

int history_stage_put(struct history_stage *s, struct history_record *r, const char *results)
{
	const struct history_run *run = &r->run;
	uint64_t nr = r->nr;
	int ret = 0;

	if (!r->nr) {
		ret = gate_error("'%s' holds no figure to record", results);
		goto out;
	}
	put_str(s, results);
	put_str(s, run->commit);
	put_str(s, run->parent);
	put_str(s, run->branch);
	put_str(s, run->date);
	put_str(s, run->job_url);
	put_str(s, run->machine);
	put_str(s, run->config_hash);
	put_str(s, run->subject);
	put(s, &run->reference, sizeof(run->reference));
	put(s, &nr, sizeof(nr));
	for (size_t i = 0; i < r->nr; i++) {
		const struct history_point *p = &r->points[i];
		struct stage_point sp = { key_of(s, p), (uint32_t)p->metric,
					  (uint32_t)p->nr_samples, p->median, p->lo, p->hi, p->n };
		put(s, &sp, sizeof(sp));
		for (size_t k = 0; k < p->nr_samples; k++) {
			struct stage_sample x = { p->repeat[k], p->sample[k] };
			put(s, &x, sizeof(x));
		}
	}
	if (s->failed)
		ret = stage_error(s, "write");
	else
		s->nr_runs++;
out:
	history_record_release(r);
	free(r);
	return ret;
}

static int get(struct history_stage *s, void *p, size_t n)
{
	if (n && fread(p, n, 1, s->f) != 1) {
		s->failed = ferror(s->f) && errno ? errno : EIO;
		return -1;
	}
	return 0;
}

/* A string put_str() wrote, NULL for NULL; caller frees. */
static char *get_str(struct history_stage *s)
{
	uint32_t n;
	char *str;

	if (get(s, &n, sizeof(n)) || !n)
		return NULL;
	str = xmalloc(n);
	str[n - 1] = 0;
	if (get(s, str, n - 1)) {
		free(str);
		return NULL;
	}
	return str;
}

/* The next run into r (its points' names borrowed from the keys, their samples in 'repeats' and
 * 'samples'), its directory into *results; 0 or -1. */
static int get_run(struct history_stage *s, struct history_record *r, char **results,
		   int **repeats, double **samples, size_t *alloc)
{
	struct history_run *run = &r->run;
	uint64_t nr;
	size_t at = 0;

	*results = get_str(s);
	run->commit = get_str(s);
	run->parent = get_str(s);
	run->branch = get_str(s);
	run->date = get_str(s);
	run->job_url = get_str(s);
	run->machine = get_str(s);
	run->config_hash = get_str(s);
	run->subject = get_str(s);
	if (s->failed || get(s, &run->reference, sizeof(run->reference)) || get(s, &nr, sizeof(nr)))
		return -1;
	r->points = xcalloc(nr + 1, sizeof(*r->points));
	r->alloc = nr + 1;
	for (r->nr = 0; r->nr < nr; r->nr++) {
		struct history_point *p = &r->points[r->nr];
		struct stage_point sp;
		if (get(s, &sp, sizeof(sp)) || sp.key >= s->nr_keys)
			return -1;
		p->benchmark = s->keys[sp.key].benchmark;
		p->interval = s->keys[sp.key].interval;
		p->configuration = s->keys[sp.key].configuration;
		p->metric = (enum history_metric)sp.metric;
		p->median = sp.median;
		p->lo = sp.lo;
		p->hi = sp.hi;
		p->n = (size_t)sp.n;
		p->nr_samples = sp.nr_samples;
		if (at + sp.nr_samples > *alloc) {
			*alloc = 2 * (at + sp.nr_samples) + 64;
			*repeats = xrealloc(*repeats, *alloc * sizeof(**repeats));
			*samples = xrealloc(*samples, *alloc * sizeof(**samples));
		}
		for (size_t k = 0; k < sp.nr_samples; k++, at++) {
			struct stage_sample x;
			if (get(s, &x, sizeof(x)))
				return -1;
			(*repeats)[at] = x.repeat;
			(*samples)[at] = x.value;
		}
	}
	/* the arrays moved while they grew: point into them now */
	at = 0;
	for (size_t i = 0; i < r->nr; i++) {
		r->points[i].repeat = *repeats + at;
		r->points[i].sample = *samples + at;
		at += r->points[i].nr_samples;
	}
	return 0;
}

/* Releases r without what it borrowed. */
static void release_borrowed(struct history_record *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		struct history_point *p = &r->points[i];
		p->benchmark = p->interval = p->configuration = NULL;
		p->repeat = NULL;
		p->sample = NULL;
	}
	history_record_release(r);
}

int history_stage_write(struct history_stage *s, struct history *h, const char *where)
{
	int *repeats = NULL, ret = 0;
	double *samples = NULL;
	size_t alloc = 0;

	if (fflush(s->f) || fseek(s->f, 0, SEEK_SET)) {
		s->failed = errno ? errno : EIO;
		return stage_error(s, "write");
	}
	if (history_begin(h))
		return -1;
	for (size_t i = 0; !ret && i < s->nr_runs; i++) {
		struct history_record r;
		char *results = NULL;
		history_record_init(&r);
		if (get_run(s, &r, &results, &repeats, &samples, &alloc))
			ret = stage_error(s, "read");
		else
			ret = history_cmd_write(h, where, &r, results);
		release_borrowed(&r);
		free(results);
	}
	free(repeats);
	free(samples);
	if (!ret)
		return history_commit(h);
	history_rollback(h);
	return -1;
}
