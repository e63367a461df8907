/* PRK Stencil's OpenMP shape: one parallel region around the iteration loop, every thread opening
 * the intervals inside it, each around a worksharing loop; a barrier and a master section once at
 * the end. knob: SG_KNOB_SINGLE=1 turns the update's 'omp for' into an 'omp single' (the gate
 * bench's change) */
#include <scalegate.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 20, n = argc > 2 ? atoi(argv[2]) : 400000;
	double *a = calloc((size_t)n, sizeof(*a)), *b = calloc((size_t)n, sizeof(*b)), norm = 0;
	const char *knob = getenv("SG_KNOB_SINGLE");
	int single = knob && atoi(knob);

	if (!a || !b)
		return 1;
	for (int i = 0; i < n; i++)
		a[i] = i % 7;
	SG_BEGIN("run");
#pragma omp parallel
	{
		for (int it = 0; it < iters; it++) {
			SG_BEGIN("stencil");
			/* uneven work per index: the implicit barrier at the loop end has something
			 * to wait for */
#pragma omp for schedule(static)
			for (int i = 1; i < n - 1; i++) {
				double s = 0;
				for (int k = 0; k < 1 + 4 * i / n; k++)
					s += 0.25 * (a[i - 1] + 2 * a[i] + a[i + 1]) / (k + 1);
				b[i] = s;
			}
			SG_END("stencil");
			SG_BEGIN("update");
			if (single) {
#pragma omp single
				for (int i = 1; i < n - 1; i++)
					a[i] += 1e-3 * b[i];
			} else {
#pragma omp for schedule(static)
				for (int i = 1; i < n - 1; i++)
					a[i] += 1e-3 * b[i];
			}
			SG_END("update");
		}
#pragma omp barrier
#pragma omp master
		for (int i = 0; i < n; i++)
			norm += a[i];
	}
	SG_END("run");
	printf("%g\n", norm);
	free(a);
	free(b);
	return 0;
}
