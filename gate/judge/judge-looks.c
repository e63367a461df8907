/*
 * The two looks of an adaptive gate run (docs/check.md, "Adaptive repeats"):
 * the first on the configured rounds at CHECK_FIRST_LOOK of every rule's
 * level, the second on every round of the cells that got more, at the rest; a
 * test rejects when either look does, so the whole run's false-alarm rate
 * stays at most the level (Bonferroni over the looks, Holm over the tests within each).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "base/util.h"

/* The first look sees the rounds each benchmark was configured for. */
static int first_rounds(void *arg, const char *benchmark, int repeat)
{
	const struct bench_config *b = config_find(arg, benchmark);

	return !b || repeat <= b->repeat;
}

static int same(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

static struct verdict *match(struct verdict_set *vs, const struct verdict *v)
{
	for (size_t i = 0; i < vs->nr; i++) {
		struct verdict *w = &vs->v[i];
		if (w->ranks == v->ranks && w->threads == v->threads &&
		    same(w->benchmark, v->benchmark) && same(w->interval, v->interval) &&
		    same(w->size, v->size) && same(w->kind, v->kind))
			return w;
	}
	return NULL;
}

static void swap(struct verdict *x, struct verdict *y)
{
	struct verdict t = *x;

	*x = *y;
	*y = t;
}

/* The cells the second look did not test keep the first look's verdicts; a first look's failure
 * stands. */
static void combine(struct verdict_set *vs, struct verdict_set *first, const struct adaptive *looks)
{
	for (size_t i = 0; i < vs->nr; i++) {
		struct verdict *v = &vs->v[i], *w = match(first, v);
		int extended = adaptive_find(looks, v->benchmark, v->size, v->ranks, v->threads) !=
			       NULL;
		if (!w)
			continue;
		if (!extended || (w->status == VERDICT_FAIL && v->status != VERDICT_FAIL))
			swap(v, w);
	}
}

int judge_two_looks(struct judge *j, const struct adaptive *looks)
{
	struct analysis a1;
	struct matrix m1;
	struct verdict_set vs1;
	struct check c1;
	struct judge_look first = { &a1, &m1, &vs1, &c1, CHECK_FIRST_LOOK, NULL, 0 };
	struct judge_look second = { &j->a, &j->m, &j->vs, &j->c, 1 - CHECK_FIRST_LOOK, looks, 1 };
	double level;
	int ret;

	/* nothing was inconclusive, or no budget: the first look is the verdict */
	if (!looks->nr) {
		first = (struct judge_look){&j->a, &j->m, &j->vs, &j->c, CHECK_FIRST_LOOK, NULL, 1};
		j->a.keep = first_rounds;
		j->a.keep_arg = &j->config;
		ret = judge_pass(j, &first);
		j->vs.family_level /= CHECK_FIRST_LOOK;
		j->vs.looks = 2;
		return ret;
	}
	analysis_init(&a1);
	matrix_init(&m1);
	verdict_set_init(&vs1);
	memset(&c1, 0, sizeof(c1));
	a1.keep = first_rounds;
	a1.keep_arg = &j->config;
	ret = judge_pass(j, &first) || judge_pass(j, &second) ? -1 : 0;
	if (!ret) {
		/* each look's family level is its share of the largest significance */
		level = fmax(j->vs.family_level / (1 - CHECK_FIRST_LOOK),
			     vs1.family_level / CHECK_FIRST_LOOK);
		combine(&j->vs, &vs1, looks);
		j->vs.family_level = level;
		j->vs.looks = 2;
		j->vs.extended = looks->nr;
		for (size_t i = 0; i < looks->nr; i++)
			j->vs.extended_rounds += (size_t)(looks->cells[i].rounds -
							  looks->cells[i].first);
	}
	check_release(&c1);
	verdict_set_release(&vs1);
	matrix_release(&m1);
	analysis_release(&a1);
	return ret;
}
