/* Isoefficiency: how fast the problem size must grow with p to hold an efficiency, and what that
 * costs in memory (docs/metrics.md). */
#ifndef SG_ISOEFF_H
#define SG_ISOEFF_H

#include <stddef.h>

#include "config/memory-model.h"

struct matrix_cell;
struct matrix_series;

#define ISOEFF_TARGET 0.8 /* default target efficiency E */

/* Growth models of n(p) = C p^alpha (ln p)^beta; p^k fits alpha (alpha < 0 here). */
#define ISOEFF_GROWTHS(X) \
	X(CONSTANT, "constant", 0, 0) \
	X(LOG, "log p", 0, 1) \
	X(LINEAR, "p", 1, 0) \
	X(P_LOG_P, "p log p", 1, 1) \
	X(POWER, "p^k", -1, 0)

enum isoeff_growth {
#define X(id, name, alpha, beta) ISOEFF_##id,
	ISOEFF_GROWTHS(X)
#undef X
	ISOEFF_NR_GROWTHS
};

/* One model fitted by least squares on ln n. */
struct isoeff_fit {
	int eligible;         /* enough points for this model (p^k: 3) */
	double c;             /* n = c f(p) */
	double k, k_lo, k_hi; /* exponent of p: the model's, or fitted with its 95 % interval */
	double rss, rms, r2;  /* residuals in ln n; rms ~ relative error in n */
};

/*
 * Fits every growth model to the points (p_i > 1 distinct, n_i > 0) and
 * returns the chosen one: the one-parameter model with the smallest residual,
 * unless p^k is better by more than its extra parameter explains (F test at
 * 0.05, residuals floored at 1 % in n). -1 with fewer than 2 points.
 */
int isoeff_fit_growth(const double *p, const double *n, size_t nr,
		      struct isoeff_fit fits[ISOEFF_NR_GROWTHS]);

enum isoeff_verdict {
	ISOEFF_PERFECTLY_SCALABLE, /* memory per processor constant or shrinking */
	/* grows like a power of log p: scalable up to the memory limit */
	ISOEFF_MEMORY_LIMIT,
	ISOEFF_POORLY_SCALABLE,    /* grows like a power of p */
};

/* The scalability function M(f(p))/p = p^p_exp (ln p)^log_exp (ln ln p)^loglog_exp. */
struct isoeff_scalability {
	double p_exp;         /* 0 when within max(0.1, 0.05 a) of 0: a fitted k is not exact */
	double log_exp;
	int loglog_exp;
	enum isoeff_verdict verdict;
};

void isoeff_scalability(const struct memory_model *m, enum isoeff_growth g, double k,
			struct isoeff_scalability *s);

const char *isoeff_growth_name(enum isoeff_growth g);           /* "p log p", "p^k" */
const char *isoeff_verdict_name(enum isoeff_verdict v);         /* "perfectly_scalable", ... */
/* "p log p", "p^0.52", "constant" */
void isoeff_growth_text(enum isoeff_growth g, double k, char *buf, size_t size);
/* "log p", "p log^2 p", "constant", "p^-1" */
void isoeff_function_text(const struct isoeff_scalability *s, char *buf, size_t size);

enum isoeff_where {
	ISOEFF_INSIDE, /* crossed between two measured sizes (or at one): n interpolated in log n */
	ISOEFF_BELOW,  /* already reached at the smallest size: n <= that size */
	ISOEFF_BEYOND, /* not reached at the largest size: beyond measured sizes */
};

/* One processor count p > 1. */
struct isoeff_point {
	int p;
	enum isoeff_where where;
	/* INSIDE: the interpolated n; BELOW: the smallest, BEYOND: the largest size measured */
	double n;
	double efficiency; /* BELOW/BEYOND: Measured_efficiency at that size */
	/* by size: the best configuration with this p, NULL where none */
	const struct matrix_cell **at;
};

/* One benchmark x interval over its sizes. */
struct isoeff {
	const char *benchmark;
	int interval;
	double target;
	double *sizes;                 /* ascending, with a 1x1 reference */
	size_t nr_sizes;
	struct isoeff_point *points;   /* ascending p */
	size_t nr_points;
	char *refused;                 /* why there is no growth model, or NULL */
	int growth;                    /* enum isoeff_growth, -1 when refused */
	struct isoeff_fit fits[ISOEFF_NR_GROWTHS];
	size_t nr_fitted;              /* INSIDE points in the fit */
	const char *memory;            /* the declared memory model, or NULL */
	int has_scalability;
	struct isoeff_scalability scalability;
	char *explanation;             /* the one-sentence verdict */
};

/*
 * Fills 'iso' (benchmark, interval and target already set) from the series of
 * its sizes ('sizes' parallel to 'series', any order); 'memory' may be NULL.
 */
void isoeff_compute(struct isoeff *iso, const struct matrix_series *const *series,
		    const double *sizes, size_t nr, const char *memory);
void isoeff_release(struct isoeff *iso);

#endif
