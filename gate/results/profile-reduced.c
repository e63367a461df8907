/* The records of a reduced profile: per interval the sums, maxima and extremes over the job's
 * ranks that the tracer's in-job reduction wrote (tracer/PROFILE.md, "Reduced profiles"). */
#include "results/profile-reduced.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/tsv.h"

static const char *const column_names[] = {
#define X(id, name, op) name,
	SG_REDUCED_COLUMNS(X)
#undef X
};

static const char *const quantity_names[] = {
#define X(id, name) name,
	SG_REDUCED_QUANTITIES(X)
#undef X
};

static const char *const extreme_names[] = {
#define X(id, name, kind) name,
	SG_REDUCED_CMP_COLUMNS(X)
#undef X
};

static int find(const char *const *names, int nr, const char *s)
{
	for (int c = 0; c < nr; c++)
		if (!strcmp(s, names[c]))
			return c;
	return -1;
}

const char *profile_reduced_columns(struct profile_reduced_map *m, char **f, int n)
{
	int cmp = !strcmp(f[1], "reduced_cmp"), first = cmp ? 4 : 3;
	int *field = cmp ? m->cmp_field : m->field;

	if (n > PROFILE_REDUCED_MAX_FIELDS || n < first || strcmp(f[2], "node") ||
	    (cmp && strcmp(f[3], "quantity")))
		return "reduced columns must start with node (and quantity)";
	for (int i = first; i < n; i++)
		field[i - 1] = cmp ? find(extreme_names, SG_CMP_NR, f[i])
				   : find(column_names, PROFILE_RED_NR_COLUMNS, f[i]);
	if (cmp)
		m->cmp_nr = n - 1;
	else
		m->nr = n - 1;
	return NULL;
}

static int number(const char *s, double *out)
{
	char *end;

	if (!strcmp(s, "-")) { /* not captured on some rank */
		*out = NAN;
		return 0;
	}
	*out = strtod(s, &end);
	return end == s || *end || !isfinite(*out) || fabs(*out) > PROFILE_MAX_VALUE;
}

/* The node's record, made (all absent) on its first use. */
static struct profile_reduced *node_record(struct profile *p, const char *s)
{
	long node;

	if (tsv_parse_long(s, 0, (long)p->nr_nodes - 1, &node))
		return NULL;
	if (!p->reduced) {
		p->reduced = xcalloc(p->nr_nodes + 1, sizeof(*p->reduced));
		for (size_t i = 0; i < p->nr_nodes; i++)
			for (int c = 0; c < PROFILE_RED_NR_COLUMNS; c++)
				p->reduced[i].v[c] = NAN;
	}
	return &p->reduced[node];
}

static void set_extreme(struct profile_extremes *e, int c, double x)
{
	double *d[] = { &e->min, NULL, NULL, &e->max, NULL, NULL, &e->sum };
	int *i[] = { NULL, &e->min_rank, &e->min_thread, NULL, &e->max_rank, &e->max_thread };

	if (d[c])
		*d[c] = x;
	else
		*i[c] = (int)x;
}

static const char *read_cmp(struct profile_reduced *r, const struct profile_reduced_map *m,
			    char **f, int n)
{
	int k = find(quantity_names, PROFILE_RED_NR_QUANTITIES, f[2]);

	if (n != m->cmp_nr)
		return "reduced_cmp does not match its columns";
	if (k < 0)
		return NULL; /* a quantity of a newer tracer */
	for (int i = 3; i < n; i++) {
		double x;
		if (number(f[i], &x))
			return "malformed number in reduced_cmp";
		if (m->cmp_field[i] >= 0)
			set_extreme(&r->q[k], m->cmp_field[i], x);
	}
	r->has_q |= 1 << k;
	return NULL;
}

const char *profile_reduced_record(struct profile *p, const struct profile_reduced_map *m,
				   char **f, int n)
{
	int cmp = !strcmp(f[0], "reduced_cmp");
	struct profile_reduced *r;

	if (!(cmp ? m->cmp_nr : m->nr))
		return "reduced record before its columns";
	if (n < 2 || !(r = node_record(p, f[1])))
		return "reduced record refers to an unknown node";
	if (cmp)
		return read_cmp(r, m, f, n);
	if (n != m->nr)
		return "reduced does not match its columns";
	for (int i = 2; i < n; i++) {
		double x;
		if (number(f[i], &x))
			return "malformed number in reduced: must be finite, of magnitude at "
			       "most 1e15";
		if (m->field[i] >= 0)
			r->v[m->field[i]] = x;
	}
	return NULL;
}

const char *profile_reduced_check(struct profile *p, double ranks, double threads)
{
	if (ranks < 0 && !p->reduced)
		return NULL;
	if (ranks < 1 || ranks > 1 << 30 || threads < 1 || threads > 1 << 16 || !p->reduced)
		return "a reduced profile needs meta reduced, reduced_threads and its records";
	for (size_t i = 0; i < p->nr_nodes; i++) {
		if (isnan(p->reduced[i].v[PROFILE_RED_EXEC]) ||
		    p->reduced[i].has_q != (1 << PROFILE_RED_NR_QUANTITIES) - 1)
			return "a node of the reduced profile has no complete reduced record";
	}
	p->reduced_ranks = (int)ranks;
	p->reduced_threads = (int)threads;
	return NULL;
}
