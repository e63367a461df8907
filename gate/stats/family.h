/* A whole run's family of one-sided tests in cells, each cell's primary test first: a weighted
 * Holm (graphical) procedure that keeps the family-wise error rate at the level. */
#ifndef SG_STATS_FAMILY_H
#define SG_STATS_FAMILY_H

#include <stddef.h>

/*
 * The hypotheses of a family: hypothesis i lies in cell cell[i] (0 .. cells - 1) and is the
 * cell's primary when primary[i]. Every cell holding a hypothesis gets an equal share of the
 * level; within a cell its primaries share 'primary_weight' of it and the other hypotheses the
 * rest (each set taking all of it when the other is empty or has been rejected). A rejected
 * hypothesis passes its weight on to the rest of its cell; a cell whose every hypothesis is
 * rejected passes its share on to the other cells. With primary_weight 1 the other
 * hypotheses of a cell are tested only once its primaries are rejected (gatekeeping).
 *
 * The weights never fall as hypotheses are rejected, so this is the sequentially rejective
 * shortcut of a closed test of weighted Bonferroni tests (Bretz et al. 2009): whatever the
 * dependence of the tests, the probability of any false rejection is at most alpha when a
 * hypothesis is rejected for adjusted[i] <= alpha. With one cell and no primary it is Holm's
 * procedure. NAN counts as 1.
 */
struct family {
	const double *p;
	const size_t *cell;
	const int *primary;
	size_t m, cells;
	double primary_weight; /* 0 .. 1 */
};

/* The adjusted p-values (m of them), and when 'weight' is not NULL each hypothesis's weight at
 * its first step with a weight above 0 (the share of the level it is tested at, at worst). */
void family_adjust(const struct family *f, double *adjusted, double *weight);

#endif
