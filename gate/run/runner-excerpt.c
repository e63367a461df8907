/* What a failed run or build printed, on one line of its reason: its first lines and its last. */
#include "run/runner-exec.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/util.h"

/* The first or the last 'max' bytes of a regular file into 'sb'; the file's size, or -1 quietly. */
static long long read_part(struct strbuf *sb, const char *path, size_t max, int last)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t want;
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	want = st.st_size > (off_t)max ? max : (size_t)st.st_size;
	strbuf_add(sb, "", 0);
	ALLOC_GROW(sb->buf, want + 1, sb->alloc);
	n = pread(fd, sb->buf, want, last ? st.st_size - (off_t)want : 0);
	close(fd);
	sb->len = n > 0 ? (size_t)n : 0;
	sb->buf[sb->len] = '\0';
	return (long long)st.st_size;
}

/* 'n' bytes of output on one line: '\n' as " | ", controls as spaces, what is not UTF-8 as
 * \xNN (shown, never copied raw). */
static void add_one_line(struct strbuf *line, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned cp;
		char c = s[i];
		size_t len = c ? utf8_decode(s + i, &cp) : 0;
		if (len > n - i)
			len = 0; /* a character cut at the end */
		if (c == '\n')
			strbuf_addstr(line, " | ");
		else if (len > 1 && cp >= 0x80 && cp < 0xa0)
			strbuf_addch(line, ' '); /* C1 controls */
		else if (len > 1)
			strbuf_add(line, s + i, len);
		else if (!len || c == 0x7f)
			strbuf_addf(line, "\\x%02x", (unsigned char)c);
		else
			strbuf_addch(line, (unsigned char)c < 32 ? ' ' : c);
		i += len ? len : 1;
	}
}

/* A banner's rule or a blank line: nothing to read ("-----" around Open MPI's messages). */
static int rule_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(" \t\r-=*_#~", s[i]))
			return 0;
	return 1;
}

/* Where the last 'max' bytes of 'buf' start, once its trailing newlines and a banner's closing
 * rule are dropped (*len shortened): at a line's start when one is near, never inside a
 * character. */
static size_t tail_from(char *buf, size_t *len, size_t max)
{
	const char *nl;
	size_t from;

	for (;;) {
		while (*len && (buf[*len - 1] == '\n' || buf[*len - 1] == '\r'))
			buf[--*len] = '\0';
		nl = memrchr(buf, '\n', *len);
		if (!nl || !rule_line(nl + 1, *len - (size_t)(nl + 1 - buf)))
			break;
		*len = (size_t)(nl - buf);
		buf[*len] = '\0';
	}
	from = *len > max ? *len - max : 0;
	if (from && (nl = memchr(buf + from, '\n', max / 4)))
		return (size_t)(nl + 1 - buf);
	for (int k = 0; from && k < 3 && from < *len && ((unsigned char)buf[from] & 0xc0) == 0x80;
	     k++)
		from++;
	return from;
}

char *exec_tail(const char *path, size_t max)
{
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;
	size_t from;

	/* UTF-8 and trailing newlines: enough for 'max' */
	if (read_part(&sb, path, 4 * max + 8, 1) < 0)
		return xstrdup("");
	from = tail_from(sb.buf, &sb.len, max);
	if (from)
		strbuf_addstr(&line, "...");
	add_one_line(&line, sb.buf + from, sb.len - from);
	strbuf_release(&sb);
	return strbuf_detach(&line);
}

/* The first lines of 'buf' worth reading, at most 'max' bytes of them (a longer first one cut),
 * onto 'line'; the offset after the last one taken, 0 when there is none. */
static size_t add_head(struct strbuf *line, const char *buf, size_t len, size_t max)
{
	size_t at = 0, end = 0, taken = 0;

	while (at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;

		if (!rule_line(buf + at, n)) {
			if (taken && (taken + n > max || !nl))
				break;
			if (n > max || !nl)
				n = utf8_prefix(buf + at, n < max ? n : max);
			strbuf_addstr(line, taken ? " | " : "");
			add_one_line(line, buf + at, n);
			taken += n;
			end = at + n + (nl && buf + at + n == nl);
		}
		if (!nl || taken >= max)
			break;
		at += n + 1;
	}
	return end;
}

char *exec_excerpt(const char *path, size_t head, size_t tail)
{
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;
	long long size = read_part(&sb, path, 4 * head, 0);
	size_t end = size > (long long)(head + tail) ? add_head(&line, sb.buf, sb.len, head) : 0;
	size_t rest, first, from;

	if (!end) { /* all of it fits, or nothing to read at its start: its tail */
		strbuf_release(&sb);
		strbuf_release(&line);
		return exec_tail(path, head + tail);
	}
	/* the tail, never before the head's end (UTF-8 and trailing newlines: enough for 'tail') */
	rest = (size_t)size - end;
	strbuf_reset(&sb);
	read_part(&sb, path, rest < 4 * tail + 8 ? rest : 4 * tail + 8, 1);
	first = (size_t)size - sb.len; /* where sb starts in the file */
	from = tail_from(sb.buf, &sb.len, tail);
	if (sb.len > from) {
		strbuf_addstr(&line, first + from > end ? " ... " : " | ");
		add_one_line(&line, sb.buf + from, sb.len - from);
	}
	strbuf_release(&sb);
	return strbuf_detach(&line);
}
