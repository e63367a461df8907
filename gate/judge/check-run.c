/* The checker's view of the results directory: failed runs from manifest.tsv and the set's
 * description. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "judge/check-priv.h"
#include "results/manifest.h"

/* The failures of one configuration. */
struct failed {
	const char *benchmark, *size;
	int ranks, threads;
	int runs, failed;
	char *first; /* "repeat 2: crash: killed by SIGSEGV" */
};
static struct failed *failed_get(struct failed **list, size_t *nr, const struct manifest_row *row)
{
	struct failed *x;

	for (size_t i = 0; i < *nr; i++) {
		x = &(*list)[i];
		if (x->ranks == row->ranks && x->threads == row->threads &&
		    !strcmp(x->benchmark, row->benchmark) && !strcmp(x->size, row->size))
			return x;
	}
	*list = xrealloc(*list, (*nr + 1) * sizeof(**list));
	x = memset(&(*list)[(*nr)++], 0, sizeof(*x));
	x->benchmark = row->benchmark;
	x->size = row->size;
	x->ranks = row->ranks;
	x->threads = row->threads;
	return x;
}
static void count_failures(const struct manifest *m, struct failed **list, size_t *nr)
{
	for (size_t i = 0; i < m->nr; i++) {
		const struct manifest_row *row = &m->rows[i];
		struct failed *x = failed_get(list, nr, row);
		x->runs++;
		if (!strcmp(row->status, "ok"))
			continue;
		if (!x->failed++)
			x->first = xstrfmt("repeat %d: %s: %s", row->repeat, row->status,
					   row->reason);
	}
}

int check_run_failures(struct verdict_set *vs, struct rules *r, const char *results_dir)
{
	char *path = xstrfmt("%s/manifest.tsv", results_dir);
	struct manifest m;
	struct stat st;
	int ret = 0;

	manifest_init(&m);
	if (!stat(path, &st) && !(ret = manifest_read(&m, path)))
		check_run_failures_of(vs, r, &m);
	manifest_release(&m);
	free(path);
	return ret;
}

/* One error verdict per configuration with failed runs; 'side' says whose ("" or "the base
 * revision: "). */
static void add_failures(struct verdict_set *vs, struct rules *r, const struct manifest *m,
			 const char *kind, const char *side)
{
	struct failed *list = NULL;
	size_t nr = 0;

	if (m)
		count_failures(m, &list, &nr);
	for (size_t i = 0; i < nr; i++) {
		struct failed *x = &list[i];
		if (x->failed) {
			struct rules_settings set;
			struct verdict *v = verdict_add(vs, VERDICT_ERROR, x->benchmark, "program",
							x->size, x->ranks, x->threads, kind);
			v->n = (size_t)(x->runs - x->failed);
			verdict_set_message(v, "%s%d of %d runs failed; %s%s", side, x->failed,
					    x->runs, x->first,
					    x->failed > 1 ? " (and more: see manifest.tsv)" : "");
			/* a rule that selects only what failed to run still selected something */
			if (r)
				rules_effective(r, x->benchmark, "program", x->size, x->ranks,
						x->threads, &set);
		}
		free(x->first);
	}
	free(list);
}

void check_run_failures_of(struct verdict_set *vs, struct rules *r, const struct manifest *m)
{
	add_failures(vs, r, m, "run", "");
}

void check_base_run_failures(struct verdict_set *vs, const struct manifest *m)
{
	add_failures(vs, NULL, m, "run.base", "the base revision: ");
}

void check_damaged(struct verdict_set *vs, const struct analysis *a)
{
	for (size_t i = 0; i < a->nr_damaged; i++) {
		const struct analysis_damage *d = &a->damaged[i];
		struct verdict *v = verdict_add(vs, VERDICT_ERROR, d->benchmark, "program", d->size,
						d->ranks, d->threads, "profile");
		verdict_set_message(v, "repeat %d cannot be read, left out of every figure: %s",
				    d->repeat, d->message);
	}
}

/* What each kind of annotation mistake means for the figures. */
static const char *annotation_text(const char *kind)
{
	if (!strcmp(kind, "unclosed"))
		return "was left open (a return, goto, longjmp or exception skipped its SG_END); "
		       "it was closed with "
		       "the interval around it, so its time and its parent's are unreliable";
	if (!strcmp(kind, "unmatched_end"))
		return "is ended where it is not open: the SG_END matches no open interval and was "
		       "ignored";
	if (!strcmp(kind, "dropped"))
		return "was not recorded: more than 128 intervals open at once, or the call-path "
		       "table was full";
	return "has an annotation error the tracer reported";
}

void check_annotations(struct verdict_set *vs, const struct analysis *a)
{
	for (size_t i = 0; i < a->nr_annotations; i++) {
		const struct analysis_annotation *x = &a->annotations[i];
		char *kind = xstrfmt("annotation.%s", x->kind);
		struct verdict *v = verdict_add(vs, VERDICT_ERROR, x->benchmark, x->interval,
						x->size, x->ranks, x->threads, kind);
		verdict_set_message(v, "%s:%d: interval '%s' %s (%.0f times in %zu profiles)",
				    x->file, x->line, x->interval, annotation_text(x->kind),
				    x->count, x->profiles);
		free(kind);
	}
}

void check_describe(struct verdict_set *vs, const struct analysis *a)
{
	char stamp[32], host[256] = "localhost";
	time_t now = time(NULL);
	struct tm tm;

	vs->nr_fingerprint = a->nr_fingerprint / 2;
	vs->fingerprint = xcalloc(a->nr_fingerprint + 1, sizeof(char *));
	for (size_t i = 0; i < 2 * vs->nr_fingerprint; i++) {
		vs->fingerprint[i] = xstrdup(a->fingerprint[i]);
		if (i % 2 && !strcmp(a->fingerprint[i - 1], "hostname") &&
		    strcmp(a->fingerprint[i], "-"))
			snprintf(host, sizeof(host), "%s", a->fingerprint[i]);
	}
	if (!strcmp(host, "localhost") && gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	free(vs->timestamp);
	free(vs->hostname);
	vs->timestamp = xstrdup(stamp);
	vs->hostname = xstrdup(host);
}
