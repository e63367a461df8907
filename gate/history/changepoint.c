/* Change points in one series: binary segmentation placed by ranks and tested on winsorized values
 * (robust to wild values), pruning, and the newest runs tested against the level before them. */
#include "history/changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "stats/stats.h"

void changepoint_options_init(struct changepoint_options *o)
{
	o->max_p = CHANGEPOINT_MAX_P;
	o->min_change = CHANGEPOINT_MIN_CHANGE;
	o->relative = 1;
	o->min_segment = CHANGEPOINT_MIN_SEGMENT;
	o->tail_max = CHANGEPOINT_TAIL_MAX;
}

/* Sorts positions by value (qsort has no context argument: the values are copied beside them). */
struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return a->v < b->v ? -1 : a->v > b->v ? 1 : (a->i > b->i) - (a->i < b->i);
}

/* The 1-based mid-ranks of x[a..b) into rank[0..b-a); returns the tie term sum(t^3 - t). */
static double mid_ranks(const double *x, size_t a, size_t b, double *rank)
{
	size_t n = b - a;
	struct ranked *r = xmalloc((n + 1) * sizeof(*r));
	double ties = 0;

	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){ x[a + i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (size_t k = 0, j; k < n; k = j) {
		double t;
		for (j = k + 1; j < n && r[j].v == r[k].v; j++)
			;
		t = (double)(j - k);
		ties += t * t * t - t;
		for (size_t q = k; q < j; q++)
			rank[r[q].i] = (double)(k + 1 + j) / 2;
	}
	free(r);
	return ties;
}

/* The standardized rank sum of the first m of n values (Mann-Whitney), ties and continuity
 * corrected; 0 when every value is tied. */
static double rank_z(double left_sum, size_t m, size_t n, double ties)
{
	double dm = (double)m, dn = (double)n, k = dn - dm;
	double var = dm * k / 12 * ((dn + 1) - ties / (dn * (dn - 1)));
	double d = left_sum - dm * (dn + 1) / 2;

	if (!(var > 0))
		return 0;
	d = d > 0 ? fmax(d - 0.5, 0) : fmin(d + 0.5, 0);
	return d / sqrt(var);
}

static double median_of(const double *x, size_t a, size_t b)
{
	return stats_median(x + a, b - a);
}

/* The robust spread of x[a..b) around m: the median absolute deviation, scaled to a normal's sd. */
static double mad_of(const double *x, size_t a, size_t b, double m)
{
	double *d = xmalloc((b - a) * sizeof(*d)), s;

	for (size_t i = a; i < b; i++)
		d[i - a] = fabs(x[i] - m);
	s = 1.4826 * stats_median(d, b - a);
	free(d);
	return s;
}

/* The residuals of x[a..i) and x[i..b) from their sides' medians m[0], m[1] into r[0..b-a),
 * clipped at CHANGEPOINT_CLIP robust sds (mad_of the residuals); returns that sd, 0 when the
 * residuals are all 0. */
static double clipped_residuals(const double *x, size_t a, size_t i, size_t b, const double *m,
				double *r)
{
	size_t n = b - a;
	double s;

	for (size_t q = a; q < b; q++)
		r[q - a] = x[q] - m[q >= i];
	s = mad_of(r, 0, n, 0);
	if (!(s > 0)) { /* more than half tied: the mean absolute residual */
		s = 0;
		for (size_t q = 0; q < n; q++)
			s += fabs(r[q]);
		s *= 1.2533 / (double)n;
	}
	for (size_t q = 0; q < n && s > 0; q++)
		r[q] = fmax(-CHANGEPOINT_CLIP * s, fmin(CHANGEPOINT_CLIP * s, r[q]));
	return s;
}

/* |t| of the winsorized pooled t-test of x[a..i) against x[i..b) (INFINITY: two flat, different
 * sides; 0: no difference). */
static double split_t(const double *x, size_t a, size_t i, size_t b)
{
	size_t na = i - a, nb = b - i, n = b - a;
	double m[2] = { median_of(x, a, i), median_of(x, i, b) }, c[2], *r, ss = 0, se2;

	r = xmalloc(n * sizeof(*r));
	if (!(clipped_residuals(x, a, i, b, m, r) > 0)) {
		free(r);
		return m[0] == m[1] ? 0 : INFINITY;
	}
	c[0] = stats_mean(r, na);
	c[1] = stats_mean(r + na, nb);
	for (size_t q = 0; q < n; q++)
		ss += (r[q] - c[q >= na]) * (r[q] - c[q >= na]);
	free(r);
	/* Student's pooled variance, not Welch's: two close values on a short side must not make
	 * their side look exact (the pooled test of one value is its prediction interval). */
	se2 = ss / (double)(n - 2) * (1 / (double)na + 1 / (double)nb);
	if (!(se2 > 0))
		return m[0] + c[0] == m[1] + c[1] ? 0 : INFINITY;
	return fabs(m[1] + c[1] - m[0] - c[0]) / sqrt(se2);
}

/* The two-sided p of the step between x[a..i) and x[i..b): Student's pooled t-test of the values
 * winsorized around their sides' medians at CHANGEPOINT_CLIP robust sds, so that a wild value
 * weighs like a value at the clip, not like its size. */
static double changepoint_p(const double *x, size_t a, size_t i, size_t b)
{
	if (i <= a || i >= b || b - a < 3)
		return 1;
	return 2 * stats_t_cdf(-split_t(x, a, i, b), (double)(b - a - 2));
}

/* Ranks place a split well in the middle of a segment but only roughly near its ends, where they
 * weigh separation, not size: the place within CHANGEPOINT_REFINE of t (at least 'min' values on
 * either side) with the largest winsorized t. */
#define CHANGEPOINT_REFINE 3
static size_t refine(const double *x, size_t a, size_t b, size_t min, size_t t)
{
	size_t right = min, best = t;
	double top = split_t(x, a, t, b);

	for (size_t i = t > a + CHANGEPOINT_REFINE ? t - CHANGEPOINT_REFINE : a + 1;
	     i <= t + CHANGEPOINT_REFINE && i + right <= b; i++) {
		double v;
		if (i - a < min || i == t || !((v = split_t(x, a, i, b)) > top))
			continue;
		top = v;
		best = i;
	}
	return best;
}

/* The places of x[a..b) a split with 'min' values on either side may take. */
static size_t places(size_t a, size_t b, size_t min)
{
	return b - a >= 2 * min ? b - a - 2 * min + 1 : 0;
}

/* A p chosen as the best of 'k' places: times k (Bonferroni), at most 1. Without it pure noise
 * at CV 3 % gives a change point in about one series of a hundred. */
static double chosen(double p, size_t k)
{
	p *= (double)(k ? k : 1);
	return p < 1 ? p : 1;
}

/* The split of x[a..b) with 'min' values on either side whose rank sum is most extreme, into *at
 * (0: none allowed; ranks place a split where a few wild values would not); returns its chosen p.
 * O(n log n). */
static double best_split(const double *x, size_t a, size_t b, size_t min, size_t *at)
{
	size_t n = b - a, k = places(a, b, min);
	double *rank, ties, sum = 0, best = -1;

	*at = 0;
	if (!k)
		return 1;
	rank = xmalloc(n * sizeof(*rank));
	ties = mid_ranks(x, a, b, rank);
	for (size_t m = 1; m + min <= n; m++) {
		double z;
		sum += rank[m - 1];
		if (m < min || !((z = fabs(rank_z(sum, m, n, ties))) > best))
			continue;
		best = z;
		*at = a + m;
	}
	free(rank);
	return *at ? chosen(changepoint_p(x, a, *at, b), k) : 1;
}

/* Binary segmentation: the significant splits of x[0..n), unordered, into cp; returns how many. */
static size_t split_all(const double *x, size_t n, const struct changepoint_options *o, size_t *cp)
{
	size_t *stack = xmalloc(2 * (n + 1) * sizeof(*stack)), top = 0, nr = 0;

	stack[top++] = 0;
	stack[top++] = n;
	while (top) {
		size_t b = stack[--top], a = stack[--top], t;
		if (!(best_split(x, a, b, o->min_segment, &t) < o->max_p))
			continue;
		t = refine(x, a, b, o->min_segment, t);
		cp[nr++] = t;
		stack[top++] = a;
		stack[top++] = t;
		stack[top++] = t;
		stack[top++] = b;
	}
	free(stack);
	return nr;
}

static int cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return a < b ? -1 : a > b;
}

double changepoint_magnitude(double before, double after, int relative)
{
	if (!relative)
		return fabs(after - before);
	return before != 0 ? fabs(after / before - 1) : after != 0 ? INFINITY : 0;
}

static double magnitude(double before, double after, const struct changepoint_options *o)
{
	return changepoint_magnitude(before, after, o->relative);
}

/* How badly change point j of cp[0..k) fails (0: it passes): p over max_p first, else a small
 * change. */
static double failure(const double *x, size_t n, const size_t *cp, size_t k, size_t j,
		      const struct changepoint_options *o, struct changepoint *out)
{
	size_t a = j ? cp[j - 1] : 0, b = j + 1 < k ? cp[j + 1] : n;
	double mag;

	out->index = cp[j];
	out->kind = CHANGEPOINT_STEP;
	out->before = median_of(x, a, cp[j]);
	out->after = median_of(x, cp[j], b);
	out->p = chosen(changepoint_p(x, a, cp[j], b), places(a, b, o->min_segment));
	mag = magnitude(out->before, out->after, o);
	if (!(out->p < o->max_p))
		return 1 + out->p;
	if (mag < o->min_change)
		return 1 - mag / o->min_change;
	return 0;
}

/* Removes the weakest failing change point until none fails; returns how many are left. */
static size_t prune(const double *x, size_t n, size_t *cp, size_t k,
		    const struct changepoint_options *o, struct changepoint *out)
{
	for (;;) {
		double worst = 0;
		size_t at = k;
		for (size_t j = 0; j < k; j++) {
			double f = failure(x, n, cp, k, j, o, &out[j]);
			if (f > worst) {
				worst = f;
				at = j;
			}
		}
		if (at == k)
			return k;
		for (size_t j = at; j + 1 < k; j++)
			cp[j] = cp[j + 1];
		k--;
	}
}

/*
 * The p of x[t..n) as a new level after x[a..t): every newest value past half the minimum change
 * on one side and their median past all of it; then the weakest of them, in robust sds of the
 * level before (its median and median absolute deviation, as a prediction), must be far enough
 * that all of them being so far is improbable: p = 2 P(T > z_min)^(n - t). One wild value cannot
 * carry a neighbour with it. 1 when the values do not all agree.
 */
static double tail_p(const double *x, size_t a, size_t t, size_t n,
		     const struct changepoint_options *o, struct changepoint *out)
{
	double m0 = median_of(x, a, t), s0, dn0 = (double)(t - a);
	double z, nearest = INFINITY;

	for (size_t i = t; i < n; i++) {
		if ((x[i] - m0) * (x[t] - m0) <= 0 || magnitude(m0, x[i], o) < o->min_change / 2)
			return 1;
		nearest = fmin(nearest, fabs(x[i] - m0));
	}
	/* the spread only for the tails that passed (most do not): dividing the nearest value's
	 * distance by it is the least of the distances divided, bit for bit */
	s0 = mad_of(x, a, t, m0);
	z = nearest / (s0 * sqrt(1 + M_PI / 2 / dn0));
	out->index = t;
	out->before = m0;
	out->after = median_of(x, t, n);
	if (magnitude(m0, out->after, o) < o->min_change)
		return 1;
	if (!(s0 > 0))
		return 0; /* a flat level, and every newest value off it */
	/* the median absolute deviation is a third as efficient as the sd: a third of the degrees
	 * of freedom */
	z = stats_t_cdf(-z, fmax(1, 0.37 * (dn0 - 1)));
	return fmin(1, 2 * pow(z, (double)(n - t)));
}

/*
 * The newest runs after the last change point 'a': the most significant of the last 2..tail_max
 * runs as a new level (Bonferroni over the lengths tried) is a confirmed change; failing that, the
 * newest run alone may be a suspect. At least CHANGEPOINT_TAIL_BASE values must stay before.
 * Returns 1 when *out was written.
 */
static int tail_change(const double *x, size_t n, size_t a, const struct changepoint_options *o,
		       struct changepoint *out)
{
	struct changepoint c;
	size_t lengths = o->tail_max > 1 ? o->tail_max - 1 : 1;
	double best = 1;

	for (size_t l = 2; l <= o->tail_max && n >= a + CHANGEPOINT_TAIL_BASE + l; l++) {
		double p = chosen(tail_p(x, a, n - l, n, o, &c), lengths);
		if (p < best) {
			best = p;
			*out = c;
		}
	}
	if (best < o->max_p * CHANGEPOINT_TAIL_P) {
		out->p = best;
		out->kind = CHANGEPOINT_TAIL;
		return 1;
	}
	if (n < a + CHANGEPOINT_TAIL_BASE + 1)
		return 0;
	best = tail_p(x, a, n - 1, n, o, &c);
	if (!(best < o->max_p))
		return 0;
	*out = c;
	out->p = best;
	out->kind = CHANGEPOINT_SUSPECT;
	return 1;
}

/*
 * The newest runs: a step whose after side is within the last tail_max runs was placed with
 * min_segment values after it, which a step in the last 2 runs does not have; the tail test,
 * tried from the change point before it, places it exactly (every newest value past the change)
 * and replaces it when it lands within CHANGEPOINT_REFINE. Else the tail test from the last
 * change point. Returns how many change points out[] holds.
 */
static size_t newest(const double *x, size_t n, const size_t *cp, size_t k,
		     const struct changepoint_options *o, struct changepoint *out)
{
	struct changepoint t;

	if (k && n - cp[k - 1] <= o->tail_max &&
	    tail_change(x, n, k > 1 ? cp[k - 2] : 0, o, &t) && t.kind == CHANGEPOINT_TAIL &&
	    t.index + CHANGEPOINT_REFINE >= cp[k - 1] &&
	    t.index <= cp[k - 1] + CHANGEPOINT_REFINE) {
		out[k - 1] = t;
		return k;
	}
	return k + (size_t)tail_change(x, n, k ? cp[k - 1] : 0, o, &out[k]);
}

size_t changepoint_find(const double *x, size_t n, const struct changepoint_options *o,
			struct changepoint *out)
{
	size_t *cp, k;

	if (n < 3)
		return 0;
	cp = xmalloc((n + 1) * sizeof(*cp));
	k = split_all(x, n, o, cp);
	qsort(cp, k, sizeof(*cp), cmp_size);
	k = prune(x, n, cp, k, o, out);
	k = newest(x, n, cp, k, o, out);
	free(cp);
	return k;
}

double changepoint_noise(const double *x, size_t n, int relative)
{
	double *d, m, s;

	if (n < 3)
		return NAN;
	d = xmalloc((n - 1) * sizeof(*d));
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = x[i + 1] - x[i];
	s = mad_of(d, 0, n - 1, stats_median(d, n - 1)) / sqrt(2);
	free(d);
	if (!relative)
		return s;
	m = fabs(stats_median(x, n));
	return m > 0 ? s / m : NAN;
}
