/* The table of lost-time terms expanded into rows, and the sums its hierarchy defines. */
#include "analyze/lost-terms.h"

#define LOST_KEY_PROGRAM(key) key
#define LOST_KEY_MACHINE(key) NULL
#define LOST_MACHINE_PROGRAM 0
#define LOST_MACHINE_MACHINE 1
#define TERM(A, id, name, needs, key, colour, key_when, cause, formula, judged) \
	{ ANALYSIS_##id, ANALYSIS_LOST_TIME, name, LOST_KEY_##judged(key), cause, formula, \
	  LOST_MACHINE_##judged },
#define PART(A, id, name, needs, parent, cause, formula) \
	{ ANALYSIS_##id, ANALYSIS_##parent, name, NULL, cause, formula, 0 },
const struct lost_term lost_terms[] = { LOST_TERMS(TERM, PART, _) };
#undef TERM
#undef PART

const size_t lost_nr_terms = sizeof(lost_terms) / sizeof(lost_terms[0]);

const struct lost_term *lost_term_find(enum analysis_figure f)
{
	for (size_t i = 0; i < lost_nr_terms; i++)
		if (lost_terms[i].fig == f)
			return &lost_terms[i];
	return NULL;
}

int lost_term_has_parts(enum analysis_figure f)
{
	for (size_t i = 0; i < lost_nr_terms; i++)
		if (lost_terms[i].parent == f)
			return 1;
	return 0;
}

double lost_terms_sum(double *fig)
{
	double lost = 0;

	for (size_t i = 0; i < lost_nr_terms; i++) {
		enum analysis_figure t = lost_terms[i].fig;
		if (lost_terms[i].parent != ANALYSIS_LOST_TIME || !lost_term_has_parts(t))
			continue;
		fig[t] = 0;
		for (size_t k = 0; k < lost_nr_terms; k++)
			if (lost_terms[k].parent == t)
				fig[t] += fig[lost_terms[k].fig];
	}
	for (size_t i = 0; i < lost_nr_terms; i++)
		if (lost_terms[i].parent == ANALYSIS_LOST_TIME)
			lost += fig[lost_terms[i].fig];
	return lost;
}
