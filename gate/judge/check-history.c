/* The shift between sittings measured per cell from the history database (docs/check.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "history/history.h"
#include "judge/check-priv.h"

/* The spread of the last this many recorded runs of a series counts. */
#define HISTORY_SHIFT_RUNS 30

/*
 * The sd of the logs of the last HISTORY_SHIFT_RUNS finite values of 's', with their count; with
 * 'runs', of the values scaled to one machine speed by their runs' references (check-reference.c
 * scales the current times alike), NAN when one of them has none.
 */
static double series_sd(const struct history_series *s, const struct history_run *runs, size_t *n)
{
	size_t from = s->n > HISTORY_SHIFT_RUNS ? s->n - HISTORY_SHIFT_RUNS : 0;
	double mean = 0, m2 = 0;

	*n = 0;
	for (size_t i = from; i < s->n; i++) {
		double x, d, ref = runs ? runs[s->run[i]].reference : 1;
		if (!(s->value[i] > 0) || !isfinite(s->value[i]))
			continue;
		if (!(ref > 0) || !isfinite(ref))
			return NAN;
		x = log(s->value[i]) - log(ref);
		d = x - mean;
		mean += d / (double)++*n;
		m2 += d * (x - mean);
	}
	return *n >= 2 ? sqrt(m2 / (double)(*n - 1)) : NAN;
}

static void add_spreads(struct check_bench *b, const struct history_data *d)
{
	for (size_t i = 0; i < d->nr_series; i++) {
		const struct history_series *s = &d->series[i];
		struct check_spread *sp;
		size_t n;
		double sd;
		if (strcmp(s->benchmark, b->name) ||
		    (s->metric != HISTORY_TIME && s->metric != HISTORY_SPEEDUP))
			continue;
		sd = series_sd(s, NULL, &n);
		/* too few runs, or constant: the reference configuration's speedup of 1 */
		if (n < CHECK_SITTINGS_MEASURED || !(sd > 0))
			continue;
		ALLOC_GROW(b->spread, b->nr_spread + 1, b->alloc_spread);
		sp = &b->spread[b->nr_spread++];
		sp->interval = xstrdup(s->interval);
		sp->configuration = xstrdup(s->configuration);
		sp->speedup = s->metric == HISTORY_SPEEDUP;
		sp->sd = sd;
		sp->runs = n;
		sp->sd_scaled = sp->speedup ? NAN : series_sd(s, d->runs, &n);
	}
}

void check_history_shift(struct check *c, const char *where)
{
	struct history *h;
	struct history_data d;

	if (!where || c->ab || (access(where, F_OK) && !strstr(where, "://")))
		return;
	if (history_open(&h, where))
		return;
	if (!history_read_values(h, NULL, &d)) {
		for (size_t i = 0; i < c->nr_bench; i++)
			if (c->bench[i].has_base && !c->bench[i].nr_spread)
				add_spreads(&c->bench[i], &d);
		history_data_release(&d);
	}
	history_close(h);
}

const struct check_spread *check_history_spread(const struct check_cell *cell, int speedup)
{
	const struct check_bench *b = cell->b;
	const struct check_spread *found = NULL;
	char *conf;

	if (!b->nr_spread || !cell->mc || !cell->series || !cell->interval)
		return NULL;
	conf = history_configuration(cell->series->size, cell->mc->config->ranks,
				     cell->mc->config->threads);
	for (size_t i = 0; i < b->nr_spread && !found; i++)
		if (b->spread[i].speedup == speedup &&
		    !strcmp(b->spread[i].interval, cell->interval) &&
		    !strcmp(b->spread[i].configuration, conf))
			found = &b->spread[i];
	free(conf);
	return found;
}

double check_spread_sd(const struct check_cell *cell, const struct check_spread *h, int *scaled)
{
	*scaled = cell->cur && cell->cur->speed > 0 && isfinite(h->sd_scaled);
	return *scaled ? h->sd_scaled : h->sd;
}

void check_spread_release(struct check_bench *b)
{
	for (size_t i = 0; i < b->nr_spread; i++) {
		free(b->spread[i].interval);
		free(b->spread[i].configuration);
	}
	free(b->spread);
	b->spread = NULL;
	b->nr_spread = b->alloc_spread = 0;
}
