/* Adaptive repeats of 'ci' (docs/check.md): more rounds for the cells a first look found
 * inconclusive. */
#ifndef SG_ADAPT_H
#define SG_ADAPT_H

#include "config/config.h"
#include "judge/judge.h"
#include "results/adaptive.h"

/* Whether any benchmark of 'c' may get more rounds ('max_repeat' above 'repeat', a time budget). */
int adapt_wanted(const struct config *c);
/*
 * The cells of j->vs with an undecided error-level check (inconclusive, or
 * past the tolerance and significant alone but not over the whole run), each given the
 * rounds its benchmark's budget allows: max_repeat, and as many rounds of
 * all its inconclusive cells as fit in adaptive_seconds at the mean wall time
 * of their runs so far (both sides in A/B). The count is fixed by the budget,
 * never by the data's verdicts. Prints one line per cell. Returns the cells planned.
 */
size_t adapt_plan(struct judge *j, struct adaptive *plan);
/* Forgets the judged results of 'j' (keeps the configuration and rules) for another look. */
void adapt_forget(struct judge *j);

#endif
