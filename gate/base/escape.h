/* Escaping for the text formats the reports are written in (JSON, XML, Markdown), UTF-8 safe:
 * invalid bytes become U+FFFD. */
#ifndef SG_ESCAPE_H
#define SG_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

struct strbuf;

/* Length (1 to 4) of the well-formed UTF-8 character at 's', its code point in
 * *cp; 0 at the NUL or at a byte that starts no well-formed character. */
size_t utf8_decode(const char *s, unsigned *cp);
/* Length of the longest prefix of 's' of at most 'max' bytes that ends on a character boundary. */
size_t utf8_prefix(const char *s, size_t max);
/* 's' itself when it fits in 'max' bytes, else its longest prefix that fits with "…" appended;
 * caller frees. */
char *utf8_cut(const char *s, size_t max);

/* A JSON string literal, or null for NULL: control characters (C0, DEL, C1), U+FEFF,
 * U+FFFE and U+FFFF as \uXXXX, so that YAML parsers such as libyaml read it too. */
void json_add_string(struct strbuf *sb, const char *s);
void json_fput_string(FILE *out, const char *s);
/* A JSON number as %.9g; NaN and the infinities as null. */
void json_add_number(struct strbuf *sb, double v);

/*
 * XML 1.0 character data and attribute values: & < > " ' as entities, control
 * characters other than tab, newline and carriage return dropped (XML 1.0
 * cannot hold them), U+FFFE and U+FFFF as U+FFFD. In attribute values tab,
 * newline and carriage return are character references, which attribute
 * normalization keeps. NULL adds nothing.
 */
void xml_add_text(struct strbuf *sb, const char *s);
void xml_add_attr(struct strbuf *sb, const char *s);

/*
 * GitHub-flavoured Markdown, in a table cell or a list item. Text: the ASCII punctuation Markdown
 * reads is backslash-escaped (a table's '|' among it), '&' is an entity, line breaks and other
 * control characters are spaces. md_add_text: a name, at most 'max' bytes, "…" when cut;
 * md_add_sentence: a message or a cause whole, or one past 'max' bytes ended after a clause with
 * "… (the whole text in REST)". A code span: backticks become quotes (they cannot be escaped in
 * one), and in a table '|' is escaped.
 */
void md_add_text(struct strbuf *sb, const char *s, size_t max);
void md_add_sentence(struct strbuf *sb, const char *s, size_t max, const char *rest);
void md_add_code(struct strbuf *sb, const char *s, int in_table);

/* 's' in single quotes for /bin/sh; a quote inside is closed, escaped and reopened. */
void sh_add_quoted(struct strbuf *sb, const char *s);

#endif
