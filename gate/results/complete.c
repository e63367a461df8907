/* RESULTS/complete.tsv: which benchmarks 'scalegate run' finished, with their matrices. */
#include "results/complete.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "results/tsv.h"
#include "base/util.h"

static const char header[] = "benchmark\tconfigurations\trepeat\truns";

void complete_init(struct complete *c)
{
	memset(c, 0, sizeof(*c));
}

void complete_release(struct complete *c)
{
	for (size_t i = 0; i < c->nr; i++)
		free(c->e[i].benchmark);
	free(c->e);
	complete_init(c);
}

const struct complete_entry *complete_find(const struct complete *c, const char *benchmark)
{
	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->e[i].benchmark, benchmark))
			return &c->e[i];
	return NULL;
}

void complete_set(struct complete *c, const char *benchmark, long configurations, long repeat,
		  long runs)
{
	struct complete_entry *e = (struct complete_entry *)complete_find(c, benchmark);

	if (!e) {
		c->e = xrealloc(c->e, (c->nr + 1) * sizeof(*c->e));
		e = &c->e[c->nr++];
		e->benchmark = xstrdup(benchmark);
	}
	e->configurations = configurations;
	e->repeat = repeat;
	e->runs = runs;
}

static int read_row(void *ctx, const char *path, int lineno, char **f, int n)
{
	long v[3];

	if (n != 4 || tsv_parse_long(f[1], 0, LONG_MAX, &v[0]) ||
	    tsv_parse_long(f[2], 0, LONG_MAX, &v[1]) || tsv_parse_long(f[3], 0, LONG_MAX, &v[2]))
		return gate_error("%s:%d: expected a benchmark name and three counts", path,
				  lineno);
	complete_set(ctx, f[0], v[0], v[1], v[2]);
	return 0;
}

int complete_read(struct complete *c, const char *dir)
{
	char *path = xstrfmt("%s/%s", dir, COMPLETE_FILE);
	int ret;

	complete_init(c);
	ret = tsv_read_record(path, header, "completeness record", read_row, c, &c->present);
	free(path);
	return ret;
}

int complete_write(const struct complete *c, const char *dir)
{
	char *path = xstrfmt("%s/%s", dir, COMPLETE_FILE);
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "%s\n", header);
	for (size_t i = 0; i < c->nr; i++)
		strbuf_addf(&sb, "%s\t%ld\t%ld\t%ld\n", c->e[i].benchmark, c->e[i].configurations,
			    c->e[i].repeat, c->e[i].runs);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(path);
	return ret;
}

int complete_remove(const char *dir)
{
	char *path = xstrfmt("%s/%s", dir, COMPLETE_FILE);
	int ret = remove_file(path);

	free(path);
	return ret;
}
