/* Isoefficiency of one benchmark x interval: where eps(n, p) crosses E at each p, how n grows, what
 * memory that needs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/isoeff.h"
#include "analyze/matrix.h"
#include "base/util.h"

void isoeff_release(struct isoeff *iso)
{
	for (size_t i = 0; i < iso->nr_points; i++)
		free(iso->points[i].at);
	free(iso->points);
	free(iso->sizes);
	free(iso->refused);
	free(iso->explanation);
	iso->points = NULL;
	iso->sizes = NULL;
	iso->refused = iso->explanation = NULL;
	iso->nr_points = iso->nr_sizes = 0;
}

static double eps(const struct matrix_cell *c)
{
	return c && c->efficiency.n ? c->efficiency.median : NAN;
}

/* The sizes with a 1x1 reference, ascending, and their series. */
static size_t usable_sizes(struct isoeff *iso, const struct matrix_series *const *series,
			   const double *sizes, size_t nr, const struct matrix_series **by_size)
{
	iso->sizes = xmalloc((nr + 1) * sizeof(double));
	for (size_t i = 0; i < nr; i++) {
		size_t j;
		if (!series[i]->ref_is_serial || !(sizes[i] > 0))
			continue;
		for (j = iso->nr_sizes; j > 0 && iso->sizes[j - 1] > sizes[i]; j--) {
			iso->sizes[j] = iso->sizes[j - 1];
			by_size[j] = by_size[j - 1];
		}
		iso->sizes[j] = sizes[i];
		by_size[j] = series[i];
		iso->nr_sizes++;
	}
	return iso->nr_sizes;
}

static struct isoeff_point *point_for(struct isoeff *iso, int p)
{
	size_t i;

	for (i = 0; i < iso->nr_points && iso->points[i].p < p; i++)
		;
	if (i < iso->nr_points && iso->points[i].p == p)
		return &iso->points[i];
	iso->points = xrealloc(iso->points, (iso->nr_points + 1) * sizeof(*iso->points));
	memmove(&iso->points[i + 1], &iso->points[i], (iso->nr_points - i) * sizeof(*iso->points));
	iso->nr_points++;
	memset(&iso->points[i], 0, sizeof(iso->points[i]));
	iso->points[i].p = p;
	iso->points[i].at = xcalloc(iso->nr_sizes, sizeof(*iso->points[i].at));
	return &iso->points[i];
}

/* Per p > 1 and size, the configuration with the best efficiency (layouts such as 2x1 and 1x2 share
 * p). */
static void collect(struct isoeff *iso, const struct matrix_series **by_size)
{
	for (size_t j = 0; j < iso->nr_sizes; j++)
		for (size_t k = 0; k < by_size[j]->nr_cells; k++) {
			const struct matrix_cell *c = &by_size[j]->cells[k];
			struct isoeff_point *pt;
			if (c->p <= 1 || isnan(eps(c)))
				continue;
			pt = point_for(iso, c->p);
			if (!pt->at[j] || eps(c) > eps(pt->at[j]))
				pt->at[j] = c;
		}
}

static double logit(double e)
{
	return log(e / (1 - e));
}

/*
 * Where E lies between e0 and e1 (0..1). On the odds e / (1 - e) = T(n, 1) / T0(n, p),
 * which is linear in ln n when work and overhead are powers of n; on e itself
 * when an end is not inside (0, 1).
 */
static double interpolate(double e0, double e1, double E)
{
	if (e0 > 0 && e1 < 1)
		return (logit(E) - logit(e0)) / (logit(e1) - logit(e0));
	return (E - e0) / (e1 - e0);
}

/* The smallest n with eps >= E: the first crossing from below, interpolated in ln n. */
static void crossing(struct isoeff *iso, struct isoeff_point *pt)
{
	double e0 = NAN, n0 = NAN, E = iso->target;

	for (size_t j = 0; j < iso->nr_sizes; j++) {
		double e = eps(pt->at[j]), n = iso->sizes[j];
		if (isnan(e))
			continue;
		if (e >= E && isnan(e0)) {
			pt->where = ISOEFF_BELOW;
			pt->n = n;
			pt->efficiency = e;
			return;
		}
		if (e >= E) {
			pt->where = ISOEFF_INSIDE;
			pt->n = exp(log(n0) + interpolate(e0, e, E) * (log(n) - log(n0)));
			pt->efficiency = E;
			return;
		}
		e0 = e;
		n0 = n;
	}
	pt->where = ISOEFF_BEYOND;
	pt->n = n0;
	pt->efficiency = e0;
}

static const char *where_text(enum isoeff_where w)
{
	return w == ISOEFF_BELOW ? "reached at the smallest size" : "beyond measured sizes";
}

static char *refusal(const struct isoeff *iso)
{
	struct strbuf sb = STRBUF_INIT;
	const char *sep = " (";

	strbuf_addf(&sb,
		    "the target is crossed inside the measured sizes at %zu processor count%s, 2 "
		    "are needed",
		    iso->nr_fitted, iso->nr_fitted == 1 ? "" : "s");
	for (size_t i = 0; i < iso->nr_points; i++) {
		if (iso->points[i].where == ISOEFF_INSIDE)
			continue;
		strbuf_addf(&sb, "%sp = %d: %s", sep, iso->points[i].p,
			    where_text(iso->points[i].where));
		sep = "; ";
	}
	if (*sep == ';')
		strbuf_addch(&sb, ')');
	return strbuf_detach(&sb);
}

static void fit(struct isoeff *iso)
{
	double p[64], n[64];

	for (size_t i = 0; i < iso->nr_points && iso->nr_fitted < 64; i++)
		if (iso->points[i].where == ISOEFF_INSIDE) {
			p[iso->nr_fitted] = iso->points[i].p;
			n[iso->nr_fitted++] = iso->points[i].n;
		}
	iso->growth = isoeff_fit_growth(p, n, iso->nr_fitted, iso->fits);
	if (iso->growth < 0)
		iso->refused = refusal(iso);
}

static void explain(struct isoeff *iso)
{
	struct strbuf sb = STRBUF_INIT;
	char growth[64], fn[64];
	const struct isoeff_fit *f;
	struct memory_model mem;
	static const char *const verdicts[] = {
		"perfectly scalable", "scalable up to the memory limit",
		"poorly scalable: efficiency cannot be held within a fixed memory per processor",
	};

	if (iso->refused) {
		iso->explanation = xstrfmt("no isoefficiency at %.0f %% efficiency: %s",
					   100 * iso->target, iso->refused);
		return;
	}
	f = &iso->fits[iso->growth];
	isoeff_growth_text(iso->growth, f->k, growth, sizeof(growth));
	if (iso->growth == ISOEFF_CONSTANT)
		strbuf_addf(&sb, "to hold %.0f %% efficiency, n need not grow with p",
			    100 * iso->target);
	else
		strbuf_addf(&sb, "to hold %.0f %% efficiency, n must grow like %s",
			    100 * iso->target, growth);
	if (!iso->memory) {
		strbuf_addstr(
			&sb,
			"; declare the benchmark's 'memory' (e.g. n^2) to judge its scalability");
	} else if (memory_model_parse(iso->memory, &mem) == 0) {
		iso->has_scalability = 1;
		isoeff_scalability(&mem, iso->growth, f->k, &iso->scalability);
		isoeff_function_text(&iso->scalability, fn, sizeof(fn));
		if (!strcmp(fn, "constant"))
			strbuf_addstr(&sb, "; memory per processor then stays constant");
		else
			strbuf_addf(&sb, "; memory per processor then %s like %s",
				    iso->scalability.p_exp < 0 ? "shrinks" : "grows", fn);
		strbuf_addf(&sb, ": %s", verdicts[iso->scalability.verdict]);
	}
	iso->explanation = strbuf_detach(&sb);
}

void isoeff_compute(struct isoeff *iso, const struct matrix_series *const *series,
		    const double *sizes, size_t nr, const char *memory)
{
	const struct matrix_series **by_size = xcalloc(nr + 1, sizeof(*by_size));

	iso->growth = -1;
	iso->memory = memory;
	if (usable_sizes(iso, series, sizes, nr, by_size) < 2) {
		iso->refused = xstrdup("needs 2 or more sizes with a 1x1 configuration (efficiency "
				       "needs T(n, 1))");
	} else {
		collect(iso, by_size);
		for (size_t i = 0; i < iso->nr_points; i++)
			crossing(iso, &iso->points[i]);
		if (!iso->nr_points)
			iso->refused = xstrdup("needs configurations with more than one processor");
		else
			fit(iso);
	}
	explain(iso);
	free(by_size);
}
