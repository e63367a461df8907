/* Annotation mistakes: intervals left open by a non-local exit (longjmp, as a C++ exception would),
 * and SG_ENDs that match nothing, each several times; the intervals after them must keep their
 * parents. */
#include <setjmp.h>
#include <stdio.h>

#include "scalegate.h"

static jmp_buf env;

static void fail_inside(void)
{
	SG_BEGIN("inner"); /* left open: the longjmp skips its SG_END */
	longjmp(env, 1);
}

int main(void)
{
	for (volatile int i = 0; i < 3; i++) {
		SG_BEGIN("outer");
		if (!setjmp(env))
			fail_inside();
		SG_END("outer"); /* closes 'inner' too */
		SG_END("stray"); /* matches nothing */
	}
	SG_BEGIN("after");
	SG_END("after");
	puts("done");
	return 0;
}
