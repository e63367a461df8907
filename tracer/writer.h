/* The profile writer's pieces that the reduced profile (reduce-write.c) shares with this process's
 * own (writer.c): a growing text buffer, the meta records, sealing and the atomic write. */
#ifndef SG_WRITER_H
#define SG_WRITER_H

#include "format/columns.h"
#include "internal.h"

/* Version 2: version 1 and the reduced records of a job's one profile (tracer/PROFILE.md). */
#define SG_PROFILE_VERSION 2

struct buf {
	char *p;
	size_t len, alloc;
	int failed; /* out of memory: the profile is not written */
};

SG_HIDDEN void sg_buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Strings go on one line: backslash, tab, newline and CR are escaped. */
SG_HIDDEN void sg_buf_escaped(struct buf *b, const char *s);

/* What the meta records of a reduced profile say for the job instead of this process. */
struct sg_job_meta {
	int ranks;          /* ranks reduced into the profile */
	int threads;        /* processors per rank the figures count */
	double threads_max; /* the most threads of one rank */
	double errors[3];   /* errors_unmatched_end, errors_unclosed, errors_dropped: over ranks */
	double seconds;     /* of the reduction on rank 0: from every rank's arrival to the write */
};

/* The meta records: of this process (job NULL), or of the job whose reduced profile it writes. */
SG_HIDDEN void sg_write_meta(struct buf *b, const struct sg_job_meta *job);
/* Appends the end record and writes 'b' as DIR/NAME.sgprof through a temporary file; 0 or -1. */
SG_HIDDEN int sg_write_sealed(const char *dir, const char *name, struct buf *b);

/* The columns of thread t's record s as the profile holds them: seconds (sec: of a clock tick),
 * counts, NAN where not captured ('-'). omp: OpenMP was captured. */
SG_HIDDEN void sg_stat_values(const struct sg_thread *t, const struct sg_stat *s, double sec,
			      int omp, double *v);
/* The same of an mpi record of an operation kind (SG_NR_MPI_COLUMNS values). */
SG_HIDDEN void sg_mpi_values(const struct sg_mpi_stat *s, int kind, double sec, double *v);
/* The values as a reader reads them back: counts as they are, the others to 9 digits. */
SG_HIDDEN void sg_stat_values_written(double *v);
SG_HIDDEN void sg_mpi_values_written(double *v);

/* Whether the profile's 'wait' of an MPI operation kind is measured (else '-'). */
SG_HIDDEN int sg_mpi_kind_wait_measured(int kind);

/* A note the next profile carries as 'meta note' (how it was written), or NULL. */
SG_HIDDEN extern const char *sg_profile_note;

#endif
