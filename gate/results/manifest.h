/* manifest.tsv: one line per run of the matrix, written by the runner and read by the analyzer and
 * the checker. */
#ifndef SG_MANIFEST_H
#define SG_MANIFEST_H

#include <stddef.h>
#include <stdio.h>

/* The columns, in the order the runner writes them; the first 'required' ones must be in every
 * manifest read. */
#define MANIFEST_COLUMNS(X) \
	X(BENCHMARK, "benchmark", 1) \
	X(SIZE, "size", 1) X(RANKS, "ranks", 1) X(THREADS, "threads", 1) X(P, "p", 0) \
		X(REPEAT, "repeat", 1) X(STATUS, "status", 1) X(EXIT, "exit", 0) \
			X(WALL, "wall_s", 0) X(DIR, "dir", 1) X(REASON, "reason", 0) \
				X(CONTENTION, "contention", 0) X(REFERENCE, "reference_s", 0)

enum manifest_column {
#define X(id, name, required) MANIFEST_##id,
	MANIFEST_COLUMNS(X)
#undef X
	MANIFEST_NR_COLUMNS
};

/* One run. The strings point into the manifest's buffer. */
struct manifest_row {
	const char *benchmark, *size; /* size "-" when the benchmark has none */
	int ranks, threads, repeat;
	const char *status;           /* "ok", "crash", "timeout", ... */
	int exit_code;                /* -1 when the program did not exit */
	double wall;                  /* seconds, NAN when absent */
	const char *dir, *reason;     /* reason "-" when there is none */
	double contention;            /* cores used by others, NAN when absent or '-' */
	double reference;             /* machine speed reference, seconds; NAN when absent or '-' */
};

struct manifest {
	char *buf;
	struct manifest_row *rows;
	size_t nr, alloc;
	char **owned;                 /* the strings of the rows added by manifest_add_row() */
	size_t nr_owned;
};

void manifest_init(struct manifest *m);
void manifest_release(struct manifest *m);
/* Reads 'path' (a manifest.tsv); 0, or gate_error() naming the file and line. */
int manifest_read(struct manifest *m, const char *path);
/* The same from the text 'buf' (NUL-terminated; 'm' takes it over), named 'path' in messages. */
int manifest_parse(struct manifest *m, char *buf, const char *path);
/* Appends a copy of 'row' (its strings copied). */
void manifest_add_row(struct manifest *m, const struct manifest_row *row);

/* The header line, with its newline. */
void manifest_write_header(FILE *f);
/* One run as a line of the manifest; 0, or -1 when the stream failed. */
int manifest_write_row(FILE *f, const struct manifest_row *row);

/* Sizes as the manifest writes them: numbers in numeric order, "-" (no size) before them. */
int manifest_size_cmp(const char *x, const char *y);

#endif
