/* Writes this process's profile (format: tracer/PROFILE.md) into $SCALEGATE_OUT, atomically. */
#include "writer.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sg_buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = b->alloc - b->len;
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = 1;
			return;
		}
		if ((size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		size_t alloc = (b->alloc ? b->alloc : 4096) * 2 + (size_t)n;
		char *p = realloc(b->p, alloc);
		if (!p) {
			b->failed = 1;
			return;
		}
		b->p = p;
		b->alloc = alloc;
	}
}

/* Strings go on one line: backslash, tab, newline and CR are escaped. */
void sg_buf_escaped(struct buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': sg_buf_printf(b, "\\\\"); break;
		case '\t': sg_buf_printf(b, "\\t"); break;
		case '\n': sg_buf_printf(b, "\\n"); break;
		case '\r': sg_buf_printf(b, "\\r"); break;
		default: sg_buf_printf(b, "%c", *s);
		}
	}
}

static void meta_str(struct buf *b, const char *key, const char *value)
{
	sg_buf_printf(b, "meta\t%s\t", key);
	sg_buf_escaped(b, value);
	sg_buf_printf(b, "\n");
}

static void meta_num(struct buf *b, const char *key, double value)
{
	sg_buf_printf(b, "meta\t%s\t%.17g\n", key, value);
}

static void meta_int_or_absent(struct buf *b, const char *key, long value)
{
	if (value < 0)
		sg_buf_printf(b, "meta\t%s\t-\n", key);
	else
		sg_buf_printf(b, "meta\t%s\t%ld\n", key, value);
}

static void command_line(char *out, size_t size)
{
	int fd = open("/proc/self/cmdline", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, out, size - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	out[n] = '\0';
	for (ssize_t i = 0; i + 1 < n; i++)
		if (!out[i])
			out[i] = ' ';
}

/* "none" says MPI calls were not captured; with no MPI library in the process there are none to
 * capture. */
static const char *mpi_mode(void)
{
	if (strcmp(sg_mpi_mode, "none") || dlsym(RTLD_DEFAULT, "PMPI_Init") ||
	    dlsym(RTLD_DEFAULT, "MPI_Init"))
		return sg_mpi_mode;
	return "absent";
}

const char *sg_profile_note;

void sg_write_meta(struct buf *b, const struct sg_job_meta *job)
{
	char host[256] = "?", cmd[4096];
	double unmatched = 0, unclosed = 0, dropped = 0;

	gethostname(host, sizeof(host) - 1);
	command_line(cmd, sizeof(cmd));
	for (int i = 0; i < sg_thread_count(); i++) {
		struct sg_thread *t = sg_thread_at(i);
		unmatched += (double)t->unmatched_end;
		unclosed += (double)t->unclosed;
		dropped += (double)t->dropped;
	}
	meta_str(b, "host", host);
	meta_num(b, "pid", (double)getpid());
	if (job) {
		unmatched = job->errors[0];
		unclosed = job->errors[1];
		dropped = job->errors[2];
	}
	meta_int_or_absent(b, "rank", job ? -1 : sg_rank);
	meta_int_or_absent(b, "ranks", sg_ranks);
	if (job) {
		meta_num(b, "reduced", job->ranks);
		meta_num(b, "reduced_threads", job->threads);
		meta_num(b, "reduce_seconds", job->seconds);
	}
	if (sg_profile_note)
		meta_str(b, "note", sg_profile_note);
	meta_str(b, "cmdline", cmd);
	meta_str(b, "clock", sg_clock_name());
	meta_num(b, "clock_hz", sg_clock_hz());
	meta_num(b, "clock_resolution", sg_clock_resolution());
	meta_num(b, "clock_drift", sg_clock_drift());
	meta_num(b, "start_unix", sg_start_unix);
	meta_str(b, "omp", sg_omp_mode);
	meta_str(b, "mpi", mpi_mode());
	meta_str(b, "sched", sg_sched_on ? "schedstat" : "none");
	meta_int_or_absent(b, "cpus", sg_cpus);
	meta_num(b, "threads_max", job ? job->threads_max : (double)sg_thread_count());
	meta_num(b, "errors_unmatched_end", unmatched);
	meta_num(b, "errors_unclosed", unclosed);
	meta_num(b, "errors_dropped", dropped);
}

static void write_tables(struct buf *b)
{
	sg_buf_printf(b, "columns\tregion\tid\tname\tfile\tline\n");
	for (uint32_t i = 0; i < sg_region_count(); i++) {
		const struct sg_region_info *r = sg_region_at(i);
		sg_buf_printf(b, "region\t%u\t", i);
		sg_buf_escaped(b, r->name);
		sg_buf_printf(b, "\t");
		sg_buf_escaped(b, r->file);
		sg_buf_printf(b, "\t%d\n", r->line);
	}
	sg_buf_printf(b, "columns\tnode\tid\tparent\tregion\ttag\n");
	for (uint32_t i = 0; i < sg_node_count(); i++) {
		const struct sg_node_info *n = sg_node_at(i);
		if (n->parent == UINT32_MAX)
			sg_buf_printf(b, "node\t%u\t-\t%u\t", i, n->region);
		else
			sg_buf_printf(b, "node\t%u\t%u\t%u\t", i, n->parent, n->region);
		if (n->tag == SG_NO_TAG)
			sg_buf_printf(b, "-\n");
		else
			sg_buf_printf(b, "%ld\n", n->tag);
	}
	sg_buf_printf(b, "columns\tthread\tid\tomp_thread\tkind\n");
	for (int i = 0; i < sg_thread_count(); i++) {
		struct sg_thread *t = sg_thread_at(i);
		sg_buf_printf(b, "thread\t%d\t", i);
		if (t->omp_thread >= 0)
			sg_buf_printf(b, "%d", t->omp_thread);
		else
			sg_buf_printf(b, "-");
		sg_buf_printf(b, "\t%s\n", t->is_main ? "main" : "worker");
	}
}

/* A column's value as the profile holds it, from the tracer's unit (format/columns.h, 'unit'). */
#define UNIT_COUNT(v) ((double)(v))
#define UNIT_TICKS(v) ((double)(v) * sec)
#define UNIT_TICKS2(v) ((double)(v) * sec * sec)
#define UNIT_NS(v) ((double)(v) * 1e-9)
#define UNIT_IS_COUNT 1
#define UNIT_IS_TICKS 0
#define UNIT_IS_TICKS2 0
#define UNIT_IS_NS 0

/* When the tracer has a column's value (format/columns.h, 'captured'), from the thread 't', its
 * record 's', whether OpenMP was captured ('omp') and the MPI operation kind ('kind'). */
#define CAPTURED_ALWAYS 1
#define CAPTURED_ENTERED (s->count != 0)
#define CAPTURED_OMP omp
#define CAPTURED_CPU (!t->cpu_lost)
#define CAPTURED_RQ (sg_sched_on && !t->rq_lost)
#define CAPTURED_RQ_OMP (sg_sched_on && omp)
#define CAPTURED_CPU_OMP (!t->cpu_lost && omp)
#define CAPTURED_MPI_RQ (sg_mpi_sync_on && !t->rq_lost)
#define CAPTURED_MPI_CPU (sg_mpi_sync_on && !t->cpu_lost)
#define CAPTURED_WAIT sg_mpi_kind_wait_measured(kind)

void sg_stat_values(const struct sg_thread *t, const struct sg_stat *s, double sec, int omp,
		    double *v)
{
#define X(id, name, field, unit, captured, sign) \
	v[SG_COL_##id] = CAPTURED_##captured ? UNIT_##unit(s->field) : NAN;
	SG_STAT_COLUMNS(X)
#undef X
}

void sg_mpi_values(const struct sg_mpi_stat *s, int kind, double sec, double *v)
{
#define X(id, name, field, unit, captured, sign) \
	v[SG_MCOL_##id] = CAPTURED_##captured ? UNIT_##unit(s->field) : NAN;
	SG_MPI_COLUMNS(X)
#undef X
}

static const int stat_is_count[] = {
#define X(id, name, field, unit, captured, sign) UNIT_IS_##unit,
	SG_STAT_COLUMNS(X)
#undef X
};

static const int mpi_is_count[] = {
#define X(id, name, field, unit, captured, sign) UNIT_IS_##unit,
	SG_MPI_COLUMNS(X)
#undef X
};

/* A value as the profile holds it, read back: %.9g of seconds. */
static double written(double x)
{
	char b[40];

	snprintf(b, sizeof(b), "%.9g", x);
	return strtod(b, NULL);
}

void sg_stat_values_written(double *v)
{
	for (int c = 0; c < SG_NR_STAT_COLUMNS; c++)
		if (!stat_is_count[c])
			v[c] = written(v[c]);
}

void sg_mpi_values_written(double *v)
{
	for (int c = 0; c < SG_NR_MPI_COLUMNS; c++)
		if (!mpi_is_count[c])
			v[c] = written(v[c]);
}

/* The columns record of a record type: its key fields, then the table's names. */
static void write_columns(struct buf *b, const char *keys, const char *const *names, int n)
{
	sg_buf_printf(b, "columns\t%s", keys);
	for (int c = 0; c < n; c++)
		sg_buf_printf(b, "\t%s", names[c]);
	sg_buf_printf(b, "\n");
}

/* The values of one record: integers as such, times to 9 digits, '-' where not captured. */
static void write_values(struct buf *b, const double *v, const int *is_count, int n)
{
	for (int c = 0; c < n; c++)
		if (isnan(v[c]))
			sg_buf_printf(b, "\t-");
		else if (is_count[c])
			sg_buf_printf(b, "\t%.0f", v[c]);
		else
			sg_buf_printf(b, "\t%.9g", v[c]);
	sg_buf_printf(b, "\n");
}

static const char *const stat_names[] = {
#define X(id, name, field, unit, captured, sign) name,
	SG_STAT_COLUMNS(X)
#undef X
};

static const char *const mpi_names[] = {
#define X(id, name, field, unit, captured, sign) name,
	SG_MPI_COLUMNS(X)
#undef X
};

static void write_stats(struct buf *b)
{
	double sec = 1.0 / sg_clock_hz(), v[SG_NR_STAT_COLUMNS];
	int omp = strcmp(sg_omp_mode, "none") != 0;

	write_columns(b, "stat\tnode\tthread", stat_names, SG_NR_STAT_COLUMNS);
	for (int i = 0; i < sg_thread_count(); i++) {
		struct sg_thread *t = sg_thread_at(i);
		for (uint32_t n = 0; n < sg_node_count(); n++) {
			struct sg_stat *s = t->chunks[n / SG_CHUNK]
						    ? &t->chunks[n / SG_CHUNK][n % SG_CHUNK]
						    : NULL;
			if (!s || !(s->count || s->time))
				continue;
			sg_stat_values(t, s, sec, omp, v);
			sg_buf_printf(b, "stat\t%u\t%d", n, t->slot);
			write_values(b, v, stat_is_count, SG_NR_STAT_COLUMNS);
		}
	}
}

static const char *mpi_kind_names[] = {
#define X(id, name, coll) name,
	SG_MPI_KINDS(X)
#undef X
};

/* Exact mode measures waiting only for the blocking collectives; for other kinds it stays absent.
 */
static const int mpi_kind_collective[] = {
#define X(id, name, coll) coll,
	SG_MPI_KINDS(X)
#undef X
};

/* Measured always for receives (tracer/mpi-wait.c) and waits; for blocking collectives in exact
 * mode. */
int sg_mpi_kind_wait_measured(int kind)
{
	return kind == SG_MPI_RECV || kind == SG_MPI_SENDRECV || kind == SG_MPI_WAIT ||
	       (sg_mpi_wait_measured && mpi_kind_collective[kind]);
}

static void write_mpi(struct buf *b)
{
	double sec = 1.0 / sg_clock_hz(), v[SG_NR_MPI_COLUMNS];

	if (!strcmp(sg_mpi_mode, "none"))
		return;
	write_columns(b, "mpi\tnode\tthread\tkind", mpi_names, SG_NR_MPI_COLUMNS);
	for (int i = 0; i < sg_thread_count(); i++) {
		struct sg_thread *t = sg_thread_at(i);
		for (uint32_t n = 0; n < sg_node_count(); n++) {
			struct sg_mpi_stat *c = t->mpi_chunks[n / SG_CHUNK];
			for (int k = 0; c && k < SG_MPI_NKINDS; k++) {
				struct sg_mpi_stat *m = &c[(n % SG_CHUNK) * SG_MPI_NKINDS + k];
				if (!m->count)
					continue;
				sg_mpi_values(m, k, sec, v);
				sg_buf_printf(b, "mpi\t%u\t%d\t%s", n, i, mpi_kind_names[k]);
				write_values(b, v, mpi_is_count, SG_NR_MPI_COLUMNS);
			}
		}
	}
}

/* The sites of annotation mistakes (errors.c), so that the gate can name them. */
static void write_errors(struct buf *b)
{
	if (!sg_error_site_count())
		return;
	sg_buf_printf(b, "columns\terror\tkind\tnode\tregion\tline\tcount\n");
	for (int i = 0; i < sg_error_site_count(); i++) {
		const struct sg_error_site *e = sg_error_site_at(i);
		sg_buf_printf(b, "error\t%s\t%u\t%u\t%d\t%llu\n", sg_error_name(e->kind), e->node,
			   e->region, e->line, (unsigned long long)e->count);
	}
}

/* FNV-1a over everything before the 'end' line: catches truncation and corruption. */
static uint64_t checksum(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	return h;
}

static int mkdir_p(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);

	if (n >= sizeof(path))
		return -1;
	memcpy(path, dir, n + 1);
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

int sg_write_sealed(const char *dir, const char *name, struct buf *b)
{
	char path[4096], tmp[4200];
	size_t done = 0;
	int fd;

	sg_buf_printf(b, "end\t%016llx\n", (unsigned long long)checksum(b->p, b->len));
	if (b->failed || mkdir_p(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/%s.sgprof", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	while (done < b->len) {
		ssize_t w = write(fd, b->p + done, b->len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			unlink(tmp);
			return -1;
		}
		done += (size_t)w;
	}
	if (close(fd) || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int sg_write(const char *dir)
{
	struct buf b = { 0 };
	char host[64] = "host", name[256];
	int ret;

	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	if (sg_rank >= 0)
		snprintf(name, sizeof(name), "rank%05d.%s.%d", sg_rank, host, (int)getpid());
	else
		snprintf(name, sizeof(name), "%s.%d", host, (int)getpid());
	pthread_mutex_lock(&sg_lock);
	sg_buf_printf(&b, "scalegate-profile\t%d\n", SG_PROFILE_VERSION);
	sg_write_meta(&b, NULL);
	write_tables(&b);
	write_stats(&b);
	write_mpi(&b);
	write_errors(&b);
	pthread_mutex_unlock(&sg_lock);
	ret = sg_write_sealed(dir, name, &b);
	free(b.p);
	return ret;
}
