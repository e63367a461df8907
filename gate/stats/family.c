/* The whole run's family in cells, each cell's primary test first: adjusted p-values of a weighted
 * Holm procedure (stats/family.h). */
#include "stats/family.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"

struct member {
	size_t i, cell;
	int secondary;
	double p;
};

/* Within a cell: by primary first, then by p. */
static int by_cell(const void *x, const void *y)
{
	const struct member *a = x, *b = y;

	if (a->cell != b->cell)
		return a->cell < b->cell ? -1 : 1;
	if (a->secondary != b->secondary)
		return a->secondary - b->secondary;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* What is left of one cell: the next primary and secondary (sorted by p) and how many remain. */
struct cell_left {
	size_t next[2], left[2];
};

/* The share of its cell a hypothesis of set s (0 primary, 1 other) holds while 'c' remains. */
static double within(const struct cell_left *c, int s, double w)
{
	if (!c->left[s])
		return 0;
	if (!c->left[!s])
		return 1 / (double)c->left[s];
	return (s ? 1 - w : w) / (double)c->left[s];
}

/* Each hypothesis's weight at its first step above 0: its initial one, else (an other
 * hypothesis under gatekeeping) the one it gets once its cell's primaries are rejected. */
static void first_weights(const struct family *f, const struct member *mb,
			  const struct cell_left *cl, size_t live, double *weight)
{
	for (size_t k = 0; k < f->m; k++) {
		const struct cell_left *c = &cl[mb[k].cell];
		int s = mb[k].secondary;
		double w = within(c, s, f->primary_weight);
		weight[mb[k].i] = (w > 0 ? w : 1 / (double)c->left[s]) / (double)live;
	}
}

/* The cell whose best remaining hypothesis has the smallest p / weight, or SIZE_MAX. */
static size_t best_cell(const struct family *f, const struct member *mb,
			const struct cell_left *cl, int *set, double *ratio)
{
	size_t best = SIZE_MAX;

	*ratio = INFINITY;
	for (size_t c = 0; c < f->cells; c++)
		for (int s = 0; s < 2; s++) {
			double w = within(&cl[c], s, f->primary_weight), r;
			if (!(w > 0))
				continue;
			r = mb[cl[c].next[s]].p / w;
			if (best == SIZE_MAX || r < *ratio) {
				best = c;
				*set = s;
				*ratio = r;
			}
		}
	return best;
}

void family_adjust(const struct family *f, double *adjusted, double *weight)
{
	struct member *mb = xcalloc(f->m + 1, sizeof(*mb));
	struct cell_left *cl = xcalloc(f->cells + 1, sizeof(*cl));
	size_t live = 0;
	double run = 0;

	for (size_t i = 0; i < f->m; i++)
		mb[i] = (struct member){ i, f->cell[i], !f->primary[i],
					 isnan(f->p[i]) ? 1 : f->p[i] };
	qsort(mb, f->m, sizeof(*mb), by_cell);
	for (size_t k = f->m; k-- > 0;) {
		struct cell_left *c = &cl[mb[k].cell];
		live += !c->left[0] && !c->left[1];
		c->left[mb[k].secondary]++;
		c->next[mb[k].secondary] = k;
	}
	if (weight)
		first_weights(f, mb, cl, live, weight);
	for (size_t step = 0; step < f->m; step++) {
		int s = 0;
		double ratio;
		size_t c = best_cell(f, mb, cl, &s, &ratio);
		struct cell_left *left = &cl[c];
		/* the cell's share is 1 / live: the ratio of p to the weight is p live / within */
		run = fmax(run, ratio * (double)live);
		adjusted[mb[left->next[s]].i] = fmin(run, 1);
		left->next[s]++;
		left->left[s]--;
		live -= !left->left[0] && !left->left[1];
	}
	free(cl);
	free(mb);
}
