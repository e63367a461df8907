/* Escaping for the text formats the reports are written in (JSON, XML, Markdown), UTF-8 safe:
 * invalid bytes become U+FFFD. */
#include "base/escape.h"

#include <math.h>
#include <string.h>

#include "base/util.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

size_t utf8_decode(const char *s, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80) {
		*cp = c;
		return c ? 1 : 0;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		/* no overlong forms, no surrogates */
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
		c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		/* no overlong forms, nothing past U+10FFFF */
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
		c &= 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if (u[i] < lo || u[i] > hi)
			return 0;
		c = (c << 6) | (u[i] & 0x3f);
		lo = 0x80, hi = 0xbf;
	}
	*cp = c;
	return len;
}

size_t utf8_prefix(const char *s, size_t max)
{
	size_t n = 0;

	while (s[n]) {
		unsigned cp;
		size_t len = utf8_decode(s + n, &cp);
		if (!len)
			len = 1; /* a stray byte is a boundary of its own */
		if (n + len > max)
			break;
		n += len;
	}
	return n;
}

char *utf8_cut(const char *s, size_t max)
{
	static const char ellipsis[] = "\xe2\x80\xa6";
	size_t len = strlen(s), keep;
	char *out;

	if (len <= max)
		return xstrdup(s);
	keep = utf8_prefix(s, max > 3 ? max - 3 : 0);
	out = xmalloc(keep + sizeof(ellipsis));
	memcpy(out, s, keep);
	memcpy(out + keep, ellipsis, sizeof(ellipsis));
	return out;
}

static void json_escape(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	while (*s) {
		unsigned cp;
		size_t len = utf8_decode(s, &cp);
		if (!len) {
			strbuf_addstr(sb, "\\ufffd");
			s++;
			continue;
		}
		if (cp == '"' || cp == '\\')
			strbuf_addf(sb, "\\%c", (char)cp);
		else if (cp == '\n')
			strbuf_addstr(sb, "\\n");
		else if (cp == '\t')
			strbuf_addstr(sb, "\\t");
		else if (cp == '\r')
			strbuf_addstr(sb, "\\r");
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0xfeff ||
			 (cp >= 0xfffe && cp <= 0xffff))
			/* not printable for YAML readers (libyaml) either */
			strbuf_addf(sb, "\\u%04x", cp);
		else
			strbuf_add(sb, s, len);
		s += len;
	}
	strbuf_addch(sb, '"');
}

void json_add_string(struct strbuf *sb, const char *s)
{
	if (s)
		json_escape(sb, s);
	else
		strbuf_addstr(sb, "null");
}

void json_fput_string(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	json_add_string(&sb, s);
	fputs(sb.buf, out);
	strbuf_release(&sb);
}

void json_add_number(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.9g", v);
	else
		strbuf_addstr(sb, "null");
}

static void xml_escape(struct strbuf *sb, const char *s, int attr)
{
	if (!s)
		return;
	while (*s) {
		unsigned cp;
		size_t len = utf8_decode(s, &cp);
		if (!len) {
			strbuf_addstr(sb, REPLACEMENT);
			s++;
			continue;
		}
		s += len;
		switch (cp) {
		case '&': strbuf_addstr(sb, "&amp;"); continue;
		case '<': strbuf_addstr(sb, "&lt;"); continue;
		case '>': strbuf_addstr(sb, "&gt;"); continue;
		case '"': strbuf_addstr(sb, "&quot;"); continue;
		case '\'': strbuf_addstr(sb, "&apos;"); continue;
		case '\r': strbuf_addstr(sb, "&#13;"); continue; /* else read back as a newline */
		case '\t':
		case '\n':
			if (attr)
				strbuf_addf(sb, "&#%u;", cp);
			else
				strbuf_addch(sb, (char)cp);
			continue;
		case 0xfffe:
		case 0xffff:
			strbuf_addstr(sb, REPLACEMENT);
			continue;
		}
		if (cp >= 0x20)
			strbuf_add(sb, s - len, len);
	}
}

void xml_add_text(struct strbuf *sb, const char *s)
{
	xml_escape(sb, s, 0);
}

void xml_add_attr(struct strbuf *sb, const char *s)
{
	xml_escape(sb, s, 1);
}

/* 's' in single quotes for /bin/sh. */
void sh_add_quoted(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	strbuf_addch(sb, '\'');
}

/* Markdown text (escape.h) of the first 'n' bytes of 's'. */
static void md_add_escaped(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t len = utf8_decode(s + i, &cp);
		if (!len) {
			strbuf_addstr(sb, REPLACEMENT);
			i++;
			continue;
		}
		if (cp < 0x20 || cp == 0x7f)
			strbuf_addch(sb, ' ');
		else if (cp == '&')
			strbuf_addstr(sb, "&amp;");
		else if (cp < 0x80 && strchr("\\`*_[]<>|~#!", (int)cp))
			strbuf_addf(sb, "\\%c", (char)cp);
		else
			strbuf_add(sb, s + i, len);
		i += len;
	}
}

void md_add_text(struct strbuf *sb, const char *s, size_t max)
{
	size_t n = utf8_prefix(s, max);

	md_add_escaped(sb, s, n);
	if (s[n])
		strbuf_addstr(sb, "\xe2\x80\xa6");
}

/* Where a text longer than 'max' bytes may end: before the punctuation of its last clause ("; "
 * or ", ") that fits, else at its last word, else at a character. */
static size_t clause_end(const char *s, size_t max)
{
	size_t n = utf8_prefix(s, max);

	for (const char *stop = ";,"; *stop; stop++)
		for (size_t i = n; i > max / 2; i--)
			if (s[i - 1] == *stop && s[i] == ' ')
				return i - 1;
	for (size_t i = n; i > max / 2; i--)
		if (s[i] == ' ')
			return i;
	return n;
}

void md_add_sentence(struct strbuf *sb, const char *s, size_t max, const char *rest)
{
	size_t n = strlen(s);

	if (n <= max) {
		md_add_escaped(sb, s, n);
		return;
	}
	md_add_escaped(sb, s, clause_end(s, max));
	strbuf_addf(sb, " \xe2\x80\xa6 (the whole text in %s)", rest);
}

void md_add_code(struct strbuf *sb, const char *s, int in_table)
{
	strbuf_addch(sb, '`');
	for (size_t i = 0; s[i];) {
		unsigned cp;
		size_t len = utf8_decode(s + i, &cp);
		if (!len)
			strbuf_addstr(sb, REPLACEMENT), len = 1;
		else if (cp == '`')
			strbuf_addch(sb, '\'');
		else if (cp < 0x20 || cp == 0x7f)
			strbuf_addch(sb, ' ');
		else if (cp == '|' && in_table)
			strbuf_addstr(sb, "\\|");
		else
			strbuf_add(sb, s + i, len);
		i += len;
	}
	strbuf_addch(sb, '`');
}
