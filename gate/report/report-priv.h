/* Private to the reports: the wording every report shares (report-words.c), and the base's figures
 * (report-base.c). */
#ifndef SG_REPORT_PRIV_H
#define SG_REPORT_PRIV_H

#include "analyze/analysis.h"
#include "report/report.h"

/* Counts by status, recounted so that a set not yet finished reports what it holds. */
void report_count(const struct verdict_set *s, size_t count[VERDICT_SKIPPED + 1]);
/* The outcome in words: "2 regressions, 1 warning in 48 checks", "all 48 checks pass (2 warnings)".
 */
void report_outcome(struct strbuf *sb, const struct verdict_set *s);
/* A failed run of the head, or of the base revision in A/B. */
int report_is_run(const struct verdict *v);
/* Whether the check failed for a run that failed (exit 3 with a run's error, no regression), not
 * for something else left unjudged; 'count' as report_count() gives it. */
int report_run_failed(const struct verdict_set *s, const size_t *count);
/* The benchmarks that had nothing to be compared with (error verdicts of kind baseline.missing). */
size_t report_no_reference(const struct verdict_set *s);
/* The verdicts that say a benchmark could not be decided (nothing judged, or every time check
 * undecided): the headline's "could not decide for N benchmarks". */
size_t report_undecided(const struct verdict_set *s);
/* The verdicts of one kind ("baseline.loads"). */
size_t report_count_kind(const struct verdict_set *s, const char *kind);
/* What v->baseline holds: "min" or "max" for a bound (kind *_min, *_max), else "baseline". */
const char *report_reference(const struct verdict *v);
/* A verdict's figures as every report shows them (base/units.h), 'none' when absent; return buf:
 * "50.0 % [49.1 %, 50.2 %]", "0.2 %" (a bound: "≥ 0.8"), "+49.8 points", "< 0.001"; a time
 * scaled to the stored baseline's machine speed says so: "0.484 s (scaled to the baseline's
 * machine speed by ×0.909)". */
const char *report_value_text(char *buf, size_t size, const struct verdict *v, const char *none);
const char *report_baseline_text(char *buf, size_t size, const struct verdict *v,
				 const char *none);
const char *report_change_text(char *buf, size_t size, const struct verdict *v, const char *none);
const char *report_p_text(char *buf, size_t size, double p, const char *none);

/* The lists of the reports: a status, or REPORT_INCONCLUSIVE, the warnings that say only that the
 * data cannot decide, listed apart so that they do not bury the warnings that found something. */
#define REPORT_INCONCLUSIVE (VERDICT_SKIPPED + 1)
/* Whether 'v' belongs in the list 'st' (a VERDICT_WARN list leaves the inconclusive ones out). */
int report_listed(const struct verdict *v, int st);
size_t report_count_listed(const struct verdict_set *s, int st);

/* The words of the headline, one per verdict, mildest first: a cell or an interval is marked with
 * the word of its worst verdict, and an inconclusive check is never called a warning. */
enum report_word {
	REPORT_WORD_NONE, /* no verdict */
	REPORT_WORD_PASS,
	REPORT_WORD_SKIPPED,
	REPORT_WORD_INCONCLUSIVE,
	REPORT_WORD_ERROR,
	REPORT_WORD_WARNING,
	REPORT_WORD_REGRESSION,
};
enum report_word report_word_of(const struct verdict *v);
/* "no checks", "pass", "skipped", "inconclusive", "error", "warning", "regression" */
const char *report_word_name(enum report_word w);

struct baseline;
/* The median of a baseline figure (share: of Total_time) in one configuration, NAN without it (b
 * may be NULL). */
double report_base_median(const struct baseline *b, const char *path, const char *size, int ranks,
			  int threads, enum analysis_figure f, int share);
/* The base's speedup in configuration c against the series' reference: median T(ref) / median
 * T(p), the one definition of a speedup (the current one too, and the check's); NAN without. */
double report_base_speedup(const struct baseline *b, const char *path, const char *size,
			   const struct analysis_config *ref, const struct analysis_config *c);
struct matrix_cell;
/* A current cell's figure f as a share of Total_time as the checks form it: the median over its
 * repeats of f / Total_time (the interval's id in the analysis); NAN without. */
double report_cell_share(const struct matrix_cell *c, int interval, enum analysis_figure f);
/* The machine's share of the wall (Interference / Total_time_wall), as the causes and the
 * details say "the machine took X % of Total_time_wall": for a current cell from its medians,
 * for the base the median over its repeats; NAN when not captured. */
double report_cell_machine(const struct matrix_cell *c);
double report_base_machine(const struct baseline *b, const char *path, const char *size,
			   int ranks, int threads);
struct matrix_figure;
/* "median [lo, hi]" of a figure as every report shows it (base/units.h); 'none' when absent. */
const char *report_figure_text(char *buf, size_t size, enum unit u, const struct matrix_figure *f,
			       const char *none);
struct check;
/* The baselines (or the base revision's samples) the check read, one per benchmark that has one;
 * caller frees the array. */
const struct baseline **report_bases(const struct check *c, size_t *n);
/* What the current results are compared with, for headings: "base" (A/B, the same job) or
 * "baseline". */
const char *report_base_word(const struct verdict_set *s);

#endif
