/* Nested, tagged and mismatched intervals on one thread: the profile must key them by call path. */
#include <stdlib.h>
#include <unistd.h>

#include "scalegate.h"

static void work(int us)
{
	usleep((useconds_t)us);
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 3;
	sg_region_t step = sg_region("step", __FILE__, __LINE__);

	SG_BEGIN("solve");
	for (int i = 0; i < iters; i++) {
		sg_begin_tag(step, i % 2);
		work(1000);
		sg_end(step);
	}
	SG_BEGIN("inner");
	work(2000);
	SG_END("inner");
	SG_END("solve");

	SG_BEGIN("inner"); /* same region, other call path */
	work(500);
	SG_END("inner");

	SG_END("never-begun"); /* an unmatched end is counted, not fatal */
	SG_BEGIN("left-open");  /* closed at exit, counted as unclosed */
	return 0;
}
