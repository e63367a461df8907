/* The gate's own tab-separated files (manifest, fingerprint, baselines): splitting lines, finding columns. */
#ifndef SG_TSV_H
#define SG_TSV_H

/* Splits 'line' at TABs in place; returns the number of fields (at most 'max'). */
int tsv_split(char *line, char **f, int max);

/*
 * Finds each of the 'nr' column names in a header line (not modified): col[c]
 * is its field index, or -1. Returns 0, or with 'required' set an error()
 * "PATH:1: no 'NAME' column" for the first one missing.
 */
int tsv_columns(const char *path, const char *header, const char *const *names, int nr, int *col,
		int required);

/* A field as written with \\, \t, \n and \r escaped (the profile and the baselines), unescaped; caller frees. */
char *tsv_unescape(const char *s);

#endif
