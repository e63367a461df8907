/* The models behind isoefficiency: growth of n(p) fitted on ln n, memory expressions, the
 * scalability function. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/isoeff.h"
#include "stats/stats.h"
#include "base/util.h"

#define FLOOR 0.01 /* residuals below 1 % in n are noise, not evidence for a model */

static const struct {
	const char *name;
	double alpha;
	int beta;
} growths[] = {
#define X(id, name, alpha, beta) { name, alpha, beta },
	ISOEFF_GROWTHS(X)
#undef X
};

const char *isoeff_growth_name(enum isoeff_growth g)
{
	return growths[g].name;
}

const char *isoeff_verdict_name(enum isoeff_verdict v)
{
	static const char *const names[] = {"perfectly_scalable", "scalable_to_memory_limit",
					    "poorly_scalable"};

	return names[v];
}

static double sum_sq_dev(const double *y, size_t n)
{
	double m = stats_mean(y, n), s = 0;

	for (size_t i = 0; i < n; i++)
		s += (y[i] - m) * (y[i] - m);
	return s;
}

static void fit_quality(struct isoeff_fit *f, double rss, double sst, size_t n)
{
	f->rss = rss;
	f->rms = sqrt(rss / n);
	f->r2 = sst > 0 ? 1 - rss / sst : (rss > 1e-18 ? 0 : 1);
}

/* ln n = ln c + alpha ln p + beta ln ln p with alpha, beta fixed. */
static void fit_fixed(enum isoeff_growth g, const double *p, const double *ln_n, size_t nr,
		      double sst, struct isoeff_fit *f)
{
	double c = 0, rss = 0;

	for (size_t i = 0; i < nr; i++)
		c += (ln_n[i] - growths[g].alpha * log(p[i]) - growths[g].beta * log(log(p[i]))) /
		     nr;
	for (size_t i = 0; i < nr; i++) {
		double r = ln_n[i] - c - growths[g].alpha * log(p[i]) -
			   growths[g].beta * log(log(p[i]));
		rss += r * r;
	}
	f->eligible = 1;
	f->c = exp(c);
	f->k = f->k_lo = f->k_hi = growths[g].alpha;
	fit_quality(f, rss, sst, nr);
}

static void fit_power(const double *p, const double *ln_n, size_t nr, double sst,
		      struct isoeff_fit *f)
{
	double x[64], rss = 0;
	struct stats_line l;

	for (size_t i = 0; i < nr; i++)
		x[i] = log(p[i]);
	if (nr < 3 || stats_line_fit(x, ln_n, nr, 0.95, &l))
		return;
	for (size_t i = 0; i < nr; i++)
		rss += (ln_n[i] - l.a - l.b * x[i]) * (ln_n[i] - l.a - l.b * x[i]);
	f->eligible = 1;
	f->c = exp(l.a);
	f->k = l.b;
	f->k_lo = l.b_lo;
	f->k_hi = l.b_hi;
	fit_quality(f, rss, sst, nr);
}

int isoeff_fit_growth(const double *p, const double *n, size_t nr,
		      struct isoeff_fit fits[ISOEFF_NR_GROWTHS])
{
	double ln_n[64], sst, floor = nr * FLOOR * FLOOR, rss1, rssk, t;
	int best = -1;

	memset(fits, 0, ISOEFF_NR_GROWTHS * sizeof(*fits));
	if (nr < 2 || nr > 64)
		return -1;
	for (size_t i = 0; i < nr; i++)
		ln_n[i] = log(n[i]);
	sst = sum_sq_dev(ln_n, nr);
	for (int g = 0; g < ISOEFF_POWER; g++) {
		fit_fixed(g, p, ln_n, nr, sst, &fits[g]);
		if (best < 0 || fits[g].rss < fits[best].rss)
			best = g;
	}
	fit_power(p, ln_n, nr, sst, &fits[ISOEFF_POWER]);
	if (!fits[ISOEFF_POWER].eligible)
		return best;
	rss1 = fmax(fits[best].rss, floor);
	rssk = fmax(fits[ISOEFF_POWER].rss, floor);
	t = stats_t_quantile(0.975, nr - 2);
	return (rss1 - rssk) / (rssk / (nr - 2)) > t * t ? ISOEFF_POWER : best;
}

/* ---- the scalability function ---- */

void isoeff_scalability(const struct memory_model *m, enum isoeff_growth g, double k,
			struct isoeff_scalability *s)
{
	double alpha = g == ISOEFF_POWER ? k : growths[g].alpha;
	int beta = growths[g].beta;

	/* M(C p^alpha ln^beta p) ~ p^(a alpha) (ln p)^(a beta) (ln of that)^b */
	s->p_exp = m->a * alpha - 1;
	s->log_exp = m->a * beta + (alpha > 0 ? m->b : 0);
	s->loglog_exp = alpha <= 0 && beta > 0 ? m->b : 0;
	if (fabs(s->p_exp) <= fmax(0.1, 0.05 * m->a) &&
	    (g == ISOEFF_POWER || fabs(s->p_exp) < 1e-9))
		s->p_exp = 0;
	if (s->p_exp < 0 || (s->p_exp == 0 && !s->log_exp && !s->loglog_exp))
		s->verdict = ISOEFF_PERFECTLY_SCALABLE;
	else if (s->p_exp == 0)
		s->verdict = ISOEFF_MEMORY_LIMIT;
	else
		s->verdict = ISOEFF_POORLY_SCALABLE;
}

static void add_power(char *buf, size_t size, const char *base, double e)
{
	size_t len = strlen(buf);

	if (e == 0)
		return;
	if (e == 1)
		snprintf(buf + len, size - len, "%s%s", len ? " " : "", base);
	else
		snprintf(buf + len, size - len, "%s%s^%.2g", len ? " " : "", base, e);
}

void isoeff_growth_text(enum isoeff_growth g, double k, char *buf, size_t size)
{
	if (g == ISOEFF_POWER)
		snprintf(buf, size, "p^%.2f", k);
	else
		snprintf(buf, size, "%s", growths[g].name);
}

void isoeff_function_text(const struct isoeff_scalability *s, char *buf, size_t size)
{
	size_t len;

	buf[0] = '\0';
	add_power(buf, size, "p", s->p_exp);
	len = strlen(buf);
	if (s->log_exp == 1)
		snprintf(buf + len, size - len, "%slog p", len ? " " : "");
	else if (s->log_exp)
		snprintf(buf + len, size - len, "%slog^%.2g p", len ? " " : "", s->log_exp);
	len = strlen(buf);
	if (s->loglog_exp)
		snprintf(buf + len, size - len, "%slog log p", len ? " " : "");
	if (!buf[0])
		snprintf(buf, size, "constant");
}
