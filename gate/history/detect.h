/* Change points over every series of the history, false discoveries controlled across them; the
 * drift of a series. */
#ifndef SG_DETECT_H
#define SG_DETECT_H

#include <stddef.h>

#include "history/history.h"

/* The default false discovery rate of 'history detect' (Benjamini-Hochberg over all change points).
 */
#define DETECT_FDR 0.01

/* One change point of one series: between runs previous and run (indices into history_data.runs).
 */
struct detect_change {
	size_t series; /* index into history_data.series */
	size_t previous, run;
	double before, after; /* the series' levels on either side */
	double change;	      /* after / before - 1; NAN when before is 0 */
	double p;	      /* the t-test's p, Benjamini-Hochberg adjusted across all series */
	int regression;	      /* the change goes the metric's worse way */
};

struct detect_options {
	double fdr; /* 0: DETECT_FDR */
	/* The smallest change that counts for a series: *relative 1 for a share of 'before'; NULL
	 * or a return of 0: CHANGEPOINT_MIN_CHANGE relative (the rules' tolerance, for the caller).
	 */
	int (*min_change)(void *arg, const struct history_series *s, double *value, int *relative);
	void *arg;
};

struct detect_result {
	struct detect_change *changes; /* by series, then run */
	size_t nr, alloc;
};

void detect_result_release(struct detect_result *r);

/* Finds the change points of every series of 'd'. */
void detect_run(const struct history_data *d, const struct detect_options *o,
		struct detect_result *out);

/* Whether a regression lies within the last 'window' runs of 'd'. */
int detect_regression_within(const struct history_data *d, const struct detect_result *r,
			     size_t window);

/*
 * Whether the last 'window' runs of 'd' made a regression known ('r': detect_run() over 'd' with
 * 'o'): one lies within them, or a series has more regression change points than detect_run() finds
 * in the history without them. The second is a creep: ten commits each 2 % slower make a change
 * point that is found only once enough of them accrued, and then lies before the newest run.
 */
int detect_regression_arrived(const struct history_data *d, const struct detect_options *o,
			      const struct detect_result *r, size_t window);

#endif
