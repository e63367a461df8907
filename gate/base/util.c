/* Helpers every gate module shares: error reporting, allocation, growable strings. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "base/util.h"
#include "base/exitcode.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t (*message_filter)(struct strbuf *);
static struct strbuf *message_sink;

struct strbuf *set_message_sink(struct strbuf *sink)
{
	struct strbuf *was = message_sink;

	message_sink = sink;
	return was;
}

void set_message_filter(size_t (*filter)(struct strbuf *))
{
	message_filter = filter;
}

static void report(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	fflush(stdout);
	strbuf_vaddf(&sb, fmt, ap);
	if (message_filter)
		/* secret.c masks secrets: a message may quote a benchmark's output */
		message_filter(&sb);
	fprintf(stderr, "scalegate: %s: %s\n", prefix, sb.buf ? sb.buf : "");
	if (message_sink && sb.len)
		strbuf_addf(message_sink, "%s%s", message_sink->len ? "; " : "", sb.buf);
	strbuf_release(&sb);
}

int gate_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning", fmt, ap);
	va_end(ap);
}

void die_out_of_memory(const char *what)
{
	/* An input too large for the machine, never the gate's bug: exit 3 ("not everything
	 * could be judged"), not a core dump. No report can be written without memory. */
	fprintf(stderr, "scalegate: fatal: out of memory%s%s: exit 3 (error: not everything "
		"could be judged)\n", what ? " " : "", what ? what : "");
	exit(SG_EXIT_RUN_FAILED);
}

static void *checked(void *p)
{
	if (!p)
		die_out_of_memory(NULL);
	return p;
}

void *xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1));
}

void *xcalloc(size_t nmemb, size_t size)
{
	return checked(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xrealloc(void *ptr, size_t size)
{
	return checked(realloc(ptr, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return checked(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return checked(strndup(s, n));
}

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void strbuf_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	strbuf_add(sb, &ch, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *buf = sb->buf ? sb->buf : xstrdup("");

	strbuf_init(sb);
	return buf;
}

/* Opens 'path' for reading without ever blocking (a FIFO, a device): regular files only. */
static int open_regular(const char *path, size_t limit, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return gate_error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, st)) {
		gate_error("cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st->st_mode)) {
		gate_error("'%s' is not a regular file (%s): the gate reads only regular files",
			   path,
			   S_ISFIFO(st->st_mode)   ? "a FIFO"
			   : S_ISCHR(st->st_mode)  ? "a character device"
			   : S_ISDIR(st->st_mode)  ? "a directory"
			   : S_ISSOCK(st->st_mode) ? "a socket"
						   : "a device");
		goto fail;
	}
	if ((unsigned long long)st->st_size > limit) {
		gate_error("'%s' is %llu bytes, more than the %zu MiB this file may hold "
			   "(docs/running.md, \"Limits\")",
			   path, (unsigned long long)st->st_size, limit >> 20);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

int strbuf_read_file_limit(struct strbuf *sb, const char *path, size_t limit)
{
	size_t was = sb->len, got = 0;
	struct stat st;
	int fd = open_regular(path, limit, &st), ret = 0;

	if (fd < 0)
		return -1;
	/* Exactly: a doubling would waste half. */
	if (sb->alloc < sb->len + (size_t)st.st_size + 2) {
		sb->alloc = sb->len + (size_t)st.st_size + 2;
		sb->buf = xrealloc(sb->buf, sb->alloc);
	}
	for (;;) {
		ssize_t n;
		if (sb->alloc - sb->len < 2)
			ALLOC_GROW(sb->buf, sb->len + 65536 + 1, sb->alloc); /* grew since */
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = gate_error("cannot read '%s': %s", path, strerror(errno));
			break;
		}
		if (!n)
			break;
		sb->len += (size_t)n;
		got += (size_t)n;
		if (got > limit) { /* it grew while read */
			ret = gate_error("'%s' is more than the %zu MiB this file may hold "
					 "(docs/running.md, \"Limits\")",
					 path, limit >> 20);
			break;
		}
	}
	close(fd);
	if (ret && !was)
		strbuf_release(sb); /* nothing of the caller's: nothing to free on the error path */
	else if (ret)
		sb->len = was;
	if (sb->buf)
		sb->buf[sb->len] = '\0';
	else
		strbuf_add(sb, "", 0);
	return ret;
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	return strbuf_read_file_limit(sb, path, SG_READ_LIMIT);
}

unsigned long long fnv1a64(const char *s, size_t n)
{
	unsigned long long h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = xstrfmt("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ret = -1;
	size_t done = 0;

	if (fd < 0) {
		gate_error("cannot create '%s': %s", tmp, strerror(errno));
		goto out;
	}
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			gate_error("cannot write '%s': %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			goto out;
		}
		done += (size_t)w;
	}
	if (close(fd) || rename(tmp, path)) {
		gate_error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	return ret;
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int ret = 0;

	for (char *s = p + 1; ; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			ret = gate_error("cannot create directory '%s': %s", p, strerror(errno));
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

int remove_file(const char *path)
{
	if (unlink(path) && errno != ENOENT)
		return gate_error("cannot remove '%s': %s", path, strerror(errno));
	return 0;
}

int colour_wanted(FILE *f)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	return isatty(fileno(f)) && !(no && *no) && !(term && !strcmp(term, "dumb"));
}

long dir_names(const char *dir, int (*keep)(const char *name), char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, alloc = 0;

	*names = NULL;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (keep && !keep(e->d_name))
			continue;
		ALLOC_GROW(*names, n + 1, alloc);
		(*names)[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	return (long)n;
}
