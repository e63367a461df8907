/* Regions by name (sg_region_named): NAMES names on every thread of a team, more than a thread's
 * cache holds. */
#include <stdio.h>
#include <stdlib.h>

#include "scalegate.h"

#define NAMES 3000
#define REPEATS 3

int main(void)
{
	int wrong = 0;

#pragma omp parallel num_threads(2) reduction(+ : wrong)
	for (int rep = 0; rep < REPEATS; rep++)
		for (int i = 0; i < NAMES; i++) {
			char name[32];
			int n = snprintf(name, sizeof(name), "n%d", i);
			sg_region_t r = sg_region_named(name, (size_t)n, __FILE__, __LINE__);
			/* The same name gives the same handle, on any thread, evicted from the
			 * cache or not. */
			wrong += sg_enabled() &&
				 r != sg_region_named(name, (size_t)n, "elsewhere.c", 1);
			sg_begin(r);
			sg_end(r);
		}
	if (wrong)
		fprintf(stderr, "names: %d lookups gave another handle\n", wrong);
	return wrong != 0;
}
