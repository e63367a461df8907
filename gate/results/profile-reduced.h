/* The records of a reduced profile (a job's one profile, tracer/PROFILE.md "Reduced profiles"),
 * for the profile reader (results/profile.c). */
#ifndef SG_PROFILE_REDUCED_H
#define SG_PROFILE_REDUCED_H

#include "results/profile.h"

#define PROFILE_REDUCED_MAX_FIELDS 64

/* Which file field feeds which column of the 'reduced' and 'reduced_cmp' records. */
struct profile_reduced_map {
	int field[PROFILE_REDUCED_MAX_FIELDS]; /* -1: a column this reader does not know */
	int nr;                                /* fields of a record; 0 before its columns */
	int cmp_nr;
	int cmp_field[PROFILE_REDUCED_MAX_FIELDS];
};

/* A 'columns reduced' or 'columns reduced_cmp' record (f[1] says which); NULL or what is wrong. */
const char *profile_reduced_columns(struct profile_reduced_map *m, char **f, int n);
/* A 'reduced' or 'reduced_cmp' record of p (its nodes read); NULL or what is wrong. */
const char *profile_reduced_record(struct profile *p, const struct profile_reduced_map *m,
				   char **f, int n);
/* After the last record: a profile with 'meta reduced' (its 'ranks', and 'threads' of meta
 * reduced_threads; -1 when absent) holds a record of every node; NULL or what is missing. */
const char *profile_reduced_check(struct profile *p, double ranks, double threads);

#endif
