/* Statistics for small noisy samples: median intervals, bootstrap, one-sided rank tests, fits. */
#ifndef SG_STATS_H
#define SG_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Conventions: every function that returns int returns 0 on success and
 * gate_error() (-1, message printed) on bad input; sample values must be finite.
 * Functions that return a double return NAN when the figure is undefined
 * (empty input).  Nothing here keeps state between calls: the same inputs
 * always give bit-identical outputs.
 */

/* ---- descriptive ---- */

/* These never modify x; NAN when n == 0. */
double stats_median(const double *x, size_t n);
/* Quantile by linear interpolation between order statistics (R type 7); NAN unless 0 <= q <= 1. */
double stats_quantile(const double *x, size_t n, double q);
double stats_mean(const double *x, size_t n);
/* Sample standard deviation (divides by n - 1); NAN when n < 2. */
double stats_sd(const double *x, size_t n);
double stats_min(const double *x, size_t n);
double stats_max(const double *x, size_t n);

struct stats_summary {
	size_t n;
	double median, mean, sd, min, max;
	double ci_lo, ci_hi; /* confidence interval for the median */
};

/*
 * Fills 's' for the sample x[0..n-1]; 'level' is the confidence level of
 * the median interval (e.g. 0.95).
 *
 * The median interval is the distribution-free order-statistic interval
 * [x(j), x(n-j+1)] with the largest j whose binomial coverage is still at
 * least 'level' (conservative: true coverage >= level).  It exists once
 * 1 - 2^(1-n) >= level, i.e. n >= 6 at 0.95 and n >= 8 at 0.99; for fewer
 * values the interval is the percentile bootstrap's, from the exact
 * distribution of the resampled median (stats_bootstrap_exact), which never
 * reaches past [min, max] and at 0.95 is [min, max] (shown, never decided on).
 * n == 1 gives [x, x] and sd = NAN.  n == 0 is an error.
 */
int stats_summarize(const double *x, size_t n, double level, struct stats_summary *s);

/* ---- deterministic random numbers (splitmix64: tiny, passes BigCrush) ---- */

#define STATS_SEED UINT64_C(0x5ca1e6a7e0c0ffee)

struct stats_rng {
	uint64_t state;
};

void stats_rng_init(struct stats_rng *rng, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *rng);
/* Uniform in [0, n) without modulo bias; n > 0. */
uint64_t stats_rng_below(struct stats_rng *rng, uint64_t n);

/* ---- percentile bootstrap over groups of medians ---- */

/* 10,000: the 1 % tail of a one-sided bound rests on 100 resamples, not 20. */
#define STATS_BOOTSTRAP_ITERATIONS 10000

/* A figure derived from the medians of k groups, e.g. speedup m[0] / m[1]; may return NAN. */
typedef double (*stats_fn)(const double *medians, size_t k, void *ctx);

struct stats_group {
	const double *x;
	size_t n;
};

struct stats_bootstrap {
	/* inputs: set by STATS_BOOTSTRAP_INIT, change before the call if needed */
	size_t iterations; /* 0 means STATS_BOOTSTRAP_ITERATIONS */
	/* one per check (stats_seed_of): checks do not share their random draws */
	uint64_t seed;
	int paired;        /* groups are rounds: equal n, resampled with the same indices */
	double threshold;  /* the counts below are of resamples at or beyond it (0 by default) */
	/* outputs */
	double estimate;   /* fn(original medians); may be NAN */
	double lo, hi;     /* percentile interval of the resampled figures */
	size_t nan_count;  /* resamples where fn gave NAN: skipped */
	/* resamples (not NAN) <= threshold, >= threshold: p-values */
	size_t at_or_below, at_or_above;
};

#define STATS_BOOTSTRAP_INIT { .iterations = 0, .seed = STATS_SEED, .paired = 0 }

/* A seed derived from STATS_SEED and a name (e.g. the check's benchmark, interval, configuration,
 * metric). */
uint64_t stats_seed_of(const char *name);

/*
 * Each iteration resamples every group with replacement, takes each group's
 * median and calls fn on the k medians; [lo, hi] are the (1 - level) / 2
 * and (1 + level) / 2 quantiles of the results that are not NAN.
 * Returns 0; -1 (gate_error()) on bad input; 1, with no message, lo = hi = NAN,
 * when fn gave NAN in more than half of the resamples (the figure is
 * undefined too often to have an interval: the caller decides what to say).
 */
int stats_bootstrap(const struct stats_group *groups, size_t k, stats_fn fn, void *ctx,
		    double level, struct stats_bootstrap *bs);

/*
 * The interval of stats_bootstrap() with independent groups, without its resampling noise: the
 * resampled median of a group of n values takes at most n (odd n) or n (n + 1) / 2 (even n) values,
 * whose probabilities are binomial, so the distribution of fn over the groups' medians is known
 * exactly: the ideal bootstrap, of which stats_bootstrap() draws 10,000 resamples. Where the
 * groups' combinations number at most STATS_EXACT_COMBINATIONS, [lo, hi] are its exact quantiles
 * (bs->seed unused); past that, each of bs->iterations draws every group's median from its exact
 * distribution (bs->seed), one draw instead of n. Fills estimate, lo and hi (nan_count and the
 * counts stay 0: for decisions, stats_bootstrap()); returns as stats_bootstrap() does, whose
 * resampling it falls back to for a group of more than STATS_EXACT_MAX_N values.
 */
#define STATS_EXACT_MAX_N 64
#define STATS_EXACT_COMBINATIONS 20000
int stats_bootstrap_exact(const struct stats_group *groups, size_t k, stats_fn fn, void *ctx,
			  double level, struct stats_bootstrap *bs);

/*
 * Interval for median(cur) / median(base), e.g. current over baseline time:
 * a time regression of more than 5 % is significant when lo > 1.05.
 * 'bs' as for stats_bootstrap() (initialize with STATS_BOOTSTRAP_INIT).
 */
int stats_ratio_of_medians(const double *base, size_t nbase, const double *cur, size_t ncur,
			   double level, struct stats_bootstrap *bs);

/* ---- permutation test of a figure of means (stats-perm.c) ---- */

/* Up to this many arrangements every one is visited; past it, STATS_BOOTSTRAP_ITERATIONS drawn. */
#define STATS_PERM_EXACT_MAX 20000

struct stats_permutation {
	/* inputs (zero them, or set): iterations 0 means STATS_BOOTSTRAP_ITERATIONS; seed */
	size_t iterations;
	uint64_t seed;
	/* outputs */
	double estimate;              /* fn of the observed split */
	double p_greater, p_less;     /* share of arrangements at or above / below it */
	size_t arrangements, nan_count, at_or_above, at_or_below;
	int exact; /* every arrangement visited (else drawn, counting the observed) */
};

/*
 * Tests "no change" for a figure fn of 2k groups' means, the baseline's
 * groups[0..k-1] and the current's groups[k..2k-1] (the order fn and
 * stats_bootstrap() take; means, not medians: a median stays put when one or
 * two of five values change sides, and so would the p of perfectly separated
 * groups, about 0.04 at 5 vs 5): each pair i, k + i is pooled and split again into
 * groups of the same sizes, in every way (all C(nb + nc, nb) per pair, up to
 * STATS_PERM_EXACT_MAX arrangements in all) or in r->iterations random ways,
 * the observed split counting as one. When baseline and current values of
 * each pair are exchangeable the p-values are valid at any sample size, and
 * never below stats_permutation_min_p(): 1/20 at 3 vs 3 per pair, which is
 * what the bootstrap's p cannot promise (its resamples of separated groups are
 * all on one side, p = 1/(1 + B) however close the groups are). Returns 0; 1
 * (p NAN, no message) when fn is NAN on the observed split or on more than
 * half of the arrangements; -1 on bad input.
 */
int stats_permutation(const struct stats_group *groups, size_t k, stats_fn fn, void *ctx,
		      struct stats_permutation *r);
/* The smallest p stats_permutation() can give: 1 / the number of arrangements. */
double stats_permutation_min_p(const struct stats_group *groups, size_t k);

/* ---- Mann-Whitney U, one-sided ---- */

/* Above this many values in total the exact distribution would overflow 64-bit counts. */
#define STATS_MWU_EXACT_MAX 60

enum stats_mwu_method {
	STATS_MWU_AUTO,   /* exact up to STATS_MWU_EXACT_MAX values, else normal */
	STATS_MWU_EXACT,  /* permutation distribution given the ties; error past the limit */
	STATS_MWU_NORMAL, /* normal approximation, tie and continuity corrected */
};

struct stats_mwu {
	double u; /* U of b: pairs (a_i, b_j) with b_j > a_i, ties count one half */
	double p; /* P(U >= u) when a and b come from one distribution */
	int exact;
};

/*
 * Tests whether b is stochastically greater than a (e.g. a = baseline times,
 * b = current times).  Ties are handled by mid-ranks; the exact p is the
 * share of all C(na + nb, nb) splits of the pooled values, ties as observed,
 * whose U is at least the observed one.
 */
int stats_mwu_greater(const double *a, size_t na, const double *b, size_t nb,
		      struct stats_mwu *r);
int stats_mwu_greater_with(const double *a, size_t na, const double *b, size_t nb,
			   enum stats_mwu_method method, struct stats_mwu *r);

/*
 * Smallest one-sided p any data can give: 1 / C(n1 + n2, n1) (5 vs 5:
 * 1/252, 3 vs 3: 1/20).  Ties only make it larger, so a rule whose level is
 * below this can never fail with these repeats.  1 when n1 or n2 is 0.
 */
double stats_mwu_min_p(size_t n1, size_t n2);

/* Hodges-Lehmann shift of b over a: median of all b_j - a_i; NAN if either is empty. */
double stats_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb);

/* ---- t-tests of a shift (stats-test.c) ---- */

struct stats_ttest {
	size_t n;        /* the smaller side, or the pairs */
	double diff;     /* mean(b) - mean(a), or the mean of the paired differences b - a */
	double se;       /* its standard error */
	double df;       /* degrees of freedom (Welch-Satterthwaite; capped at 1e6) */
	double t;        /* diff / se */
	double p_greater; /* one-sided: P(T >= t) when the true shift is 0 */
};

/*
 * Welch's t-test of b against a (unequal variances).  'extra_var' is a
 * variance added to the difference (e.g. the shift between the sittings of a
 * stored baseline), 0 for none; 'extra_df' its own degrees of freedom when it
 * was estimated (combined by Welch-Satterthwaite), 0 or INFINITY when it is
 * known.  Needs 2 values on each side.
 */
int stats_ttest_welch(const double *a, size_t na, const double *b, size_t nb, double extra_var,
		      double extra_df, struct stats_ttest *r);
/* Paired t-test of b[i] - a[i], i < n (rounds measured side by side); n >= 2; extra as Welch. */
int stats_ttest_paired(const double *a, const double *b, size_t n, double extra_var,
		       double extra_df, struct stats_ttest *r);

/*
 * Adjusted p-values for m hypotheses: Holm's step-down (controls the
 * probability of any false rejection) and Benjamini-Hochberg's step-up
 * (controls the expected share of false rejections).  NAN counts as 1.
 */
void stats_holm(const double *p, size_t m, double *adjusted);
void stats_bh(const double *p, size_t m, double *adjusted);

/* ---- distributions ---- */

double stats_normal_cdf(double z);
/* NAN unless 0 < p < 1. */
double stats_normal_quantile(double p);
/* Student t with df > 0 degrees of freedom (not necessarily integer). */
double stats_t_cdf(double t, double df);
/* Accurate to about 1e-10; NAN unless 0 < p < 1 and df > 0. */
double stats_t_quantile(double p, double df);

/* ---- least squares ---- */

struct stats_line {
	size_t n;
	double a, b;       /* y = a + b x */
	double se_b;       /* standard error of b */
	double r2;         /* 1 when the fit is exact, even for constant y */
	double sd;         /* residual standard deviation, n - 2 degrees of freedom */
	double b_lo, b_hi; /* Student t interval for b at the given level */
};

/* Needs n >= 2 and two distinct x; with n == 2, se_b, sd, b_lo, b_hi are NAN. */
int stats_line_fit(const double *x, const double *y, size_t n, double level,
		   struct stats_line *l);

#define STATS_LSQ_MAX 4

struct stats_lsq {
	size_t k;
	double coef[STATS_LSQ_MAX];
	double se[STATS_LSQ_MAX]; /* standard errors of coef */
	double r2;                /* weighted, about the weighted mean of y */
	double sd;                /* residual sd (weighted), n - k degrees of freedom */
};

/*
 * Minimizes sum_i w_i (y_i - sum_j X_ij coef_j)^2 for a row-major n x k
 * design X (k <= STATS_LSQ_MAX) by Householder QR.  w may be NULL (all 1);
 * weights must be > 0.  Errors when n < k + 1 or the columns are (nearly)
 * linearly dependent.
 */
int stats_lsq_fit(const double *X, const double *y, const double *w, size_t n, size_t k,
		  struct stats_lsq *fit);

/*
 * Fits T(p) = sigma + phi / p + kappa * p (coef[0..2] = sigma, phi, kappa)
 * to n points (p_i > 0, T_i), w as for stats_lsq_fit(); needs at least 4
 * points over at least 3 distinct p.
 */
int stats_fit_scaling(const double *p, const double *t, const double *w, size_t n,
		      struct stats_lsq *fit);

#endif
