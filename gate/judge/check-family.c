/* The cells of the whole run's family: which tolerance tests share a benchmark, interval and
 * configuration, and which of them is the cell's primary (its time check). */
#include <stdlib.h>
#include <string.h>

#include "judge/check-priv.h"
#include "base/util.h"

static int same(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

static int same_cell(const struct verdict *a, const struct verdict *b)
{
	return a->ranks == b->ranks && a->threads == b->threads &&
	       same(a->benchmark, b->benchmark) && same(a->interval, b->interval) &&
	       same(a->size, b->size);
}

size_t check_family_cells(const struct verdict *const *v, size_t n, size_t *cell)
{
	size_t cells = 0, *first = xcalloc(n + 1, sizeof(*first));

	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < cells && !same_cell(v[first[k]], v[i]))
			k++;
		if (k == cells)
			first[cells++] = i;
		cell[i] = k;
	}
	free(first);
	return cells;
}
