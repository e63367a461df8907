/* Results that 'scalegate run' did not finish are refused before they are judged (complete.tsv,
 * docs/check.md). */
#include "judge/judge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/complete.h"
#include "base/exitcode.h"
#include "base/util.h"

/* A problem of the results: a warning with --partial ('partial'), else an error that says how to go
 * on. */
static void say(int partial, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int partial, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (partial)
		warning("%s (judged anyway: --partial)", sb.buf);
	else
		gate_error("%s; or judge what is there with --partial", sb.buf);
	strbuf_release(&sb);
}

/* One benchmark against the record: 0, or the exit code after gate_error() (or warning()). */
static int check_one(const struct complete *rec, const struct bench_config *b, struct results *r,
		     int partial)
{
	const char *results = r->dir;
	const struct complete_entry *e = complete_find(rec, b->name);
	long want = (long)config_matrix_size(b), runs;

	if (!e) {
		say(partial,
		    "benchmark '%s' is missing from the results '%s' (not in %s): run 'scalegate "
		    "run' for it",
		    b->name, results, COMPLETE_FILE);
		return SG_EXIT_USAGE;
	}
	if (e->configurations != want || e->repeat != b->repeat) {
		say(partial,
		    "benchmark '%s' in '%s' ran %ld configurations x %ld repeats; the "
		    "configuration asks %ld x %d: "
		    "run it again",
		    b->name, results, e->configurations, e->repeat, want, b->repeat);
		return SG_EXIT_USAGE;
	}
	if ((runs = results_manifest_lines(r, b->name)) != e->runs) {
		say(partial,
		    "benchmark '%s': '%s/manifest.tsv' holds %ld of its %ld runs: the results are "
		    "incomplete",
		    b->name, results, runs < 0 ? 0 : runs, e->runs);
		return SG_EXIT_RUN_FAILED;
	}
	return 0;
}

int judge_check_results(const struct config *c, struct results *r, const char *benchmark,
			int partial)
{
	const struct complete *rec = results_complete(r);
	int code = 0;

	if (!rec)
		return partial ? 0 : SG_EXIT_RUN_FAILED;
	if (!rec->present) {
		say(partial,
		    "the results '%s' are incomplete: no %s (was 'scalegate run' interrupted, or "
		    "did it fail?)",
		    r->dir, COMPLETE_FILE);
		code = SG_EXIT_RUN_FAILED;
	}
	for (size_t i = 0; rec->present && i < c->nr_benchmarks; i++) {
		int one;
		if (benchmark && strcmp(benchmark, c->benchmarks[i].name))
			continue;
		one = check_one(rec, &c->benchmarks[i], r, partial);
		if (one && (!code || one == SG_EXIT_RUN_FAILED))
			code = one;
	}
	return partial ? 0 : code;
}

int judge_check_complete(const struct config *c, const char *results, const char *benchmark,
			 int partial)
{
	struct results r;
	int code;

	results_init(&r, results);
	code = judge_check_results(c, &r, benchmark, partial);
	results_release(&r);
	return code;
}

/* A run of the manifest, by its configuration. */
struct cell_key {
	const char *benchmark, *size;
	int ranks, threads;
};

static int cell_cmp(const void *x, const void *y)
{
	const struct cell_key *a = x, *b = y;
	int c = strcmp(a->benchmark, b->benchmark);

	if (!c)
		c = strcmp(a->size, b->size);
	if (!c)
		c = (a->ranks > b->ranks) - (a->ranks < b->ranks);
	if (!c)
		c = (a->threads > b->threads) - (a->threads < b->threads);
	return c;
}

/* How many runs of 'key' the sorted 'keys' hold. */
static size_t cell_runs(const struct cell_key *keys, size_t nr, const struct cell_key *key)
{
	size_t lo = 0, hi = nr, n = 0;

	while (lo < hi) { /* the first not below 'key' */
		size_t mid = lo + (hi - lo) / 2;
		if (cell_cmp(&keys[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + n < nr && !cell_cmp(&keys[lo + n], key))
		n++;
	return n;
}

static void not_run_bench(struct verdict_set *vs, const struct bench_config *b,
			  const struct cell_key *keys, size_t nr_keys, const char *signal)
{
	size_t nr;
	struct config_point *pts = config_matrix_points(b, &nr);

	for (size_t i = 0; i < nr; i++) {
		char size[32] = "-";
		struct cell_key key = { b->name, size, pts[i].ranks, pts[i].threads };
		size_t runs;
		struct verdict *v;

		if (pts[i].size != CONFIG_NO_SIZE)
			snprintf(size, sizeof(size), "%lld", pts[i].size);
		if ((runs = cell_runs(keys, nr_keys, &key)) >= (size_t)b->repeat)
			continue;
		v = verdict_add(vs, VERDICT_ERROR, b->name, "program", size, pts[i].ranks,
				pts[i].threads, "run.interrupted");
		v->n = runs;
		verdict_set_message(v,
				    "not judged: the gate was interrupted by %s after %zu of "
				    "the %d repeats of this configuration",
				    signal, runs, b->repeat);
	}
	free(pts);
}

void judge_not_run(struct judge *j, const char *signal)
{
	const struct manifest *m = &j->res.manifest;
	struct cell_key *keys = xcalloc(m->nr + 1, sizeof(*keys));
	size_t nr = 0;

	/* a failed run counts as run: it is an error verdict of its own */
	for (size_t i = 0; j->res.has_manifest && i < m->nr; i++)
		keys[nr++] = (struct cell_key){ m->rows[i].benchmark, m->rows[i].size,
						m->rows[i].ranks, m->rows[i].threads };
	qsort(keys, nr, sizeof(*keys), cell_cmp);
	for (size_t i = 0; i < j->config.nr_benchmarks; i++)
		not_run_bench(&j->vs, &j->config.benchmarks[i], keys, nr, signal);
	free(keys);
}
