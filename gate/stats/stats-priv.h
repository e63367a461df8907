/* Checks and helpers shared by the statistics files; not part of the stats API. */
#ifndef SG_STATS_PRIV_H
#define SG_STATS_PRIV_H

#include <stddef.h>

/* 1 when every value is finite. */
int stats_all_finite(const double *x, size_t n);
/* 0, or gate_error() naming 'what' for an empty or non-finite sample. */
int stats_check_sample(const char *what, const double *x, size_t n);
/* 0, or gate_error() naming 'what' when 'level' is not in (0, 1). */
int stats_check_level(const char *what, double level);

/* The type 7 quantile q of a[0..n-1] by selection (a is reordered), as a sort would give it. */
double stats_select_quantile(double *a, size_t n, double q);

/* qsort() order of doubles, ascending. */
int stats_cmp_double(const void *pa, const void *pb);

#endif
