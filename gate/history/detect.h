/* Change points over every series of the history, false discoveries controlled across them; the
 * drift of a series. */
#ifndef SG_DETECT_H
#define SG_DETECT_H

#include <stddef.h>

#include "history/changepoint.h"
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
	double p;	      /* the test's p, Benjamini-Hochberg adjusted across all series */
	double min_change;    /* the smallest change the series reports (relative or absolute) */
	enum changepoint_kind kind; /* a step, confirmed by the newest runs, or a suspect */
	int regression;	      /* the change goes the metric's worse way */
	int tolerated;	      /* within the rules' tolerance: reported, never an alarm */
};

struct detect_options {
	double fdr; /* 0: DETECT_FDR */
	/* The rules' tolerance of a series (*relative 1 for a share of 'before'), when it has one
	 * (return 1): a change within it is reported but never an alarm. The smallest change a
	 * series reports follows its own noise (DETECT_NOISE_FACTOR). */
	int (*tolerance)(void *arg, const struct history_series *s, double *value, int *relative);
	void *arg;
};

struct detect_result {
	struct detect_change *changes; /* by series, then run */
	size_t nr, alloc;
};

void detect_result_release(struct detect_result *r);

/* "regression", "improvement", or "suspect" (the newest run alone), as reports name a change. */
const char *detect_change_word(const struct detect_change *c);

/* Finds the change points of every series of 'd'. */
void detect_run(const struct history_data *d, const struct detect_options *o,
		struct detect_result *out);

/* The smallest change a series reports: twice its noise (changepoint_noise), at least half the
 * rules' tolerance where one is set (a step at the tolerance is found, not a coin toss; a change
 * far below it is not news) and DETECT_MIN_CHANGE_FLOOR when relative; relative or absolute as the
 * tolerance is written (relative without one). */
#define DETECT_NOISE_FACTOR 2.0
#define DETECT_MIN_CHANGE_FLOOR 0.01

/* Whether an alarm (a regression past any tolerance, not a suspect) lies within the last 'window'
 * runs of 'd'. */
int detect_regression_within(const struct history_data *d, const struct detect_result *r,
			     size_t window);

/*
 * Whether the last 'window' runs of 'd' made a regression known ('r': detect_run() over 'd' with
 * 'o'): an alarm that the series' change points without those runs did not already hold within
 * two runs of it. So a step confirmed tonight fires once, naming the commit where it began; an
 * old step found again, or placed a run apart, never fires again; a creep (ten commits each 2 %
 * slower) fires the night its change point first appears, wherever it lies.
 */
int detect_regression_arrived(const struct history_data *d, const struct detect_options *o,
			      const struct detect_result *r, size_t window);

#endif
