/* The baseline file, <benchmark>.sgbase: versioned text, sorted, one line per interval x
 * configuration x metric. */
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/baseline.h"
#include "results/tsv.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define BASELINE_VERSION_TEXT XSTR(BASELINE_VERSION)

static const enum analysis_figure stored[] = {
#define X(id) ANALYSIS_##id,
	BASELINE_FIGURES(X)
#undef X
};

char *baseline_path(const char *dir, const char *benchmark)
{
	return xstrfmt("%s/%s%s", dir, benchmark, BASELINE_EXT);
}

static void add_cell_key(struct strbuf *out, const char *record, const struct baseline_cell *c,
			 const char *metric)
{
	strbuf_addstr(out, record);
	strbuf_addch(out, '\t');
	tsv_add_escaped(out, c->interval);
	strbuf_addch(out, '\t');
	tsv_add_escaped(out, c->size);
	strbuf_addf(out, "\t%d\t%d\t%s", c->ranks, c->threads, metric);
}

static void add_values(struct strbuf *out, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (isfinite(v[i]))
			strbuf_addf(out, "\t%.9g", v[i]);
		else
			strbuf_addstr(out, "\t-");
	}
	strbuf_addch(out, '\n');
}

/* The medians of the earlier sittings (baseline-history.c), after the cell's samples. */
static void format_earlier(struct strbuf *out, const struct baseline_cell *c, size_t nr_sittings)
{
	if (!nr_sittings || !c->earlier)
		return;
	add_cell_key(out, "earlier", c, analysis_figure_name(ANALYSIS_EXECUTION_TIME));
	add_values(out, c->earlier, nr_sittings);
}

static void format_cell(struct strbuf *out, const struct baseline_cell *c, size_t nr_sittings)
{
	for (size_t k = 0; k < ARRAY_SIZE(stored); k++) {
		const double *v = c->fig[stored[k]];
		if (!v)
			continue;
		add_cell_key(out, "sample", c, analysis_figure_name(stored[k]));
		add_values(out, v, c->n);
	}
	format_earlier(out, c, nr_sittings);
}

static int cell_ptr_cmp(const void *a, const void *b)
{
	return baseline_cell_cmp(*(const struct baseline_cell *const *)a,
				 *(const struct baseline_cell *const *)b);
}

/* Sorted whatever the order in memory: the file is diffed, so equal contents must give equal bytes.
 */
void baseline_format(const struct baseline *b, struct strbuf *out)
{
	const struct baseline_cell **order;
	size_t start = out->len;

	strbuf_addf(out, "scalegate-baseline\t%d\nbenchmark\t", BASELINE_VERSION);
	tsv_add_escaped(out, b->benchmark);
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < b->nr_fingerprint; i++) {
		strbuf_addstr(out, "fingerprint\t");
		tsv_add_escaped(out, b->fingerprint[2 * i]);
		strbuf_addch(out, '\t');
		tsv_add_escaped(out, b->fingerprint[2 * i + 1]);
		strbuf_addch(out, '\n');
	}
	for (size_t i = 0; i < b->nr_sittings; i++) {
		strbuf_addstr(out, "sitting\t");
		tsv_add_escaped(out, b->sittings[i]);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "columns\tinterval\tsize\tranks\tthreads\tmetric\tsamples in repeat "
			   "order (- = not captured)\n");
	order = xmalloc((b->nr_cells + 1) * sizeof(*order));
	for (size_t i = 0; i < b->nr_cells; i++)
		order[i] = &b->cells[i];
	qsort(order, b->nr_cells, sizeof(*order), cell_ptr_cmp);
	for (size_t i = 0; i < b->nr_cells; i++)
		format_cell(out, order[i], b->nr_sittings);
	free(order);
	/* Last: a file cut short or changed by hand is told from a whole one. */
	strbuf_addf(out, "end\t%016llx\n", fnv1a64(out->buf + start, out->len - start));
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

size_t baseline_clean_temporary(const char *dir)
{
	static const char mark[] = BASELINE_EXT ".tmp.";
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		char *tmp = strstr(e->d_name, mark), *end, *path;
		long pid;
		if (!tmp || tmp == e->d_name)
			continue;
		pid = strtol(tmp + sizeof(mark) - 1, &end, 10);
		/* A live writer (another gate) keeps its file; the name must be ours exactly. */
		if (*end || pid <= 0 || end == tmp + sizeof(mark) - 1 || !kill((pid_t)pid, 0) ||
		    errno != ESRCH)
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		if (!unlink(path)) {
			warning("removed '%s', left by a 'baseline update' that was killed", path);
			n++;
		}
		free(path);
	}
	if (d)
		closedir(d);
	return n;
}

int baseline_lock(const char *dir)
{
	int fd;

	if (mkdir_p(dir))
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return gate_error("cannot open '%s': %s", dir, strerror(errno));
	while (flock(fd, LOCK_EX) && errno == EINTR)
		;
	return fd;
}

void baseline_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* releases the lock */
}

/* ---- reading ---- */

struct reader {
	const char *path;
	int line;
	struct baseline *b;
	/* open addressing: 1 + the cell's slot in b->cells, 0 free */
	size_t *index;
	size_t index_size;              /* a power of two, at least twice b->nr_cells */
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
		return gate_error("%s:%d: '%s' is not a rank or thread count", r->path, r->line, s);
	*out = (int)v;
	return 0;
}

static size_t cell_hash(const char *interval, const char *size, int ranks, int threads)
{
	unsigned long long h = fnv1a64(interval, strlen(interval));

	h = (h ^ fnv1a64(size, strlen(size))) * 1099511628211ull;
	h = (h ^ (unsigned)ranks) * 1099511628211ull;
	h = (h ^ (unsigned)threads) * 1099511628211ull;
	return (size_t)h;
}

/* The slot of the index that holds this cell, or the free slot where it goes. */
static size_t *index_slot(struct reader *r, const char *interval, const char *size, int ranks,
			  int threads)
{
	size_t mask = r->index_size - 1, i = cell_hash(interval, size, ranks, threads) & mask;

	for (;; i = (i + 1) & mask) {
		const struct baseline_cell *c;
		if (!r->index[i])
			return &r->index[i];
		c = &r->b->cells[r->index[i] - 1];
		if (c->ranks == ranks && c->threads == threads && !strcmp(c->interval, interval) &&
		    !strcmp(c->size, size))
			return &r->index[i];
	}
}

/* Twice the size, every cell placed again: the index stays at most half full. */
static void index_grow(struct reader *r)
{
	size_t nr = r->b->nr_cells;

	free(r->index);
	r->index_size = r->index_size ? 2 * r->index_size : 1024;
	r->index = xcalloc(r->index_size, sizeof(*r->index));
	for (size_t k = 0; k < nr; k++) {
		const struct baseline_cell *c = &r->b->cells[k];
		*index_slot(r, c->interval, c->size, c->ranks, c->threads) = k + 1;
	}
}

/* The cell of this interval x configuration, made when new: hashed, as the samples have many. */
static struct baseline_cell *cell_get(struct reader *r, char *interval, char *size, int ranks,
				      int threads)
{
	struct baseline *b = r->b;
	struct baseline_cell *c;
	size_t *slot;

	if (2 * (b->nr_cells + 1) > r->index_size)
		index_grow(r);
	slot = index_slot(r, interval, size, ranks, threads);
	if (*slot) {
		free(interval);
		free(size);
		return &b->cells[*slot - 1];
	}
	ALLOC_GROW(b->cells, b->nr_cells + 1, b->alloc_cells);
	c = memset(&b->cells[b->nr_cells++], 0, sizeof(*c));
	c->interval = interval;
	c->size = size;
	c->ranks = ranks;
	c->threads = threads;
	*slot = b->nr_cells;
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
			return gate_error("%s:%d: '%s' is not a number", r->path, r->line, f[i]);
		/* What a profile rejects: every stored figure is a time, a share or a ratio. */
		if (out[i] < 0 || out[i] > BASELINE_MAX_VALUE)
			return gate_error(
				"%s:%d: '%s' is out of range: a baseline value must be at "
				"least 0 and at most %g",
				r->path, r->line, f[i], BASELINE_MAX_VALUE);
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
		return gate_error(
			"%s:%d: a 'sample' line needs interval, size, ranks, threads, metric "
			"and samples",
			r->path, r->line);
	if (parse_int(r, f[3], &ranks) || parse_int(r, f[4], &threads))
		return -1;
	fig = figure_by_name(f[5]);
	if (fig == ANALYSIS_NR_FIGURES)
		return 0; /* a metric of a later version: kept out, not an error */
	c = cell_get(r, tsv_unescape(f[1]), tsv_unescape(f[2]), ranks, threads);
	if (c->fig[fig])
		return gate_error("%s:%d: second '%s' line for %s %dx%d", r->path, r->line, f[5],
				  c->interval, ranks, threads);
	if (c->n && c->n != (size_t)(nf - 6))
		return gate_error("%s:%d: %d sample%s, but the lines before have %zu", r->path,
				  r->line, nf - 6, nf == 7 ? "" : "s", c->n);
	c->n = (size_t)(nf - 6);
	v = c->fig[fig] = xmalloc(c->n * sizeof(double));
	return parse_values(r, f + 6, nf - 6, v);
}

static int read_earlier(struct reader *r, char **f, int nf)
{
	struct baseline *b = r->b;
	struct baseline_cell *c;
	int ranks, threads;

	if (nf < 7 || (size_t)(nf - 6) != b->nr_sittings)
		return gate_error("%s:%d: an 'earlier' line needs interval, size, ranks, threads, "
				  "metric and a median "
				  "for each of the %zu 'sitting' lines before it",
				  r->path, r->line, b->nr_sittings);
	if (parse_int(r, f[3], &ranks) || parse_int(r, f[4], &threads))
		return -1;
	if (strcmp(f[5], analysis_figure_name(ANALYSIS_EXECUTION_TIME)))
		return 0; /* a metric of a later version */
	c = cell_get(r, tsv_unescape(f[1]), tsv_unescape(f[2]), ranks, threads);
	if (c->earlier)
		return gate_error("%s:%d: second 'earlier' line for %s %dx%d", r->path, r->line,
				  c->interval, ranks, threads);
	c->earlier = xmalloc(b->nr_sittings * sizeof(double));
	return parse_values(r, f + 6, nf - 6, c->earlier);
}

static int read_sitting(struct reader *r, char **f, int nf)
{
	struct baseline *b = r->b;

	if (nf != 2)
		return gate_error("%s:%d: a 'sitting' line needs its date", r->path, r->line);
	if (b->nr_cells)
		return gate_error("%s:%d: 'sitting' lines come before the samples", r->path,
				  r->line);
	b->sittings = xrealloc(b->sittings, (b->nr_sittings + 1) * sizeof(*b->sittings));
	b->sittings[b->nr_sittings++] = tsv_unescape(f[1]);
	return 0;
}

static int read_fingerprint(struct reader *r, char **f, int nf)
{
	struct baseline *b = r->b;

	if (nf != 3)
		return gate_error("%s:%d: a 'fingerprint' line needs a key and a value", r->path,
				  r->line);
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
			return gate_error("%s:1: not a scalegate baseline", r->path);
		if (!strcmp(line + 19, "1"))
			return gate_error(
				"%s:1: baseline version 1 has no end record; record it again "
				"with 'scalegate "
				"baseline update' (this scalegate reads version %d)",
				r->path, BASELINE_VERSION);
		if (strcmp(line + 19, BASELINE_VERSION_TEXT))
			return gate_error(
				"%s:1: baseline version '%.20s'; this scalegate reads version %d",
				r->path, line + 19, BASELINE_VERSION);
		return 0;
	}
	if (!*line || *line == '#')
		return 0;
	nf = tsv_split(line, f, (int)ARRAY_SIZE(f));
	if (!strcmp(f[0], "sample"))
		return read_sample(r, f, nf);
	if (!strcmp(f[0], "fingerprint"))
		return read_fingerprint(r, f, nf);
	if (!strcmp(f[0], "sitting"))
		return read_sitting(r, f, nf);
	if (!strcmp(f[0], "earlier"))
		return read_earlier(r, f, nf);
	if (!strcmp(f[0], "benchmark") && nf == 2) {
		if (r->b->benchmark)
			return gate_error(
				"%s:%d: second 'benchmark' line: a baseline holds one benchmark's "
				"samples ('%s' before)",
				r->path, r->line, r->b->benchmark);
		r->b->benchmark = tsv_unescape(f[1]);
	}
	return 0; /* 'columns' and record types of later versions */
}

static int cell_qsort_cmp(const void *a, const void *b)
{
	return baseline_cell_cmp(a, b);
}

/* "\r\n" as "\n": a raw carriage return is never part of a value (it is written "\r"). */
static void drop_crlf(struct strbuf *sb)
{
	size_t o = 0;

	if (!sb->len)
		return;
	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] != '\r' || i + 1 >= sb->len || sb->buf[i + 1] != '\n')
			sb->buf[o++] = sb->buf[i];
	sb->len = o;
	sb->buf[o] = '\0';
}

/* The last line must be "end <checksum of everything before it>"; cuts it off. */
static int check_end(const char *path, struct strbuf *sb)
{
	char *end, *stop;
	unsigned long long want;

	if (memchr(sb->buf, '\0', sb->len))
		return gate_error("%s: not a scalegate baseline (it holds a NUL byte)", path);
	if (sb->len < 2 || sb->buf[sb->len - 1] != '\n')
		return gate_error(
			"%s: truncated: the last line is cut or the end record is missing; "
			"record the "
			"baseline again with 'scalegate baseline update'",
			path);
	sb->buf[sb->len - 1] = '\0';
	end = strrchr(sb->buf, '\n');
	end = end ? end + 1 : sb->buf;
	if (strncmp(end, "end\t", 4)) {
		sb->buf[sb->len - 1] = '\n';
		return gate_error("%s: truncated: no end record after the last line; record the "
				  "baseline again "
				  "with 'scalegate baseline update'",
				  path);
	}
	want = strtoull(end + 4, &stop, 16);
	if (stop == end + 4 || *stop || want != fnv1a64(sb->buf, (size_t)(end - sb->buf)))
		return gate_error("%s: checksum mismatch: the file was changed or damaged after "
				  "'scalegate baseline "
				  "update' wrote it",
				  path);
	*end = '\0';
	sb->len = (size_t)(end - sb->buf);
	return 0;
}

int baseline_read(struct baseline *b, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct reader r = { path, 0, b, NULL, 0 };
	struct stat st;
	char *line, *next;
	int ret = 0;

	baseline_init(b);
	if (stat(path, &st) && errno == ENOENT)
		return 1;
	if (strbuf_read_file(&sb, path))
		return -1;
	drop_crlf(&sb);
	if (!sb.len) {
		strbuf_release(&sb);
		return gate_error("%s: empty baseline", path);
	}
	/* The header first: "not a baseline" or "version 1" says more than "no end record". */
	next = memchr(sb.buf, '\n', sb.len);
	line = xstrndup(sb.buf, next ? (size_t)(next - sb.buf) : sb.len);
	r.line = 1;
	ret = read_line(&r, line);
	free(line);
	r.line = 0;
	if (!ret)
		ret = check_end(path, &sb);
	for (line = sb.buf; !ret && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r.line++;
		ret = read_line(&r, line);
	}
	if (!ret && !r.line)
		ret = gate_error("%s: empty baseline", path);
	if (!ret && !b->benchmark)
		ret = gate_error("%s: no 'benchmark' line", path);
	strbuf_release(&sb);
	free(r.index);
	if (ret)
		baseline_release(b);
	else if (b->nr_cells)
		qsort(b->cells, b->nr_cells, sizeof(*b->cells), cell_qsort_cmp);
	return ret;
}
