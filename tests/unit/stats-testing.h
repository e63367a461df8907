/* Helpers the statistics tests share: a tight float comparison and a generator of their own. */
#ifndef SG_STATS_TESTING_H
#define SG_STATS_TESTING_H

#include <math.h>
#include <stdint.h>

/* cmocka 1.1.5 has only a float comparison: too coarse for these checks. */
#define assert_near(a, b, eps) assert_near_at((a), (b), (eps), __FILE__, __LINE__)

static inline void assert_near_at(double a, double b, double eps, const char *file, int line)
{
	if (a == b || fabs(a - b) <= eps)
		return;
	print_error("%.17g != %.17g (tolerance %g)\n", a, b, eps);
	_fail(file, line);
}

/* The test's own generator, independent of the one under test. */
static uint64_t lcg_state;

static inline double lcg_uniform(void)
{
	lcg_state = lcg_state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
	return ((lcg_state >> 11) + 0.5) * 0x1.0p-53;
}

static inline double lcg_normal(void)
{
	return sqrt(-2 * log(lcg_uniform())) * cos(2 * 3.14159265358979323846 * lcg_uniform());
}

#endif
