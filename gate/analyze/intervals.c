/* The analysis's interval index: (benchmark, interval path) -> id, so that every run of a benchmark
 * adds to the same intervals. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "base/srcpath.h"
#include "base/util.h"

/* Open-addressing table: (benchmark, interval path) -> id. */
struct index {
	int *slots; /* id + 1, 0 = empty */
	size_t size;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Two benchmarks may share a path ("program/solve") from different sources: keyed apart. */
static uint64_t key_hash(const char *benchmark, const char *path)
{
	return hash(benchmark) * 31 ^ hash(path);
}

static void index_insert(struct index *ix, const struct analysis *a, int id)
{
	size_t i = key_hash(a->intervals[id].benchmark, a->intervals[id].path) & (ix->size - 1);

	while (ix->slots[i])
		i = (i + 1) & (ix->size - 1);
	ix->slots[i] = id + 1;
}

static void index_grow(struct analysis *a)
{
	struct index *ix = a->index;

	if (!ix)
		ix = a->index = xcalloc(1, sizeof(*ix));
	if (ix->size && (a->nr_intervals + 1) * 10 < ix->size * 7)
		return;
	free(ix->slots);
	ix->size = ix->size ? ix->size * 2 : 64;
	ix->slots = xcalloc(ix->size, sizeof(int));
	for (size_t id = 0; id < a->nr_intervals; id++)
		index_insert(ix, a, (int)id);
}

int analysis_interval_id(struct analysis *a, const char *benchmark, const char *path,
			 const char *file, int line, int depth)
{
	struct index *ix;
	size_t i;
	int id;

	if (!benchmark)
		benchmark = "";
	index_grow(a);
	ix = a->index;
	for (i = key_hash(benchmark, path) & (ix->size - 1); ix->slots[i];
	     i = (i + 1) & (ix->size - 1)) {
		const struct analysis_interval *iv = &a->intervals[ix->slots[i] - 1];
		if (!strcmp(iv->path, path) && !strcmp(iv->benchmark, benchmark))
			return ix->slots[i] - 1;
	}
	ALLOC_GROW(a->intervals, a->nr_intervals + 1, a->alloc_intervals);
	id = (int)a->nr_intervals++;
	a->intervals[id].benchmark = xstrdup(benchmark);
	a->intervals[id].path = xstrdup(path);
	/* where the gate shows it: relative to the repository, not to the build directory */
	a->intervals[id].file = srcpath_normalize(file, NULL);
	a->intervals[id].line = line;
	a->intervals[id].depth = depth;
	index_insert(ix, a, id);
	return id;
}

void analysis_index_release(struct analysis *a)
{
	struct index *ix = a->index;

	if (ix)
		free(ix->slots);
	free(ix);
	a->index = NULL;
}
