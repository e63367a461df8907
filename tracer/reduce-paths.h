/* The job's intervals for the in-job reduction: every rank's call paths merged by path. */
#ifndef SG_REDUCE_PATHS_H
#define SG_REDUCE_PATHS_H

#include "reduce.h"
#include "writer.h"

/* A parsed table: record i's fields point into the blob it was parsed from (NUL-terminated). */
struct sg_paths {
	size_t n;
	char **path, **name, **file;
	int *line;
	int *has_tag;
	long *tag;
	int *parent; /* index of the record of the enclosing interval; -1 for the root (record 0) */
};

/* This rank's nodes as a sorted table (call with sg_lock held); 0 or -1. */
SG_HIDDEN int sg_paths_local(const struct sg_rview *rv, struct buf *out);
/* The union of two sorted tables, sorted: a path both hold is kept once (a's record). */
SG_HIDDEN int sg_paths_merge(const char *a, size_t alen, const char *b, size_t blen,
			     struct buf *out);
/* Parses 'len' bytes of a table in place; 0, or -1 for a table that is not a tree of paths. */
SG_HIDDEN int sg_paths_parse(char *blob, size_t len, struct sg_paths *t);
SG_HIDDEN void sg_paths_release(struct sg_paths *t);

/* Writes the job's profile into DIR: the table's intervals and their reduced records. 0 or -1. */
SG_HIDDEN int sg_reduce_write(const char *dir, const struct sg_paths *t, const struct sg_red *red,
			      const struct sg_job_meta *job);

#endif
