/* Statistics for small noisy samples: median intervals, bootstrap, one-sided rank tests, fits. */
#include "stats/stats.h"
#include "stats/stats-priv.h"
#include "base/util.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The standard normal distribution: the tests here use it, and stats-fit.c builds its quantiles on
 * it. */
double stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

int stats_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc(n * sizeof(*s));

	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp_double);
	return s;
}

/* Type 7 quantile of an already sorted array. */
static double sorted_quantile(const double *s, size_t n, double q)
{
	double h = (n - 1) * q;
	size_t lo = (size_t)h;

	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + (h - lo) * (s[lo + 1] - s[lo]);
}

/*
 * Reorders a[0..n-1] so that a[k] holds the value a sort would put there,
 * nothing larger before it and nothing smaller after it (Wirth's selection:
 * O(n) on average, and balanced on the many ties that resampled medians have).
 */
static void select_nth(double *a, size_t n, size_t k)
{
	ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (l < m) {
		double x = a[kk], t;
		ptrdiff_t i = l, j = m;

		do {
			while (a[i] < x)
				i++;
			while (x < a[j])
				j--;
			if (i <= j) {
				t = a[i];
				a[i] = a[j];
				a[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
}

/* sorted_quantile() of a[0..n-1] without sorting it (a is reordered); the same value. */
double stats_select_quantile(double *a, size_t n, double q)
{
	double h = (n - 1) * q, next;
	size_t lo = (size_t)h;

	if (lo + 1 >= n) {
		select_nth(a, n, n - 1);
		return a[n - 1];
	}
	select_nth(a, n, lo);
	next = a[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		if (a[i] < next)
			next = a[i];
	return a[lo] + (h - lo) * (next - a[lo]);
}

int stats_all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

int stats_check_sample(const char *what, const double *x, size_t n)
{
	if (!n)
		return gate_error("%s: empty sample", what);
	if (!stats_all_finite(x, n))
		return gate_error("%s: sample contains a value that is not a finite number", what);
	return 0;
}

int stats_check_level(const char *what, double level)
{
	if (!(level > 0 && level < 1))
		return gate_error("%s: confidence level %g must be between 0 and 1", what, level);
	return 0;
}

/* By selection on a copy, not a sort: the same value in O(n) (history detect takes three medians
 * per split it weighs: sorting them was three quarters of its time). */
double stats_quantile(const double *x, size_t n, double q)
{
	double *s, v;

	if (!n || !(q >= 0 && q <= 1))
		return NAN;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	v = stats_select_quantile(s, n, q);
	free(s);
	return v;
}

double stats_median(const double *x, size_t n)
{
	return stats_quantile(x, n, 0.5);
}

double stats_mean(const double *x, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

double stats_sd(const double *x, size_t n)
{
	double m, ss = 0;

	if (n < 2)
		return NAN;
	m = stats_mean(x, n);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (n - 1));
}

double stats_min(const double *x, size_t n)
{
	double v = n ? x[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (x[i] < v)
			v = x[i];
	return v;
}

double stats_max(const double *x, size_t n)
{
	double v = n ? x[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (x[i] > v)
			v = x[i];
	return v;
}

/* ---- random numbers ---- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void stats_rng_init(struct stats_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

uint64_t stats_rng_next(struct stats_rng *rng)
{
	return splitmix64(&rng->state);
}

/*
 * r % n without a division, for a fixed n: Lemire, Kaser and Kurz, "Faster
 * remainder by direct computation" (2019), exact for every 64-bit r and n
 * with the 128-bit constant m = floor((2^128 - 1) / n) + 1 (0 for n == 1).
 * The bootstrap draws millions of indices and the 64-bit division dominated.
 */
__extension__ typedef unsigned __int128 stats_u128;

struct fastmod {
	uint64_t n, threshold; /* threshold: -n % n, below which draws are rejected */
	stats_u128 m;
};

static struct fastmod fastmod_of(uint64_t n)
{
	return (struct fastmod){ n, -n % n, ~(stats_u128)0 / n + 1 };
}

static inline uint64_t fastmod_reduce(const struct fastmod *f, uint64_t r)
{
	stats_u128 low = f->m * r;
	stats_u128 bottom = ((low & UINT64_MAX) * f->n) >> 64;

	return (uint64_t)((bottom + (low >> 64) * f->n) >> 64);
}

/* stats_rng_below() for the n of f: the same draws and the same result. */
static inline uint64_t rng_below(struct stats_rng *rng, const struct fastmod *f)
{
	uint64_t r;

	do
		r = splitmix64(&rng->state);
	while (r < f->threshold);
	return fastmod_reduce(f, r);
}

uint64_t stats_rng_below(struct stats_rng *rng, uint64_t n)
{
	/* Reject the low values that would make the modulo favour small results. */
	uint64_t threshold = -n % n, r;

	do
		r = stats_rng_next(rng);
	while (r < threshold);
	return r % n;
}

/* ---- bootstrap ---- */

/*
 * Median of one resample of the sorted group s: count how often each index
 * is drawn and walk the counts, which costs O(n) instead of a sort.
 */
static double resample_median(const double *s, size_t n, const struct fastmod *f, size_t *count,
			      struct stats_rng *rng)
{
	size_t lo = (n - 1) / 2, hi = n / 2, seen = 0, i;
	double vlo = s[0];

	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < n; i++)
		count[rng_below(rng, f)]++;
	for (i = 0; i < n; i++) {
		if (seen <= lo && seen + count[i] > lo)
			vlo = s[i];
		seen += count[i];
		if (seen > hi)
			break;
	}
	/* the same arithmetic as sorted_quantile(s, n, 0.5) */
	return vlo + 0.5 * (s[i] - vlo);
}

/* The median of x at the drawn indices idx[0..n-1]; tmp has room for n. */
static double paired_median(const double *x, const size_t *idx, size_t n, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = x[idx[i]];
	return stats_select_quantile(tmp, n, 0.5);
}

/*
 * One resample of every group: independent draws, or one draw of rounds for all. f[g] is
 * fastmod_of(groups[g].n), made once per bootstrap: its 128-bit division, made per resample,
 * took a third of the analysis.
 */
static void resample(const struct stats_group *groups, size_t k, double **sorted,
		     const struct fastmod *f, int paired, size_t *count, double *tmp,
		     struct stats_rng *rng, double *medians)
{
	size_t n = groups[0].n;

	if (!paired) {
		for (size_t g = 0; g < k; g++)
			medians[g] = resample_median(sorted[g], groups[g].n, &f[g], count, rng);
		return;
	}
	for (size_t i = 0; i < n; i++)
		count[i] = (size_t)rng_below(rng, &f[0]);
	for (size_t g = 0; g < k; g++)
		medians[g] = paired_median(groups[g].x, count, n, tmp);
}

uint64_t stats_seed_of(const char *name)
{
	uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a, then mixed into the fixed seed */

	for (const unsigned char *c = (const unsigned char *)name; c && *c; c++)
		h = (h ^ *c) * UINT64_C(1099511628211);
	h ^= STATS_SEED;
	return splitmix64(&h);
}

static double **sort_groups(const struct stats_group *groups, size_t k, double *medians)
{
	double **sorted = xmalloc(k * sizeof(*sorted));

	for (size_t g = 0; g < k; g++) {
		sorted[g] = sorted_copy(groups[g].x, groups[g].n);
		medians[g] = sorted_quantile(sorted[g], groups[g].n, 0.5);
	}
	return sorted;
}

static int groups_valid(const struct stats_group *groups, size_t k, size_t *nmax)
{
	if (!k)
		return gate_error("bootstrap: no groups");
	*nmax = 0;
	for (size_t g = 0; g < k; g++) {
		if (stats_check_sample("bootstrap", groups[g].x, groups[g].n))
			return -1;
		if (groups[g].n > *nmax)
			*nmax = groups[g].n;
	}
	return 0;
}

int stats_bootstrap(const struct stats_group *groups, size_t k, stats_fn fn, void *ctx,
		    double level, struct stats_bootstrap *bs)
{
	size_t iterations = bs->iterations ? bs->iterations : STATS_BOOTSTRAP_ITERATIONS;
	size_t nmax = 0, valid = 0, g, it;
	double *medians, *results, **sorted, *tmp;
	struct fastmod *f;
	size_t *count;
	struct stats_rng rng;
	int ret = 0;

	if (groups_valid(groups, k, &nmax) || stats_check_level("bootstrap", level))
		return -1;
	for (g = 1; bs->paired && g < k; g++)
		if (groups[g].n != groups[0].n)
			return gate_error("bootstrap: paired groups of %zu and %zu values",
					  groups[0].n, groups[g].n);
	medians = xmalloc(k * sizeof(*medians));
	results = xmalloc(iterations * sizeof(*results));
	count = xmalloc(nmax * sizeof(*count));
	tmp = xmalloc(nmax * sizeof(*tmp));
	sorted = sort_groups(groups, k, medians);
	f = xmalloc(k * sizeof(*f));
	for (g = 0; g < k; g++)
		f[g] = fastmod_of(groups[g].n);
	bs->estimate = fn(medians, k, ctx);

	stats_rng_init(&rng, bs->seed);
	for (it = 0; it < iterations; it++) {
		double v;

		resample(groups, k, sorted, f, bs->paired, count, tmp, &rng, medians);
		v = fn(medians, k, ctx);
		if (!isnan(v))
			results[valid++] = v;
	}
	bs->nan_count = iterations - valid;
	bs->at_or_below = bs->at_or_above = 0;
	for (it = 0; it < valid; it++) {
		bs->at_or_below += results[it] <= bs->threshold;
		bs->at_or_above += results[it] >= bs->threshold;
	}
	if (bs->nan_count * 2 > iterations) {
		bs->lo = bs->hi = NAN;
		ret = 1;
	} else {
		/* two selections instead of a sort: the same quantiles at O(iterations) */
		bs->lo = stats_select_quantile(results, valid, (1 - level) / 2);
		bs->hi = stats_select_quantile(results, valid, (1 + level) / 2);
	}

	for (g = 0; g < k; g++)
		free(sorted[g]);
	free(sorted);
	free(f);
	free(count);
	free(tmp);
	free(results);
	free(medians);
	return ret;
}

static double ratio_fn(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[1] / m[0];
}

int stats_ratio_of_medians(const double *base, size_t nbase, const double *cur, size_t ncur,
			   double level, struct stats_bootstrap *bs)
{
	struct stats_group g[2] = { { base, nbase }, { cur, ncur } };

	return stats_bootstrap(g, 2, ratio_fn, NULL, level, bs);
}
