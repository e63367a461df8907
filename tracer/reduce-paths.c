/* The job's intervals: every rank's call paths, merged by path (ranks that opened different
 * intervals, or nested them differently, still meet on the paths they share). A table is a sorted
 * list of records "path US name US file US line US tag RS", so two merge in one pass. */
#include "reduce-paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define US '\x1f'
#define RS '\x1e'

struct node_path {
	const char *path;
	uint32_t node;
};

static int cmp_node_path(const void *a, const void *b)
{
	return strcmp(((const struct node_path *)a)->path, ((const struct node_path *)b)->path);
}

/* A name or path field: the separators become spaces (no name of a real program holds them). */
static void field(struct buf *b, const char *s)
{
	for (; *s; s++)
		sg_buf_printf(b, "%c", *s == US || *s == RS ? ' ' : *s);
	sg_buf_printf(b, "%c", US);
}

int sg_paths_local(const struct sg_rview *rv, struct buf *out)
{
	struct node_path *sorted = malloc((rv->nodes + 1) * sizeof(*sorted));

	if (!sorted)
		return -1;
	for (size_t n = 0; n < rv->nodes; n++)
		sorted[n] = (struct node_path){ rv->path[n], (uint32_t)n };
	qsort(sorted, rv->nodes, sizeof(*sorted), cmp_node_path);
	for (size_t i = 0; i < rv->nodes; i++) {
		const struct sg_node_info *info = sg_node_at(sorted[i].node);
		const struct sg_region_info *r = sg_region_at(info->region);
		field(out, sorted[i].path);
		field(out, r->name);
		field(out, r->file);
		if (info->tag == SG_NO_TAG)
			sg_buf_printf(out, "%d%c-%c", r->line, US, RS);
		else
			sg_buf_printf(out, "%d%c%ld%c", r->line, US, info->tag, RS);
	}
	free(sorted);
	return out->failed ? -1 : 0;
}

/* The record at *at of a table ending at 'end', and its path's length; *at moves past it. */
static const char *next_record(const char **at, const char *end, size_t *len, size_t *path_len)
{
	const char *r = *at, *rs = r < end ? memchr(r, RS, (size_t)(end - r)) : NULL;
	const char *us = rs ? memchr(r, US, (size_t)(rs - r)) : NULL;

	if (!us)
		return NULL;
	*len = (size_t)(rs + 1 - r);
	*path_len = (size_t)(us - r);
	*at = rs + 1;
	return r;
}

static int cmp_path(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

int sg_paths_merge(const char *a, size_t alen, const char *b, size_t blen, struct buf *out)
{
	const char *pa = a, *pb = b, *ra, *rb;
	size_t la = 0, lb = 0, na = 0, nb = 0;

	ra = next_record(&pa, a + alen, &la, &na);
	rb = next_record(&pb, b + blen, &lb, &nb);
	while (ra || rb) {
		int c = !ra ? 1 : !rb ? -1 : cmp_path(ra, na, rb, nb);
		sg_buf_printf(out, "%.*s", (int)(c <= 0 ? la : lb), c <= 0 ? ra : rb);
		if (c <= 0)
			ra = next_record(&pa, a + alen, &la, &na);
		if (c >= 0)
			rb = next_record(&pb, b + blen, &lb, &nb);
	}
	return out->failed ? -1 : 0;
}

/* The index of the record whose path is 'path' (len bytes), or -1. */
static int find(const struct sg_paths *t, const char *path, size_t len)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = cmp_path(t->path[mid], strlen(t->path[mid]), path, len);
		if (!c)
			return (int)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Splits one record in place into its fields. */
static int split(struct sg_paths *t, size_t i, char *r)
{
	char *f[5];

	for (int k = 0; k < 5; k++) {
		char *sep = strchr(r, k < 4 ? US : RS);
		if (!sep)
			return -1;
		*sep = '\0';
		f[k] = r;
		r = sep + 1;
	}
	t->path[i] = f[0];
	t->name[i] = f[1];
	t->file[i] = f[2];
	t->line[i] = atoi(f[3]);
	t->has_tag[i] = strcmp(f[4], "-") != 0;
	t->tag[i] = t->has_tag[i] ? strtol(f[4], NULL, 10) : 0;
	return 0;
}

/* Each record's parent: its path less "/name" or "/name[tag]"; the root has none. */
static int link_parents(struct sg_paths *t)
{
	for (size_t i = 0; i < t->n; i++) {
		char tag[32] = "";
		size_t len = strlen(t->path[i]), own = strlen(t->name[i]);
		if (t->has_tag[i])
			snprintf(tag, sizeof(tag), "[%ld]", t->tag[i]);
		own += strlen(tag);
		t->parent[i] = -1;
		if (len == own && !i)
			continue;
		if (len <= own || (t->parent[i] = find(t, t->path[i], len - own - 1)) < 0 ||
		    (size_t)t->parent[i] >= i)
			return -1;
	}
	return 0;
}

int sg_paths_parse(char *blob, size_t len, struct sg_paths *t)
{
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < len; i++)
		n += blob[i] == RS;
	t->path = calloc(n + 1, sizeof(char *));
	t->name = calloc(n + 1, sizeof(char *));
	t->file = calloc(n + 1, sizeof(char *));
	t->line = calloc(n + 1, sizeof(int));
	t->tag = calloc(n + 1, sizeof(long));
	t->has_tag = calloc(n + 1, sizeof(int));
	t->parent = calloc(n + 1, sizeof(int));
	if (!t->path || !t->name || !t->file || !t->line || !t->tag || !t->has_tag || !t->parent)
		return -1;
	for (char *r = blob; t->n < n; t->n++) {
		char *end = memchr(r, RS, (size_t)(blob + len - r));
		if (split(t, t->n, r))
			return -1;
		r = end + 1;
	}
	return n ? link_parents(t) : -1;
}

void sg_paths_release(struct sg_paths *t)
{
	free(t->path);
	free(t->name);
	free(t->file);
	free(t->line);
	free(t->tag);
	free(t->has_tag);
	free(t->parent);
	memset(t, 0, sizeof(*t));
}
