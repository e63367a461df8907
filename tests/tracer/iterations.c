/* Runs N iterations of a small interval: the profile's size must not depend on N. */
#include <stdlib.h>

#include "scalegate.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	volatile long x = 0;

	SG_BEGIN("loop");
	for (long i = 0; i < n; i++) {
		SG_BEGIN("iteration");
		x += i;
		SG_END("iteration");
	}
	SG_END("loop");
	return x < 0; /* reads the sum: the loop's work is used */
}
