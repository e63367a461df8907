/* Results that 'scalegate run' did not finish are refused before they are judged (complete.tsv,
 * docs/check.md). */
#include "judge/judge.h"

#include <stdarg.h>
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
		error("%s; or judge what is there with --partial", sb.buf);
	strbuf_release(&sb);
}

/* One benchmark against the record: 0, or the exit code after error() (or warning()). */
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
