/* Helpers every gate module shares: error reporting, allocation, growable strings. */
#ifndef SG_UTIL_H
#define SG_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Grow array 'x' (with 'alloc' slots) so that it holds at least 'nr' items. */
#define ALLOC_GROW(x, nr, alloc) \
	do { \
		if ((nr) > (alloc)) { \
			(alloc) = (alloc) < 8 ? 8 : (alloc); \
			while ((alloc) < (nr)) \
				(alloc) *= 2; \
			(x) = xrealloc((x), (alloc) * sizeof(*(x))); \
		} \
	} while (0)

/* Print "scalegate: error: ..." on stderr; returns -1 so callers can 'return gate_error(...)'. */
int gate_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "scalegate: warning: ..." on stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether to colour what goes to 'f': a terminal, NO_COLOR unset or empty, TERM not "dumb". */
int colour_wanted(FILE *f);

/* "fatal: out of memory <what>", exit 3: the one exit outside gate/cmd (no caller does better). */
void die_out_of_memory(const char *what) __attribute__((noreturn));
/* Allocation that exits 3 on exhaustion (an input too large): no caller can do better. */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a formatted string; caller frees. */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct strbuf {
	char *buf; /* always NUL-terminated */
	size_t len;
	size_t alloc;
};

/* Rewrites every message before it is printed (secret.c installs its masking with the first
 * secret); NULL: none. */
void set_message_filter(size_t (*filter)(struct strbuf *));

#define STRBUF_INIT { NULL, 0, 0 }

/* Every message is also added to 'sink' ("; " between them); NULL: none. Returns the last sink. */
struct strbuf *set_message_sink(struct strbuf *sink);

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Returns the buffer and leaves 'sb' empty; caller frees. */
char *strbuf_detach(struct strbuf *sb);

/*
 * The most a data file (profile, baseline, results table) may hold, and a YAML file (configuration,
 * rules): far above any real one, low enough that no input can exhaust memory (docs/running.md).
 */
#define SG_READ_LIMIT ((size_t)64 << 20)
#define SG_YAML_READ_LIMIT ((size_t)16 << 20)

/*
 * Reads a whole regular file into 'sb', never blocking (a FIFO, a device or a directory is an
 * error, so is a file over SG_READ_LIMIT bytes); returns 0, or gate_error() naming the file.
 */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* The same with another bound on the size, in bytes. */
int strbuf_read_file_limit(struct strbuf *sb, const char *path, size_t limit);
/* FNV-1a, 64 bits: the checksum of the end records of profiles and baselines. */
unsigned long long fnv1a64(const char *s, size_t n);
/* Writes 'len' bytes to 'path' through a temporary file and rename(2), so that
 * readers never see a half-written file; returns 0 or gate_error(). */
int write_file_atomic(const char *path, const char *data, size_t len);

/* Creates 'path' and its missing parents; returns 0 or gate_error(). */
int mkdir_p(const char *path);
/* Removes the file 'path'; one that is not there is no error. 0 or gate_error(). */
int remove_file(const char *path);
/*
 * The names of the entries of directory 'dir' that 'keep' accepts ('.' and '..' never), read
 * whole before the caller acts on any (renaming while reading could show one twice), into *names
 * (caller frees each and the array). Returns how many, or -1 with opendir()'s errno, no message.
 */
long dir_names(const char *dir, int (*keep)(const char *name), char ***names);

#endif
