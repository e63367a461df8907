/* The in-job reduction (tracer/MPI.md, "One profile per job"): at MPI_Finalize (or at exit) the
 * ranks merge their interval trees up a binomial tree, agree on what each rank's share needs of
 * the others (one allreduce), and reduce their shares to rank 0 (one reduce with our operator),
 * which writes the job's one profile. Every step is non-blocking and waited for with a deadline,
 * so a rank that died makes the others write their own profiles instead of hanging. */
#include "mpi-wrap.h"
#include "reduce-paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>

#define TAG 0x5347 /* on our own duplicate of MPI_COMM_WORLD: no message of the program's */

struct job {
	MPI_Comm comm;
	int rank, size, at_exit;
	double deadline;         /* CLOCK_MONOTONIC seconds; 0: none */
	struct sg_rview *rv;
	char *table;             /* the merged table of intervals, NUL-terminated */
	size_t table_len;
	struct sg_paths paths;
	double *ctx;             /* [interval][SG_CTX_LEN], then threads, threads_max, at_exit */
	struct sg_red *red;
	double errors[3];
	double arrived;          /* when every rank was there (seconds) */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Polls a request until it completes (0) or the deadline passes (-1: it is left pending). */
static int wait_for(const struct job *j, MPI_Request *req)
{
	unsigned polls = 0;
	int done = 0;

	for (;;) {
		if (PMPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (done)
			return 0;
		if (j->deadline > 0 && now_s() > j->deadline)
			return -1;
		if (++polls > 64) /* oversubscribed ranks: leave the core to the one we wait for */
			sched_yield();
	}
}

static int send_blob(const struct job *j, const char *p, size_t n, int to)
{
	unsigned long long len = n;
	MPI_Request r;

	if (PMPI_Isend(&len, 1, MPI_UNSIGNED_LONG_LONG, to, TAG, j->comm, &r) || wait_for(j, &r))
		return -1;
	return PMPI_Isend(p, (int)n, MPI_CHAR, to, TAG, j->comm, &r) || wait_for(j, &r) ? -1 : 0;
}

/* A blob from 'from', NUL-terminated; caller frees. */
static char *recv_blob(const struct job *j, int from, size_t *n)
{
	unsigned long long len = 0;
	MPI_Request r;
	char *p;

	if (PMPI_Irecv(&len, 1, MPI_UNSIGNED_LONG_LONG, from, TAG, j->comm, &r) ||
	    wait_for(j, &r) || len > (1ull << 31) || !(p = malloc(len + 1)))
		return NULL;
	if (PMPI_Irecv(p, (int)len, MPI_CHAR, from, TAG, j->comm, &r) || wait_for(j, &r)) {
		free(p);
		return NULL;
	}
	p[len] = '\0';
	*n = len;
	return p;
}

/* Whether every rank has the same table (the common case: one allreduce instead of the tree): 1,
 * and NUL-terminates it; 0 when not; -2 when a rank made an annotation mistake, whose sites the
 * job's profile cannot name: every rank then writes its own profile. */
static int same_everywhere(const struct job *j, struct buf *own)
{
	unsigned long long h = 14695981039346656037ull, hh[3];
	MPI_Request r;

	for (size_t i = 0; i < own->len; i++)
		h = (h ^ (unsigned char)own->p[i]) * 1099511628211ull;
	hh[0] = h;
	hh[1] = ~h; /* its maximum is the complement of the least hash */
	pthread_mutex_lock(&sg_lock);
	hh[2] = sg_error_site_count() > 0;
	pthread_mutex_unlock(&sg_lock);
	if (PMPI_Iallreduce(MPI_IN_PLACE, hh, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, j->comm, &r) ||
	    wait_for(j, &r))
		return -1;
	if (hh[2])
		return -2;
	if (hh[0] != ~hh[1])
		return 0;
	sg_buf_printf(own, "%c", '\0');
	own->len--;
	return own->failed ? -1 : 1;
}

/* Up a binomial tree: each rank merges its children's tables into its own and sends the result to
 * its parent; rank 0 ends with every path and broadcasts it. log2(P) steps. */
static int merge_tables(struct job *j)
{
	struct buf own = { 0 };
	unsigned long long len;
	MPI_Request r;
	int same;

	pthread_mutex_lock(&sg_lock);
	sg_paths_local(j->rv, &own);
	pthread_mutex_unlock(&sg_lock);
	same = own.failed ? -1 : same_everywhere(j, &own);
	if (same) {
		j->table = same > 0 ? own.p : NULL;
		j->table_len = own.len;
		if (same < 0)
			free(own.p);
		return same > 0 ? 0 : same;
	}
	for (int mask = 1; mask < j->size && !own.failed; mask <<= 1) {
		if (j->rank & mask) {
			if (send_blob(j, own.p, own.len, j->rank - mask))
				own.failed = 1;
			break;
		}
		if (j->rank + mask >= j->size)
			continue;
		struct buf merged = { 0 };
		size_t n = 0;
		char *child = recv_blob(j, j->rank + mask, &n);
		if (!child || sg_paths_merge(own.p, own.len, child, n, &merged))
			merged.failed = 1;
		free(child);
		free(own.p);
		own = merged;
	}
	len = own.failed ? 0 : own.len;
	if (PMPI_Ibcast(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, j->comm, &r) || wait_for(j, &r) ||
	    !len || (j->rank && !(own.p = realloc(own.p, len + 1)))) {
		free(own.p);
		return -1;
	}
	if (PMPI_Ibcast(own.p, (int)len, MPI_CHAR, 0, j->comm, &r) || wait_for(j, &r)) {
		free(own.p);
		return -1;
	}
	own.p[len] = '\0';
	j->table = own.p;
	j->table_len = len;
	return 0;
}

static int omp_num_threads(void)
{
	const char *v = getenv("OMP_NUM_THREADS");
	int n = v ? atoi(v) : 0;

	return n > 0 && n < 1 << 16 ? n : 0;
}

/* The self_rate of this rank's host, as the gate computes it from the profiles' host, cpus and
 * threads: the node's ranks' threads against the most CPUs one of them was given. */
static double host_self_rate(const struct job *j)
{
	double demand = j->rv->threads > j->rv->threads_max ? j->rv->threads : j->rv->threads_max;
	double cpus = j->rv->cpus;
	MPI_Comm node;
	MPI_Request r[2];
	int ok;

	/* the node's communicator of the shared arrivals (mpi-node.c) when there is one: a split is
	 * an allgather */
	node = sg_mpi_node_comm();
	if (node == MPI_COMM_NULL &&
	    PMPI_Comm_split_type(j->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node))
		return -1;
	ok = !PMPI_Iallreduce(MPI_IN_PLACE, &demand, 1, MPI_DOUBLE, MPI_SUM, node, &r[0]) &&
	     !PMPI_Iallreduce(MPI_IN_PLACE, &cpus, 1, MPI_DOUBLE, MPI_MAX, node, &r[1]) &&
	     !wait_for(j, &r[0]) && !wait_for(j, &r[1]);
	if (node != sg_mpi_node_comm())
		PMPI_Comm_free(&node);
	if (!ok)
		return -1;
	return cpus > 0 && demand > cpus ? 1 - cpus / demand : 0;
}

/* What every rank's share needs of the others: one allreduce (MAX) over all intervals. */
static int agree_context(struct job *j)
{
	size_t n = j->paths.n, len = n * SG_CTX_LEN + 3;
	int threads = j->rv->threads > omp_num_threads() ? j->rv->threads : omp_num_threads();
	MPI_Request r;

	j->ctx = malloc(len * sizeof(double));
	if (!j->ctx || sg_rview_map(j->rv, j->paths.path, n))
		return -1;
	for (size_t i = 0; i < n; i++)
		sg_rview_context(j->rv, i, &j->ctx[i * SG_CTX_LEN]);
	j->ctx[len - 3] = threads;
	j->ctx[len - 2] = j->rv->threads_max;
	j->ctx[len - 1] = j->at_exit;
	return PMPI_Iallreduce(MPI_IN_PLACE, j->ctx, (int)len, MPI_DOUBLE, MPI_MAX, j->comm, &r) ||
	       wait_for(j, &r) ? -1 : 0;
}

static void combine(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	sg_red_combine(in, inout, (size_t)*len);
}

/* This rank's shares of every interval, reduced onto rank 0 (and the annotation mistakes'
 * counts). */
static int reduce_shares(struct job *j, double self_rate)
{
	size_t n = j->paths.n;
	struct sg_red_job job = { j->rank, (int)j->ctx[n * SG_CTX_LEN], self_rate };
	struct sg_red *own = malloc((n + 1) * sizeof(*own));
	MPI_Datatype type;
	MPI_Op op;
	MPI_Request r[2];
	int ret = -1;

	j->red = malloc((n + 1) * sizeof(*j->red));
	if (!own || !j->red || PMPI_Type_contiguous(SG_RED_LEN, MPI_DOUBLE, &type)) {
		free(own);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sg_rview_share(j->rv, i, &j->ctx[i * SG_CTX_LEN], &job, &own[i]);
	PMPI_Type_commit(&type);
	PMPI_Op_create(combine, 1, &op);
	if (!PMPI_Ireduce(own, j->red, (int)n, type, op, 0, j->comm, &r[0]) &&
	    !PMPI_Ireduce(j->rank ? j->errors : MPI_IN_PLACE, j->errors, 3, MPI_DOUBLE, MPI_SUM,
			  0, j->comm, &r[1]) &&
	    !wait_for(j, &r[0]) && !wait_for(j, &r[1]))
		ret = 0;
	if (!ret) { /* a pending reduction keeps its operator and type: freed only when done */
		PMPI_Op_free(&op);
		PMPI_Type_free(&type);
	}
	free(own);
	return ret;
}

static void job_errors(struct job *j)
{
	for (int i = 0; i < sg_thread_count(); i++) {
		struct sg_thread *t = sg_thread_at(i);
		j->errors[0] += (double)t->unmatched_end;
		j->errors[1] += (double)t->unclosed;
		j->errors[2] += (double)t->dropped;
	}
}

static int write_job(struct job *j, const char *dir)
{
	size_t n = j->paths.n;
	struct sg_job_meta meta = { j->size, (int)j->ctx[n * SG_CTX_LEN],
				    j->ctx[n * SG_CTX_LEN + 1],
				    { j->errors[0], j->errors[1], j->errors[2] },
				    now_s() - j->arrived };

	if (j->ctx[n * SG_CTX_LEN + 2] > 0)
		sg_profile_note = "reduced at exit: a rank never called MPI_Finalize; its "
				  "intervals still open were closed there";
	return sg_reduce_write(dir, &j->paths, j->red, &meta);
}

static double timeout(void)
{
	const char *v = getenv("SCALEGATE_REDUCE_TIMEOUT");
	double s = v ? atof(v) : 0;

	return s > 0 ? s : 60;
}

/* The steps after every rank has arrived; 0 when the job's profile is written (on rank 0), -2
 * when every rank is to write its own (annotation mistakes), -1 when it failed. */
static int reduce(struct job *j, const char *dir)
{
	double self_rate;
	MPI_Request r;
	int ret;

	j->arrived = now_s();
	j->deadline = j->arrived + timeout();
	pthread_mutex_lock(&sg_lock);
	j->rv = sg_rview_new();
	job_errors(j);
	pthread_mutex_unlock(&sg_lock);
	if (!j->rv)
		return -1;
	ret = merge_tables(j);
	if (ret || sg_paths_parse(j->table, j->table_len, &j->paths) || agree_context(j) ||
	    (self_rate = host_self_rate(j)) < 0 || reduce_shares(j, self_rate))
		return ret ? ret : -1;
	if (!j->rank && write_job(j, dir))
		sg_warn("cannot write the job's profile into '%s'", dir);
	/* no rank leaves before the profile is there: a launcher may end the job as soon as one
	 * exits (at exit, without MPI_Finalize, Open MPI's does) */
	return PMPI_Ibarrier(j->comm, &r) || wait_for(j, &r) ? -1 : 0;
}

static void job_release(struct job *j)
{
	if (j->comm != MPI_COMM_NULL)
		PMPI_Comm_free(&j->comm);
	sg_rview_free(j->rv);
	sg_paths_release(&j->paths);
	free(j->table);
	free(j->ctx);
	free(j->red);
}

/* SCALEGATE_PER_RANK=both: the ranks' own profiles too, in DIR/per-rank (for comparisons). */
static void write_own(const char *dir)
{
	char sub[4096];

	snprintf(sub, sizeof(sub), "%s/per-rank", dir);
	if (sg_write(sub))
		sg_warn("cannot write the profile into '%s'", sub);
}

int sg_mpi_reduce(const char *dir, int at_exit)
{
	const char *mode = getenv("SCALEGATE_PER_RANK");
	struct job j = { .comm = MPI_COMM_NULL, .at_exit = at_exit };
	int init = 0, fin = 0, ret;
	MPI_Request r;

	if ((mode && !strcmp(mode, "1")) || PMPI_Initialized(&init) || !init ||
	    PMPI_Finalized(&fin) || fin || sg_ranks < 2)
		return -1; /* a single rank's own profile is already the job's one, and richer */
	if (mode && !strcmp(mode, "both"))
		write_own(dir);
	/* the arrival: at MPI_Finalize as long as the slowest rank takes to get there (MPI_Finalize
	 * would wait for it too); at exit, a rank may never come */
	j.deadline = at_exit ? now_s() + timeout() : 0;
	if (PMPI_Comm_idup(MPI_COMM_WORLD, &j.comm, &r) || wait_for(&j, &r)) {
		j.comm = MPI_COMM_NULL;
		ret = -1;
	} else {
		PMPI_Comm_set_errhandler(j.comm, MPI_ERRORS_RETURN);
		PMPI_Comm_rank(j.comm, &j.rank);
		PMPI_Comm_size(j.comm, &j.size);
		ret = reduce(&j, dir);
	}
	if (ret == -2) {
		sg_profile_note = "this rank's own profile: a rank made an annotation mistake, "
				  "whose sites only the ranks' own profiles name";
	} else if (ret) {
		sg_profile_note = "this rank's own profile: the in-job reduction did not complete "
				  "within SCALEGATE_REDUCE_TIMEOUT (a rank died or never came)";
		sg_warn("the ranks' profiles were not reduced into one (a rank died?): each writes "
			"its own");
		j.comm = MPI_COMM_NULL; /* operations on it may still be pending: not freed */
	}
	job_release(&j);
	return ret;
}
