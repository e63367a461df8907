/* Helpers the checker's tests share: a baseline cell and a check cell made by hand. */
#ifndef SG_CHECK_TESTING_H
#define SG_CHECK_TESTING_H

#include <string.h>

#include "judge/baseline.h"
#include "judge/check-priv.h"
#include "base/util.h"

/* A cell of 'n' repeats with Execution_time = Total_time / p and one lost-time figure. */
static inline struct baseline_cell *add_cell(struct baseline *b, const char *interval, int threads,
					     size_t n, const double *exec, enum analysis_figure f,
					     const double *lost)
{
	struct baseline_cell *c;

	ALLOC_GROW(b->cells, b->nr_cells + 1, b->alloc_cells);
	c = memset(&b->cells[b->nr_cells++], 0, sizeof(*c));
	c->interval = xstrdup(interval);
	c->size = xstrdup("-");
	c->ranks = 1;
	c->threads = threads;
	c->n = n;
	c->fig[ANALYSIS_EXECUTION_TIME] = xmalloc(n * sizeof(double));
	c->fig[ANALYSIS_TOTAL_TIME] = xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		c->fig[ANALYSIS_EXECUTION_TIME][i] = exec[i];
		c->fig[ANALYSIS_TOTAL_TIME][i] = exec[i] * threads;
	}
	if (lost) {
		c->fig[f] = xmalloc(n * sizeof(double));
		memcpy(c->fig[f], lost, n * sizeof(double));
	}
	return c;
}

/* A check cell over a series of three configurations (1, 2, 4 threads) of benchmark "b". */
struct fixture {
	struct analysis_config cfg[3];
	struct matrix_cell cells[3];
	struct matrix_series series;
	struct check_bench bench;
	struct check_cell cell;
};

static inline void fixture_init(struct fixture *f, const char *trend)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < 3; i++) {
		f->cfg[i] = (struct analysis_config){
			.benchmark = "b", .size = "-", .ranks = 1, .threads = 1 << i};
		f->cells[i].config = &f->cfg[i];
		f->cells[i].p = 1 << i;
	}
	f->cells[1].karp_flatt = (struct matrix_figure){ 3, 0.04, 0.03, 0.05 };
	f->cells[2].karp_flatt = (struct matrix_figure){ 3, 0.11, 0.10, 0.12 };
	f->series = (struct matrix_series){.benchmark = "b",
					   .size = "-",
					   .cells = f->cells,
					   .nr_cells = 3,
					   .trend = trend,
					   .serial_fraction = 0.10};
	f->bench.name = "b";
	f->bench.has_base = 1;
	f->bench.max_contention = CHECK_BUSY_CORES; /* as check_init() sets it */
	f->cell = (struct check_cell){ .b = &f->bench, .series = &f->series, .mc = &f->cells[2],
				       .interval = "program/solve", .rp = 4 };
}

static inline void fixture_release(struct fixture *f)
{
	baseline_release(&f->bench.cur);
	baseline_release(&f->bench.base);
}

#endif
