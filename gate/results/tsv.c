/* The gate's own tab-separated files (manifest, fingerprint, baselines): splitting lines, finding
 * columns. */
#include "results/tsv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

#define TSV_MAX_FIELDS 64

int tsv_split(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

int tsv_columns(const char *path, const char *header, const char *const *names, int nr, int *col,
		int required)
{
	char *copy = xstrdup(header), *f[TSV_MAX_FIELDS];
	int n = tsv_split(copy, f, TSV_MAX_FIELDS), ret = 0;

	for (int c = 0; c < nr; c++) {
		col[c] = -1;
		for (int i = 0; i < n && col[c] < 0; i++)
			if (!strcmp(f[i], names[c]))
				col[c] = i;
		if (col[c] < 0 && required && !ret)
			ret = gate_error("%s:1: no '%s' column", path, names[c]);
	}
	free(copy);
	return ret;
}

void tsv_add_escaped(struct strbuf *sb, const char *s)
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

char *tsv_unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			*o++ = *s;
			continue;
		}
		s++;
		*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
	}
	*o = '\0';
	return out;
}

int tsv_parse_long(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !*s || *end || errno || *out < min || *out > max ? -1 : 0;
}

int tsv_read_record(const char *path, const char *header, const char *what, tsv_row_fn row,
		    void *ctx, int *present)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;
	int ret = 0, lineno = 0;

	*present = !access(path, F_OK);
	if (!*present)
		return 0;
	if (strbuf_read_file(&sb, path))
		ret = -1;
	for (line = sb.buf; !ret && line && *line; line = next) {
		char *f[8];
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (++lineno == 1) {
			if (strcmp(line, header))
				ret = gate_error("%s:1: not %s %s (expected the header '%s')", path,
						 strchr("aeiou", what[0]) ? "an" : "a", what,
						 header);
			continue;
		}
		ret = row(ctx, path, lineno, f, tsv_split(line, f, 8));
	}
	if (!ret && !lineno)
		ret = gate_error("%s: empty %s", path, what);
	strbuf_release(&sb);
	return ret;
}
