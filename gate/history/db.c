/* The history database: a file (SQLite) or a postgresql:// URL (PostgreSQL), the same schema behind
 * one interface. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "history/db-priv.h"
#include "history/history.h"

struct history {
	const struct history_backend *be;
	void *db;
	int found_version;
};

static int is_url(const char *where)
{
	return !strncmp(where, "postgresql://", 13) || !strncmp(where, "postgres://", 11);
}

int history_open(struct history **out, const char *where)
{
	struct history *h = xcalloc(1, sizeof(*h));
	int ret;

	h->be = is_url(where) ? &history_pg : &history_sqlite;
	ret = is_url(where) ? history_pg_open(where, &h->db, &h->found_version)
			    : history_sqlite_open(where, &h->db, &h->found_version);
	if (ret) {
		free(h);
		h = NULL;
	}
	*out = h;
	return ret;
}

void history_close(struct history *h)
{
	if (!h)
		return;
	h->be->close(h->db);
	free(h);
}

int history_found_version(const struct history *h)
{
	return h->found_version;
}

int history_write(struct history *h, struct history_record *r)
{
	if (!r->run.commit || !r->run.date)
		return error("history: a run needs a commit and a date");
	return h->be->write(h->db, r);
}

int history_read(struct history *h, const char *branch, struct history_data *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	ret = h->be->read(h->db, branch, d);
	if (ret)
		history_data_release(d);
	return ret;
}

char *history_where_text(const char *where)
{
	struct strbuf sb = STRBUF_INIT;
	const char *at = is_url(where) ? strchr(where, '@') : NULL, *colon = NULL, *pw;

	/* postgresql://user:PASSWORD@host/db and ...?password=PASSWORD: the password never printed
	 */
	for (const char *p = strstr(where, "://"); at && p && p < at; p++)
		if (*p == ':' && p[1] != '/')
			colon = p;
	if (colon) {
		strbuf_add(&sb, where, (size_t)(colon - where) + 1);
		strbuf_addstr(&sb, "***");
		strbuf_addstr(&sb, at);
	} else {
		strbuf_addstr(&sb, where);
	}
	if ((pw = strstr(sb.buf, "password=")) != NULL) {
		size_t start = (size_t)(pw - sb.buf) + 9,
		       end = start + strcspn(sb.buf + start, "&");
		char *rest = xstrdup(sb.buf + end);
		sb.len = start;
		sb.buf[start] = 0;
		strbuf_addstr(&sb, "***");
		strbuf_addstr(&sb, rest);
		free(rest);
	}
	return strbuf_detach(&sb);
}

long history_run_index(const long long *ids, size_t n, long long id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[lo] == id ? (long)lo : -1;
}

void history_series_append(struct history_series *s, size_t run, double v, double lo, double hi)
{
	ALLOC_GROW(s->run, s->n + 1, s->alloc);
	s->value = xrealloc(s->value, s->alloc * sizeof(*s->value));
	s->lo = xrealloc(s->lo, s->alloc * sizeof(*s->lo));
	s->hi = xrealloc(s->hi, s->alloc * sizeof(*s->hi));
	s->run[s->n] = run;
	s->value[s->n] = v;
	s->lo[s->n] = lo;
	s->hi[s->n++] = hi;
}

static int series_cmp(const void *pa, const void *pb)
{
	const struct history_series *a = pa, *b = pb;
	int c = strcmp(a->benchmark, b->benchmark);

	if (!c)
		c = strcmp(a->interval, b->interval);
	if (!c)
		c = strcmp(a->configuration, b->configuration);
	return c ? c : (int)a->metric - (int)b->metric;
}

void history_series_sort(struct history_data *d)
{
	qsort(d->series, d->nr_series, sizeof(*d->series), series_cmp);
}
