/* The poster's text helpers: UTF-8 cuts, JSON strings, masking the token, excerpts and URLs fit to
 * print. */
#include "post/post-priv.h"

#include "base/escape.h"

#include <ctype.h>
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Length of the UTF-8 sequence at 'str' within 'n' bytes (1 for any ASCII byte), 0 when invalid. */
static size_t post_utf8_seq(const char *str, size_t n)
{
	unsigned cp;
	size_t len;

	if (!n)
		return 0;
	if ((unsigned char)str[0] < 0x80)
		return 1;
	len = utf8_decode(str, &cp);
	return len <= n ? len : 0;
}

/* U+0080..U+009F: C1 controls, which some terminals obey (U+009B starts an escape sequence). */
static int is_c1(const char *s, size_t seq)
{
	return seq == 2 && (unsigned char)s[0] == 0xc2 && (unsigned char)s[1] < 0xa0;
}

void post_mask(struct strbuf *sb, const char *s, size_t len, const char *secret)
{
	size_t slen = secret ? strlen(secret) : 0;
	const char *end = s + len, *hit;

	if (!len)
		return;
	if (!slen) {
		strbuf_add(sb, s, len);
		return;
	}
	while ((hit = memmem(s, (size_t)(end - s), secret, slen))) {
		strbuf_add(sb, s, (size_t)(hit - s));
		strbuf_addstr(sb, POST_MASK);
		s = hit + slen;
	}
	strbuf_add(sb, s, (size_t)(end - s));
}

void post_excerpt(struct strbuf *sb, const char *s, size_t len, const char *secret, size_t max)
{
	struct strbuf masked = STRBUF_INIT, clean = STRBUF_INIT, again = STRBUF_INIT;
	char *cut;

	/* Mask before cutting, so that no prefix of the token survives the cut. */
	post_mask(&masked, s, len, secret);
	for (size_t i = 0; i < masked.len;) {
		unsigned char c = (unsigned char)masked.buf[i];
		size_t seq = post_utf8_seq(masked.buf + i, masked.len - i);

		if (c < 0x20 || c == 0x7f || c == ' ') {
			if (clean.len && clean.buf[clean.len - 1] != ' ')
				strbuf_addch(&clean, ' ');
			i++;
		} else if (!seq || is_c1(masked.buf + i, seq)) {
			strbuf_addch(&clean, '?');
			i += seq ? seq : 1;
		} else {
			strbuf_add(&clean, masked.buf + i, seq);
			i += seq;
		}
	}
	while (clean.len && clean.buf[clean.len - 1] == ' ')
		clean.buf[--clean.len] = '\0';
	/* Collapsing white space could join the pieces of a token that contains some. */
	post_mask(&again, clean.buf ? clean.buf : "", clean.len, secret);
	cut = utf8_cut(again.buf ? again.buf : "", max);
	strbuf_addstr(sb, cut);
	free(cut);
	strbuf_release(&again);
	strbuf_release(&clean);
	strbuf_release(&masked);
}

char *post_display_url(const char *url, const char *secret)
{
	struct strbuf sb = STRBUF_INIT;
	CURLU *u = curl_url();
	char *part = NULL, *shown = NULL;

	if (u && !curl_url_set(u, CURLUPART_URL, url, 0)) {
		/* Webhook URLs often carry a key: in the password or the query. */
		if (!curl_url_get(u, CURLUPART_PASSWORD, &part, 0))
			curl_url_set(u, CURLUPART_PASSWORD, POST_MASK, 0);
		curl_free(part);
		part = NULL;
		if (!curl_url_get(u, CURLUPART_QUERY, &part, 0))
			curl_url_set(u, CURLUPART_QUERY, POST_MASK, 0);
		curl_free(part);
		if (curl_url_get(u, CURLUPART_URL, &shown, 0))
			shown = NULL;
	}
	post_mask(&sb, shown ? shown : url, strlen(shown ? shown : url), secret);
	curl_free(shown);
	curl_url_cleanup(u);
	return strbuf_detach(&sb);
}

int post_is_http_url(const char *s)
{
	size_t skip;

	if (!strncasecmp(s, "http://", 7))
		skip = 7;
	else if (!strncasecmp(s, "https://", 8))
		skip = 8;
	else
		return 0;
	if (!s[skip] || s[skip] == '/')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

static int name_chars(const char *s, size_t len)
{
	if (!len || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.", s[i]))
			return 0;
	return 1;
}

int post_valid_repository(const char *s)
{
	const char *slash = strchr(s, '/');

	return slash && name_chars(s, (size_t)(slash - s)) &&
	       name_chars(slash + 1, strlen(slash + 1));
}

int post_valid_sha(const char *s)
{
	size_t len = strlen(s);

	if (len < 7 || len > 64)
		return 0;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

int post_valid_number(const char *s)
{
	size_t len = strspn(s, "0123456789");

	return len && len <= 18 && !s[len];
}

int post_valid_env_name(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static const char *const format_names[] = {
	[POST_FORMAT_UNSET] = "unset",
	[POST_FORMAT_JSON] = "json",
	[POST_FORMAT_GITHUB] = "github",
	[POST_FORMAT_GITLAB] = "gitlab",
	NULL,
};

const char *const *const post_format_names = format_names + POST_FORMAT_JSON;

enum post_format post_format_parse(const char *s)
{
	for (size_t i = POST_FORMAT_JSON; format_names[i]; i++)
		if (!strcmp(s, format_names[i]))
			return (enum post_format)i;
	return POST_FORMAT_UNSET;
}

const char *post_format_name(enum post_format f)
{
	return format_names[f];
}
