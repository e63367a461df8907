/* OpenMP by pragmas and omp_* calls: the program itself needs the runtime. */
#include <omp.h>
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
			n += omp_get_thread_num() >= 0;
#pragma omp barrier
		}
	}
	SG_END("work");
	printf("%d\n", n);
	return 0;
}
