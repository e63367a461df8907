/* OpenMP by pragmas only, no omp_* call: a linker with --as-needed may drop the runtime (issue 12).
 */
#include <scalegate.h>
#include <stdio.h>

int main(void)
{
	int n = 0;

	SG_BEGIN("work");
	for (int r = 0; r < 3; r++) {
#pragma omp parallel
		{
#pragma omp atomic
			n++;
#pragma omp barrier
		}
	}
	SG_END("work");
	printf("%d\n", n);
	return 0;
}
