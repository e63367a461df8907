/* JSON from elsewhere (the GitHub event file, the APIs' answers) read with libyaml: the few valid
 * JSON spellings libyaml refuses are rewritten first, so that any answer reads. */
#include "post/post-priv.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A character past U+FFFF (a surrogate pair's) in UTF-8: four bytes. */
static void add_utf8_4(struct strbuf *sb, unsigned cp)
{
	strbuf_addch(sb, (int)(0xf0 | (cp >> 18)));
	strbuf_addch(sb, (int)(0x80 | ((cp >> 12) & 0x3f)));
	strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
	strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
}

/* A \u escape inside a string at 's' (s[0] == '\\', s[1] == 'u'): a surrogate pair becomes the
 * character, a lone surrogate U+FFFD; returns the bytes read, 0 to copy it as it is. */
static size_t surrogates(struct strbuf *sb, const char *s, size_t left)
{
	unsigned hi, lo;

	if (left < 6 || hex4(s + 2, &hi) || hi < 0xd800 || hi > 0xdfff)
		return 0;
	if (hi < 0xdc00 && left >= 12 && s[6] == '\\' && s[7] == 'u' && !hex4(s + 8, &lo) &&
	    lo >= 0xdc00 && lo <= 0xdfff) {
		add_utf8_4(sb, 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00));
		return 12;
	}
	strbuf_addstr(sb, "\\ufffd");
	return 6;
}

/* Raw characters libyaml refuses inside a string (U+007F..U+009F, U+FEFF, U+FFFE, U+FFFF) as
 * escapes; returns the bytes read, 0 for any other. */
static size_t refused(struct strbuf *sb, const char *s)
{
	unsigned cp;
	size_t len = (unsigned char)*s < 0x80 ? 1 : utf8_decode(s, &cp);

	if (len == 1)
		cp = (unsigned char)*s;
	if (!len || !((cp >= 0x7f && cp <= 0x9f) || cp == 0xfeff || cp == 0xfffe || cp == 0xffff))
		return 0;
	strbuf_addf(sb, "\\u%04x", cp);
	return len;
}

static void json_for_libyaml(struct strbuf *out, const char *s, size_t len)
{
	int in_string = 0;

	for (size_t i = 0; i < len;) {
		size_t n;
		if (!in_string) {
			in_string = s[i] == '"';
			strbuf_addch(out, s[i++]);
		} else if (s[i] == '"') {
			in_string = 0;
			strbuf_addch(out, s[i++]);
		} else if (s[i] == '\\' && i + 1 < len) {
			if (s[i + 1] != 'u' || !(n = surrogates(out, s + i, len - i))) {
				strbuf_add(out, s + i, 2);
				n = 2;
			}
			i += n;
		} else if ((n = refused(out, s + i))) {
			i += n;
		} else {
			strbuf_addch(out, s[i++]);
		}
	}
}

int post_json_load(yaml_document_t *doc, const char *text, size_t len)
{
	struct strbuf fixed = STRBUF_INIT;
	yaml_parser_t parser;
	int ok;

	json_for_libyaml(&fixed, text, len);
	if (!yaml_parser_initialize(&parser)) {
		strbuf_release(&fixed);
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)(fixed.buf ? fixed.buf : ""),
				     fixed.len);
	ok = yaml_parser_load(&parser, doc);
	if (ok && !yaml_document_get_root_node(doc)) {
		yaml_document_delete(doc);
		ok = 0;
	}
	yaml_parser_delete(&parser);
	strbuf_release(&fixed);
	return ok ? 0 : -1;
}

yaml_node_t *post_json_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		if (k && k->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

const char *post_json_str(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* Whether 'n' is absent or JSON null. */
static int post_json_is_null(const yaml_node_t *n)
{
	return !n || (n->type == YAML_SCALAR_NODE &&
		      n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		      !strcmp((const char *)n->data.scalar.value, "null"));
}

char *post_github_event(const char *path, const char *const *keys)
{
	struct strbuf text = STRBUF_INIT;
	yaml_document_t doc;
	yaml_node_t *n;
	const char *v;
	char *value = NULL;

	/* Quietly: the caller says what it does without it. */
	if (access(path, R_OK) || strbuf_read_file(&text, path) < 0)
		goto out;
	if (post_json_load(&doc, text.buf ? text.buf : "", text.len) < 0)
		goto out;
	n = yaml_document_get_root_node(&doc);
	for (; *keys && n; keys++)
		n = post_json_get(&doc, n, *keys);
	if ((v = post_json_str(n)) && *v && !post_json_is_null(n))
		value = xstrdup(v);
	yaml_document_delete(&doc);
out:
	strbuf_release(&text);
	return value;
}
