/* Change points in one series: binary segmentation placed by ranks and tested on winsorized values,
 * the newest runs tested against the level before them. */
#ifndef SG_CHANGEPOINT_H
#define SG_CHANGEPOINT_H

#include <stddef.h>

enum changepoint_kind {
	CHANGEPOINT_STEP,    /* found inside the series, with min_segment values on either side */
	CHANGEPOINT_TAIL,    /* the newest 2..tail_max runs, all at the new level: confirmed */
	CHANGEPOINT_SUSPECT, /* the newest run alone: reported, never an alarm */
};

/* Where a series changed: x[index - 1] is the last value before, x[index] the first after. */
struct changepoint {
	size_t index;
	double before, after; /* medians of the segments between the neighbouring change points */
	double p; /* two-sided, times the places it was chosen from */
	enum changepoint_kind kind;
};

struct changepoint_options {
	double max_p;	   /* a change point must have p below this (before any correction) */
	double min_change; /* ... and |after - before| at least this: relative to 'before' or
			      absolute */
	int relative;
	size_t min_segment; /* the fewest values on either side of a step (>= 2) */
	size_t tail_max;    /* the most newest runs the tail test tries as a new level (>= 2) */
};

#define CHANGEPOINT_MAX_P 0.001
#define CHANGEPOINT_MIN_CHANGE 0.05
/* Five: a few wild runs at either end of a series must not form a level of their own. */
#define CHANGEPOINT_MIN_SEGMENT 5
#define CHANGEPOINT_TAIL_MAX 8
/* A level of the newest runs rests on fewer values than a step inside the series: confirming it
 * takes max_p times this. */
#define CHANGEPOINT_TAIL_P 0.01
/* The tail test needs this many values of the level before the newest runs. */
#define CHANGEPOINT_TAIL_BASE 5

void changepoint_options_init(struct changepoint_options *o);

/*
 * The change points of x[0..n-1] in order. Binary segmentation splits the series where the
 * Mann-Whitney rank-sum statistic of the two sides is largest (standardized, ties corrected) if
 * changepoint_p() finds it significant after a Bonferroni factor for the places it was chosen
 * from; ranks and the winsorized test make it blind to a few wild values. Then the weakest
 * points are pruned, their neighbours' tests recomputed, until each one left passes 'max_p' and
 * 'min_change' (from the segments' medians). Last, the newest
 * runs after the last change point are tested against the level before them (tail_change in the
 * source): two or more runs at a new level are a CHANGEPOINT_TAIL, the newest run alone at most a
 * CHANGEPOINT_SUSPECT. Writes at most n entries into 'out' and returns how many. Non-finite values
 * must have been removed.
 */
size_t changepoint_find(const double *x, size_t n, const struct changepoint_options *o,
			struct changepoint *out);

/* A step's test winsorizes the values around their sides' medians at this many robust sds. */
#define CHANGEPOINT_CLIP 3.0

/* |after - before|, or relative to before (|after / before - 1|, INFINITY from 0) when 'relative':
 * how change points' sizes are compared with a minimum or a tolerance. */
double changepoint_magnitude(double before, double after, int relative);

/* The series' noise: the spread of its successive differences (robust: median absolute deviation
 * over sqrt 2), relative to its median level when 'relative'. NAN for fewer than 3 values. */
double changepoint_noise(const double *x, size_t n, int relative);

#endif
