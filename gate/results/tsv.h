/* The gate's own tab-separated files (manifest, fingerprint, baselines): splitting lines, finding
 * columns. */
#ifndef SG_TSV_H
#define SG_TSV_H

/* Splits 'line' at TABs in place; returns the number of fields (at most 'max'). */
int tsv_split(char *line, char **f, int max);

/*
 * Finds each of the 'nr' column names in a header line (not modified): col[c]
 * is its field index, or -1. Returns 0, or with 'required' set an gate_error()
 * "PATH:1: no 'NAME' column" for the first one missing.
 */
int tsv_columns(const char *path, const char *header, const char *const *names, int nr, int *col,
		int required);

/* A whole decimal number in [min, max]: 0, or -1 for anything else (empty, trailing text, out of
 * range). */
int tsv_parse_long(const char *s, long min, long max, long *out);

/*
 * Reads a small record the gate writes: 'header' on its first line, then one
 * row per line, each split at TABs (at most 8 fields) and given to 'row',
 * which returns 0 or -1 after gate_error(). *present says whether the file exists;
 * a missing file is no error. -1 (after gate_error(), naming PATH and 'what', e.g. "completeness
 * record")
 * for a file that cannot be read, another header, no line at all, or a bad row.
 */
typedef int (*tsv_row_fn)(void *ctx, const char *path, int lineno, char **f, int n);
int tsv_read_record(const char *path, const char *header, const char *what, tsv_row_fn row,
		    void *ctx, int *present);

struct strbuf;

/* Appends 's' with \\, TAB, newline and CR escaped: interval paths and fingerprint values may hold
 * any byte, and a field must not break its line (tsv_unescape reads it back). */
void tsv_add_escaped(struct strbuf *sb, const char *s);

/* A field as written with \\, \t, \n and \r escaped (the profile and the baselines), unescaped;
 * caller frees. */
char *tsv_unescape(const char *s);

#endif
