/*
 * The results of one gate run in memory: manifest, completeness record, adaptive record,
 * fingerprint and profiles, each read from RESULTS once and then shared by the analyzer, the
 * judge, the reports and the adaptive loop, which appends its new rounds instead of reading the
 * directory again.
 */
#ifndef SG_RESULTS_H
#define SG_RESULTS_H

#include <stddef.h>

#include "results/adaptive.h"
#include "results/complete.h"
#include "results/manifest.h"
#include "results/profile.h"
#include "base/util.h"

/* The profiles of one run (one directory), in rank order; read on first use. */
struct results_run {
	struct profile *p;
	size_t n;
	int state;                   /* 0 not read yet, 1 read, -1 could not be read (reported) */
};

struct results {
	char *dir;
	int complete_state, adaptive_state, text_state, manifest_state, fingerprint_state;
	struct complete complete;    /* complete.tsv */
	struct adaptive adaptive;    /* adaptive.tsv */
	struct strbuf text;          /* manifest.tsv as read, for counting its lines */
	int has_manifest;            /* 0: a plain directory of profiles (results_whole) */
	struct manifest manifest;
	struct results_run *runs;    /* one per row of the manifest */
	size_t alloc_runs;
	struct results_run whole;    /* the profiles of a directory without a manifest */
	char **fingerprint;          /* fingerprint.tsv: key, value, key, value... */
	size_t nr_fingerprint;       /* strings in 'fingerprint' */
	int base_state;
	struct results *base;        /* A/B: RESULTS/base, the base revision's results; else NULL */
};

void results_init(struct results *r, const char *dir);
void results_release(struct results *r);

/* complete.tsv and adaptive.tsv ('present' 0 when absent): NULL when unreadable (reported). */
const struct complete *results_complete(struct results *r);
const struct adaptive *results_adaptive(struct results *r);
/* Lines of manifest.tsv that belong to 'benchmark', -1 when it cannot be read (reported). */
long results_manifest_lines(struct results *r, const char *benchmark);
/* Parses manifest.tsv (r->has_manifest 0 when there is none); 0 or -1 (reported). */
int results_load_manifest(struct results *r);
/* The fingerprint.tsv pairs (optional: none when unreadable); *nr counts the strings. */
char *const *results_fingerprint(struct results *r, size_t *nr);
/* The profiles of manifest row 'row', or of the whole directory when it has no manifest
 * (row ignored); 0, or -1 when they cannot be read (reported once). */
int results_profiles(struct results *r, size_t row, const struct profile **p, size_t *n);
/* The base revision's results of an A/B run (ab.tsv and base/manifest.tsv), else NULL. */
struct results *results_base(struct results *r);

/* A run the runner just recorded (adaptive rounds): appended to the manifest, counted in the
 * complete.tsv entry of its benchmark; its profiles are read when first used. */
void results_add_row(struct results *r, const struct manifest_row *row);
/* Takes over 'a' as the adaptive record (a is left empty). */
void results_set_adaptive(struct results *r, struct adaptive *a);

#endif
