/*
 * The ideal bootstrap of figures of medians: the exact distribution of a resampled median, so that
 * a percentile interval needs no resampling (docs/metrics.md, "Across repeats and configurations").
 */
#include "stats/stats.h"
#include "stats/stats-priv.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The values a resampled median takes, with their probabilities (those above 0). */
struct atoms {
	double *value, *prob, *cum; /* cum: running sum of prob, for drawing */
	size_t n;
};

/* One atom of the distribution of fn over the groups' medians. */
struct atom {
	double value, prob;
};

static void atoms_add(struct atoms *a, double value, double prob)
{
	if (!(prob > 0))
		return;
	a->value[a->n] = value;
	a->prob[a->n] = prob;
	a->cum[a->n] = (a->n ? a->cum[a->n - 1] : 0) + prob;
	a->n++;
}

/* P(Bin(n, q) >= h); choose[k] = C(n, k). */
static double binomial_tail(size_t n, double q, size_t h, const double *choose)
{
	double sum = 0;

	for (size_t k = h; k <= n; k++)
		sum += choose[k] * pow(q, (double)k) * pow(1 - q, (double)(n - k));
	return sum > 1 ? 1 : sum;
}

/*
 * P(a <= i) for every i, where a is the index into s of the h-th smallest of n draws: the draws
 * at or below i number Bin(n, (i + 1) / n), and a <= i when they are at least h.
 */
static void order_cdf(size_t n, size_t h, double *cdf)
{
	double *choose = xmalloc((n + 1) * sizeof(*choose));

	choose[0] = 1;
	for (size_t k = 1; k <= n; k++)
		choose[k] = choose[k - 1] * (double)(n - k + 1) / (double)k;
	for (size_t i = 0; i < n; i++)
		cdf[i] = i + 1 == n ? 1 : binomial_tail(n, (double)(i + 1) / n, h, choose);
	free(choose);
}

/* P(lower middle = i, upper middle = j), i < j, of n = 2m draws: m at or below i with one at i,
 * m at or above j with one at j. */
static double middle_pair(size_t n, size_t i, size_t j, double choose_n_m)
{
	double m = n / 2, dn = n;

	return choose_n_m * (pow((i + 1) / dn, m) - pow(i / dn, m)) *
	       (pow((n - j) / dn, m) - pow((n - j - 1) / dn, m));
}

/*
 * The distribution of the median of n draws with replacement from the sorted s[0..n-1]: for odd
 * n the middle draw's index a, for even n the pair of middle indices (a, b), the median then being
 * s[a] + (s[b] - s[a]) / 2 as sorted_quantile() computes it. Atoms at tied values stay apart.
 */
static void atoms_of(const double *s, size_t n, struct atoms *a)
{
	size_t cap = n % 2 ? n : n * (n + 1) / 2;
	double *cdf = xmalloc(n * sizeof(*cdf)), choose_n_m = 1;

	a->value = xmalloc(cap * sizeof(double));
	a->prob = xmalloc(cap * sizeof(double));
	a->cum = xmalloc(cap * sizeof(double));
	a->n = 0;
	order_cdf(n, n % 2 ? (n + 1) / 2 : n / 2, cdf);
	for (size_t k = 1; k <= n / 2; k++)
		choose_n_m = choose_n_m * (double)(n - k + 1) / (double)k;
	for (size_t i = 0; i < n; i++) {
		double p_a = cdf[i] - (i ? cdf[i - 1] : 0), rest = p_a;
		if (n % 2) {
			atoms_add(a, s[i], p_a);
			continue;
		}
		for (size_t j = i + 1; j < n; j++) {
			double p = middle_pair(n, i, j, choose_n_m);
			rest -= p;
			atoms_add(a, s[i] + 0.5 * (s[j] - s[i]), p);
		}
		atoms_add(a, s[i], rest); /* both middles at i */
	}
	free(cdf);
}

static void atoms_release(struct atoms *a)
{
	free(a->value);
	free(a->prob);
	free(a->cum);
}

/* An atom drawn from a: the first whose running sum passes a uniform draw. */
static size_t atoms_draw(const struct atoms *a, struct stats_rng *rng)
{
	double u = (double)(stats_rng_next(rng) >> 11) * 0x1.0p-53 * a->cum[a->n - 1];
	size_t lo = 0, hi = a->n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a->cum[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int cmp_atom(const void *pa, const void *pb)
{
	const struct atom *a = pa, *b = pb;

	return (a->value > b->value) - (a->value < b->value);
}

/*
 * The q quantile of the atoms (sorted) of total mass 'mass': the smallest value whose cumulative
 * probability reaches q, the limit of the type 7 quantile of ever more resamples.
 */
static double atom_quantile(const struct atom *x, size_t n, double mass, double q)
{
	double cum = 0;

	for (size_t i = 0; i < n; i++) {
		cum += x[i].prob;
		if (cum >= q * mass - 1e-12 * mass)
			return x[i].value;
	}
	return x[n - 1].value;
}

/* Every combination of the groups' atoms: fn's exact distribution. */
static int enumerate(const struct atoms *a, size_t k, stats_fn fn, void *ctx, size_t total,
		     double level, struct stats_bootstrap *bs)
{
	struct atom *x = xmalloc(total * sizeof(*x));
	size_t *idx = xcalloc(k, sizeof(*idx)), nx = 0;
	double *medians = xmalloc(k * sizeof(*medians)), mass = 0;
	int ret = 0;

	for (size_t c = 0; c < total; c++) {
		double p = 1, v;
		for (size_t g = 0; g < k; g++) {
			medians[g] = a[g].value[idx[g]];
			p *= a[g].prob[idx[g]];
		}
		v = fn(medians, k, ctx);
		if (!isnan(v)) {
			x[nx++] = (struct atom){ v, p };
			mass += p;
		}
		for (size_t g = 0; g < k && ++idx[g] == a[g].n; g++)
			idx[g] = 0; /* the next combination, as an odometer turns */
	}
	if (!nx || mass < 0.5 - 1e-12) { /* NAN in more than half, as stats_bootstrap() */
		bs->lo = bs->hi = NAN;
		ret = 1;
	} else {
		qsort(x, nx, sizeof(*x), cmp_atom);
		bs->lo = atom_quantile(x, nx, mass, (1 - level) / 2);
		bs->hi = atom_quantile(x, nx, mass, (1 + level) / 2);
	}
	free(medians);
	free(idx);
	free(x);
	return ret;
}

/* Too many combinations: each iteration draws every group's median from its distribution. */
static int sample(const struct atoms *a, size_t k, stats_fn fn, void *ctx, double level,
		  struct stats_bootstrap *bs)
{
	size_t iterations = bs->iterations ? bs->iterations : STATS_BOOTSTRAP_ITERATIONS, valid = 0;
	double *results = xmalloc(iterations * sizeof(*results));
	double *medians = xmalloc(k * sizeof(*medians));
	struct stats_rng rng;
	int ret = 0;

	stats_rng_init(&rng, bs->seed);
	for (size_t it = 0; it < iterations; it++) {
		double v;
		for (size_t g = 0; g < k; g++)
			medians[g] = a[g].value[atoms_draw(&a[g], &rng)];
		v = fn(medians, k, ctx);
		if (!isnan(v))
			results[valid++] = v;
	}
	if ((iterations - valid) * 2 > iterations) {
		bs->lo = bs->hi = NAN;
		ret = 1;
	} else {
		bs->lo = stats_select_quantile(results, valid, (1 - level) / 2);
		bs->hi = stats_select_quantile(results, valid, (1 + level) / 2);
	}
	free(medians);
	free(results);
	return ret;
}

int stats_bootstrap_exact(const struct stats_group *groups, size_t k, stats_fn fn, void *ctx,
			  double level, struct stats_bootstrap *bs)
{
	struct atoms *a;
	double *medians, total = 1;
	int ret;

	if (!k)
		return gate_error("bootstrap: no groups");
	for (size_t g = 0; g < k; g++) {
		if (stats_check_sample("bootstrap", groups[g].x, groups[g].n))
			return -1;
		if (groups[g].n > STATS_EXACT_MAX_N)
			return stats_bootstrap(groups, k, fn, ctx, level, bs);
	}
	if (stats_check_level("bootstrap", level))
		return -1;
	a = xcalloc(k, sizeof(*a));
	medians = xmalloc(k * sizeof(*medians));
	for (size_t g = 0; g < k; g++) {
		double *s = xmalloc(groups[g].n * sizeof(*s));
		memcpy(s, groups[g].x, groups[g].n * sizeof(*s));
		qsort(s, groups[g].n, sizeof(*s), stats_cmp_double);
		atoms_of(s, groups[g].n, &a[g]);
		medians[g] = stats_median(s, groups[g].n);
		total *= (double)a[g].n;
		free(s);
	}
	bs->estimate = fn(medians, k, ctx);
	bs->nan_count = bs->at_or_below = bs->at_or_above = 0;
	if (total <= STATS_EXACT_COMBINATIONS)
		ret = enumerate(a, k, fn, ctx, (size_t)total, level, bs);
	else
		ret = sample(a, k, fn, ctx, level, bs);
	for (size_t g = 0; g < k; g++)
		atoms_release(&a[g]);
	free(a);
	free(medians);
	return ret;
}
