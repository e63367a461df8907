/* Statistics, continued: the normal and t distributions and least-squares fits. */
#include "stats/stats.h"
#include "stats/stats-priv.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- distributions ---- */

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

	if (stats_check_sample("line fit", x, n) || stats_check_sample("line fit", y, n) ||
	    stats_check_level("line fit", level))
		return -1;
	if (n < 2)
		return gate_error("line fit: needs at least 2 points, got %zu", n);
	mx = stats_mean(x, n);
	my = stats_mean(y, n);
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx == 0)
		return gate_error("line fit: all %zu points have the same x", n);
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
		return gate_error("least squares: %zu coefficients, at most %d supported", k,
				  STATS_LSQ_MAX);
	if (n < k + 1)
		return gate_error(
			"least squares: %zu points cannot fit %zu coefficients (need %zu)", n, k,
			k + 1);
	if (!stats_all_finite(X, n * k) || !stats_all_finite(y, n))
		return gate_error(
			"least squares: data contains a value that is not a finite number");
	for (size_t i = 0; w && i < n; i++)
		if (!(w[i] > 0 && isfinite(w[i])))
			return gate_error("least squares: weight %zu is %g, must be positive", i,
					  w[i]);
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
		ret = gate_error("least squares: the %zu basis functions are linearly dependent "
				 "on these %zu points",
				 k, n);
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
			return gate_error("scaling fit: processor count %g must be positive", p[i]);
		}
		X[3 * i] = 1;
		X[3 * i + 1] = 1 / p[i];
		X[3 * i + 2] = p[i];
	}
	ret = stats_lsq_fit(X, t, w, n, 3, fit);
	free(X);
	return ret;
}
