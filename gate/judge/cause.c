/* The likely cause of a change: which lost-time component grew, the Karp-Flatt trend, time outside
 * inner intervals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/lost-terms.h"
#include "judge/check-priv.h"
#include "stats/stats.h"

/* Smallest growth of a share, in parts of Total_time, worth naming. */
#define CAUSE_MIN_GROWTH 0.01
/* Smallest current share named when there is no baseline. */
#define CAUSE_MIN_SHARE 0.05

/* The program's terms of Lost_time (base/lost-table.h), then Load_imbalance and Serialized_work
 * (potential losses): the machine's Interference is told apart (interference()), never the cause.
 */
#define CAUSE_PROGRAM(id) ANALYSIS_##id,
#define CAUSE_MACHINE(id)
#define TERM(A, id, name, needs, key, colour, key_when, cause, formula, judged) CAUSE_##judged(id)
#define PART(A, ...)
static const enum analysis_figure components[] = {
	LOST_TERMS(TERM, PART, _) ANALYSIS_LOAD_IMBALANCE, ANALYSIS_SERIALIZED_WORK
};
#undef TERM
#undef PART

static double zero_if_nan(double v)
{
	return isnan(v) ? 0 : v;
}

/* Figures in the causes read as in every report (base/units.h). */
static void add_figure(struct strbuf *sb, enum unit u, double v)
{
	char buf[48];

	strbuf_addstr(sb, unit_format(buf, sizeof(buf), u, v));
}

static void add_percent(struct strbuf *sb, double share)
{
	add_figure(sb, UNIT_SHARE, share);
}

/* What a component's growth consists of: the cause of the part that grew most (the first of
 * equals), or of a term without parts. */
static const char *qualifier(const struct baseline_cell *cur, const struct baseline_cell *base,
			     enum analysis_figure f)
{
	const struct lost_term *t = lost_term_find(f);
	const char *best = "";
	double best_g = -INFINITY;

	if (f == ANALYSIS_SERIALIZED_WORK)
		return " (work done holding a lock, one thread at a time: critical, locks)";
	if (!t)
		return f == ANALYSIS_LOAD_IMBALANCE ? " (work spread unevenly over the processors)"
						    : "";
	if (!lost_term_has_parts(f))
		return t->cause;
	for (size_t i = 0; i < lost_nr_terms; i++) {
		enum analysis_figure part = lost_terms[i].fig;
		double g;
		if (lost_terms[i].parent != f)
			continue;
		g = baseline_median(cur, part, 1) - zero_if_nan(baseline_median(base, part, 1));
		if (!isnan(g) && g > best_g)
			best = lost_terms[i].cause, best_g = g;
	}
	return best;
}

/* Names the lost-time component that grew most (or, without a baseline, the largest one). */
static void component(struct strbuf *sb, const struct check_cell *cell, int prefer)
{
	int best = -1;
	double best_v = 0, cur_v = 0, base_v = 0;

	for (size_t i = 0; i < ARRAY_SIZE(components); i++) {
		double cur = baseline_median(cell->cur, components[i], 1),
		       base = baseline_median(cell->base, components[i], 1);
		double v = cell->base ? cur - base : cur;
		/* Load_imbalance and Serialized_work are potential losses, not terms of Lost_time:
		 * a term that grew as much is the better explanation, so they must clearly outgrow
		 * the terms. */
		double need = lost_term_find(components[i]) ? best_v : 2 * best_v;
		if (isnan(v) || v < (cell->base ? CAUSE_MIN_GROWTH : CAUSE_MIN_SHARE))
			continue;
		/* the term the check judged, when it grew: its own cause, not a larger one */
		if ((int)components[i] == prefer) {
			best = (int)i, best_v = v, cur_v = cur, base_v = base;
			break;
		}
		if (v <= need)
			continue;
		best = (int)i, best_v = v, cur_v = cur, base_v = base;
	}
	if (best < 0) {
		double pc = baseline_median(cell->cur, ANALYSIS_PRODUCTIVE_TIME, 0);
		double pb = baseline_median(cell->base, ANALYSIS_PRODUCTIVE_TIME, 0);
		char grew[48];
		unit_format_change(grew, sizeof(grew), UNIT_RELATIVE, pc / pb - 1);
		if (cell->base && pb > 0 && pc / pb - 1 > 0.05)
			strbuf_addf(sb, "no lost-time component grew: the useful work itself grew "
				    "(Productive_time %s)", grew);
		return;
	}
	strbuf_addstr(sb, analysis_figure_name(components[best]));
	strbuf_addstr(sb, qualifier(cell->cur, cell->base, components[best]));
	if (cell->base) {
		strbuf_addstr(sb, " grew from ");
		add_percent(sb, base_v);
		strbuf_addstr(sb, " to ");
	} else {
		strbuf_addstr(sb, " is ");
	}
	add_percent(sb, cur_v);
	strbuf_addstr(sb, cell->base ? " of Total_time"
				     : " of Total_time, the largest lost-time component");
}

static void separator(struct strbuf *sb)
{
	if (sb->len)
		strbuf_addstr(sb, "; ");
}

/* The Karp-Flatt trend of the series, or its change at this p against the baseline. */
static void karp_flatt(struct strbuf *sb, const struct check_cell *cell)
{
	const struct matrix_series *s = cell->series;
	const struct matrix_cell *first = NULL, *last = NULL;
	double eb, ec;

	if (!(cell->rp > 1))
		return;
	for (size_t i = 0; i < s->nr_cells; i++)
		if (s->cells[i].karp_flatt.n) {
			first = first ? first : &s->cells[i];
			last = &s->cells[i];
		}
	if (s->trend && !strcmp(s->trend, "rising") && first && last) {
		separator(sb);
		strbuf_addstr(sb, "Karp_Flatt rises ");
		add_figure(sb, UNIT_RATIO, first->karp_flatt.median);
		strbuf_addstr(sb, " -> ");
		add_figure(sb, UNIT_RATIO, last->karp_flatt.median);
		strbuf_addstr(sb, " with p: overhead grows with p");
		return;
	}
	if (s->trend && !strcmp(s->trend, "flat") && s->serial_fraction >= 1) {
		separator(sb);
		strbuf_addstr(sb, "no speedup (Karp_Flatt ~ ");
		add_figure(sb, UNIT_RATIO, s->serial_fraction);
		strbuf_addstr(sb, " >= 1): more processors were no faster than one");
		return;
	}
	if (s->trend && !strcmp(s->trend, "flat") && s->serial_fraction > 0.02) {
		separator(sb);
		strbuf_addstr(sb, "inherent serial fraction ~ ");
		add_figure(sb, UNIT_RATIO, s->serial_fraction);
		strbuf_addstr(sb, " (Insufficient_parallelism: serial code)");
		return;
	}
	ec = cell->mc->karp_flatt.n ? cell->mc->karp_flatt.median : NAN;
	eb = check_derived_value(RULES_KARP_FLATT,
				 baseline_median(cell->base_ref, ANALYSIS_EXECUTION_TIME, 0),
				 baseline_median(cell->base, ANALYSIS_EXECUTION_TIME, 0), cell->rp);
	if (!isnan(ec) && !isnan(eb) && ec - eb >= 0.02) { /* a falling e explains no regression */
		separator(sb);
		/* e >= 1 is no fraction: p processors were no faster than one */
		strbuf_addf(sb, "Karp_Flatt at p = %d rose from ", cell->mc->p);
		add_figure(sb, UNIT_RATIO, eb);
		strbuf_addstr(sb, " to ");
		add_figure(sb, UNIT_RATIO, ec);
		strbuf_addf(sb, ": %s%s",
			    ec >= 1 ? "no speedup (e >= 1: no faster than on one processor)"
				    : "the serial or overhead fraction grew",
			    eb < 0 ? "; the baseline was superlinear (e < 0: efficiency above 1)"
				   : "");
	}
}

/* A direct child of 'parent': one more path component. */
static int is_child(const char *parent, const char *path)
{
	size_t n = strlen(parent);

	return !strncmp(parent, path, n) && path[n] == '/' && !strchr(path + n + 1, '/');
}

/* The interval grew but its inner intervals did not: the time went around them. */
static void outside_inner(struct strbuf *sb, const struct check_cell *cell)
{
	const struct baseline *cur = &cell->b->cur;
	double grew = baseline_median(cell->cur, ANALYSIS_EXECUTION_TIME, 0) -
		      baseline_median(cell->base, ANALYSIS_EXECUTION_TIME, 0);
	double inner = 0;
	int children = 0;

	if (!cell->base || !(grew > 0))
		return;
	for (size_t i = 0; i < cur->nr_cells; i++) {
		const struct baseline_cell *c = &cur->cells[i], *b;
		if (c->ranks != cell->cur->ranks || c->threads != cell->cur->threads ||
		    strcmp(c->size, cell->cur->size) || !is_child(cell->interval, c->interval))
			continue;
		b = baseline_find(&cell->b->base, c->interval, c->size, c->ranks, c->threads);
		if (!b)
			continue;
		children++;
		inner += baseline_median(c, ANALYSIS_EXECUTION_TIME, 0) -
			 baseline_median(b, ANALYSIS_EXECUTION_TIME, 0);
	}
	if (children && inner < 0.5 * grew) {
		separator(sb);
		strbuf_addf(sb,
			    "the time went outside the inner intervals (waiting often lands in the "
			    "enclosing interval): %s grew by ", cell->interval);
		add_figure(sb, UNIT_SECONDS, grew);
		strbuf_addstr(sb, ", its inner intervals by ");
		add_figure(sb, UNIT_SECONDS, inner);
	}
}

/* The machine's share of the interval (Interference): told, never the cause, removed from what
 * was judged. */
static void interference(struct strbuf *sb, const struct check_cell *cell)
{
	const struct matrix_figure *in = cell->mc ? &cell->mc->fig[ANALYSIS_INTERFERENCE] : NULL;
	double total = cell->mc ? cell->mc->fig[ANALYSIS_TOTAL_TIME_WALL].median : NAN;

	if (!in || !in->n || !(total > 0) || in->median / total < CAUSE_MIN_GROWTH)
		return;
	separator(sb);
	strbuf_addstr(sb, "the machine took ");
	add_percent(sb, in->median / total);
	strbuf_addstr(sb, " of Total_time_wall from this interval (Interference: other processes; "
			  "removed from the judged figures)");
}

/* A time's relative change, current median over the baseline's. */
static double time_change(const struct baseline_cell *cur, const struct baseline_cell *base)
{
	return baseline_median(cur, ANALYSIS_EXECUTION_TIME, 0) /
	       baseline_median(base, ANALYSIS_EXECUTION_TIME, 0) - 1;
}

/* The least gain of both times that "faster everywhere" names. */
#define FASTER_MIN 0.02

/* A scaled configuration whose times both got faster: a worse speedup is no slower program. Not
 * for a share's check ('prefer'): the term that grew is its cause. */
static void faster_everywhere(struct strbuf *sb, const struct check_cell *cell, int prefer)
{
	double at_ref, at_p;
	char a[48], b[48], ref[96], here[96];

	if (prefer >= 0 || !(cell->rp > 1) || !cell->base || !cell->cur_ref || !cell->base_ref)
		return;
	at_ref = time_change(cell->cur_ref, cell->base_ref);
	at_p = time_change(cell->cur, cell->base);
	if (!(at_ref < -FASTER_MIN && at_p < -FASTER_MIN))
		return;
	unit_format_change(a, sizeof(a), UNIT_RELATIVE, at_ref);
	unit_format_change(b, sizeof(b), UNIT_RELATIVE, at_p);
	check_config_name(ref, sizeof(ref), NULL, cell->cur_ref->ranks, cell->cur_ref->threads);
	check_config_name(here, sizeof(here), NULL, cell->cur->ranks, cell->cur->threads);
	separator(sb);
	strbuf_addf(sb, "faster everywhere, but scales worse: Execution_time %s at %s, %s at %s",
		    a, ref, b, here);
}

char *cause_explain(const struct check_cell *cell, int prefer)
{
	struct strbuf sb = STRBUF_INIT;

	if (!cell->cur)
		return NULL;
	component(&sb, cell, prefer);
	faster_everywhere(&sb, cell, prefer);
	karp_flatt(&sb, cell);
	outside_inner(&sb, cell);
	interference(&sb, cell);
	return sb.len ? strbuf_detach(&sb) : NULL;
}
