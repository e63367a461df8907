/* The Caliper stand-in's overhead: ns per CALI_MARK_BEGIN+END pair (a name looked up per thread)
 * beside SG_BEGIN+SG_END, interleaved. */
#include <caliper/cali.h>

#include "bench.h"

#define RUNS 7
#define PAIRS 2000000L

static double cali_pairs(void)
{
	double t0 = bench_now();

	for (long i = 0; i < PAIRS; i++) {
		CALI_MARK_BEGIN("pair");
		CALI_MARK_END("pair");
	}
	return (bench_now() - t0) / PAIRS * 1e9;
}

static double sg_pairs(void)
{
	double t0 = bench_now();

	for (long i = 0; i < PAIRS; i++) {
		SG_BEGIN("pair_sg");
		SG_END("pair_sg");
	}
	return (bench_now() - t0) / PAIRS * 1e9;
}

int main(void)
{
	double cali[RUNS], sg[RUNS];

	for (int r = 0; r < RUNS; r++) {
		cali[r] = cali_pairs();
		sg[r] = sg_pairs();
	}
	bench_report("CALI_MARK_BEGIN+END pair (by name)", cali, RUNS, "ns");
	bench_report("SG_BEGIN+SG_END pair (static handle)", sg, RUNS, "ns");
	return 0;
}
