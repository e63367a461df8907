/* A permutation test of a figure of groups' means, valid at any sample size (docs/check.md). */
#include "stats/stats.h"
#include "stats/stats-priv.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The k pairs' pooled values and the current arrangement of each pool. */
struct perm_state {
	const struct stats_group *groups;
	size_t k;           /* pairs: groups[i] the baseline's, groups[k + i] the current's */
	double **pool;      /* pool[i]: groups[i] then groups[k + i] */
	unsigned **mask;    /* mask[i][j]: pool[i][j] is a baseline value in this arrangement */
	double *means;
	stats_fn fn;
	void *ctx;
};

static double pool_mean(const struct perm_state *s, size_t i, int cur)
{
	size_t nb = s->groups[i].n, nc = s->groups[s->k + i].n;
	double sum = 0;

	for (size_t j = 0; j < nb + nc; j++)
		if (s->mask[i][j] == (unsigned)!cur)
			sum += s->pool[i][j];
	return sum / (double)(cur ? nc : nb);
}

static double arrangement_value(struct perm_state *s)
{
	for (size_t i = 0; i < s->k; i++) {
		s->means[i] = pool_mean(s, i, 0);
		s->means[s->k + i] = pool_mean(s, i, 1);
	}
	return s->fn(s->means, 2 * s->k, s->ctx);
}

/* The next split of pool i in lexicographic order of its mask; 0 after the last (mask reset). */
static int next_split(unsigned *mask, size_t n)
{
	size_t j = n - 1, ones = 0;

	/* the rightmost 1 followed by a 0 moves right; the 1s after it pack to the right */
	while (j > 0 && !(mask[j - 1] == 1 && mask[j] == 0)) {
		ones += mask[j];
		j--;
	}
	if (j == 0) {
		ones += mask[0];
		for (size_t t = 0; t < n; t++)
			mask[t] = t < ones;
		return 0;
	}
	mask[j - 1] = 0;
	mask[j] = 1;
	for (size_t t = j + 1; t < n; t++)
		mask[t] = t < j + 1 + ones;
	return 1;
}

/* A uniformly random split of pool i with the baseline's count (partial Fisher-Yates). */
static void random_split(struct perm_state *s, size_t i, size_t *idx, struct stats_rng *rng)
{
	size_t nb = s->groups[i].n, n = nb + s->groups[s->k + i].n;

	for (size_t j = 0; j < n; j++) {
		idx[j] = j;
		s->mask[i][j] = 0;
	}
	for (size_t j = 0; j < nb; j++) {
		size_t r = j + (size_t)stats_rng_below(rng, n - j), t = idx[j];
		idx[j] = idx[r];
		idx[r] = t;
		s->mask[i][idx[j]] = 1;
	}
}

/* Counts an arrangement's value against the observed one (ties, to rounding, count both ways). */
static void tally(double v, double obs, struct stats_permutation *r)
{
	double eps = 1e-9 * fmax(fabs(obs), 1e-300);

	if (isnan(v)) {
		r->nan_count++;
		return;
	}
	r->at_or_above += v >= obs - eps;
	r->at_or_below += v <= obs + eps;
}

/* The number of arrangements: the product of the pairs' C(nb + nc, nb). */
static double arrangements(const struct stats_group *groups, size_t k)
{
	double total = 1;

	for (size_t i = 0; i < k; i++) {
		size_t nb = groups[i].n, n = nb + groups[k + i].n;
		for (size_t j = 1; j <= nb; j++)
			total = total * (double)(n - nb + j) / (double)j;
	}
	return total;
}

static void run_exact(struct perm_state *s, double obs, struct stats_permutation *r)
{
	int more = 1;

	while (more) {
		tally(arrangement_value(s), obs, r);
		r->arrangements++;
		more = 0;
		for (size_t i = 0; i < s->k && !more; i++) {
			size_t n = s->groups[i].n + s->groups[s->k + i].n;
			more = next_split(s->mask[i], n);
		}
	}
}

/* Monte Carlo: the observed arrangement counts as one of 1 + B, so p stays valid. */
static void run_sampled(struct perm_state *s, double obs, struct stats_permutation *r)
{
	size_t iterations = r->iterations ? r->iterations : STATS_BOOTSTRAP_ITERATIONS, cap = 0;
	struct stats_rng rng;
	size_t *idx;

	for (size_t i = 0; i < s->k; i++)
		if (s->groups[i].n + s->groups[s->k + i].n > cap)
			cap = s->groups[i].n + s->groups[s->k + i].n;
	idx = xmalloc(cap * sizeof(*idx));
	stats_rng_init(&rng, r->seed);
	tally(obs, obs, r);
	r->arrangements = 1;
	for (size_t it = 0; it < iterations; it++, r->arrangements++) {
		for (size_t i = 0; i < s->k; i++)
			random_split(s, i, idx, &rng);
		tally(arrangement_value(s), obs, r);
	}
	free(idx);
}

static void state_init(struct perm_state *s, const struct stats_group *groups, size_t k)
{
	s->groups = groups;
	s->k = k;
	s->pool = xcalloc(k, sizeof(*s->pool));
	s->mask = xcalloc(k, sizeof(*s->mask));
	s->means = xmalloc(2 * k * sizeof(double));
	for (size_t i = 0; i < k; i++) {
		size_t nb = groups[i].n, n = nb + groups[k + i].n;
		s->pool[i] = xmalloc(n * sizeof(double));
		s->mask[i] = xmalloc(n * sizeof(unsigned));
		memcpy(s->pool[i], groups[i].x, nb * sizeof(double));
		memcpy(s->pool[i] + nb, groups[k + i].x, (n - nb) * sizeof(double));
		for (size_t j = 0; j < n; j++)
			s->mask[i][j] = j < nb; /* the observed split, also the first in order */
	}
}

static void state_release(struct perm_state *s)
{
	for (size_t i = 0; i < s->k; i++) {
		free(s->pool[i]);
		free(s->mask[i]);
	}
	free(s->pool);
	free(s->mask);
	free(s->means);
}

int stats_permutation(const struct stats_group *groups, size_t k, stats_fn fn, void *ctx,
		      struct stats_permutation *r)
{
	struct perm_state s = { .fn = fn, .ctx = ctx };
	double obs, valid;

	if (!k)
		return gate_error("permutation: no groups");
	for (size_t g = 0; g < 2 * k; g++)
		if (stats_check_sample("permutation", groups[g].x, groups[g].n))
			return -1;
	state_init(&s, groups, k);
	r->nan_count = r->at_or_above = r->at_or_below = r->arrangements = 0;
	obs = r->estimate = arrangement_value(&s);
	r->exact = arrangements(groups, k) <= STATS_PERM_EXACT_MAX;
	if (!isnan(obs)) {
		if (r->exact)
			run_exact(&s, obs, r);
		else
			run_sampled(&s, obs, r);
	}
	state_release(&s);
	valid = (double)(r->arrangements - r->nan_count);
	if (isnan(obs) || r->nan_count * 2 > r->arrangements) {
		r->p_greater = r->p_less = NAN;
		return 1;
	}
	r->p_greater = (double)r->at_or_above / valid;
	r->p_less = (double)r->at_or_below / valid;
	return 0;
}

double stats_permutation_min_p(const struct stats_group *groups, size_t k)
{
	return 1 / arrangements(groups, k);
}
