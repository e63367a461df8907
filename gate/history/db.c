/* The history database: a file (SQLite) or a postgresql:// URL (PostgreSQL), the same schema behind
 * one interface. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "history/db-priv.h"
#include "history/history.h"

struct history {
	const struct history_backend *be;
	void *db;
	int found_version;
	int batch; /* within history_begin() .. history_commit() */
};

int history_open(struct history **out, const char *where)
{
	struct history *h = xcalloc(1, sizeof(*h));
	int ret;

	h->be = history_pg_url(where) ? &history_pg : &history_sqlite;
	ret = history_pg_url(where) ? history_pg_open(where, &h->db, &h->found_version)
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
	history_rollback(h);
	h->be->close(h->db);
	free(h);
}

int history_found_version(const struct history *h)
{
	return h->found_version;
}

int history_begin(struct history *h)
{
	if (h->batch)
		return gate_error("history: a write transaction is open already");
	if (h->be->begin(h->db))
		return -1;
	h->batch = 1;
	return 0;
}

int history_commit(struct history *h)
{
	h->batch = 0;
	if (!h->be->commit(h->db))
		return 0;
	h->be->rollback(h->db);
	return -1;
}

void history_rollback(struct history *h)
{
	if (h->batch)
		h->be->rollback(h->db);
	h->batch = 0;
}

int history_write(struct history *h, struct history_record *r)
{
	int ret;

	if (!r->run.commit || !r->run.date)
		return gate_error("history: a run needs a commit and a date");
	if (h->batch)
		return h->be->write(h->db, r);
	if (h->be->begin(h->db))
		return -1;
	ret = h->be->write(h->db, r);
	if (ret || h->be->commit(h->db)) {
		h->be->rollback(h->db);
		return -1;
	}
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* ---- the reader, the same for every backend ---- */

/* The columns of the reader's three queries, in this order. */
#define HISTORY_RUN_COLUMNS \
	"id, commit_id, parent, branch, date, job_url, machine, config_hash, subject, reference"
#define HISTORY_SERIES_COLUMNS "id, benchmark, \"interval\", configuration, metric"
#define HISTORY_POINT_COLUMNS "series, run, median, lo, hi"
/* the same without the interval */
#define HISTORY_VALUE_COLUMNS "series, run, median"

/*
 * Reading a database into a history_data: the runs read (in record order), then every series (any
 * order), then every point (any order: a table scan, not a sort by series), in one read
 * transaction; then reader_finish(), also after a failure.
 */
struct history_reader {
	struct history_data *d;
	int intervals;	       /* whether the points' rows have lo and hi */
	long long *run_ids;    /* of d->runs, increasing */
	struct reader_series *series; /* by id */
	size_t nr_series, alloc_series, last;
	size_t last_run; /* index of the run of the last point read */
	/* points read, not yet in their series (flush_points): appending each row to its series at
	 * once wrote to two pages per series in turn, a TLB miss a row (three quarters of the
	 * reader's own time over 9,000 series) */
	struct pending *pending, *sorted;
	size_t nr_pending;
	size_t *count; /* by series, while flushing */
};

/* A point read, by the index of its series in the reader's table and of its run in d->runs. */
struct pending {
	size_t series, run;
	double v, lo, hi;
};

/* Rows held before they go to their series: a few MB, within reach of the TLB. */
#define READER_PENDING 65536

/* A series as read, by its id in the database; metric -1 when a newer writer's (skipped). */
struct reader_series {
	long long id;
	int metric;
	struct history_series s;
};

static void reader_init(struct history_reader *r, struct history_data *d, int intervals)
{
	memset(r, 0, sizeof(*r));
	r->d = d;
	r->intervals = intervals;
}

static int reader_runs(struct history_reader *r, struct history_cursor *c)
{
	struct history_data *d = r->d;
	size_t alloc = 0;
	int rc;

	while ((rc = c->next(c->ctx)) == 1) {
		struct history_run *run;
		ALLOC_GROW(d->runs, d->nr_runs + 1, alloc);
		run = memset(&d->runs[d->nr_runs++], 0, sizeof(*run));
		run->id = c->integer(c->ctx, 0);
		run->commit = dup_or_null(c->text(c->ctx, 1));
		run->parent = dup_or_null(c->text(c->ctx, 2));
		run->branch = dup_or_null(c->text(c->ctx, 3));
		run->date = dup_or_null(c->text(c->ctx, 4));
		run->job_url = dup_or_null(c->text(c->ctx, 5));
		run->machine = dup_or_null(c->text(c->ctx, 6));
		run->config_hash = dup_or_null(c->text(c->ctx, 7));
		run->subject = dup_or_null(c->text(c->ctx, 8));
		run->reference = c->real(c->ctx, 9);
	}
	r->run_ids = xmalloc((d->nr_runs + 1) * sizeof(*r->run_ids));
	for (size_t i = 0; i < d->nr_runs; i++)
		r->run_ids[i] = d->runs[i].id;
	return rc;
}

static int cmp_reader_series(const void *pa, const void *pb)
{
	const struct reader_series *a = pa, *b = pb;

	return (a->id > b->id) - (a->id < b->id);
}

static int reader_series(struct history_reader *r, struct history_cursor *c)
{
	int rc;

	while ((rc = c->next(c->ctx)) == 1) {
		struct reader_series *rs;
		ALLOC_GROW(r->series, r->nr_series + 1, r->alloc_series);
		rs = memset(&r->series[r->nr_series++], 0, sizeof(*rs));
		rs->id = c->integer(c->ctx, 0);
		rs->metric = history_metric_find(c->text(c->ctx, 4));
		rs->s.benchmark = dup_or_null(c->text(c->ctx, 1));
		rs->s.interval = dup_or_null(c->text(c->ctx, 2));
		rs->s.configuration = dup_or_null(c->text(c->ctx, 3));
		rs->s.metric = rs->metric < 0 ? 0 : (enum history_metric)rs->metric;
	}
	qsort(r->series, r->nr_series, sizeof(*r->series), cmp_reader_series);
	return rc;
}

/* The index of 'id' in the increasing ids[0..n-1], or -1. */
static long find_id(const long long *ids, size_t stride, size_t n, long long id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (*(const long long *)((const char *)ids + mid * stride) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && *(const long long *)((const char *)ids + lo * stride) == id ? (long)lo
										  : -1;
}

/* The series of 'id': a table scan gives the points of one run series after series, so the one
 * after the last found is tried first (then the same, for rows series by series). */
static struct reader_series *series_of(struct history_reader *r, long long id)
{
	long i;

	if (r->last < r->nr_series && r->series[r->last].id == id)
		i = (long)r->last;
	else if (r->last + 1 < r->nr_series && r->series[r->last + 1].id == id)
		i = (long)++r->last;
	else if ((i = find_id(&r->series[0].id, sizeof(*r->series), r->nr_series, id)) >= 0)
		r->last = (size_t)i;
	return i < 0 ? NULL : &r->series[i];
}

/* Appends n points to s (in this order); their lo and hi only when s has them (read with
 * intervals). */
static void series_append(struct history_series *s, int intervals, const struct pending *p,
			  size_t n)
{
	if (s->n + n > s->alloc) {
		ALLOC_GROW(s->run, s->n + n, s->alloc);
		s->value = xrealloc(s->value, s->alloc * sizeof(*s->value));
		if (intervals) {
			s->lo = xrealloc(s->lo, s->alloc * sizeof(*s->lo));
			s->hi = xrealloc(s->hi, s->alloc * sizeof(*s->hi));
		}
	}
	for (size_t i = 0; i < n; i++, s->n++) {
		s->run[s->n] = p[i].run;
		s->value[s->n] = p[i].v;
		if (intervals) {
			s->lo[s->n] = p[i].lo;
			s->hi[s->n] = p[i].hi;
		}
	}
}

/* The points held go to their series, each series' in the order read (a stable counting sort by
 * series, then one append a series). */
static void flush_points(struct history_reader *r)
{
	size_t at = 0;

	if (!r->nr_pending)
		return;
	memset(r->count, 0, r->nr_series * sizeof(*r->count));
	for (size_t i = 0; i < r->nr_pending; i++)
		r->count[r->pending[i].series]++;
	for (size_t k = 0; k < r->nr_series; k++) {
		size_t c = r->count[k];
		r->count[k] = at;
		at += c;
	}
	for (size_t i = 0; i < r->nr_pending; i++)
		r->sorted[r->count[r->pending[i].series]++] = r->pending[i];
	for (size_t i = 0, j; i < r->nr_pending; i = j) {
		size_t k = r->sorted[i].series;
		for (j = i + 1; j < r->nr_pending && r->sorted[j].series == k; j++)
			;
		series_append(&r->series[k].s, r->intervals, r->sorted + i, j - i);
	}
	r->nr_pending = 0;
}

/* The index of run 'id' in d->runs, or -1: a table scan gives one run's points together, so the
 * last one found is tried first. */
static long run_of(struct history_reader *r, long long id)
{
	long i;

	if (r->last_run < r->d->nr_runs && r->run_ids[r->last_run] == id)
		return (long)r->last_run;
	i = find_id(r->run_ids, sizeof(*r->run_ids), r->d->nr_runs, id);
	if (i >= 0)
		r->last_run = (size_t)i;
	return i;
}

/* The points' rows: HISTORY_POINT_COLUMNS, or HISTORY_VALUE_COLUMNS without intervals. */
static int reader_points(struct history_reader *r, struct history_cursor *c)
{
	int rc;

	r->pending = xmalloc(READER_PENDING * sizeof(*r->pending));
	r->sorted = xmalloc(READER_PENDING * sizeof(*r->sorted));
	r->count = xmalloc((r->nr_series + 1) * sizeof(*r->count));
	while ((rc = c->next(c->ctx)) == 1) {
		struct reader_series *rs = series_of(r, c->integer(c->ctx, 0));
		long run = run_of(r, c->integer(c->ctx, 1));
		struct pending *p;
		if (!rs || rs->metric < 0 || run < 0)
			continue; /* a run of another branch, a newer writer's metric */
		p = &r->pending[r->nr_pending++];
		p->series = (size_t)(rs - r->series);
		p->run = (size_t)run;
		p->v = c->real(c->ctx, 2);
		p->lo = r->intervals ? c->real(c->ctx, 3) : NAN;
		p->hi = r->intervals ? c->real(c->ctx, 4) : NAN;
		if (r->nr_pending == READER_PENDING)
			flush_points(r);
	}
	flush_points(r);
	return rc;
}

struct by_run {
	size_t run, at;
};

static int cmp_by_run(const void *pa, const void *pb)
{
	const struct by_run *a = pa, *b = pb;

	return (a->run > b->run) - (a->run < b->run);
}

static void permute(double *x, const struct by_run *order, size_t n, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = x[order[i].at];
	memcpy(x, tmp, n * sizeof(*x));
}

/* Puts the points of s in run order when the rows came otherwise. */
static void series_order(struct history_series *s)
{
	struct by_run *order;
	double *tmp;
	int sorted = 1;

	for (size_t i = 1; i < s->n; i++)
		sorted &= s->run[i - 1] < s->run[i];
	if (sorted)
		return;
	order = xmalloc(s->n * sizeof(*order));
	tmp = xmalloc(s->n * sizeof(*tmp));
	for (size_t i = 0; i < s->n; i++)
		order[i] = (struct by_run){ s->run[i], i };
	qsort(order, s->n, sizeof(*order), cmp_by_run);
	permute(s->value, order, s->n, tmp);
	if (s->lo) {
		permute(s->lo, order, s->n, tmp);
		permute(s->hi, order, s->n, tmp);
	}
	for (size_t i = 0; i < s->n; i++)
		s->run[i] = order[i].run;
	free(order);
	free(tmp);
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

/* Keeps the series with a point in a run read (their points by run, the series by benchmark,
 * interval, configuration and metric); releases what r holds. */
static void reader_finish(struct history_reader *r)
{
	struct history_data *d = r->d;

	d->series = xcalloc(r->nr_series + 1, sizeof(*d->series));
	for (size_t i = 0; i < r->nr_series; i++) {
		struct history_series *s = &r->series[i].s;
		if (s->n && s->benchmark && s->interval && s->configuration) {
			series_order(s);
			d->series[d->nr_series++] = *s;
			continue;
		}
		history_series_release(s);
	}
	qsort(d->series, d->nr_series, sizeof(*d->series), series_cmp);
	free(r->series);
	free(r->pending);
	free(r->sorted);
	free(r->count);
	free(r->run_ids);
	memset(r, 0, sizeof(*r));
}

static int read_data(struct history *h, const char *branch, int intervals,
		     struct history_data *d)
{
	struct history_reader rd;
	int ret;

	memset(d, 0, sizeof(*d));
	if (h->be->read_begin(h->db))
		return -1;
	reader_init(&rd, d, intervals);
	ret = h->be->query(h->db,
			   branch ? "SELECT " HISTORY_RUN_COLUMNS " FROM runs WHERE branch = $1 "
				    "ORDER BY id"
				  : "SELECT " HISTORY_RUN_COLUMNS " FROM runs ORDER BY id",
			   branch, reader_runs, &rd);
	if (!ret)
		ret = h->be->query(h->db, "SELECT " HISTORY_SERIES_COLUMNS " FROM series", NULL,
				   reader_series, &rd);
	/* a table scan in record order: no sort by series, no look-up per point */
	if (!ret)
		ret = h->be->query(h->db,
				   intervals ? "SELECT " HISTORY_POINT_COLUMNS " FROM points"
					     : "SELECT " HISTORY_VALUE_COLUMNS " FROM points",
				   NULL, reader_points, &rd);
	reader_finish(&rd);
	h->be->read_end(h->db, ret);
	if (ret)
		history_data_release(d);
	return ret;
}

int history_read(struct history *h, const char *branch, struct history_data *d)
{
	return read_data(h, branch, 1, d);
}

int history_read_values(struct history *h, const char *branch, struct history_data *d)
{
	return read_data(h, branch, 0, d);
}
