/* The gate's own tab-separated files (manifest, fingerprint, baselines): splitting lines, finding columns. */
#include "results/tsv.h"

#include <stdlib.h>
#include <string.h>

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
			ret = error("%s:1: no '%s' column", path, names[c]);
	}
	free(copy);
	return ret;
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
