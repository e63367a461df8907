/* The checker's view of the results directory: failed runs from manifest.tsv and the set's description. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "judge/check-priv.h"
#include "results/tsv.h"

enum { C_BENCHMARK, C_SIZE, C_RANKS, C_THREADS, C_REPEAT, C_STATUS, C_REASON, C_NR };
static const char *const columns[C_NR] = { "benchmark", "size", "ranks", "threads", "repeat", "status", "reason" };

/* The failures of one configuration. */
struct failed {
	char *benchmark, *size;
	int ranks, threads;
	int runs, failed;
	char *first; /* "repeat 2: crash: killed by SIGSEGV" */
};
static struct failed *failed_get(struct failed **list, size_t *nr, char **f, const int *col)
{
	int ranks = atoi(f[col[C_RANKS]]), threads = atoi(f[col[C_THREADS]]);
	struct failed *x;

	for (size_t i = 0; i < *nr; i++) {
		x = &(*list)[i];
		if (x->ranks == ranks && x->threads == threads && !strcmp(x->benchmark, f[col[C_BENCHMARK]]) &&
		    !strcmp(x->size, f[col[C_SIZE]]))
			return x;
	}
	*list = xrealloc(*list, (*nr + 1) * sizeof(**list));
	x = memset(&(*list)[(*nr)++], 0, sizeof(*x));
	x->benchmark = xstrdup(f[col[C_BENCHMARK]]);
	x->size = xstrdup(f[col[C_SIZE]]);
	x->ranks = ranks;
	x->threads = threads;
	return x;
}
static int read_failures(const char *path, struct failed **list, size_t *nr)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	int col[C_NR], ret = 0, lineno = 1;

	if (strbuf_read_file(&sb, path))
		return -1;
	line = strtok_r(sb.buf, "\n", &save);
	if (!line || tsv_columns(path, line, columns, C_NR, col, 1))
		ret = line ? -1 : error("%s: empty manifest", path);
	while (!ret && (line = strtok_r(NULL, "\n", &save))) {
		char *f[64];
		int n = tsv_split(line, f, 64);
		struct failed *x;
		lineno++;
		if (n < C_NR || n <= col[C_REASON] || n <= col[C_STATUS]) {
			ret = error("%s:%d: too few fields", path, lineno);
			break;
		}
		x = failed_get(list, nr, f, col);
		x->runs++;
		if (!strcmp(f[col[C_STATUS]], "ok"))
			continue;
		if (!x->failed++)
			x->first = xstrfmt("repeat %s: %s: %s", f[col[C_REPEAT]], f[col[C_STATUS]], f[col[C_REASON]]);
	}
	strbuf_release(&sb);
	return ret;
}

int check_run_failures(struct verdict_set *vs, struct rules *r, const char *results_dir)
{
	char *path = xstrfmt("%s/manifest.tsv", results_dir);
	struct failed *list = NULL;
	size_t nr = 0;
	struct stat st;
	int ret = 0;

	if (!stat(path, &st))
		ret = read_failures(path, &list, &nr);
	for (size_t i = 0; i < nr; i++) {
		struct failed *x = &list[i];
		if (!ret && x->failed) {
			struct rules_settings set;
			struct verdict *v = verdict_add(vs, VERDICT_ERROR, x->benchmark, "program", x->size, x->ranks,
							x->threads, "run");
			v->n = (size_t)(x->runs - x->failed);
			verdict_set_message(v, "%d of %d runs failed; %s%s", x->failed, x->runs, x->first,
					    x->failed > 1 ? " (and more: see manifest.tsv)" : "");
			if (r) /* a rule that selects only what failed to run still selected something */
				rules_effective(r, x->benchmark, "program", x->size, x->ranks, x->threads, &set);
		}
		free(x->benchmark);
		free(x->size);
		free(x->first);
	}
	free(list);
	free(path);
	return ret;
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
		if (i % 2 && !strcmp(a->fingerprint[i - 1], "hostname") && strcmp(a->fingerprint[i], "-"))
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
