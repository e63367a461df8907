/* The Markdown report, for a pull-request comment or $GITHUB_STEP_SUMMARY (GitHub-flavoured;
 * docs/reports.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analysis.h"
#include "base/words.h"
#include "base/escape.h"
#include "base/interrupt.h"
#include "base/exitcode.h"
#include "analyze/matrix.h"
#include "judge/baseline.h"
#include "report/report-priv.h"
#include "analyze/scaling-size.h"
#include "base/util.h"
#include "judge/findings.h"
#include "judge/judge.h"

/* Caps that keep a comment well under GitHub's 65536 characters. */
#define MAX_TABLE_ROWS 40
#define MAX_LIST_ITEMS 20
/* Whole messages are long: the evidence rows and the bullets end once the report is this long. */
#define MAX_DETAILS_BYTES 32000
#define MAX_SENTENCE 1000     /* a message or a cause past this is cut after a clause */
#define MAX_SERIES 10
#define MAX_SERIES_ROWS 12

#define DASH "\xe2\x80\x93" /* en dash: no value */

/* A message or a cause, whole as every other report gives it (one past MAX_SENTENCE bytes ends
 * after a clause and says where the rest is). */
static void md_sentence(struct strbuf *sb, const char *s)
{
	md_add_sentence(sb, s, MAX_SENTENCE, "the JUnit report");
}

static void md_config(struct strbuf *sb, const struct verdict *v)
{
	char config[96];

	strbuf_addf(sb, "%s (p=%d)",
		    config_words(config, sizeof(config), v->ranks, v->threads, NULL), v->p);
	if (v->size && strcmp(v->size, "-")) {
		strbuf_addstr(sb, ", size ");
		md_add_text(sb, v->size, 40);
	}
}

static void table_row(struct strbuf *sb, const struct verdict *v)
{
	char text[160];

	strbuf_addstr(sb, "| ");
	md_add_text(sb, v->benchmark ? v->benchmark : "-", 80);
	strbuf_addstr(sb, " | ");
	if (v->interval)
		md_add_code(sb, v->interval, 1);
	if (v->interval && v->file && v->line > 0) { /* where to look: the interval's SG_BEGIN */
		char where[32];
		snprintf(where, sizeof(where), ":%d", v->line);
		strbuf_addstr(sb, " at ");
		md_add_text(sb, v->file, 120);
		strbuf_addstr(sb, where);
	}
	strbuf_addstr(sb, " | ");
	md_config(sb, v);
	strbuf_addstr(sb, " | ");
	if (v->metric || v->kind)
		md_add_code(sb, v->metric ? v->metric : v->kind, 1);
	strbuf_addstr(sb, " | ");
	strbuf_addstr(sb, report_value_text(text, sizeof(text), v, DASH));
	strbuf_addstr(sb, " | ");
	strbuf_addstr(sb, report_baseline_text(text, sizeof(text), v, DASH));
	strbuf_addstr(sb, " | ");
	strbuf_addstr(sb, report_change_text(text, sizeof(text), v, DASH));
	strbuf_addstr(sb, " | ");
	strbuf_addstr(sb, report_p_text(text, sizeof(text), v->p_value, DASH));
	strbuf_addstr(sb, " | ");
	/* the cause, else the message: what a reader acts on */
	if (v->cause || v->message)
		md_sentence(sb, v->cause ? v->cause : v->message);
	strbuf_addstr(sb, " |\n");
}

/* The checks of a finding in a table cell: their metrics, those of enclosing intervals after. */
static void finding_checks(struct strbuf *sb, const struct verdict_set *s, const struct finding *f)
{
	for (size_t k = 0; k < f->nr_checks; k++) {
		const struct verdict *v = &s->v[f->checks[k]];
		if (finding_folded(f, k) && finding_first_of_interval(s, f, k)) {
			strbuf_addstr(sb, "; with the enclosing ");
			md_add_code(sb, v->interval, 1);
			strbuf_addstr(sb, ": ");
		} else if (k) {
			strbuf_addstr(sb, ", ");
		}
		md_add_code(sb, v->metric ? v->metric : v->kind ? v->kind : "-", 1);
	}
}

static void finding_row(struct strbuf *sb, const struct verdict_set *s, const struct finding *f)
{
	const struct verdict *w = finding_where(s, f);
	const char *cause = finding_cause(s, f);

	strbuf_addstr(sb, "| ");
	md_add_text(sb, w->benchmark ? w->benchmark : "-", 80);
	strbuf_addstr(sb, " | ");
	if (w->interval)
		md_add_code(sb, w->interval, 1);
	if (w->interval && w->file && w->line > 0) { /* where to look: the interval's SG_BEGIN */
		char where[32];
		snprintf(where, sizeof(where), ":%d", w->line);
		strbuf_addstr(sb, " at ");
		md_add_text(sb, w->file, 120);
		strbuf_addstr(sb, where);
	}
	strbuf_addstr(sb, " | ");
	md_config(sb, w);
	strbuf_addstr(sb, " | ");
	md_sentence(sb, cause ? cause : w->message ? w->message : "");
	strbuf_addf(sb, " | %zu: ", f->nr_checks);
	finding_checks(sb, s, f);
	strbuf_addstr(sb, " |\n");
}

/* The findings of one severity, one row each, then their checks as the evidence, collapsed. */
static void finding_table(struct strbuf *sb, const struct verdict_set *s, enum verdict_status st)
{
	const struct findings *fs = s->findings;
	size_t shown = 0, rows = 0, nr = st == VERDICT_FAIL ? fs->regressions : fs->warnings;
	size_t checks = st == VERDICT_FAIL ? fs->failed : fs->warned;

	if (!nr)
		return;
	strbuf_addstr(sb, "#### ");
	if (st == VERDICT_FAIL)
		findings_add_regressions(sb, fs);
	else
		findings_add_warnings(sb, fs);
	strbuf_addstr(sb, "\n\n| Benchmark | Interval | Config | Likely cause | Checks |\n"
			  "| --- | --- | --- | --- | --- |\n");
	for (size_t i = 0; i < fs->nr && shown < MAX_TABLE_ROWS; i++)
		if (fs->f[i].status == st) {
			finding_row(sb, s, &fs->f[i]);
			shown++;
		}
	if (nr > shown)
		strbuf_addf(sb, "\n%zu more in the JSON summary.\n", nr - shown);
	strbuf_addf(sb, "\n<details><summary>The evidence: %zu check%s %s</summary>\n\n", checks,
		    checks == 1 ? "" : "s", st == VERDICT_FAIL ? "failed" : "warned");
	strbuf_addf(
		sb,
		"| Benchmark | Interval | Config | Metric | Current [lo, hi] | %s / bound | Change "
		"| p | Cause |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
		s->ab ? "Base" : "Baseline");
	shown = 0;
	for (size_t i = 0; i < fs->nr; i++)
		for (size_t k = 0; fs->f[i].status == st && k < fs->f[i].nr_checks; k++, rows++)
			if (shown < MAX_TABLE_ROWS && sb->len < MAX_DETAILS_BYTES) {
				table_row(sb, &s->v[fs->f[i].checks[k]]);
				shown++;
			}
	if (rows > shown)
		strbuf_addf(sb, "\n%zu more in the JUnit report.\n", rows - shown);
	strbuf_addstr(sb, "\n</details>\n\n");
}

/* One bullet of a list: where, the kind, the message and the cause. */
static void verdict_bullet(struct strbuf *sb, const struct verdict *v)
{
	strbuf_addstr(sb, "- **");
	md_add_text(sb, v->benchmark ? v->benchmark : "scalegate", 80);
	strbuf_addstr(sb, "**");
	if (v->interval) {
		strbuf_addch(sb, ' ');
		md_add_code(sb, v->interval, 0);
	}
	strbuf_addch(sb, ' ');
	md_config(sb, v);
	if (v->kind) {
		strbuf_addch(sb, ' ');
		md_add_code(sb, v->kind, 0);
	}
	if (v->message) {
		strbuf_addstr(sb, ": ");
		md_sentence(sb, v->message);
	}
	if (v->cause) {
		strbuf_addstr(sb, " \xe2\x80\x94 ");
		md_sentence(sb, v->cause);
	}
	strbuf_addch(sb, '\n');
}

static void verdict_list(struct strbuf *sb, const struct verdict_set *s, int st, const char *title)
{
	size_t shown = 0, nr = report_count_listed(s, st);

	if (!nr)
		return;
	strbuf_addf(sb, "<details><summary>%s (%zu)</summary>\n\n", title, nr);
	for (size_t i = 0; i < s->nr && shown < MAX_LIST_ITEMS; i++) {
		if (!report_listed(&s->v[i], st))
			continue;
		if (sb->len >= MAX_DETAILS_BYTES)
			break;
		verdict_bullet(sb, &s->v[i]);
		shown++;
	}
	if (nr > shown)
		strbuf_addf(sb, "- %zu more in the JUnit report\n", nr - shown);
	strbuf_addstr(sb, "\n</details>\n\n");
}

/* The word of the worst verdict on this interval (and configuration, unless 'c' is NULL). */
static enum report_word worst(const struct verdict_set *s, const struct matrix_series *ser,
			      const char *path, const struct analysis_config *c)
{
	enum report_word w = REPORT_WORD_NONE;

	for (size_t i = 0; i < s->nr; i++) {
		const struct verdict *v = &s->v[i];
		if (!v->benchmark || !v->interval || strcmp(v->benchmark, ser->benchmark) ||
		    strcmp(v->interval, path) ||
		    strcmp(v->size ? v->size : "-", ser->size ? ser->size : "-"))
			continue;
		if (c && (v->ranks != c->ranks || v->threads != c->threads))
			continue;
		if (report_word_of(v) > w)
			w = report_word_of(v);
	}
	return w;
}

/* A configuration's mark: the headline's word of its worst verdict, with the title's icon. */
static void mark(struct strbuf *sb, enum report_word w)
{
	static const char *const icon[] = {
		[REPORT_WORD_INCONCLUSIVE] = "\xe2\x9d\x94 ",
		[REPORT_WORD_ERROR] = "\xe2\x9a\xa0\xef\xb8\x8f ",
		[REPORT_WORD_WARNING] = "\xe2\x9a\xa0\xef\xb8\x8f ",
		[REPORT_WORD_REGRESSION] = "\xe2\x9d\x8c ",
	};

	if (w >= REPORT_WORD_INCONCLUSIVE)
		strbuf_addf(sb, "%s%s", icon[w], report_word_name(w));
}

/* "median [lo, hi]" as every report shows it; the interval left out when it shows nothing (one
 * repeat, or no spread). */
static void figure(struct strbuf *sb, enum unit u, const struct matrix_figure *f)
{
	char text[160];

	strbuf_addstr(sb, report_figure_text(text, sizeof(text), u, f, DASH));
}

static void value(struct strbuf *sb, enum unit u, double v)
{
	char text[48];

	strbuf_addstr(sb, isfinite(v) ? unit_format(text, sizeof(text), u, v) : DASH);
}

static void series_head(struct strbuf *sb, const struct verdict_set *s,
			const struct matrix_series *ser, const char *path, const struct baseline *b)
{
	const struct matrix_cell *ref = &ser->cells[ser->ref];
	const char *word = report_base_word(s);

	strbuf_addstr(sb, "**");
	md_add_text(sb, ser->benchmark, 80);
	strbuf_addstr(sb, "** ");
	md_add_code(sb, path, 0);
	if (ser->size && strcmp(ser->size, "-")) {
		strbuf_addstr(sb, " size ");
		md_add_text(sb, ser->size, 40);
	}
	if (ser->trend)
		strbuf_addf(sb, " \xe2\x80\x94 Karp\xe2\x80\x93" "Flatt trend: %s", ser->trend);
	if (!ser->ref_is_serial)
		strbuf_addf(sb, " \xe2\x80\x94 speedup against %dx%d", ref->config->ranks,
			    ref->config->threads);
	if (b)
		strbuf_addf(sb,
			    "\n\n| p | R\xc3\x97T | T median [lo, hi] | T %s | Speedup | "
			    "Speedup %s "
			    "| Efficiency | Karp\xe2\x80\x93"
			    "Flatt | |\n| ---: | --- | --- | --- | --- | --- | --- | --- "
			    "| --- |\n",
			    word, word);
	else
		strbuf_addstr(sb, "\n\n| p | R\xc3\x97T | T median [lo, hi] | Speedup | "
				  "Efficiency | Karp\xe2\x80\x93"
				  "Flatt | |\n| ---: | --- | --- | --- | --- | --- | --- |\n");
}

/* After the program's time: the factor it was scaled by to the stored baseline's machine speed,
 * and the wall's time with how much of the processors' time the machine took. */
static void time_note(struct strbuf *sb, const struct matrix_cell *c)
{
	const struct matrix_figure *in = &c->fig[ANALYSIS_INTERFERENCE];
	const struct matrix_figure *tw = &c->fig[ANALYSIS_TOTAL_TIME_WALL];
	int wall = in->n && in->median > 0 && tw->median > 0;

	if (c->speed > 0)
		strbuf_addf(sb, " (" CHECK_SCALED_WORDS "%.3f%s", c->speed, wall ? "; " : ")");
	if (!wall)
		return;
	strbuf_addstr(sb, c->speed > 0 ? "wall " : " (wall ");
	value(sb, UNIT_SECONDS, c->fig[ANALYSIS_EXECUTION_TIME_WALL].median);
	strbuf_addstr(sb, ": the machine took ");
	value(sb, UNIT_SHARE, in->median / tw->median);
	strbuf_addstr(sb, " of Total_time_wall)");
}

/* One row per configuration: the current figures, and the base's time and speedup beside them when
 * there is one. */
static void series_table(struct strbuf *sb, const struct verdict_set *s,
			 const struct matrix_series *ser, const char *path,
			 const struct baseline *b)
{
	size_t rows = ser->nr_cells < MAX_SERIES_ROWS ? ser->nr_cells : MAX_SERIES_ROWS;

	series_head(sb, s, ser, path, b);
	for (size_t i = 0; i < rows; i++) {
		const struct matrix_cell *c = &ser->cells[i];
		enum report_word w = worst(s, ser, path, c->config);
		strbuf_addf(sb, "| %d | %dx%d | ", c->p, c->config->ranks, c->config->threads);
		figure(sb, UNIT_SECONDS, &c->fig[ANALYSIS_EXECUTION_TIME]);
		time_note(sb, c);
		strbuf_addstr(sb, " | ");
		if (b) {
			value(sb, UNIT_SECONDS,
			      report_base_median(b, path, ser->size, c->config->ranks,
						 c->config->threads, ANALYSIS_EXECUTION_TIME, 0));
			strbuf_addstr(sb, " | ");
		}
		figure(sb, UNIT_RATIO, &c->speedup);
		strbuf_addstr(sb, " | ");
		if (b) {
			value(sb, UNIT_RATIO,
			      report_base_speedup(b, path, ser->size,
						  ser->cells[ser->ref].config, c->config));
			strbuf_addstr(sb, " | ");
		}
		figure(sb, UNIT_RATIO, &c->efficiency);
		strbuf_addstr(sb, " | ");
		figure(sb, UNIT_RATIO, &c->karp_flatt);
		if (c->superlinear)
			strbuf_addstr(sb, " superlinear (efficiency > 1)");
		else if (c->karp_flatt.n && c->karp_flatt.median >= 1)
			strbuf_addstr(sb, " no speedup (e \xe2\x89\xa5 1)");
		strbuf_addstr(sb, " | ");
		mark(sb, w);
		strbuf_addstr(sb, " |\n");
	}
	if (ser->nr_cells > rows)
		strbuf_addf(sb, "\n%zu more configurations in `scalegate analyze`.\n",
			    ser->nr_cells - rows);
	strbuf_addch(sb, '\n');
}

/* Intervals at levels 0 and 1, and those with a warning or a regression, these first. */
static void scaling(struct strbuf *sb, const struct verdict_set *s, const struct analysis *a,
		    const struct matrix *m, const struct baseline *const *base, size_t nr_base)
{
	size_t shown = 0, wanted = 0;

	if (!a || !m)
		return;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < m->nr_series; i++) {
			const struct matrix_series *ser = &m->series[i];
			const struct analysis_interval *iv;
			enum report_word w;
			int flagged;
			if (ser->interval < 0 || (size_t)ser->interval >= a->nr_intervals ||
			    !ser->nr_cells)
				continue;
			iv = &a->intervals[ser->interval];
			w = worst(s, ser, iv->path, NULL);
			flagged = w == REPORT_WORD_REGRESSION || w == REPORT_WORD_WARNING;
			if (pass == 0 ? !flagged : flagged || iv->depth > 1)
				continue;
			if (!wanted++)
				strbuf_addstr(sb, "#### Scaling\n\n");
			if (shown < MAX_SERIES) {
				const struct baseline *b = NULL;
				for (size_t k = 0; k < nr_base && !b; k++)
					if (base[k]->benchmark &&
					    !strcmp(base[k]->benchmark, ser->benchmark))
						b = base[k];
				series_table(sb, s, ser, iv->path, b);
				shown++;
			}
		}
	if (wanted > shown)
		strbuf_addf(sb, "%zu more intervals in `scalegate analyze`.\n\n", wanted - shown);
}

/* The interval's path when it is shown (level 0 or 1), else NULL. */
static const char *shown_path(const struct analysis *a, int interval)
{
	if (interval < 0 || (size_t)interval >= a->nr_intervals || a->intervals[interval].depth > 1)
		return NULL;
	return a->intervals[interval].path;
}

/* Weak-scaling efficiency at the largest p, and the isoefficiency verdicts, for levels 0 and 1. */
static void size_scaling(struct strbuf *sb, const struct analysis *a, const struct matrix *m)
{
	static const char heading[] = "#### Scaling with the problem size\n\n";
	size_t lines = 0;
	const char *path;

	if (!a || !m)
		return;
	for (size_t i = 0; i < m->nr_weak && lines < MAX_SERIES; i++) {
		const struct matrix_weak *w = &m->weak[i];
		const struct matrix_weak_point *last = w->nr_points ? &w->points[w->nr_points - 1]
								    : NULL;
		if (!(path = shown_path(a, w->interval)) || !last || !last->cell->weak_efficiency.n)
			continue;
		if (!lines++)
			strbuf_addstr(sb, heading);
		strbuf_addf(sb, "- `%s` ", w->benchmark);
		md_add_code(sb, path, 0);
		strbuf_addf(sb, ": weak-scaling efficiency at p = %d: ", last->cell->p);
		figure(sb, UNIT_RATIO, &last->cell->weak_efficiency);
		strbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < m->nr_iso && lines < MAX_SERIES; i++) {
		const struct isoeff *iso = &m->iso[i];
		const char *text = iso->refused ? iso->refused : iso->explanation;
		if (!(path = shown_path(a, iso->interval)) || !text)
			continue;
		if (!lines++)
			strbuf_addstr(sb, heading);
		strbuf_addf(sb, "- `%s` ", iso->benchmark);
		md_add_code(sb, path, 0);
		strbuf_addstr(sb, ": ");
		md_sentence(sb, text);
		strbuf_addch(sb, '\n');
	}
	if (lines)
		strbuf_addch(sb, '\n');
}

static void title(struct strbuf *sb, const struct verdict_set *s, const size_t *count)
{
	const char *icon;

	if (s->interrupted)
		icon = "\xe2\x9b\x94"; /* no entry */
	else if (count[VERDICT_FAIL])
		icon = "\xe2\x9d\x8c"; /* cross mark */
	else if (report_no_reference(s) || report_undecided(s))
		icon = "\xe2\x9d\x94"; /* question mark: nothing to compare with, not judged */
	else if (s->exit_code == SG_EXIT_RUN_FAILED)
		icon = "\xf0\x9f\x92\xa5"; /* collision */
	else if (count[VERDICT_WARN] || count[VERDICT_ERROR])
		icon = "\xe2\x9a\xa0\xef\xb8\x8f"; /* warning sign */
	else
		icon = "\xe2\x9c\x85"; /* check mark */
	strbuf_addf(sb, "### %s scalegate: ", icon);
	report_outcome(sb, s);
	strbuf_addstr(sb, "\n\n");
	if (s->interrupted)
		strbuf_addf(sb,
			    "**Incomplete:** the gate was interrupted by %s; what it had not "
			    "run or judged is listed under Errors (`run.interrupted`).\n\n",
			    interrupt_name(s->interrupted));
}

int markdown_write_analysis(const struct verdict_set *s, const struct analysis *a,
			    const struct matrix *m, const struct baseline *const *base,
			    size_t nr_base, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t count[VERDICT_SKIPPED + 1];
	int ret;

	report_count(s, count);
	title(&sb, s, count);
	if (s->findings) {
		finding_table(&sb, s, VERDICT_FAIL);
		finding_table(&sb, s, VERDICT_WARN);
	}
	verdict_list(&sb, s, VERDICT_ERROR, "Errors");
	verdict_list(&sb, s, REPORT_INCONCLUSIVE,
		     "Inconclusive: the noise allows only larger changes to be detected");
	verdict_list(&sb, s, VERDICT_SKIPPED, "Skipped");
	scaling(&sb, s, a, m, base, nr_base);
	size_scaling(&sb, a, m);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

int markdown_write(const struct verdict_set *s, const struct matrix *m, const char *path)
{
	return markdown_write_analysis(s, NULL, m, NULL, 0, path);
}

static int write_markdown(const struct report_input *in, const char *path)
{
	size_t n;
	const struct baseline **base = report_bases(&in->j->c, &n);
	int ret = markdown_write_analysis(&in->j->vs, judge_shown_analysis(in->j),
					  judge_shown_matrix(in->j), base, n, path);

	free(base);
	return ret;
}

const struct report_format report_markdown = {
	"markdown", "summary.md", "--markdown", "write a Markdown summary", write_markdown,
};
