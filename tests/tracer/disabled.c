/* Built with -DSCALEGATE_DISABLE: the macros vanish but evaluate their arguments exactly once. */
#include <stdio.h>

#include "scalegate.h"

static int calls;

static const char *name(void)
{
	calls++;
	return "region";
}

static long tag(void)
{
	calls++;
	return 7;
}

int main(void)
{
	for (int i = 0; i < 3; i++) {
		SG_BEGIN(name());
		SG_BEGIN_TAG(name(), tag());
		SG_END(name());
		SG_END(name());
	}
	printf("%d\n", calls);
	return calls == 15 ? 0 : 1;
}
