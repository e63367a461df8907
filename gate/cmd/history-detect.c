/* scalegate history detect: the change points of every series, and the drift line of 'ci'. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/exitcode.h"
#include "base/util.h"
#include "cmd/history-priv.h"
#include "history/detect.h"
#include "history/history.h"
#include "rules/rules.h"
#include "stats/stats.h"

/* ---- detect ---- */

/* The rules' tolerance of the series' metric in its interval and configuration, when one is set. */
static int rules_tolerance(void *arg, const struct history_series *s, double *value, int *relative)
{
	struct rules *rules = arg;
	struct rules_settings set;
	char size[64] = "-";
	int ranks, threads, m = rules_metric_find(history_metric_name(s->metric));

	if (m < 0 || sscanf(s->configuration, "%dx%d n=%63s", &ranks, &threads, size) < 2)
		return 0;
	rules_effective(rules, s->benchmark, s->interval, size, ranks, threads, &set);
	if (!set.tolerance[m].set || set.tolerance[m].off)
		return 0;
	*value = set.tolerance[m].value;
	*relative = set.tolerance[m].relative;
	return 1;
}

static const char *kind_name(enum changepoint_kind k)
{
	return k == CHANGEPOINT_SUSPECT ? "suspect" : k == CHANGEPOINT_TAIL ? "newest" : "step";
}

/* What a change's line adds at its end. */
static const char *note_of(const struct detect_change *c)
{
	if (c->kind == CHANGEPOINT_SUSPECT)
		return " (the newest run alone: the next run at this level confirms it)";
	return c->tolerated ? " (within the rules' tolerance)" : "";
}

/* The first word of a change's line: an alarm in capitals, the rest as they are. */
static const char *line_word(const struct detect_change *c)
{
	if (c->kind == CHANGEPOINT_SUSPECT)
		return "suspect";
	if (!c->regression)
		return "improvement";
	return c->tolerated ? "tolerated" : "REGRESSION";
}

static void json_change(struct strbuf *sb, const struct history_data *d,
			const struct detect_change *c)
{
	const struct history_series *s = &d->series[c->series];

	strbuf_addstr(sb, "{\"benchmark\": ");
	json_add_string(sb, s->benchmark);
	strbuf_addstr(sb, ", \"interval\": ");
	json_add_string(sb, s->interval);
	strbuf_addstr(sb, ", \"configuration\": ");
	json_add_string(sb, s->configuration);
	strbuf_addstr(sb, ", \"metric\": ");
	json_add_string(sb, history_metric_name(s->metric));
	strbuf_addstr(sb, ", \"previous_commit\": ");
	json_add_string(sb, d->runs[c->previous].commit);
	strbuf_addstr(sb, ", \"commit\": ");
	json_add_string(sb, d->runs[c->run].commit);
	strbuf_addstr(sb, ", \"before\": ");
	json_add_number(sb, c->before);
	strbuf_addstr(sb, ", \"after\": ");
	json_add_number(sb, c->after);
	strbuf_addstr(sb, ", \"change\": ");
	json_add_number(sb, c->change);
	strbuf_addstr(sb, ", \"p\": ");
	json_add_number(sb, c->p);
	strbuf_addstr(sb, ", \"min_change\": ");
	json_add_number(sb, c->min_change);
	strbuf_addf(sb, ", \"regression\": %s, \"kind\": \"%s\", \"tolerated\": %s}",
		    c->regression ? "true" : "false", kind_name(c->kind),
		    c->tolerated ? "true" : "false");
}

static void print_json(const struct history_data *d, const struct detect_result *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "{\"change_points\": [");
	for (size_t i = 0; i < r->nr; i++) {
		strbuf_addstr(&sb, i ? ",\n  " : "\n  ");
		json_change(&sb, d, &r->changes[i]);
	}
	strbuf_addf(&sb, "%s], \"series\": %zu, \"runs\": %zu}\n", r->nr ? "\n" : "", d->nr_series,
		    d->nr_runs);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

static void print_text(const struct history_data *d, const struct detect_result *r, double fdr)
{
	printf("history: %zu runs, %zu series; %zu change point%s (false discovery rate %g %%)\n",
	       d->nr_runs, d->nr_series, r->nr, r->nr == 1 ? "" : "s", fdr * 100);
	for (size_t i = 0; i < r->nr; i++) {
		const struct detect_change *c = &r->changes[i];
		const struct history_series *s = &d->series[c->series];
		printf("  %-11s %s %s %s %s: %+.1f %% (%.4g -> %.4g) at %s (after %s), p %.2g%s\n",
		       line_word(c), s->benchmark, s->interval, s->configuration,
		       history_metric_name(s->metric), c->change * 100, c->before, c->after,
		       d->runs[c->run].commit, d->runs[c->previous].commit, c->p,
		       note_of(c));
	}
}

/* Reads the database (the medians' intervals only with 'intervals'); 0 or -1. */
int history_cmd_read(const char *where, const char *branch, int intervals,
		     struct history_data *d)
{
	struct history *h;
	int ret;

	if (history_open(&h, where))
		return -1;
	ret = intervals ? history_read(h, branch, d) : history_read_values(h, branch, d);
	history_close(h);
	return ret;
}

/*
 * Change points of 'd' with the rules of 'c' (NULL: the defaults) as minimum changes; 0 or -1.
 * With 'arrived', also whether the last *arrived runs made a regression known (then 1 or 0).
 */
static int changes(const struct history_data *d, struct config *c, double fdr,
		   struct detect_result *r, size_t *arrived)
{
	struct rules rules;
	struct detect_options o = { .fdr = fdr, .tolerance = rules_tolerance };

	rules_init(&rules);
	if (rules_load(&rules, c))
		return -1;
	o.arg = &rules;
	detect_run(d, &o, r);
	if (arrived)
		*arrived = (size_t)detect_regression_arrived(d, &o, r, *arrived);
	rules_release(&rules);
	return 0;
}

int history_cmd_changes(const struct history_data *d, struct config *c, double fdr,
			struct detect_result *r)
{
	return changes(d, c, fdr, r, NULL);
}

static int parse_positive(const char *text, const char *name, double max, double *out)
{
	char *end;

	*out = strtod(text, &end);
	if (end == text || *end || !(*out > 0) || *out > max)
		return gate_error("%s must be a number in (0, %g], got '%s'", name, max, text);
	return 0;
}

/* A count of runs: a positive whole number, no sign, no fraction. */
static int parse_runs(const char *text, const char *name, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (!isdigit((unsigned char)*text) || *end || errno || v == 0 || v > 1000000000)
		return gate_error("%s must be a whole number of runs from 1 to 1000000000, "
				  "got '%s'",
				  name, text);
	*out = (size_t)v;
	return 0;
}

int history_cmd_detect(const char *where, struct config *c, const struct history_options *o)
{
	struct history_data d;
	struct detect_result r;
	double fdr = DETECT_FDR;
	size_t arrived = 1;
	int code;

	if ((o->window_text && parse_runs(o->window_text, "--window", &arrived)) ||
	    (o->fdr_text && parse_positive(o->fdr_text, "--fdr", 0.5, &fdr)))
		return SG_EXIT_USAGE;
	if (history_cmd_read(where, o->meta.branch, 0, &d))
		return SG_EXIT_USAGE;
	if (changes(&d, c, fdr, &r, &arrived)) {
		history_data_release(&d);
		return SG_EXIT_USAGE;
	}
	if (o->json)
		print_json(&d, &r);
	else
		print_text(&d, &r, fdr);
	code = arrived ? SG_EXIT_REGRESSION : SG_EXIT_PASS;
	detect_result_release(&r);
	history_data_release(&d);
	return code;
}

/* ---- the drift line of 'ci' ---- */

/* The drift compares the medians of this many runs, now and then: one slow night moves neither. */
#define DRIFT_RUNS 5

struct drift {
	size_t back, runs; /* how far back 'then' ends; how many runs each median is of */
	double change, lo, hi; /* now / then - 1, and its 95 % interval */
};

/* The change of the median of the series' last runs against the median of as many runs ending
 * 'back' runs before (or the first runs, in a shorter history): DRIFT_RUNS each, fewer where the
 * two would overlap; with the bootstrap interval of the medians' ratio. 0, or -1 when there is no
 * figure. */
static int drift_of(const struct history_series *s, size_t back, struct drift *out)
{
	struct stats_bootstrap bs = STATS_BOOTSTRAP_INIT;
	size_t n = s->n, w = DRIFT_RUNS, then;

	if (n < 2)
		return -1;
	back = back < n - 1 ? back : n - 1;
	w = w < n / 2 ? w : n / 2;
	then = n - back >= w ? n - back - w : 0;
	then = then + w <= n - w ? then : n - 2 * w;
	if (stats_ratio_of_medians(s->value + then, w, s->value + n - w, w, 0.95, &bs) ||
	    !isfinite(bs.estimate) || !(bs.estimate > 0))
		return -1;
	*out = (struct drift){ back, w, bs.estimate - 1, bs.lo - 1, bs.hi - 1 };
	return 0;
}

/* The largest regression of the benchmark at change point i's commit, if i is it (one per commit).
 */
static int largest_at_commit(const struct history_data *d, const struct detect_result *r, size_t i)
{
	const struct detect_change *c = &r->changes[i];
	const char *benchmark = d->series[c->series].benchmark;

	if (!c->regression)
		return 0;
	for (size_t k = 0; k < r->nr; k++) {
		const struct detect_change *o = &r->changes[k];
		if (k == i || o->run != c->run || !o->regression ||
		    strcmp(d->series[o->series].benchmark, benchmark))
			continue;
		if (fabs(o->change) > fabs(c->change) ||
		    (fabs(o->change) == fabs(c->change) && k < i))
			return 0;
	}
	return 1;
}

static void drift_changes(FILE *out, const struct history_data *d, const struct detect_result *r,
			  const char *benchmark)
{
	size_t shown = 0;

	for (size_t i = 0; i < r->nr && shown < 5; i++) {
		const struct detect_change *c = &r->changes[i];
		const struct history_series *s = &d->series[c->series];
		if (strcmp(s->benchmark, benchmark) || !largest_at_commit(d, r, i))
			continue;
		fprintf(out, "%s %s (%s %s %s %+.1f %%)", shown++ ? "," : "; regressions at",
			d->runs[c->run].commit, s->interval, s->configuration,
			history_metric_name(s->metric), c->change * 100);
	}
}

static int program_time(const struct history_series *s)
{
	return s->metric == HISTORY_TIME && !strcmp(s->interval, "program");
}

/* Whether another configuration of series i's benchmark comes after it. */
static int later_program_time(const struct history_data *d, size_t i)
{
	for (size_t j = i + 1;
	     j < d->nr_series && !strcmp(d->series[j].benchmark, d->series[i].benchmark); j++)
		if (program_time(&d->series[j]))
			return 1;
	return 0;
}

void history_cmd_drift(FILE *out, const char *where, struct config *c, const char *branch,
		       size_t runs)
{
	struct history_data d;
	struct detect_result r = { 0 };

	if (access(where, F_OK) && !strstr(where, "://"))
		return;
	if (history_cmd_read(where, branch, 0, &d))
		return;
	if (d.nr_runs >= 2 && !history_cmd_changes(&d, c, DETECT_FDR, &r)) {
		for (size_t i = 0; i < d.nr_series; i++) {
			const struct history_series *s = &d.series[i];
			struct drift v;
			/* the whole program, in its last configuration: one line per benchmark */
			if (!program_time(s) || later_program_time(&d, i) || drift_of(s, runs, &v))
				continue;
			fprintf(out, "history: %s (%s) is %.1f %% %s than %zu runs ago (",
				s->benchmark, s->configuration, fabs(v.change) * 100,
				v.change > 0 ? "slower" : "faster", v.back);
			if (v.runs > 1)
				fprintf(out,
					"medians of %zu runs, 95 %% interval %+.1f to %+.1f %%)",
					v.runs, v.lo * 100, v.hi * 100);
			else
				fputs("one run each)", out);
			drift_changes(out, &d, &r, s->benchmark);
			fputc('\n', out);
		}
	}
	detect_result_release(&r);
	history_data_release(&d);
}
