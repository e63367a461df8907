/* Imported runs written as a results directory of 'scalegate run' (docs/running.md, "Results"):
 * the manifest, the completeness record, a fingerprint and one directory of profiles per run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "interop/interop.h"
#include "results/complete.h"
#include "results/manifest.h"

void import_set_init(struct import_set *s)
{
	memset(s, 0, sizeof(*s));
}

void import_set_release(struct import_set *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		struct import_run *r = &s->run[i];
		for (size_t j = 0; j < r->nr_p; j++)
			profile_data_release(&r->p[j]);
		free(r->p);
		free(r->source);
		free(r->benchmark);
		free(r->size);
	}
	free(s->run);
	free(s->date);
	free(s->origin);
	import_set_init(s);
}

struct import_run *import_add_run(struct import_set *s, const char *source,
				  const char *benchmark, const char *size)
{
	struct import_run *r;

	ALLOC_GROW(s->run, s->nr + 1, s->alloc);
	r = &s->run[s->nr++];
	memset(r, 0, sizeof(*r));
	r->source = xstrdup(source);
	r->benchmark = xstrdup(benchmark);
	r->size = xstrdup(size);
	r->wall = NAN;
	return r;
}

struct profile *import_add_profile(struct import_run *r, int rank, const char *tool)
{
	struct profile *p;
	char buf[32];

	r->p = xrealloc(r->p, (r->nr_p + 1) * sizeof(*r->p));
	p = &r->p[r->nr_p++];
	profile_data_init(p);
	profile_add_meta(p, "host", tool);
	snprintf(buf, sizeof(buf), "%zu", r->nr_p);
	profile_add_meta(p, "pid", buf);
	snprintf(buf, sizeof(buf), "%d", rank);
	profile_add_meta(p, "rank", rank < 0 ? "-" : buf);
	snprintf(buf, sizeof(buf), "%d", r->ranks);
	profile_add_meta(p, "ranks", rank < 0 ? "-" : buf);
	profile_add_meta(p, "clock", "monotonic");
	profile_add_meta(p, "sched", "none");
	snprintf(buf, sizeof(buf), "%d", r->threads);
	profile_add_meta(p, "threads_max", buf);
	profile_add_meta(p, "cpus", buf);
	profile_add_meta(p, "source", r->source);
	return p;
}

/* The repeat of run 'i': how many runs of its configuration come before it, plus one. */
static int repeat_of(const struct import_set *s, size_t i)
{
	const struct import_run *r = &s->run[i];
	int repeat = 1;

	for (size_t j = 0; j < i; j++)
		if (!strcmp(s->run[j].benchmark, r->benchmark) &&
		    !strcmp(s->run[j].size, r->size) && s->run[j].ranks == r->ranks &&
		    s->run[j].threads == r->threads)
			repeat++;
	return repeat;
}

static int write_run(const struct import_run *r, const char *top, const char *dir)
{
	char *path = xstrfmt("%s/%s", top, dir);
	int ret = mkdir_p(path);

	for (size_t i = 0; !ret && i < r->nr_p; i++) {
		const char *rank = profile_meta(&r->p[i], "rank");
		char *file = strcmp(rank, "-") ? xstrfmt("%s/rank%05d.import.%zu.sgprof", path,
							 atoi(rank), i + 1)
					       : xstrfmt("%s/import.%zu.sgprof", path, i + 1);
		ret = profile_write(&r->p[i], file);
		free(file);
	}
	free(path);
	return ret;
}

static int write_fingerprint(const struct import_set *s, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/fingerprint.tsv", dir);
	int ret;

	strbuf_addf(&sb, "scalegate_version\t%s\n", SG_VERSION);
	strbuf_addf(&sb, "date\t%s\n", s->date ? s->date : "-");
	strbuf_addstr(&sb, "hostname\t-\n");
	strbuf_addf(&sb, "launcher\timported from %s\n", s->origin ? s->origin : "-");
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(path);
	return ret;
}

/* Configurations and repeats per benchmark, for complete.tsv. */
static void count_benchmark(const struct import_set *s, size_t i, struct complete *c)
{
	long runs = 0, configurations = 0, repeat = 0;

	for (size_t j = 0; j < s->nr; j++) {
		int r;
		if (strcmp(s->run[j].benchmark, s->run[i].benchmark))
			continue;
		runs++;
		r = repeat_of(s, j);
		configurations += r == 1;
		repeat = r > repeat ? r : repeat;
	}
	complete_set(c, s->run[i].benchmark, configurations, repeat, runs);
}

static int write_manifest(const struct import_set *s, const char *dir)
{
	char *path = xstrfmt("%s/manifest.tsv", dir);
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f) {
		ret = gate_error("cannot create '%s': %s", path, strerror(errno));
		free(path);
		return ret;
	}
	manifest_write_header(f);
	for (size_t i = 0; i < s->nr && !ret; i++) {
		const struct import_run *r = &s->run[i];
		int repeat = repeat_of(s, i);
		char *run = xstrfmt("%s/s%s-r%d-t%d/%d", r->benchmark, r->size, r->ranks,
				    r->threads, repeat);
		struct manifest_row row = { r->benchmark, r->size, r->ranks, r->threads, repeat,
					    "ok", 0, r->wall, run, "-", NAN, NAN };
		ret = write_run(r, dir, run);
		if (!ret && manifest_write_row(f, &row))
			ret = gate_error("cannot write '%s': %s", path, strerror(errno));
		free(run);
	}
	if (fclose(f) && !ret)
		ret = gate_error("cannot write '%s': %s", path, strerror(errno));
	free(path);
	return ret;
}

int import_write(const struct import_set *s, const char *dir)
{
	char *manifest = xstrfmt("%s/manifest.tsv", dir);
	struct complete c;
	int ret;

	complete_init(&c);
	if (!access(manifest, F_OK))
		ret = gate_error("'%s' already holds results: import into a new directory", dir);
	else
		ret = mkdir_p(dir);
	free(manifest);
	if (!ret)
		ret = write_manifest(s, dir);
	for (size_t i = 0; !ret && i < s->nr; i++)
		count_benchmark(s, i, &c);
	if (!ret)
		ret = write_fingerprint(s, dir) || complete_write(&c, dir) ? -1 : 0;
	complete_release(&c);
	return ret;
}
