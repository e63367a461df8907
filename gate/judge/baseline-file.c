/* The baseline file, <benchmark>.sgbase: versioned text, sorted, one line per interval x configuration x metric. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/baseline.h"
#include "results/tsv.h"

static const enum analysis_figure stored[] = {
#define X(id) ANALYSIS_##id,
	BASELINE_FIGURES(X)
#undef X
};

char *baseline_path(const char *dir, const char *benchmark)
{
	return xstrfmt("%s/%s%s", dir, benchmark, BASELINE_EXT);
}

/* Interval paths and fingerprint values may hold any byte: escape what would break a line. */
static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			strbuf_addstr(sb, "\\\\");
		else if (*s == '\t')
			strbuf_addstr(sb, "\\t");
		else if (*s == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*s == '\r')
			strbuf_addstr(sb, "\\r");
		else
			strbuf_addch(sb, *s);
	}
}

static void format_cell(struct strbuf *out, const struct baseline_cell *c)
{
	for (size_t k = 0; k < ARRAY_SIZE(stored); k++) {
		const double *v = c->fig[stored[k]];
		if (!v)
			continue;
		strbuf_addstr(out, "sample\t");
		add_escaped(out, c->interval);
		strbuf_addch(out, '\t');
		add_escaped(out, c->size);
		strbuf_addf(out, "\t%d\t%d\t%s", c->ranks, c->threads, analysis_figure_name(stored[k]));
		for (size_t i = 0; i < c->n; i++) {
			if (isfinite(v[i]))
				strbuf_addf(out, "\t%.9g", v[i]);
			else
				strbuf_addstr(out, "\t-");
		}
		strbuf_addch(out, '\n');
	}
}

static int cell_ptr_cmp(const void *a, const void *b)
{
	return baseline_cell_cmp(*(const struct baseline_cell *const *)a, *(const struct baseline_cell *const *)b);
}

/* Sorted whatever the order in memory: the file is diffed, so equal contents must give equal bytes. */
void baseline_format(const struct baseline *b, struct strbuf *out)
{
	const struct baseline_cell **order;

	strbuf_addf(out, "scalegate-baseline\t%d\nbenchmark\t", BASELINE_VERSION);
	add_escaped(out, b->benchmark);
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < b->nr_fingerprint; i++) {
		strbuf_addstr(out, "fingerprint\t");
		add_escaped(out, b->fingerprint[2 * i]);
		strbuf_addch(out, '\t');
		add_escaped(out, b->fingerprint[2 * i + 1]);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "columns\tinterval\tsize\tranks\tthreads\tmetric\tsamples in repeat order (- = not captured)\n");
	order = xmalloc((b->nr_cells + 1) * sizeof(*order));
	for (size_t i = 0; i < b->nr_cells; i++)
		order[i] = &b->cells[i];
	qsort(order, b->nr_cells, sizeof(*order), cell_ptr_cmp);
	for (size_t i = 0; i < b->nr_cells; i++)
		format_cell(out, order[i]);
	free(order);
}

int baseline_write(const struct baseline *b, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int ret = 0;

	if (slash && slash != dir) {
		*slash = '\0';
		ret = mkdir_p(dir);
	}
	if (!ret) {
		baseline_format(b, &sb);
		ret = write_file_atomic(path, sb.buf, sb.len);
	}
	strbuf_release(&sb);
	free(dir);
	return ret;
}

/* ---- reading ---- */

struct reader {
	const char *path;
	int line;
	struct baseline *b;
};
static enum analysis_figure figure_by_name(const char *name)
{
	for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
		if (!strcmp(analysis_figure_name(f), name))
			return (enum analysis_figure)f;
	return ANALYSIS_NR_FIGURES;
}

static int parse_int(struct reader *r, const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 1 || v > 1000000)
		return error("%s:%d: '%s' is not a rank or thread count", r->path, r->line, s);
	*out = (int)v;
	return 0;
}

static struct baseline_cell *cell_get(struct baseline *b, char *interval, char *size, int ranks, int threads)
{
	struct baseline_cell *c;

	for (size_t i = b->nr_cells; i-- > 0;) {
		c = &b->cells[i];
		if (c->ranks == ranks && c->threads == threads && !strcmp(c->interval, interval) &&
		    !strcmp(c->size, size)) {
			free(interval);
			free(size);
			return c;
		}
	}
	ALLOC_GROW(b->cells, b->nr_cells + 1, b->alloc_cells);
	c = memset(&b->cells[b->nr_cells++], 0, sizeof(*c));
	c->interval = interval;
	c->size = size;
	c->ranks = ranks;
	c->threads = threads;
	return c;
}

static int parse_values(struct reader *r, char **f, int nf, double *out)
{
	for (int i = 0; i < nf; i++) {
		char *end;
		if (!strcmp(f[i], "-")) {
			out[i] = NAN;
			continue;
		}
		errno = 0;
		out[i] = strtod(f[i], &end);
		if (!*f[i] || *end || errno || !isfinite(out[i]))
			return error("%s:%d: '%s' is not a number", r->path, r->line, f[i]);
	}
	return 0;
}

static int read_sample(struct reader *r, char **f, int nf)
{
	struct baseline_cell *c;
	enum analysis_figure fig;
	int ranks, threads;
	double *v;

	if (nf < 7)
		return error("%s:%d: a 'sample' line needs interval, size, ranks, threads, metric and samples",
			     r->path, r->line);
	if (parse_int(r, f[3], &ranks) || parse_int(r, f[4], &threads))
		return -1;
	fig = figure_by_name(f[5]);
	if (fig == ANALYSIS_NR_FIGURES)
		return 0; /* a metric of a later version: kept out, not an error */
	c = cell_get(r->b, tsv_unescape(f[1]), tsv_unescape(f[2]), ranks, threads);
	if (c->fig[fig])
		return error("%s:%d: second '%s' line for %s %dx%d", r->path, r->line, f[5], c->interval,
			     ranks, threads);
	if (c->n && c->n != (size_t)(nf - 6))
		return error("%s:%d: %d sample%s, but the lines before have %zu", r->path, r->line, nf - 6,
			     nf == 7 ? "" : "s", c->n);
	c->n = (size_t)(nf - 6);
	v = c->fig[fig] = xmalloc(c->n * sizeof(double));
	return parse_values(r, f + 6, nf - 6, v);
}

static int read_fingerprint(struct reader *r, char **f, int nf)
{
	struct baseline *b = r->b;

	if (nf != 3)
		return error("%s:%d: a 'fingerprint' line needs a key and a value", r->path, r->line);
	b->fingerprint = xrealloc(b->fingerprint, 2 * (b->nr_fingerprint + 1) * sizeof(char *));
	b->fingerprint[2 * b->nr_fingerprint] = tsv_unescape(f[1]);
	b->fingerprint[2 * b->nr_fingerprint + 1] = tsv_unescape(f[2]);
	b->nr_fingerprint++;
	return 0;
}

static int read_line(struct reader *r, char *line)
{
	char *f[4096];
	int nf;

	if (r->line == 1) {
		if (strncmp(line, "scalegate-baseline\t", 19))
			return error("%s:1: not a scalegate baseline", r->path);
		if (strcmp(line + 19, "1"))
			return error("%s:1: baseline version %s; this scalegate reads version %d", r->path,
				     line + 19, BASELINE_VERSION);
		return 0;
	}
	if (!*line || *line == '#')
		return 0;
	nf = tsv_split(line, f, (int)ARRAY_SIZE(f));
	if (!strcmp(f[0], "sample"))
		return read_sample(r, f, nf);
	if (!strcmp(f[0], "fingerprint"))
		return read_fingerprint(r, f, nf);
	if (!strcmp(f[0], "benchmark") && nf == 2) {
		free(r->b->benchmark);
		r->b->benchmark = tsv_unescape(f[1]);
	}
	return 0; /* 'columns' and record types of later versions */
}

static int cell_qsort_cmp(const void *a, const void *b)
{
	return baseline_cell_cmp(a, b);
}

int baseline_read(struct baseline *b, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct reader r = { path, 0, b };
	struct stat st;
	char *line, *next;
	int ret = 0;

	baseline_init(b);
	if (stat(path, &st) && errno == ENOENT)
		return 1;
	if (strbuf_read_file(&sb, path))
		return -1;
	for (line = sb.buf; !ret && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r.line++;
		ret = read_line(&r, line);
	}
	if (!ret && !r.line)
		ret = error("%s: empty baseline", path);
	if (!ret && !b->benchmark)
		ret = error("%s: no 'benchmark' line", path);
	strbuf_release(&sb);
	if (ret)
		baseline_release(b);
	else if (b->nr_cells)
		qsort(b->cells, b->nr_cells, sizeof(*b->cells), cell_qsort_cmp);
	return ret;
}
