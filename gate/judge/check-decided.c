/* Nothing judged is never green: a benchmark whose reference judged nothing, whose time checks
 * all could not decide, or some of whose time checks cannot be judged against a stored baseline
 * recorded under another load, gets a verdict that says so (docs/check.md, "Could not decide"). */
#include <math.h>
#include <string.h>

#include "judge/check-priv.h"

/* What the verdicts of one benchmark decided. */
struct decided {
	size_t wanted;   /* comparisons a rule asked for: tolerance checks, or cells without one */
	size_t compared; /* ... of them made: not skipped (decided or inconclusive) */
	size_t time, time_decided; /* the same for the time checks */
	size_t loads;              /* time checks that cannot be judged for loads apart */
	double here, base;         /* the machine's largest share here, and the baseline's then */
};

static int starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

static int decided(const struct verdict *v)
{
	return v->status == VERDICT_PASS || v->status == VERDICT_FAIL ||
	       (v->status == VERDICT_WARN && !v->inconclusive);
}

static void count(const struct verdict_set *vs, const char *bench, struct decided *d)
{
	memset(d, 0, sizeof(*d));
	d->here = d->base = NAN;
	for (size_t i = 0; i < vs->nr; i++) {
		const struct verdict *v = &vs->v[i];
		int tol = starts_with(v->kind, "tolerance.");
		if (strcmp(v->benchmark, bench))
			continue;
		/* a cell the reference does not have: a comparison wanted and not made */
		if (!tol && strcmp(v->kind, "interval.new") &&
		    !(v->status == VERDICT_SKIPPED && !strcmp(v->kind, "baseline.missing")))
			continue;
		d->wanted++;
		d->compared += tol && v->status != VERDICT_SKIPPED;
		if (!tol || strcmp(v->kind, "tolerance.time"))
			continue;
		d->time++;
		d->time_decided += decided(v);
		/* a time check, counted in d->time: never more cannot-judge than time checks */
		if (v->loads && v->status == VERDICT_WARN && isfinite(v->loads_here)) {
			int first = !d->loads++;
			if (first || v->loads_here > d->here) {
				d->here = v->loads_here;
				d->base = v->loads_base;
			}
		}
	}
}

static const char *reference(const struct check *c, const struct check_bench *b)
{
	return c->ab ? "the base revision" : b->base_path ? b->base_path : "the baseline";
}

static void judged_nothing(struct check *c, const struct check_bench *b, const struct decided *d)
{
	struct verdict *v = verdict_add(c->vs, VERDICT_ERROR, b->name, "-", "-", 0, 0,
					"baseline.unmatched");

	verdict_set_message(v,
			    "could not decide: none of the %zu interval x configuration "
			    "comparisons the rules asked for against %s could be made (each is "
			    "skipped or new above: too few samples, or %s)",
			    d->wanted, reference(c, b),
			    c->ab ? "cells the base revision did not run"
				  : "a baseline recorded from other intervals or configurations; "
				    "'scalegate baseline update' records it again");
}

/* The benchmark's verdict that it could not be decided: accepted, not judged and said so (exit
 * 0); else an error (exit 3). */
static struct verdict *not_decided(struct check *c, const struct check_bench *b, int accept,
				   const char *kind)
{
	return verdict_add(c->vs, accept ? VERDICT_SKIPPED : VERDICT_ERROR, b->name, "-", "-", 0, 0,
			   kind);
}

static void undecided(struct check *c, const struct check_bench *b, const struct decided *d,
		      int accept)
{
	struct verdict *v = not_decided(c, b, accept, "undecided");

	verdict_set_message(v,
			    "could not decide: all %zu time checks were inconclusive or skipped "
			    "against %s; %s",
			    d->time, reference(c, b),
			    accept ? "accepted by 'undecided: pass'"
				   : "add repeats (the inconclusive checks say how many), "
				     "or accept an undecided gate with 'undecided: pass'");
}

static void cannot_judge(struct check *c, const struct check_bench *b, const struct decided *d,
			 int accept)
{
	struct verdict *v = not_decided(c, b, accept, "baseline.loads");

	verdict_set_message(v,
			    "could not decide: cannot judge %zu of %zu time checks against %s: the "
			    "machine took up to %.1f %% of Total_time_wall here and %.1f %% when "
			    "the baseline was recorded, too far apart for the allowance for loads "
			    "apart to leave a decision (they are listed above); %s",
			    d->loads, d->time, reference(c, b), 100 * d->here, 100 * d->base,
			    accept ? "accepted by 'undecided: pass'"
				   : "record the baseline under a like load, run on a quiet "
				     "machine, compare with the base revision in the same job "
				     "(--against), or accept an undecided gate with 'undecided: "
				     "pass'");
}

void check_decided(struct check *c, int accept)
{
	for (size_t i = 0; i < c->nr_bench; i++) {
		const struct check_bench *b = &c->bench[i];
		struct decided d;
		if (!b->has_base)
			continue; /* no reference: note_baseline() said so */
		count(c->vs, b->name, &d);
		if (d.wanted && !d.compared)
			judged_nothing(c, b, &d);
		else if (d.loads && !c->ab)
			cannot_judge(c, b, &d, accept);
		else if (d.time && !d.time_decided)
			undecided(c, b, &d, accept);
	}
}
