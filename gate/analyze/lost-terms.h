/* The terms of Lost_time as rows the code can walk: base/lost-table.h, its hierarchy resolved. */
#ifndef SG_LOST_TERMS_H
#define SG_LOST_TERMS_H

#include <stddef.h>

#include "analyze/analysis.h"

struct lost_term {
	enum analysis_figure fig;
	enum analysis_figure parent; /* ANALYSIS_LOST_TIME: a term of Lost_time; else its term */
	const char *name;
	const char *share_key;       /* its share's rule key; NULL for a part, and the machine's */
	const char *cause;           /* what its growth says, after its name (judge/cause.c) */
	const char *formula;         /* how it is computed (docs/metrics.md) */
	int machine;                 /* other processes' loss (Interference): no rule, no cause */
};

/* Every row of the table, in its order: a term, then its parts. */
extern const struct lost_term lost_terms[];
extern const size_t lost_nr_terms;

/* The row of a figure, or NULL when it is no term of Lost_time nor part of one. */
const struct lost_term *lost_term_find(enum analysis_figure f);

/* Whether a term has parts (and is then their sum). */
int lost_term_has_parts(enum analysis_figure f);

/* Sets every term that has parts to their sum, then returns the sum of the terms of Lost_time. */
double lost_terms_sum(double *fig);

#endif
