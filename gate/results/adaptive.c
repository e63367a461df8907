/* RESULTS/adaptive.tsv: which cells got more rounds after the first look of a two-stage gate run.
 */
#include "results/adaptive.h"

#include <stdlib.h>
#include <string.h>

#include "results/tsv.h"
#include "base/util.h"

static const char header[] = "benchmark\tsize\tranks\tthreads\tfirst\trounds\tinconclusive";

void adaptive_init(struct adaptive *a)
{
	memset(a, 0, sizeof(*a));
}

void adaptive_release(struct adaptive *a)
{
	for (size_t i = 0; i < a->nr; i++) {
		free(a->cells[i].benchmark);
		free(a->cells[i].size);
		free(a->cells[i].reason);
	}
	free(a->cells);
	adaptive_init(a);
}

struct adaptive_cell *adaptive_add(struct adaptive *a, const char *benchmark, const char *size,
				   int ranks, int threads, int first, int rounds,
				   const char *reason)
{
	struct adaptive_cell *c;

	ALLOC_GROW(a->cells, a->nr + 1, a->alloc);
	c = &a->cells[a->nr++];
	c->benchmark = xstrdup(benchmark);
	c->size = xstrdup(size);
	c->ranks = ranks;
	c->threads = threads;
	c->first = first;
	c->rounds = rounds;
	c->reason = xstrdup(reason);
	return c;
}

const struct adaptive_cell *adaptive_find(const struct adaptive *a, const char *benchmark,
					  const char *size, int ranks, int threads)
{
	for (size_t i = 0; i < a->nr; i++) {
		const struct adaptive_cell *c = &a->cells[i];
		if (!strcmp(c->benchmark, benchmark) && !strcmp(c->size, size) &&
		    c->ranks == ranks && c->threads == threads)
			return c;
	}
	return NULL;
}

static int read_row(void *ctx, const char *path, int lineno, char **f, int n)
{
	long v[4];

	if (n != 7 || tsv_parse_long(f[2], 1, 100000, &v[0]) ||
	    tsv_parse_long(f[3], 1, 100000, &v[1]) || tsv_parse_long(f[4], 1, 100000, &v[2]) ||
	    tsv_parse_long(f[5], 1, 100000, &v[3]) || v[3] < v[2])
		return gate_error(
			"%s:%d: expected benchmark, size, ranks, threads, first and total rounds "
			"(first <= total), and the checks",
			path, lineno);
	adaptive_add(ctx, f[0], f[1], (int)v[0], (int)v[1], (int)v[2], (int)v[3], f[6]);
	return 0;
}

int adaptive_read(struct adaptive *a, const char *dir)
{
	char *path = xstrfmt("%s/%s", dir, ADAPTIVE_FILE);
	int ret;

	adaptive_init(a);
	ret = tsv_read_record(path, header, "adaptive-repeats record", read_row, a, &a->present);
	free(path);
	return ret;
}

int adaptive_write(const struct adaptive *a, const char *dir)
{
	char *path = xstrfmt("%s/%s", dir, ADAPTIVE_FILE);
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "%s\n", header);
	for (size_t i = 0; i < a->nr; i++) {
		const struct adaptive_cell *c = &a->cells[i];
		strbuf_addf(&sb, "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", c->benchmark, c->size, c->ranks,
			    c->threads, c->first, c->rounds, c->reason);
	}
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(path);
	return ret;
}

int adaptive_remove(const char *dir)
{
	char *path = xstrfmt("%s/%s", dir, ADAPTIVE_FILE);
	int ret = remove_file(path);

	free(path);
	return ret;
}
