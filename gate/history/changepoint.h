/* Change points in one series: E-divisive means with a Student's t significance (Hunter/Otava
 * design). */
#ifndef SG_CHANGEPOINT_H
#define SG_CHANGEPOINT_H

#include <stddef.h>

/* Where a series changed: x[index - 1] is the last value before, x[index] the first after. */
struct changepoint {
	size_t index;
	double before, after; /* means of the segments between the neighbouring change points */
	double p; /* two-sided t-test of the two segments, times the places it was chosen from */
};

struct changepoint_options {
	double max_p;	   /* a change point must have p below this (before any correction) */
	double min_change; /* ... and |after - before| at least this: relative to 'before' or
			      absolute */
	int relative;
	size_t min_segment; /* the fewest values on either side (>= 2); the series' last run may
			       stand alone */
};

#define CHANGEPOINT_MAX_P 0.001
#define CHANGEPOINT_MIN_CHANGE 0.05
#define CHANGEPOINT_MIN_SEGMENT 2

void changepoint_options_init(struct changepoint_options *o);

/*
 * The change points of x[0..n-1] in order: E-divisive means (Matteson & James 2014, alpha 1)
 * splits the series recursively where the energy distance of the two sides is largest and a
 * t-test finds the sides different; then the weakest points are pruned, their neighbours'
 * tests recomputed, until each one left passes 'max_p' and 'min_change'. Writes at most n
 * entries into 'out' and returns how many. Non-finite values must have been removed.
 */
size_t changepoint_find(const double *x, size_t n, const struct changepoint_options *o,
			struct changepoint *out);

/* The two-sided p of the step between x[a..i) and x[i..b): Student's t-test, pooled variance. */
double changepoint_p(const double *x, size_t a, size_t i, size_t b);

#endif
