/*
 * RESULTS/adaptive.tsv: the record of a two-stage (adaptive) gate run
 * (docs/check.md, "Adaptive repeats"). Its presence means the results are
 * judged in two looks (CHECK_FIRST_LOOK of the level, then the rest); its
 * rows are the cells that got more rounds after the first look (none while
 * the first look plans; ci removes it when none got more): benchmark, size, ranks, threads, the
 * rounds of the first look, the rounds in all, and the checks that were
 * inconclusive. Written by 'ci' before the extra rounds run, so that
 * complete.tsv (written after them) stays the last word.
 */
#ifndef SG_ADAPTIVE_H
#define SG_ADAPTIVE_H

#include <stddef.h>

#define ADAPTIVE_FILE "adaptive.tsv"

struct adaptive_cell {
	char *benchmark, *size; /* size "-" when none */
	int ranks, threads;
	int first, rounds;      /* rounds of the first look; in all */
	char *reason;           /* "tolerance.time,tolerance.speedup" */
};

struct adaptive {
	struct adaptive_cell *cells;
	size_t nr, alloc;
	int present;            /* the file exists: two looks */
};

void adaptive_init(struct adaptive *a);
void adaptive_release(struct adaptive *a);
/* Reads DIR/adaptive.tsv: 0 ('present' 0 when there is none), or gate_error() with file:line. */
int adaptive_read(struct adaptive *a, const char *dir);
/* Writes DIR/adaptive.tsv atomically with every cell of 'a'; 0 or gate_error(). */
int adaptive_write(const struct adaptive *a, const char *dir);
/* Removes DIR/adaptive.tsv; 0 or gate_error(). */
int adaptive_remove(const char *dir);
/* Adds a cell (strings copied) and returns it. */
struct adaptive_cell *adaptive_add(struct adaptive *a, const char *benchmark, const char *size,
				   int ranks, int threads, int first, int rounds,
				   const char *reason);
/* The cell, or NULL. */
const struct adaptive_cell *adaptive_find(const struct adaptive *a, const char *benchmark,
					  const char *size, int ranks, int threads);

#endif
