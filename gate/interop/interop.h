/*
 * Other tools' data in and out (docs/interop.md): TALP and Caliper files imported as a results
 * directory of profiles, results exported to Extra-P's and Hatchet's formats.
 */
#ifndef SG_INTEROP_H
#define SG_INTEROP_H

#include <stddef.h>

#include "results/profile.h"

/* One imported run: the profiles of its processes (rank order) and its configuration. */
struct import_run {
	char *source;       /* the file it came from */
	char *benchmark, *size;
	int ranks, threads;
	double wall;        /* seconds; NAN when unknown */
	struct profile *p;  /* one per process */
	size_t nr_p;
};

struct import_set {
	struct import_run *run;
	size_t nr, alloc;
	char *date;         /* of the first run, for fingerprint.tsv; NULL when unknown */
	char *origin;       /* "TALP (DLB 3.5)", "Caliper": fingerprint.tsv's launcher */
};

void import_set_init(struct import_set *s);
void import_set_release(struct import_set *s);
/* A new run of 's' with no profiles yet; its strings are copied. */
struct import_run *import_add_run(struct import_set *s, const char *source,
				  const char *benchmark, const char *size);
/* A new, empty profile of 'r' for process 'rank' of 'r->ranks' (rank -1: a process without MPI),
 * with the meta records every imported profile carries. */
struct profile *import_add_profile(struct import_run *r, int rank, const char *tool);

/*
 * Writes 's' as a results directory DIR (created; one that already holds a manifest.tsv is an
 * error): manifest.tsv with the runs of one configuration numbered as repeats in the order given,
 * complete.tsv, fingerprint.tsv and one directory of profiles per run. 0, or gate_error().
 */
int import_write(const struct import_set *s, const char *dir);

/* TALP JSON (DLB 3.4 to 3.7, interop/talp.c): a file, or a directory of *.json files, each one
 * run. 0, or gate_error() naming the file and what is wrong. */
int talp_import(struct import_set *s, const char *path, const char *benchmark, const char *size);

/* Caliper's json-split (interop/caliper.c): one file, one run. 0, or gate_error(). */
int caliper_import(struct import_set *s, const char *path, const char *benchmark,
		   const char *size);

/*
 * Extra-P's JSON Lines (interop/extrap.c) of the analysis of results DIR into file 'out': one line
 * per interval x figure x configuration with the figure's value in each repeat. 'benchmark' may
 * be NULL when DIR holds one. Sets *lines; 0, or gate_error().
 */
int extrap_export(const char *dir, const char *benchmark, const char *out, size_t *lines);

struct manifest_row;
/*
 * One run of results DIR as Caliper json-split for Hatchet and Thicket (interop/hatchet.c) into
 * file 'out': the first successful run that 'pick' matches (its benchmark, size: NULL for any;
 * ranks, threads, repeat: 0 for any). 0, or gate_error().
 */
int hatchet_export(const char *dir, const struct manifest_row *pick, const char *out);

#endif
