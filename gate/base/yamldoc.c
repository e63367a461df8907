/* A YAML file loaded whole (libyaml's document API), with errors as 'file:line:col: message'. */
#include "base/yamldoc.h"
#include "base/util.h"
#include "base/interrupt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void yamldoc_init(struct yamldoc *d)
{
	memset(d, 0, sizeof(*d));
}

void yamldoc_release(struct yamldoc *d)
{
	if (d->loaded)
		yaml_document_delete(&d->doc);
	free(d->path);
	yamldoc_init(d);
}

yaml_node_t *yamldoc_root(struct yamldoc *d)
{
	return d->loaded ? yaml_document_get_root_node(&d->doc) : NULL;
}

static int report_at(struct yamldoc *d, yaml_mark_t mark, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	/* libyaml counts lines and columns from 0; editors count from 1. */
	gate_error("%s:%zu:%zu: %s", d->path, mark.line + 1, mark.column + 1, sb.buf);
	strbuf_release(&sb);
	d->nr_errors++;
	return -1;
}

int yamldoc_error_at(struct yamldoc *d, yaml_mark_t mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_at(d, mark, fmt, ap);
	va_end(ap);
	return -1;
}

int yamldoc_error(struct yamldoc *d, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_at(d, node->start_mark, fmt, ap);
	va_end(ap);
	return -1;
}

/* The reader reports a byte offset only: turn it into a line and column. */
static yaml_mark_t offset_mark(const struct strbuf *text, size_t offset)
{
	yaml_mark_t mark = { offset, 0, 0 };

	for (size_t i = 0; i < offset && i < text->len; i++) {
		if (text->buf[i] == '\n') {
			mark.line++;
			mark.column = 0;
		} else if (((unsigned char)text->buf[i] & 0xc0) != 0x80) {
			mark.column++;
		}
	}
	return mark;
}

static void syntax_error(struct yamldoc *d, const yaml_parser_t *p, const struct strbuf *text)
{
	const char *problem = p->problem ? p->problem : "invalid YAML";
	yaml_mark_t mark = p->problem_mark;

	if (p->error == YAML_MEMORY_ERROR) {
		char *what = xstrfmt("while parsing '%s'", d->path);
		die_out_of_memory(what);
	}
	if (p->error == YAML_READER_ERROR)
		mark = offset_mark(text, p->problem_offset);
	if (p->context)
		yamldoc_error_at(d, mark, "%s (%s at %zu:%zu)", problem, p->context,
				 p->context_mark.line + 1, p->context_mark.column + 1);
	else
		yamldoc_error_at(d, mark, "%s", problem);
}

/* A second '---' document would be silently ignored: say so instead. */
static int check_single_document(struct yamldoc *d, yaml_parser_t *p, const struct strbuf *text)
{
	yaml_document_t next;
	yaml_node_t *root;
	int ret = 0;

	if (!yaml_parser_load(p, &next)) {
		syntax_error(d, p, text);
		return -1;
	}
	/* A trailing '---' with nothing after it is harmless. */
	root = yaml_document_get_root_node(&next);
	if (root && !yamldoc_is_null(root))
		ret = yamldoc_error(d, root,
				    "a second document is not allowed here; remove the '---'");
	yaml_document_delete(&next);
	return ret;
}

static int check_root(struct yamldoc *d)
{
	yaml_node_t *root = yamldoc_root(d);
	yaml_mark_t start = { 0, 0, 0 };
	char buf[64];

	if (!root)
		return yamldoc_error_at(d, start, "the file is empty; expected a mapping");
	if (!yamldoc_is_map(root))
		return yamldoc_error(d, root, "expected a mapping at the top level, not %s",
				     yamldoc_describe(root, buf, sizeof(buf)));
	return 0;
}

static yaml_node_pair_t *map_pair(const yaml_node_t *map, size_t i)
{
	return map->data.mapping.pairs.start + i;
}

/* The index of an earlier pair of 'map' with the same key as pair 'j', or -1. */
static long earlier_key(struct yamldoc *d, const yaml_node_t *map, size_t j)
{
	const char *key = yamldoc_scalar(yaml_document_get_node(&d->doc, map_pair(map, j)->key));

	if (!key)
		return -1;
	for (size_t i = 0; i < j; i++) {
		const char *k = yamldoc_scalar(
			yaml_document_get_node(&d->doc, map_pair(map, i)->key));
		if (k && !strcmp(k, key))
			return (long)i;
	}
	return -1;
}

/* "\0" in a quoted scalar would silently cut the string every reader sees. */
static void check_nul(struct yamldoc *d)
{
	for (yaml_node_t *n = d->doc.nodes.start; n < d->doc.nodes.top; n++)
		if (n->type == YAML_SCALAR_NODE &&
		    memchr(n->data.scalar.value, '\0', n->data.scalar.length))
			yamldoc_error(d, n, "a NUL character ('\\0') is not allowed in a value");
}

/* Checked for every mapping at load time, so sections no loader reads are checked too. */
static void check_duplicate_keys(struct yamldoc *d)
{
	for (yaml_node_t *n = d->doc.nodes.start; n < d->doc.nodes.top; n++) {
		if (n->type != YAML_MAPPING_NODE)
			continue;
		for (size_t j = 0; j < yamldoc_size(n); j++) {
			long i = earlier_key(d, n, j);
			yaml_node_t *first, *dup;

			if (i < 0)
				continue;
			first = yaml_document_get_node(&d->doc, map_pair(n, (size_t)i)->key);
			dup = yaml_document_get_node(&d->doc, map_pair(n, j)->key);
			yamldoc_error(d, dup, "duplicate key '%s' (first at %zu:%zu)",
				      yamldoc_scalar(dup), first->start_mark.line + 1,
				      first->start_mark.column + 1);
		}
	}
}

/* The nodes each anchor stands for, so that an alias counts as the nodes it repeats. */
struct anchors {
	struct anchor {
		char *name;
		size_t nodes;
	} *slot;
	size_t nr, alloc; /* alloc: a power of two, at most half full */
};

static uint64_t anchor_hash(const char *name)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ULL;
	return h;
}

static struct anchor *anchor_slot(struct anchors *a, const char *name)
{
	size_t i = (size_t)anchor_hash(name) & (a->alloc - 1);

	while (a->slot[i].name && strcmp(a->slot[i].name, name))
		i = (i + 1) & (a->alloc - 1);
	return &a->slot[i];
}

/* A name defined again stands for its latest node, as in YAML. */
static void anchor_set(struct anchors *a, const char *name, size_t nodes)
{
	struct anchor *x;

	if (2 * (a->nr + 1) > a->alloc) {
		struct anchors bigger = { NULL, 0, a->alloc ? 2 * a->alloc : 64 };
		bigger.slot = xcalloc(bigger.alloc, sizeof(*bigger.slot));
		for (size_t i = 0; i < a->alloc; i++)
			if (a->slot[i].name)
				*anchor_slot(&bigger, a->slot[i].name) = a->slot[i];
		bigger.nr = a->nr;
		free(a->slot);
		*a = bigger;
	}
	x = anchor_slot(a, name);
	if (!x->name) {
		x->name = xstrdup(name);
		a->nr++;
	}
	x->nodes = nodes;
}

/* The nodes of the anchor 'name' (1 when unknown: the loader reports it). */
static size_t anchor_nodes(struct anchors *a, const char *name)
{
	struct anchor *x = a->alloc ? anchor_slot(a, name) : NULL;

	return x && x->name ? x->nodes : 1;
}

static void anchors_release(struct anchors *a)
{
	for (size_t i = 0; i < a->alloc; i++)
		free(a->slot[i].name);
	free(a->slot);
}

/* The walk of check_depth: the open collections with where they started, and the anchors. */
struct walk {
	struct {
		size_t start;
		char *anchor; /* owned, or NULL */
	} open[YAMLDOC_MAX_DEPTH + 1];
	int depth;
	size_t nodes; /* so far, an alias counting as the nodes of its anchor */
	struct anchors anchors;
};

/* One event of the walk; 0, or -1 (reported) past a bound. */
static int walk_event(struct yamldoc *d, struct walk *w, const yaml_event_t *e)
{
	size_t before = w->nodes;

	switch (e->type) {
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (w->depth >= YAMLDOC_MAX_DEPTH)
			return yamldoc_error_at(d, e->start_mark, "nested deeper than %d levels",
						YAMLDOC_MAX_DEPTH);
		w->open[w->depth].start = w->nodes++;
		w->open[w->depth++].anchor =
			e->data.sequence_start.anchor && e->type == YAML_SEQUENCE_START_EVENT
				? xstrdup((const char *)e->data.sequence_start.anchor)
			: e->type == YAML_MAPPING_START_EVENT && e->data.mapping_start.anchor
				? xstrdup((const char *)e->data.mapping_start.anchor)
				: NULL;
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (w->depth <= 0)
			break;
		w->depth--;
		if (w->open[w->depth].anchor)
			anchor_set(&w->anchors, w->open[w->depth].anchor,
				   w->nodes - w->open[w->depth].start);
		free(w->open[w->depth].anchor);
		w->open[w->depth].anchor = NULL;
		break;
	case YAML_SCALAR_EVENT:
		w->nodes++;
		if (e->data.scalar.anchor)
			anchor_set(&w->anchors, (const char *)e->data.scalar.anchor, 1);
		break;
	case YAML_ALIAS_EVENT:
		w->nodes += anchor_nodes(&w->anchors, (const char *)e->data.alias.anchor);
		if (w->nodes > YAMLDOC_MAX_NODES)
			return yamldoc_error_at(d, e->start_mark,
						"aliases repeat more than %d YAML nodes in one "
						"file",
						YAMLDOC_MAX_NODES);
		break;
	default:
		break;
	}
	if (w->nodes > YAMLDOC_MAX_NODES && before <= YAMLDOC_MAX_NODES)
		return yamldoc_error_at(d, e->start_mark, "more than %d YAML nodes in one file",
					YAMLDOC_MAX_NODES);
	return 0;
}

static int interrupted(const struct yamldoc *d)
{
	return gate_error("%s: loading interrupted by %s", d->path,
			  interrupt_name(interrupt_signal));
}

/*
 * Stops at the first collection nested deeper than YAMLDOC_MAX_DEPTH, before libyaml's
 * document loader sees it (its flow nesting costs time quadratic in the depth), and at the
 * node past YAMLDOC_MAX_NODES (the document costs some 160 bytes a node), an alias counting as
 * every node of its anchor (a "billion laughs" of nested aliases is small on disk, and every
 * reader that walks it walks them all). Event by event, the scanner never runs far ahead. A
 * syntax error is left to the loader, which reports it.
 */
static int check_depth(struct yamldoc *d, const struct strbuf *text)
{
	yaml_parser_t parser;
	yaml_event_t event;
	struct walk *w = xcalloc(1, sizeof(*w));
	int ret = 0, done = 0;

	if (!yaml_parser_initialize(&parser)) {
		free(w);
		return gate_error("%s: cannot initialize the YAML parser", d->path);
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text->buf, text->len);
	while (!done && !ret && yaml_parser_parse(&parser, &event)) {
		ret = walk_event(d, w, &event);
		done = event.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&event);
		if (!ret && interrupt_signal) /* a 10 MB file: the gate stops within a second */
			ret = interrupted(d);
	}
	yaml_parser_delete(&parser);
	for (int i = 0; i < w->depth; i++)
		free(w->open[i].anchor);
	anchors_release(&w->anchors);
	free(w);
	return ret;
}

int yamldoc_load(struct yamldoc *d, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	if (strbuf_read_file_limit(&text, path, SG_YAML_READ_LIMIT) < 0) {
		strbuf_release(&text);
		yamldoc_init(d);
		return -1;
	}
	ret = yamldoc_load_text(d, path, text.buf, text.len);
	strbuf_release(&text);
	return ret;
}

int yamldoc_load_text(struct yamldoc *d, const char *path, const char *buf, size_t len)
{
	struct strbuf text = STRBUF_INIT;
	yaml_parser_t parser;
	int ret = -1;

	yamldoc_init(d);
	d->path = xstrdup(path);
	strbuf_add(&text, buf, len);
	if (check_depth(d, &text) < 0) {
		strbuf_release(&text);
		yamldoc_release(d);
		return -1;
	}
	if (!yaml_parser_initialize(&parser)) {
		gate_error("%s: cannot initialize the YAML parser", path);
		goto out;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text.buf, text.len);
	if (!yaml_parser_load(&parser, &d->doc)) {
		syntax_error(d, &parser, &text);
		goto out;
	}
	d->loaded = 1;
	if (interrupt_signal) {
		interrupted(d);
		goto out;
	}
	if (check_root(d) < 0 || check_single_document(d, &parser, &text) < 0)
		goto out;
	check_duplicate_keys(d);
	check_nul(d);
	ret = 0;
out:
	yaml_parser_delete(&parser);
	strbuf_release(&text);
	if (ret)
		yamldoc_release(d);
	return ret;
}

int yamldoc_is_map(const yaml_node_t *n)
{
	return n && n->type == YAML_MAPPING_NODE;
}

int yamldoc_is_list(const yaml_node_t *n)
{
	return n && n->type == YAML_SEQUENCE_NODE;
}

int yamldoc_is_null(const yaml_node_t *n)
{
	const char *v = yamldoc_scalar(n);

	if (!v || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
	       !strcmp(v, "NULL");
}

const char *yamldoc_scalar(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

const char *yamldoc_describe(const yaml_node_t *n, char *buf, size_t size)
{
	const char *v = yamldoc_scalar(n);
	int quoted;

	if (yamldoc_is_map(n))
		return "a mapping";
	if (yamldoc_is_list(n))
		return "a list";
	if (!v || yamldoc_is_null(n))
		return "null";
	/* A quoted "4" is a string in YAML: say so, or "must be an integer, not '4'" puzzles. */
	quoted = n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
	if (strlen(v) > 32)
		snprintf(buf, size, "%s'%.29s...'", quoted ? "the string " : "", v);
	else
		snprintf(buf, size, "%s'%s'", quoted ? "the string " : "", v);
	return buf;
}

size_t yamldoc_size(const yaml_node_t *n)
{
	if (yamldoc_is_map(n))
		return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	if (yamldoc_is_list(n))
		return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	return 0;
}

void yamldoc_map_iter(struct yamldoc_iter *it, struct yamldoc *d, yaml_node_t *map)
{
	memset(it, 0, sizeof(*it));
	it->d = d;
	it->node = yamldoc_is_map(map) ? map : NULL;
}

int yamldoc_map_next(struct yamldoc_iter *it)
{
	yaml_document_t *doc = &it->d->doc;

	while (it->node && it->next < yamldoc_size(it->node)) {
		size_t i = it->next++;
		yaml_node_pair_t *pair = map_pair(it->node, i);

		if (earlier_key(it->d, it->node, i) >= 0)
			continue;
		it->index = i;
		it->key_node = yaml_document_get_node(doc, pair->key);
		it->key = yamldoc_scalar(it->key_node);
		it->value = yaml_document_get_node(doc, pair->value);
		return 1;
	}
	return 0;
}

void yamldoc_list_iter(struct yamldoc_iter *it, struct yamldoc *d, yaml_node_t *list)
{
	memset(it, 0, sizeof(*it));
	it->d = d;
	it->node = yamldoc_is_list(list) ? list : NULL;
}

int yamldoc_list_next(struct yamldoc_iter *it)
{
	if (!it->node || it->next >= yamldoc_size(it->node))
		return 0;
	it->index = it->next++;
	it->value = yaml_document_get_node(&it->d->doc,
					   it->node->data.sequence.items.start[it->index]);
	return 1;
}

yaml_node_t *yamldoc_map_get(struct yamldoc *d, yaml_node_t *map, const char *key)
{
	struct yamldoc_iter it;

	yamldoc_map_iter(&it, d, map);
	while (yamldoc_map_next(&it))
		if (it.key && !strcmp(it.key, key))
			return it.value;
	return NULL;
}
