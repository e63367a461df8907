/* Calibration: how often the current rules fail clean reruns against each other, and the smallest
 * change each check catches. */
#ifndef SG_CALIBRATE_H
#define SG_CALIBRATE_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/matrix.h"
#include "rules/rules.h"

/* One result set: a results directory, analyzed. */
struct calibrate_set {
	char *dir;
	struct analysis a;
	struct matrix m;
};

/* One check of one rule (rule origin x kind): what it did over all comparisons. */
struct calibrate_row {
	char *origin, *kind, *metric;
	int relative;              /* the tolerance is relative: changes are fractions */
	size_t judged, fail, warn, skipped;
	char *skip_reason;         /* the first reason it was skipped */
	double *detect;            /* per comparison and cell: the smallest change that fails */
	/* ... and the shift of the samples that made it (derived: the slowdown of T(p)) */
	double *shift;
	size_t nr_detect, alloc_detect;
	int slowdown;              /* a derived ratio: shift is a relative slowdown of T(p) */
	size_t undetectable;       /* comparisons where no change up to the search limit fails */
	char *worst;               /* the cell where the largest change was needed */
};

struct calibrate {
	struct rules *rules;
	struct calibrate_set *sets;
	size_t nr_sets;
	size_t comparisons;        /* ordered pairs (current, baseline) */
	struct calibrate_row *rows;
	size_t nr_rows, alloc_rows;
};

void calibrate_init(struct calibrate *cal, struct rules *r);
void calibrate_release(struct calibrate *cal);
/* Loads and analyzes one results directory; 0 or gate_error(). */
int calibrate_add(struct calibrate *cal, const char *dir);
/*
 * Compares every set with every other as (current, baseline) and counts the
 * verdicts per rule and check; for each consecutive pair, searches the
 * smallest change of the current samples that each tolerance would flag.
 * Returns the number of rules that selected nothing (reported), else 0.
 */
int calibrate_run(struct calibrate *cal);

void calibrate_print(FILE *out, const struct calibrate *cal);
/* The same as JSON; 0 or gate_error(). */
int calibrate_write_json(const struct calibrate *cal, const char *path);

#endif
