/* RESULTS/complete.tsv: which benchmarks 'scalegate run' finished, with their matrices. */
#include "results/complete.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void complete_set(struct complete *c, const char *benchmark, long configurations, long repeat, long runs)
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

static int parse_count(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !*s || *end || errno || *out < 0 ? -1 : 0;
}

int complete_read(struct complete *c, const char *dir)
{
	char *path = xstrfmt("%s/%s", dir, COMPLETE_FILE);
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;
	int ret = 0, lineno = 0;

	complete_init(c);
	if (access(path, F_OK)) {
		free(path);
		return 0;
	}
	c->present = 1;
	if (strbuf_read_file(&sb, path))
		ret = -1;
	for (line = sb.buf; !ret && line && *line; line = next) {
		char *f[8];
		long v[3];
		int n;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (++lineno == 1) {
			if (strcmp(line, header))
				ret = error("%s:1: not a completeness record (expected the header '%s')", path, header);
			continue;
		}
		n = tsv_split(line, f, 8);
		if (n != 4 || parse_count(f[1], &v[0]) || parse_count(f[2], &v[1]) || parse_count(f[3], &v[2]))
			ret = error("%s:%d: expected a benchmark name and three counts", path, lineno);
		else
			complete_set(c, f[0], v[0], v[1], v[2]);
	}
	if (!ret && !lineno)
		ret = error("%s: empty completeness record", path);
	strbuf_release(&sb);
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
		strbuf_addf(&sb, "%s\t%ld\t%ld\t%ld\n", c->e[i].benchmark, c->e[i].configurations, c->e[i].repeat,
			    c->e[i].runs);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(path);
	return ret;
}

int complete_remove(const char *dir)
{
	char *path = xstrfmt("%s/%s", dir, COMPLETE_FILE);
	int ret = 0;

	if (unlink(path) && errno != ENOENT)
		ret = error("cannot remove '%s': %s", path, strerror(errno));
	free(path);
	return ret;
}
