/* manifest.tsv: one column list for the runner that writes it and the analyzer and checker that
 * read it. */
#include "results/manifest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/tsv.h"

static const char *const names[MANIFEST_NR_COLUMNS] = {
#define X(id, name, required) name,
	MANIFEST_COLUMNS(X)
#undef X
};
static const int required[MANIFEST_NR_COLUMNS] = {
#define X(id, name, req) req,
	MANIFEST_COLUMNS(X)
#undef X
};

void manifest_init(struct manifest *m)
{
	memset(m, 0, sizeof(*m));
}

void manifest_release(struct manifest *m)
{
	for (size_t i = 0; i < m->nr_owned; i++)
		free(m->owned[i]);
	free(m->owned);
	free(m->buf);
	free(m->rows);
	manifest_init(m);
}

static const char *field(char **f, int n, int col, const char *absent)
{
	return col >= 0 && col < n ? f[col] : absent;
}

/* A non-negative number, NAN for '-', absent or anything else. */
static double number(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end == s || *end || !(v >= 0) ? NAN : v;
}

static void parse_row(struct manifest_row *row, char **f, int n, const int *col)
{
	const char *exit_code = field(f, n, col[MANIFEST_EXIT], "-");

	row->benchmark = f[col[MANIFEST_BENCHMARK]];
	row->size = f[col[MANIFEST_SIZE]];
	row->ranks = atoi(f[col[MANIFEST_RANKS]]);
	row->threads = atoi(f[col[MANIFEST_THREADS]]);
	row->repeat = atoi(f[col[MANIFEST_REPEAT]]);
	row->status = f[col[MANIFEST_STATUS]];
	row->exit_code = strcmp(exit_code, "-") ? atoi(exit_code) : -1;
	row->wall = number(field(f, n, col[MANIFEST_WALL], "-"));
	row->dir = f[col[MANIFEST_DIR]];
	row->reason = field(f, n, col[MANIFEST_REASON], "-");
	row->contention = number(field(f, n, col[MANIFEST_CONTENTION], "-"));
	row->reference = number(field(f, n, col[MANIFEST_REFERENCE], "-"));
}

static int missing_field(const int *col, int n)
{
	for (int c = 0; c < MANIFEST_NR_COLUMNS; c++)
		if (required[c] && col[c] >= n)
			return 1;
	return 0;
}

int manifest_read(struct manifest *m, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path)) {
		strbuf_release(&sb);
		return -1;
	}
	return manifest_parse(m, strbuf_detach(&sb), path);
}

/* A copy of 's' that lives as long as 'm'. */
static const char *own(struct manifest *m, const char *s)
{
	m->owned = xrealloc(m->owned, (m->nr_owned + 1) * sizeof(*m->owned));
	return m->owned[m->nr_owned++] = xstrdup(s ? s : "-");
}

void manifest_add_row(struct manifest *m, const struct manifest_row *row)
{
	struct manifest_row *r;

	ALLOC_GROW(m->rows, m->nr + 1, m->alloc);
	r = &m->rows[m->nr++];
	*r = *row;
	r->benchmark = own(m, row->benchmark);
	r->size = own(m, row->size);
	r->status = own(m, row->status);
	r->dir = own(m, row->dir);
	r->reason = own(m, row->reason);
}

int manifest_parse(struct manifest *m, char *buf, const char *path)
{
	char *line, *save = NULL;
	int col[MANIFEST_NR_COLUMNS], lineno = 1;

	m->buf = buf;
	if (!(line = strtok_r(m->buf, "\n", &save)))
		return gate_error("%s: empty manifest", path);
	if (tsv_columns(path, line, names, MANIFEST_NR_COLUMNS, col, 0))
		return -1;
	for (int c = 0; c < MANIFEST_NR_COLUMNS; c++)
		if (required[c] && col[c] < 0)
			return gate_error("%s:1: no '%s' column", path, names[c]);
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *f[64];
		int n = tsv_split(line, f, 64);
		lineno++;
		if (missing_field(col, n))
			return gate_error("%s:%d: too few fields", path, lineno);
		ALLOC_GROW(m->rows, m->nr + 1, m->alloc);
		parse_row(&m->rows[m->nr++], f, n, col);
	}
	return 0;
}

void manifest_write_header(FILE *f)
{
	for (int c = 0; c < MANIFEST_NR_COLUMNS; c++)
		fprintf(f, "%s%c", names[c], c + 1 < MANIFEST_NR_COLUMNS ? '\t' : '\n');
}

static void write_number(FILE *f, double v, const char *fmt, char end)
{
	if (isnan(v))
		fputc('-', f);
	else
		fprintf(f, fmt, v);
	fputc(end, f);
}

int manifest_write_row(FILE *f, const struct manifest_row *row)
{
	fprintf(f, "%s\t%s\t%d\t%d\t%d\t%d\t%s\t", row->benchmark, row->size, row->ranks,
		row->threads, row->ranks * row->threads, row->repeat, row->status);
	if (row->exit_code < 0)
		fputs("-\t", f);
	else
		fprintf(f, "%d\t", row->exit_code);
	write_number(f, row->wall, "%.6f", '\t');
	fprintf(f, "%s\t%s\t", row->dir, row->reason ? row->reason : "-");
	write_number(f, row->contention, "%.3f", '\t');
	write_number(f, row->reference, "%.6g", '\n');
	return fflush(f) || ferror(f) ? -1 : 0;
}

int manifest_size_cmp(const char *x, const char *y)
{
	char *ex, *ey;
	long long a = strtoll(x, &ex, 10), b = strtoll(y, &ey, 10);

	if (*x && !*ex && *y && !*ey)
		return (a > b) - (a < b);
	return strcmp(x, y);
}
