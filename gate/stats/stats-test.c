/* Tests of a change on small noisy samples: Welch and paired t-tests, and multiple-testing
 * adjustments. */
#include "stats/stats.h"
#include "stats/stats-priv.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A standard error below this share of the mean's size is no evidence of anything but rounding. */
#define SE_FLOOR 1e-12

/* The share of df's denominator an extra variance with its own df adds (0 when it is known). */
static double extra_term(double extra_var, double extra_df)
{
	return extra_df > 0 && isfinite(extra_df) ? extra_var * extra_var / extra_df : 0;
}

static void ttest_finish(struct stats_ttest *r)
{
	double se = r->se > SE_FLOOR ? r->se : SE_FLOOR;

	r->t = r->diff / se;
	r->p_greater = isfinite(r->df) && r->df > 0 ? 1 - stats_t_cdf(r->t, r->df) : NAN;
}

int stats_ttest_welch(const double *a, size_t na, const double *b, size_t nb, double extra_var,
		      double extra_df, struct stats_ttest *r)
{
	double va, vb, wa, wb, den;

	memset(r, 0, sizeof(*r));
	if (stats_check_sample("t-test", a, na) || stats_check_sample("t-test", b, nb))
		return -1;
	if (na < 2 || nb < 2)
		return gate_error("t-test: needs at least 2 values on each side (%zu and %zu)", na,
				  nb);
	va = stats_sd(a, na);
	vb = stats_sd(b, nb);
	wa = va * va / na;
	wb = vb * vb / nb;
	r->diff = stats_mean(b, nb) - stats_mean(a, na);
	r->se = sqrt(wa + wb + extra_var);
	/* Welch-Satterthwaite over the three variances; a known extra one adds no noise of its own.
	 */
	den = wa * wa / (na - 1) + wb * wb / (nb - 1) + extra_term(extra_var, extra_df);
	r->df = den > 0 ? (wa + wb + extra_var) * (wa + wb + extra_var) / den : INFINITY;
	if (r->df > 1e6)
		r->df = 1e6;
	r->n = na < nb ? na : nb;
	ttest_finish(r);
	return 0;
}

int stats_ttest_paired(const double *a, const double *b, size_t n, double extra_var,
		       double extra_df, struct stats_ttest *r)
{
	double *d, sd, w, den;

	memset(r, 0, sizeof(*r));
	if (stats_check_sample("paired t-test", a, n) || stats_check_sample("paired t-test", b, n))
		return -1;
	if (n < 2)
		return gate_error("paired t-test: needs at least 2 pairs (%zu)", n);
	d = xmalloc(n * sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = b[i] - a[i];
	sd = stats_sd(d, n);
	r->diff = stats_mean(d, n);
	w = sd * sd / n;
	r->se = sqrt(w + extra_var);
	den = w * w / (n - 1) + extra_term(extra_var, extra_df);
	r->df = den > 0 ? (w + extra_var) * (w + extra_var) / den : 1e6;
	if (r->df > 1e6)
		r->df = 1e6;
	r->n = n;
	free(d);
	ttest_finish(r);
	return 0;
}

/* ---- multiple testing ---- */

static const double *sort_p;

static int by_p(const void *x, const void *y)
{
	double a = sort_p[*(const size_t *)x], b = sort_p[*(const size_t *)y];
	size_t i = *(const size_t *)x, j = *(const size_t *)y;

	if (a != b)
		return a < b ? -1 : 1;
	return (i > j) - (i < j);
}

/* Indices of p in ascending order of p (NAN last), ties by index: the same input, the same order.
 */
static size_t *order(const double *p, size_t m)
{
	size_t *idx = xmalloc((m ? m : 1) * sizeof(*idx));
	double *key = xmalloc((m ? m : 1) * sizeof(*key));

	for (size_t i = 0; i < m; i++) {
		idx[i] = i;
		key[i] = isnan(p[i]) ? 2 : p[i];
	}
	sort_p = key;
	qsort(idx, m, sizeof(*idx), by_p);
	free(key);
	return idx;
}

void stats_holm(const double *p, size_t m, double *adjusted)
{
	size_t *idx = order(p, m);
	double run = 0;

	for (size_t k = 0; k < m; k++) {
		double x = isnan(p[idx[k]]) ? 1 : p[idx[k]] * (double)(m - k);
		run = x > run ? x : run; /* step-down: adjusted p never falls */
		adjusted[idx[k]] = run < 1 ? run : 1;
	}
	free(idx);
}

void stats_bh(const double *p, size_t m, double *adjusted)
{
	size_t *idx = order(p, m);
	double run = 1;

	for (size_t k = m; k-- > 0;) {
		double x = isnan(p[idx[k]]) ? 1 : p[idx[k]] * (double)m / (double)(k + 1);
		run = x < run ? x : run; /* step-up: adjusted p never rises towards smaller p */
		adjusted[idx[k]] = run;
	}
	free(idx);
}
