/* Reader of the tracer's profile files (format: tracer/PROFILE.md), the only contract between
 * tracer and gate. */
#include "results/profile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/secret.h"
#include "base/util.h"
#include "results/profile-reduced.h"
#include "results/tsv.h"

#define MAX_FIELDS 64

static const char *column_names[] = {
#define X(id, name, field, unit, captured, sign) name,
	SG_STAT_COLUMNS(X)
#undef X
};

static const char *mpi_column_names[] = {
#define X(id, name, field, unit, captured, sign) name,
	SG_MPI_COLUMNS(X)
#undef X
};

/* The columns that may be negative (corrections: rq_sync, mpi_sync), bit c for column c. */
#define SIGNED_SIGNED 1ul
#define SIGNED_UNSIGNED 0ul
static const unsigned long signed_columns = 0
#define X(id, name, field, unit, captured, sign) | SIGNED_##sign << PROFILE_##id
	SG_STAT_COLUMNS(X)
#undef X
	;
static const unsigned long signed_mpi_columns = 0
#define X(id, name, field, unit, captured, sign) | SIGNED_##sign << PROFILE_MPI_##id
	SG_MPI_COLUMNS(X)
#undef X
	;

/* Reading state: which file column feeds which known column, per record type. */
struct reader {
	struct profile *p;
	int lineno;
	int stat_map[MAX_FIELDS]; /* file field index -> enum profile_column, or -1 */
	int have_stat_columns;
	int mpi_map[MAX_FIELDS];
	int have_mpi_columns;
	size_t path_bytes;        /* of every node's path so far: bounded, however the nodes nest */
	struct profile_reduced_map reduced;
};

const char *profile_column_name(enum profile_column c)
{
	return column_names[c];
}

const char *profile_mpi_column_name(enum profile_mpi_column c)
{
	return mpi_column_names[c];
}

void profile_data_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
}

void profile_data_release(struct profile *p)
{
	for (size_t i = 0; i < p->nr_meta; i++) {
		free(p->meta[i].key);
		free(p->meta[i].value);
	}
	for (size_t i = 0; i < p->nr_regions; i++) {
		free(p->regions[i].name);
		free(p->regions[i].file);
	}
	for (size_t i = 0; i < p->nr_nodes; i++)
		free(p->nodes[i].path);
	free(p->meta);
	free(p->regions);
	free(p->nodes);
	free(p->threads);
	free(p->stats);
	free(p->mpi);
	free(p->errors);
	free(p->reduced);
	free(p->path);
	profile_data_init(p);
}

static int bad(struct reader *r, const char *what)
{
	return gate_error("%s:%d: corrupt profile: %s", r->p->path, r->lineno, what);
}

static int parse_long(const char *s, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

/* '-' is an absent value: NAN, so it can never pass for a measured zero. */
static int parse_value(const char *s, double *out)
{
	char *end;

	if (!strcmp(s, "-")) {
		*out = NAN;
		return 0;
	}
	errno = 0;
	*out = strtod(s, &end);
	return errno || end == s || *end ? -1 : 0;
}

static int read_meta(struct reader *r, char **f, int n)
{
	struct profile *p = r->p;

	if (n != 3)
		return bad(r, "meta needs a key and a value");
	ALLOC_GROW(p->meta, p->nr_meta + 1, p->alloc_meta);
	p->meta[p->nr_meta].key = xstrdup(f[1]);
	p->meta[p->nr_meta].value = tsv_unescape(f[2]);
	p->nr_meta++;
	return 0;
}

/* Maps the named fields of an 'mpi' columns record; the first three are node, thread, kind. */
static int read_mpi_columns(struct reader *r, char **f, int n)
{
	if (n < 5 || strcmp(f[2], "node") || strcmp(f[3], "thread") || strcmp(f[4], "kind"))
		return bad(r, "mpi columns must start with node, thread and kind");
	for (int i = 5; i < n && i <= MAX_FIELDS; i++) {
		r->mpi_map[i - 1] = -1;
		for (int c = 0; c < PROFILE_MPI_NR_COLUMNS; c++)
			if (!strcmp(f[i], mpi_column_names[c])) {
				r->mpi_map[i - 1] = c;
				r->p->mpi_columns |= 1ul << c;
			}
	}
	r->have_mpi_columns = n - 1;
	return 0;
}

static int read_columns(struct reader *r, char **f, int n)
{
	if (n < 2)
		return bad(r, "columns without a record type");
	if (!strcmp(f[1], "mpi"))
		return read_mpi_columns(r, f, n);
	if (!strcmp(f[1], "reduced") || !strcmp(f[1], "reduced_cmp")) {
		const char *why = profile_reduced_columns(&r->reduced, f, n);
		return why ? bad(r, why) : 0;
	}
	if (strcmp(f[1], "stat"))
		return 0; /* region, node and thread columns are fixed in version 1 */
	for (int i = 2; i < n; i++) {
		r->stat_map[i - 1] = -1;
		for (int c = 0; c < PROFILE_NR_COLUMNS; c++)
			if (!strcmp(f[i], column_names[c])) {
				r->stat_map[i - 1] = c;
				r->p->stat_columns |= 1ul << c;
			}
	}
	if (r->stat_map[1] != -1 || strcmp(f[2], "node") || n < 4 || strcmp(f[3], "thread"))
		return bad(r, "stat columns must start with node and thread");
	r->have_stat_columns = n - 1;
	return 0;
}

static int read_region(struct reader *r, char **f, int n)
{
	struct profile *p = r->p;
	long long id, line;

	if (n != 5 || parse_long(f[1], &id) || parse_long(f[4], &line) ||
	    id != (long long)p->nr_regions)
		return bad(r, "malformed region");
	ALLOC_GROW(p->regions, p->nr_regions + 1, p->alloc_regions);
	p->regions[p->nr_regions++] = (struct profile_region){tsv_unescape(f[2]),
							      tsv_unescape(f[3]), (int)line};
	return 0;
}

char *profile_node_path(const struct profile *p, const struct profile_node *n)
{
	const char *name = p->regions[n->region].name;

	if (n->parent < 0)
		return xstrdup(name);
	if (n->has_tag)
		return xstrfmt("%s/%s[%lld]", p->nodes[n->parent].path, name, n->tag);
	return xstrfmt("%s/%s", p->nodes[n->parent].path, name);
}

static int read_node(struct reader *r, char **f, int n)
{
	struct profile *p = r->p;
	struct profile_node node = { 0 };
	long long id, parent = -1, region;

	if (n != 5 || parse_long(f[1], &id) || id != (long long)p->nr_nodes ||
	    (strcmp(f[2], "-") && parse_long(f[2], &parent)) || parse_long(f[3], &region))
		return bad(r, "malformed node");
	if (parent >= id || (parent < 0 && id) || region < 0 || region >= (long long)p->nr_regions)
		return bad(r, "node refers to an unknown parent or region");
	node.parent = (int)parent;
	node.region = (int)region;
	node.has_tag = strcmp(f[4], "-") != 0;
	if (node.has_tag && parse_long(f[4], &node.tag))
		return bad(r, "malformed node tag");
	node.depth = parent < 0 ? 0 : p->nodes[parent].depth + 1;
	if (node.depth > PROFILE_MAX_DEPTH)
		return bad(r, "node nested deeper than " PROFILE_MAX_DEPTH_TEXT " levels (the "
			   "tracer never writes deeper)");
	node.path = profile_node_path(p, &node);
	r->path_bytes += strlen(node.path) + 1;
	if (r->path_bytes > PROFILE_MAX_PATH_BYTES) {
		free(node.path);
		return bad(r, "the nodes' call paths add up to more than 64 MiB");
	}
	ALLOC_GROW(p->nodes, p->nr_nodes + 1, p->alloc_nodes);
	p->nodes[p->nr_nodes++] = node;
	return 0;
}

static int read_thread(struct reader *r, char **f, int n)
{
	struct profile *p = r->p;
	long long id, omp = -1;

	if (n != 4 || parse_long(f[1], &id) || id != (long long)p->nr_threads ||
	    (strcmp(f[2], "-") && parse_long(f[2], &omp)))
		return bad(r, "malformed thread");
	ALLOC_GROW(p->threads, p->nr_threads + 1, p->alloc_threads);
	p->threads[p->nr_threads++] = (struct profile_thread){ (int)omp, !strcmp(f[3], "main") };
	return 0;
}

/* The node and thread that start a stat or mpi record, checked against the tables read so far. */
static int read_node_thread(struct reader *r, char **f, int *node, int *thread, const char *what)
{
	const struct profile *p = r->p;
	long long nd, th;

	if (parse_long(f[1], &nd) || parse_long(f[2], &th) ||
	    nd < 0 || nd >= (long long)p->nr_nodes || th < 0 || th >= (long long)p->nr_threads) {
		char msg[64];
		snprintf(msg, sizeof(msg), "%s refers to an unknown node or thread", what);
		return bad(r, msg);
	}
	*node = (int)nd;
	*thread = (int)th;
	return 0;
}

/* Fields f[from..n) mapped by 'map' into 'v' (nv known columns named 'names'); unmapped ones are
 * skipped. Every known column is a time, a count or a byte count: finite and not negative, or '-';
 * the columns of 'signed_columns' (bit c for column c) may be negative (corrections: rq_sync,
 * mpi_sync).
 */
static int read_mapped(struct reader *r, char **f, int from, int n, const int *map, double *v,
		       int nv, const char *const *names, const char *what,
		       unsigned long signed_columns)
{
	for (int c = 0; c < nv; c++)
		v[c] = NAN;
	for (int i = from; i < n; i++) {
		char msg[160];
		double x;
		if (parse_value(f[i], &x)) {
			snprintf(msg, sizeof(msg), "malformed number in %s", what);
			return bad(r, msg);
		}
		if (map[i] < 0)
			continue;
		double lo = signed_columns >> map[i] & 1 ? -PROFILE_MAX_VALUE : 0;
		if (strcmp(f[i], "-") && (!isfinite(x) || x < lo || fabs(x) > PROFILE_MAX_VALUE)) {
			/* The bound keeps derived figures finite (Total_time = time x processors).
			 */
			snprintf(msg, sizeof(msg), "%s column '%s' is '%.40s': must be a finite "
				 "number, %sat most 1e15", what, names[map[i]], f[i],
				 lo < 0 ? "of magnitude " : "not negative, ");
			return bad(r, msg);
		}
		v[map[i]] = x;
	}
	return 0;
}

static int read_stat(struct reader *r, char **f, int n)
{
	struct profile *p = r->p;
	struct profile_stat s;

	if (!r->have_stat_columns || n != r->have_stat_columns)
		return bad(r, "stat does not match its columns");
	if (read_node_thread(r, f, &s.node, &s.thread, "stat") ||
	    read_mapped(r, f, 3, n, r->stat_map, s.v, PROFILE_NR_COLUMNS, column_names, "stat",
			signed_columns))
		return -1;
	ALLOC_GROW(p->stats, p->nr_stats + 1, p->alloc_stats);
	p->stats[p->nr_stats++] = s;
	return 0;
}

static int read_mpi(struct reader *r, char **f, int n)
{
	struct profile *p = r->p;
	struct profile_mpi m;

	if (!r->have_mpi_columns || n != r->have_mpi_columns)
		return bad(r, "mpi does not match its columns");
	if (read_node_thread(r, f, &m.node, &m.thread, "mpi"))
		return -1;
	if (strlen(f[3]) >= sizeof(m.kind))
		return bad(r, "mpi kind too long");
	strcpy(m.kind, f[3]);
	if (read_mapped(r, f, 4, n, r->mpi_map, m.v, PROFILE_MPI_NR_COLUMNS, mpi_column_names,
			"mpi", signed_mpi_columns))
		return -1;
	ALLOC_GROW(p->mpi, p->nr_mpi + 1, p->alloc_mpi);
	p->mpi[p->nr_mpi++] = m;
	return 0;
}

static int read_error(struct reader *r, char **f, int n)
{
	struct profile *p = r->p;
	struct profile_error e = { { 0 }, 0, 0, 0, 0 };
	long long node, region, line;

	if (n != 6 || strlen(f[1]) >= sizeof(e.kind) || parse_long(f[2], &node) ||
	    parse_long(f[3], &region) || parse_long(f[4], &line) || parse_value(f[5], &e.count) ||
	    !isfinite(e.count) || e.count < 0)
		return bad(r, "malformed error");
	if (node < 0 || node >= (long long)p->nr_nodes || region < 0 ||
	    region >= (long long)p->nr_regions || line < 0 || line > 1000000000)
		return bad(r, "error refers to an unknown node or region");
	strcpy(e.kind, f[1]);
	e.node = (int)node;
	e.region = (int)region;
	e.line = (int)line;
	ALLOC_GROW(p->errors, p->nr_errors + 1, p->alloc_errors);
	p->errors[p->nr_errors++] = e;
	return 0;
}

static int read_reduced(struct reader *r, char **f, int n)
{
	const char *why = profile_reduced_record(r->p, &r->reduced, f, n);

	return why ? bad(r, why) : 0;
}

static const struct {
	const char *type;
	int (*fn)(struct reader *, char **, int);
} record_types[] = {
	{ "meta", read_meta },
	{ "columns", read_columns },
	{ "region", read_region },
	{ "node", read_node },
	{ "thread", read_thread },
	{ "stat", read_stat },
	{ "mpi", read_mpi },
	{ "error", read_error },
	{ "reduced", read_reduced },
	{ "reduced_cmp", read_reduced },
};

static int read_record(struct reader *r, char *line)
{
	char *f[MAX_FIELDS];
	int n = 0;

	for (char *s = line;; s++) {
		if (n == MAX_FIELDS)
			return bad(r, "too many fields");
		f[n++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s = '\0';
	}
	for (size_t i = 0; i < ARRAY_SIZE(record_types); i++)
		if (!strcmp(f[0], record_types[i].type))
			return record_types[i].fn(r, f, n);
	return 0; /* record types from newer tracers are skipped */
}

/* The last line must be 'end <checksum of everything before it>'. */
static int check_end(struct profile *p, struct strbuf *sb, size_t *body_len)
{
	char *end;
	unsigned long long want;

	if (sb->len < 2 || sb->buf[sb->len - 1] != '\n')
		return gate_error("'%s' is truncated: no end record", p->path);
	sb->buf[sb->len - 1] = '\0';
	end = strrchr(sb->buf, '\n');
	if (!end || strncmp(end + 1, "end\t", 4))
		return gate_error("'%s' is truncated: no end record", p->path);
	*body_len = (size_t)(end + 1 - sb->buf);
	if (sscanf(end + 5, "%llx", &want) != 1 || want != fnv1a64(sb->buf, *body_len))
		return gate_error("'%s' is corrupt: checksum mismatch", p->path);
	return 0;
}

static int check_header(struct profile *p, const char *first)
{
	if (strncmp(first, "scalegate-profile\t", 18))
		return gate_error("'%s' is not a scalegate profile", p->path);
	p->version = atoi(first + 18);
	if (p->version < 1 || p->version > PROFILE_VERSION)
		return gate_error("'%s': profile version %d is not supported (this scalegate reads "
				  "versions 1 to %d)",
				  p->path, p->version, PROFILE_VERSION);
	return 0;
}

/* The tracer always records the main thread's level-0 interval: without it, nothing was
 * measured. A reduced profile holds a record of every interval (profile_reduced_check). */
static int root_measured(const struct profile *p)
{
	if (p->reduced_ranks)
		return 1;
	for (size_t i = 0; i < p->nr_stats; i++)
		if (p->stats[i].node == 0 && !isnan(p->stats[i].v[PROFILE_TIME]))
			return 1;
	return 0;
}

int profile_read(struct profile *p, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct reader r = { .p = p };
	size_t body_len = 0;
	char *line, *next;
	const char *why;
	int ret = -1;

	profile_data_init(p);
	p->path = xstrdup(path);
	if (strbuf_read_file(&sb, path))
		goto out;
	next = strchr(sb.buf, '\n');
	if (!next) {
		ret = gate_error("'%s' is %s", path, sb.len ? "not a scalegate profile" : "empty");
		goto out;
	}
	*next = '\0';
	if (check_header(p, sb.buf))
		goto out;
	*next = '\n';
	if (check_end(p, &sb, &body_len))
		goto out;
	sb.buf[body_len - 1] = '\0';
	r.lineno = 1;
	line = strchr(sb.buf, '\n');
	for (line = line ? line + 1 : NULL; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r.lineno++;
		if (*line && read_record(&r, line))
			goto out;
	}
	if (!p->nr_nodes) {
		ret = gate_error("'%s' is corrupt: no level-0 interval", path);
		goto out;
	}
	why = profile_reduced_check(p, profile_meta_num(p, "reduced", -1),
				    profile_meta_num(p, "reduced_threads", -1));
	if (why) {
		ret = gate_error("'%s' is corrupt: %s", path, why);
		goto out;
	}
	if (!root_measured(p)) {
		ret = gate_error(
			"'%s' holds no measurements: no statistics of the level-0 interval "
			"(was the tracer built from objects of different versions?)",
			path);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&sb);
	if (ret)
		profile_data_release(p);
	return ret;
}

const char *profile_meta(const struct profile *p, const char *key)
{
	for (size_t i = 0; i < p->nr_meta; i++)
		if (!strcmp(p->meta[i].key, key))
			return p->meta[i].value;
	return NULL;
}

double profile_meta_num(const struct profile *p, const char *key, double fallback)
{
	const char *v = profile_meta(p, key);
	double d;

	if (!v || parse_value(v, &d) || isnan(d))
		return fallback;
	return d;
}

int profile_mask_secrets(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *end;
	unsigned long long want;
	int ret = 0;

	if (!secret_count())
		return 0;
	if (strbuf_read_file(&sb, path))
		return -1;
	end = sb.len > 1 && sb.buf[sb.len - 1] == '\n' ? memrchr(sb.buf, '\n', sb.len - 1) : NULL;
	if (!end || strncmp(end + 1, "end\t", 4) || sscanf(end + 5, "%llx", &want) != 1 ||
	    want != fnv1a64(sb.buf, (size_t)(end + 1 - sb.buf))) {
		strbuf_release(&sb);
		return secret_mask_file(path); /* not a sealed profile: masked as it is */
	}
	sb.len = (size_t)(end + 1 - sb.buf);
	sb.buf[sb.len] = '\0';
	if (secret_mask_strbuf(&sb)) {
		profile_seal(&sb);
		ret = write_file_atomic(path, sb.buf, sb.len);
	}
	strbuf_release(&sb);
	return ret;
}

/* The checksum record that profile_check() verifies (the tracer writes it alike). */
void profile_seal(struct strbuf *sb)
{
	strbuf_addf(sb, "end\t%016llx\n", fnv1a64(sb->buf, sb->len));
}
