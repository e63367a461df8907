/* Statistics for small noisy samples: median intervals, bootstrap, one-sided rank tests, fits. */
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc(n * sizeof(*s));

	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
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

static int all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

static int check_sample(const char *what, const double *x, size_t n)
{
	if (!n)
		return error("%s: empty sample", what);
	if (!all_finite(x, n))
		return error("%s: sample contains a value that is not a finite number", what);
	return 0;
}

static int check_level(const char *what, double level)
{
	if (!(level > 0 && level < 1))
		return error("%s: confidence level %g must be between 0 and 1", what, level);
	return 0;
}

double stats_quantile(const double *x, size_t n, double q)
{
	double *s, v;

	if (!n || !(q >= 0 && q <= 1))
		return NAN;
	s = sorted_copy(x, n);
	v = sorted_quantile(s, n, q);
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

/*
 * Largest j (1-based) such that [x(j), x(n-j+1)] covers the median with
 * probability >= level, i.e. 1 - 2 P(Bin(n, 1/2) <= j - 1) >= level; 0 if none.
 */
static size_t order_statistic_index(size_t n, double level)
{
	double cdf = 0;
	size_t j;

	for (j = 0; j < (n + 1) / 2; j++) {
		cdf += exp(lgamma(n + 1.0) - lgamma(j + 1.0) - lgamma(n - j + 1.0) - n * log(2.0));
		if (1 - 2 * cdf < level - 1e-12)
			break;
	}
	return j;
}

static double first_median(const double *m, size_t k, void *ctx)
{
	(void)k;
	(void)ctx;
	return m[0];
}

int stats_summarize(const double *x, size_t n, double level, struct stats_summary *s)
{
	double *sorted;
	size_t j;

	if (check_sample("summary", x, n) || check_level("summary", level))
		return -1;
	sorted = sorted_copy(x, n);
	s->n = n;
	s->median = sorted_quantile(sorted, n, 0.5);
	s->mean = stats_mean(x, n);
	s->sd = stats_sd(x, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	j = order_statistic_index(n, level);
	if (j) {
		s->ci_lo = sorted[j - 1];
		s->ci_hi = sorted[n - j];
	} else if (n == 1) {
		s->ci_lo = s->ci_hi = x[0];
	} else {
		struct stats_group g = { x, n };
		struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;

		if (stats_bootstrap(&g, 1, first_median, NULL, level, &bs)) {
			free(sorted);
			return -1;
		}
		s->ci_lo = bs.lo;
		s->ci_hi = bs.hi;
	}
	free(sorted);
	return 0;
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
static double resample_median(const double *s, size_t n, size_t *count, struct stats_rng *rng)
{
	size_t lo = (n - 1) / 2, hi = n / 2, seen = 0, i;
	double vlo = s[0];

	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < n; i++)
		count[stats_rng_below(rng, n)]++;
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

static double **sort_groups(const struct stats_group *groups, size_t k, double *medians)
{
	double **sorted = xmalloc(k * sizeof(*sorted));

	for (size_t g = 0; g < k; g++) {
		sorted[g] = sorted_copy(groups[g].x, groups[g].n);
		medians[g] = sorted_quantile(sorted[g], groups[g].n, 0.5);
	}
	return sorted;
}

static int check_groups(const struct stats_group *groups, size_t k, size_t *nmax)
{
	if (!k)
		return error("bootstrap: no groups");
	*nmax = 0;
	for (size_t g = 0; g < k; g++) {
		if (check_sample("bootstrap", groups[g].x, groups[g].n))
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
	double *medians, *results, **sorted;
	size_t *count;
	struct stats_rng rng;
	int ret = 0;

	if (check_groups(groups, k, &nmax) || check_level("bootstrap", level))
		return -1;
	medians = xmalloc(k * sizeof(*medians));
	results = xmalloc(iterations * sizeof(*results));
	count = xmalloc(nmax * sizeof(*count));
	sorted = sort_groups(groups, k, medians);
	bs->estimate = fn(medians, k, ctx);

	stats_rng_init(&rng, bs->seed);
	for (it = 0; it < iterations; it++) {
		double v;

		for (g = 0; g < k; g++)
			medians[g] = resample_median(sorted[g], groups[g].n, count, &rng);
		v = fn(medians, k, ctx);
		if (!isnan(v))
			results[valid++] = v;
	}
	bs->nan_count = iterations - valid;
	if (bs->nan_count * 2 > iterations) {
		bs->lo = bs->hi = NAN;
		ret = 1;
	} else {
		qsort(results, valid, sizeof(*results), cmp_double);
		bs->lo = sorted_quantile(results, valid, (1 - level) / 2);
		bs->hi = sorted_quantile(results, valid, (1 + level) / 2);
	}

	for (g = 0; g < k; g++)
		free(sorted[g]);
	free(sorted);
	free(count);
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

/* ---- Mann-Whitney U ---- */

struct pooled {
	double v;
	int in_b;
};

static int cmp_pooled(const void *pa, const void *pb)
{
	return cmp_double(&((const struct pooled *)pa)->v, &((const struct pooled *)pb)->v);
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

	if (check_sample("mann-whitney", a, na) || check_sample("mann-whitney", b, nb))
		return -1;
	if (method == STATS_MWU_EXACT && n > STATS_MWU_EXACT_MAX)
		return error("mann-whitney: exact test needs at most %d values, got %zu",
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

/* ---- distributions ---- */

double stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

double stats_normal_quantile(double p)
{
	double lo = -40, hi = 0; /* Phi(-40) underflows: every p > 0 lies above */

	if (!(p > 0 && p < 1))
		return NAN;
	if (p > 0.5)
		return -stats_normal_quantile(1 - p); /* 1 - p is exact here */
	/* Bisection to the last bit: 100 halvings of 40 reach below one ulp. */
	for (int i = 0; i < 100; i++) {
		double mid = 0.5 * (lo + hi);

		if (stats_normal_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* Continued fraction for the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 500; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double a2m = a + 2 * m, num, delta;

			if (odd)
				num = -(a + m) * (a + b + m) * x / (a2m * (a2m + 1));
			else
				num = m * (b - m) * x / ((a2m - 1) * a2m);

			d = 1 + num * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			delta = c * d;
			h *= delta;
			if (odd && fabs(delta - 1) < 1e-15)
				return h;
		}
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T > t) for t >= 0, without the cancellation of 1 - cdf. */
static double t_upper(double t, double df)
{
	return 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return t >= 0 ? 1 - t_upper(t, df) : t_upper(-t, df);
}

double stats_t_quantile(double p, double df)
{
	double tail, lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	tail = 1 - p;
	while (t_upper(hi, df) > tail && hi < 1e300)
		hi *= 2;
	/* The tail falls monotonically in t: bisection cannot miss. */
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = 0.5 * (lo + hi);

		if (t_upper(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* ---- least squares ---- */

int stats_line_fit(const double *x, const double *y, size_t n, double level,
		   struct stats_line *l)
{
	double mx, my, sxx = 0, sxy = 0, syy = 0, sse = 0, t;
	size_t i;

	if (check_sample("line fit", x, n) || check_sample("line fit", y, n) ||
	    check_level("line fit", level))
		return -1;
	if (n < 2)
		return error("line fit: needs at least 2 points, got %zu", n);
	mx = stats_mean(x, n);
	my = stats_mean(y, n);
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx == 0)
		return error("line fit: all %zu points have the same x", n);
	l->n = n;
	l->b = sxy / sxx;
	l->a = my - l->b * mx;
	for (i = 0; i < n; i++)
		sse += (y[i] - l->a - l->b * x[i]) * (y[i] - l->a - l->b * x[i]);
	l->r2 = syy > 0 ? 1 - sse / syy : 1;
	l->sd = l->se_b = l->b_lo = l->b_hi = NAN;
	if (n > 2) {
		l->sd = sqrt(sse / (n - 2));
		l->se_b = l->sd / sqrt(sxx);
		t = stats_t_quantile((1 + level) / 2, n - 2);
		l->b_lo = l->b - t * l->se_b;
		l->b_hi = l->b + t * l->se_b;
	}
	return 0;
}

/*
 * Householder QR of the n x k matrix 'a' (columns already scaled to unit
 * norm), applied to 'y' as well; leaves R in 'r'.  A column whose part
 * orthogonal to the earlier ones is below 1e-10 makes the system singular.
 */
static int householder_qr(double *a, double *y, size_t n, size_t k,
			  double r[STATS_LSQ_MAX][STATS_LSQ_MAX])
{
	for (size_t j = 0; j < k; j++) {
		double norm = 0, alpha, vv = 0, dot;
		size_t i, c;

		for (i = j; i < n; i++)
			norm += a[i * k + j] * a[i * k + j];
		norm = sqrt(norm);
		if (norm < 1e-10)
			return -1;
		alpha = a[j * k + j] > 0 ? -norm : norm;
		a[j * k + j] -= alpha;
		for (i = j; i < n; i++)
			vv += a[i * k + j] * a[i * k + j];
		for (c = j + 1; c <= k; c++) {
			double *col = c < k ? a + c : y;
			size_t stride = c < k ? k : 1;

			dot = 0;
			for (i = j; i < n; i++)
				dot += a[i * k + j] * col[i * stride];
			dot = 2 * dot / vv;
			for (i = j; i < n; i++)
				col[i * stride] -= dot * a[i * k + j];
		}
		r[j][j] = alpha;
		for (c = j + 1; c < k; c++)
			r[j][c] = a[j * k + c];
	}
	return 0;
}

/* Solves R z = y, and fills the standard errors from the rows of R^-1 (cov = R^-1 R^-T). */
static void solve_r(double r[STATS_LSQ_MAX][STATS_LSQ_MAX], const double *y, size_t k,
		    double *z, double *rinv_norm)
{
	double inv[STATS_LSQ_MAX][STATS_LSQ_MAX] = { { 0 } };

	for (size_t jj = k; jj-- > 0;) {
		z[jj] = y[jj];
		for (size_t c = jj + 1; c < k; c++)
			z[jj] -= r[jj][c] * z[c];
		z[jj] /= r[jj][jj];
		inv[jj][jj] = 1 / r[jj][jj];
		for (size_t c = jj + 1; c < k; c++) {
			double s = 0;

			for (size_t m = jj + 1; m <= c; m++)
				s += r[jj][m] * inv[m][c];
			inv[jj][c] = -s / r[jj][jj];
		}
	}
	for (size_t j = 0; j < k; j++) {
		rinv_norm[j] = 0;
		for (size_t c = j; c < k; c++)
			rinv_norm[j] += inv[j][c] * inv[j][c];
		rinv_norm[j] = sqrt(rinv_norm[j]);
	}
}

static int check_lsq(const double *X, const double *y, const double *w, size_t n, size_t k)
{
	if (k < 1 || k > STATS_LSQ_MAX)
		return error("least squares: %zu coefficients, at most %d supported", k,
			     STATS_LSQ_MAX);
	if (n < k + 1)
		return error("least squares: %zu points cannot fit %zu coefficients (need %zu)",
			     n, k, k + 1);
	if (!all_finite(X, n * k) || !all_finite(y, n))
		return error("least squares: data contains a value that is not a finite number");
	for (size_t i = 0; w && i < n; i++)
		if (!(w[i] > 0 && isfinite(w[i])))
			return error("least squares: weight %zu is %g, must be positive", i, w[i]);
	return 0;
}

/* Weighted residual and total sums of squares of the fitted coefficients. */
static void lsq_goodness(const double *X, const double *y, const double *w, size_t n,
			 struct stats_lsq *fit)
{
	double sw = 0, swy = 0, sse = 0, sst = 0, mean;
	size_t i, j;

	for (i = 0; i < n; i++) {
		sw += w ? w[i] : 1;
		swy += (w ? w[i] : 1) * y[i];
	}
	mean = swy / sw;
	for (i = 0; i < n; i++) {
		double res = y[i];

		for (j = 0; j < fit->k; j++)
			res -= X[i * fit->k + j] * fit->coef[j];
		sse += (w ? w[i] : 1) * res * res;
		sst += (w ? w[i] : 1) * (y[i] - mean) * (y[i] - mean);
	}
	fit->r2 = sst > 0 ? 1 - sse / sst : 1;
	fit->sd = sqrt(sse / (n - fit->k));
}

int stats_lsq_fit(const double *X, const double *y, const double *w, size_t n, size_t k,
		  struct stats_lsq *fit)
{
	double r[STATS_LSQ_MAX][STATS_LSQ_MAX], scale[STATS_LSQ_MAX];
	double z[STATS_LSQ_MAX], rinv_norm[STATS_LSQ_MAX];
	double *a, *yw;
	size_t i, j;
	int ret = 0;

	if (check_lsq(X, y, w, n, k))
		return -1;
	a = xmalloc(n * k * sizeof(*a));
	yw = xmalloc(n * sizeof(*yw));
	for (i = 0; i < n; i++) {
		double sw = w ? sqrt(w[i]) : 1;

		yw[i] = sw * y[i];
		for (j = 0; j < k; j++)
			a[i * k + j] = sw * X[i * k + j];
	}
	/* Unit-norm columns make the singularity threshold independent of units. */
	for (j = 0; j < k; j++) {
		scale[j] = 0;
		for (i = 0; i < n; i++)
			scale[j] += a[i * k + j] * a[i * k + j];
		/* a zero column stays zero, and QR calls it singular */
		scale[j] = scale[j] > 0 ? sqrt(scale[j]) : 1;
		for (i = 0; i < n; i++)
			a[i * k + j] /= scale[j];
	}
	if (householder_qr(a, yw, n, k, r)) {
		ret = error("least squares: the %zu basis functions are linearly dependent "
			    "on these %zu points", k, n);
		goto out;
	}
	solve_r(r, yw, k, z, rinv_norm);
	fit->k = k;
	for (j = 0; j < k; j++)
		fit->coef[j] = z[j] / scale[j];
	lsq_goodness(X, y, w, n, fit);
	for (j = 0; j < k; j++)
		fit->se[j] = fit->sd * rinv_norm[j] / scale[j];
out:
	free(a);
	free(yw);
	return ret;
}

int stats_fit_scaling(const double *p, const double *t, const double *w, size_t n,
		      struct stats_lsq *fit)
{
	double *X = xmalloc(3 * n * sizeof(*X));
	int ret;

	for (size_t i = 0; i < n; i++) {
		if (!(p[i] > 0 && isfinite(p[i]))) {
			free(X);
			return error("scaling fit: processor count %g must be positive", p[i]);
		}
		X[3 * i] = 1;
		X[3 * i + 1] = 1 / p[i];
		X[3 * i + 2] = p[i];
	}
	ret = stats_lsq_fit(X, t, w, n, 3, fit);
	free(X);
	return ret;
}
