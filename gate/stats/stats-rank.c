/* One-sided rank tests: the Mann-Whitney U test (exact or normal) and the Hodges-Lehmann shift. */
#include "stats/stats.h"
#include "stats/stats-priv.h"
#include "base/util.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct pooled {
	double v;
	int in_b;
};

static int cmp_pooled(const void *pa, const void *pb)
{
	return stats_cmp_double(&((const struct pooled *)pa)->v, &((const struct pooled *)pb)->v);
}

/*
 * Doubled mid-ranks keep tied ranks integer: a tie over 1-based ranks
 * i..j scores i + j each.  Returns the doubled rank sum of b and fills
 * score[] (pooled order) and the tie term sum(t^3 - t).
 */
static long doubled_ranks(const double *a, size_t na, const double *b, size_t nb,
			  long *score, double *ties)
{
	size_t n = na + nb, i, j, t;
	struct pooled *p = xmalloc(n * sizeof(*p));
	long sum_b = 0;

	for (i = 0; i < n; i++) {
		p[i].in_b = i >= na;
		p[i].v = i < na ? a[i] : b[i - na];
	}
	qsort(p, n, sizeof(*p), cmp_pooled);
	*ties = 0;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && p[j].v == p[i].v; j++)
			;
		t = j - i;
		*ties += (double)t * t * t - t;
		for (t = i; t < j; t++) {
			score[t] = (long)(i + j + 1);
			if (p[t].in_b)
				sum_b += score[t];
		}
	}
	free(p);
	return sum_b;
}

/*
 * P(sum of nb of the n scores >= obs) over all C(n, nb) equally likely
 * choices: count[m][s] = number of m-subsets of the scores seen so far with
 * sum s, built one score at a time (a subset-sum knapsack).
 */
static double exact_upper_p(const long *score, size_t n, size_t nb, long obs)
{
	size_t width = n * (n + 1) + 1, i, m, s;
	uint64_t *count = xcalloc((nb + 1) * width, sizeof(*count));
	uint64_t total = 0, ge = 0;

	count[0] = 1;
	for (i = 0; i < n; i++) {
		size_t r = (size_t)score[i];

		for (m = i + 1 < nb ? i + 1 : nb; m >= 1; m--) {
			uint64_t *dst = count + m * width, *src = count + (m - 1) * width;

			for (s = 0; s + r < width; s++)
				dst[s + r] += src[s];
		}
	}
	for (s = 0; s < width; s++) {
		total += count[nb * width + s];
		if ((long)s >= obs)
			ge += count[nb * width + s];
	}
	free(count);
	return (double)ge / (double)total;
}

static double normal_upper_p(double u, size_t na, size_t nb, double ties)
{
	double n = (double)na + nb;
	double mean = 0.5 * na * nb;
	double var = na * (double)nb / 12 * ((n + 1) - ties / (n * (n - 1)));

	if (var <= 0)
		return 1; /* every value tied: no evidence either way */
	return stats_normal_cdf(-(u - mean - 0.5) / sqrt(var));
}

int stats_mwu_greater_with(const double *a, size_t na, const double *b, size_t nb,
			   enum stats_mwu_method method, struct stats_mwu *r)
{
	size_t n = na + nb;
	long *score, sum_b;
	double ties;

	if (stats_check_sample("mann-whitney", a, na) || stats_check_sample("mann-whitney", b, nb))
		return -1;
	if (method == STATS_MWU_EXACT && n > STATS_MWU_EXACT_MAX)
		return gate_error("mann-whitney: exact test needs at most %d values, got %zu",
				  STATS_MWU_EXACT_MAX, n);
	score = xmalloc(n * sizeof(*score));
	sum_b = doubled_ranks(a, na, b, nb, score, &ties);
	r->u = 0.5 * (sum_b - (double)nb * (nb + 1));
	r->exact = method == STATS_MWU_EXACT ||
		   (method == STATS_MWU_AUTO && n <= STATS_MWU_EXACT_MAX);
	if (r->exact)
		r->p = exact_upper_p(score, n, nb, sum_b);
	else
		r->p = normal_upper_p(r->u, na, nb, ties);
	free(score);
	return 0;
}

int stats_mwu_greater(const double *a, size_t na, const double *b, size_t nb,
		      struct stats_mwu *r)
{
	return stats_mwu_greater_with(a, na, b, nb, STATS_MWU_AUTO, r);
}

double stats_mwu_min_p(size_t n1, size_t n2)
{
	double c = 1;

	/* C(n1 + n2, n2) built up as a running product stays exact for small n. */
	for (size_t i = 1; i <= n2; i++)
		c = c * (n1 + i) / i;
	return 1 / c;
}

double stats_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb)
{
	double *d, v;
	size_t i, j, n = 0;

	if (!na || !nb)
		return NAN;
	d = xmalloc(na * nb * sizeof(*d));
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[n++] = b[j] - a[i];
	v = stats_median(d, n);
	free(d);
	return v;
}
