/*
 * Adaptive repeats (docs/check.md): the extra rounds of the cells an adaptive
 * gate run found inconclusive, appended to the results like any other runs, in
 * A/B mode base and head in the same balanced order (ABBA, the recorded seed).
 */
#include "run/runner-priv.h"

#include <stdio.h>
#include <string.h>

static const struct adaptive_cell *cell_of(const struct runner *r, const struct bench_config *b,
					   const struct config_point *p)
{
	char size[32] = "-";

	if (p->size != CONFIG_NO_SIZE)
		snprintf(size, sizeof(size), "%lld", p->size);
	return adaptive_find(r->opt.extend, b->name, size, p->ranks, p->threads);
}

size_t runner_extend_runs(const struct runner *r, const struct bench_config *b)
{
	size_t n = 0;

	for (size_t i = 0; r->opt.extend && i < r->opt.extend->nr; i++) {
		const struct adaptive_cell *c = &r->opt.extend->cells[i];
		if (!strcmp(c->benchmark, b->name) && c->rounds > b->repeat)
			n += (size_t)(c->rounds - b->repeat) * (r->base ? 2 : 1);
	}
	return n;
}

int runner_extend_bench(struct runner *r, struct bench_run *br)
{
	int last = br->b->repeat;

	for (size_t pt = 0; pt < br->nr_points; pt++) {
		const struct adaptive_cell *c = cell_of(r, br->b, &br->points[pt].p);
		if (!c || c->rounds <= br->b->repeat)
			continue;
		br->points[pt].last = c->rounds;
		if (br->base)
			br->base->points[pt].last = c->rounds;
		last = c->rounds > last ? c->rounds : last;
	}
	/* round-robin over the cells, as the first rounds ran */
	for (int repeat = br->b->repeat + 1; repeat <= last; repeat++)
		for (size_t pt = 0; pt < br->nr_points; pt++) {
			if (repeat > br->points[pt].last)
				continue;
			if (br->base) {
				if (runner_ab_round(r, br, pt, repeat))
					return -1;
			} else {
				runner_progress(r, br, pt, repeat, 0);
				if (runner_one(r, br, pt, repeat))
					return -1;
			}
		}
	return 0;
}
