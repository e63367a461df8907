/* The HTML report: one self-contained page (inline CSS and SVG, no script) with the outcome, the
 * verdicts and the scaling plots (docs/reports.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "judge/baseline.h"
#include "report/html-priv.h"
#include "base/words.h"
#include "analyze/isoeff.h"
#include "analyze/matrix.h"
#include "report/report-priv.h"
#include "analyze/scaling-size.h"
#include "judge/findings.h"
#include "judge/judge.h"

#define MAX_TABLE_ROWS 40
#define MAX_LIST_ITEMS 40
#define MAX_LEFT_OUT_NAMES 12
#define MAX_LEVEL 2 /* intervals deeper than this are plotted only with a verdict */

/* ---- verdicts ---- */

/* The word of the worst verdict on this benchmark's interval, any size and configuration. */
static enum report_word worst(const struct verdict_set *s, const char *benchmark, const char *path)
{
	enum report_word w = REPORT_WORD_NONE;

	for (size_t i = 0; i < s->nr; i++) {
		const struct verdict *v = &s->v[i];
		if (!v->benchmark || !v->interval || strcmp(v->benchmark, benchmark) ||
		    strcmp(v->interval, path))
			continue;
		if (report_word_of(v) > w)
			w = report_word_of(v);
	}
	return w;
}

/* ---- sections ---- */

static double size_number(const char *size)
{
	char *end;
	double v = size ? strtod(size, &end) : NAN;

	return size && *size && !*end ? v : -INFINITY;
}

static int cmp_series(const void *x, const void *y)
{
	const struct matrix_series *a = *(const struct matrix_series *const *)x,
				   *b = *(const struct matrix_series *const *)y;
	double sa = size_number(a->size), sb = size_number(b->size);

	if (sa != sb)
		return (sa > sb) - (sa < sb);
	return strcmp(a->size ? a->size : "", b->size ? b->size : "");
}

/* The strong-scaling series of the section, ascending size; more than HTML_MAX_SIZES: evenly
 * spread, ends kept. */
static void section_series(struct html_section *sec, const struct matrix *m)
{
	const struct matrix_series **all = xcalloc(m->nr_series + 1, sizeof(*all));
	size_t n = 0;

	for (size_t i = 0; i < m->nr_series; i++) {
		const struct matrix_series *s = &m->series[i];
		if (!s->weak && s->nr_cells && s->interval == sec->interval &&
		    !strcmp(s->benchmark, sec->benchmark))
			all[n++] = s;
	}
	qsort(all, n, sizeof(*all), cmp_series);
	sec->nr_sizes = n;
	sec->nr_series = n < HTML_MAX_SIZES ? n : HTML_MAX_SIZES;
	for (size_t i = 0; i < sec->nr_series; i++)
		sec->series[i] = all[n <= HTML_MAX_SIZES ? i : i * (n - 1) / (HTML_MAX_SIZES - 1)];
	free(all);
}

static struct html_section *build_sections(const struct verdict_set *s, const struct analysis *a,
					   const struct matrix *m,
					   const struct baseline *const *base, size_t nr_base,
					   size_t *nr)
{
	struct html_section *sec = xcalloc(m->nr_series + 1, sizeof(*sec));

	*nr = 0;
	for (size_t i = 0; i < m->nr_series; i++) {
		const struct matrix_series *ser = &m->series[i];
		struct html_section *x;
		size_t j;
		if (ser->interval < 0 || (size_t)ser->interval >= a->nr_intervals || !ser->nr_cells)
			continue;
		for (j = 0; j < *nr && (sec[j].interval != ser->interval ||
					strcmp(sec[j].benchmark, ser->benchmark));
		     j++)
			;
		if (j < *nr)
			continue;
		x = &sec[(*nr)++];
		x->benchmark = ser->benchmark;
		x->interval = ser->interval;
		x->iv = &a->intervals[ser->interval];
		x->first = i;
		x->worst = worst(s, x->benchmark, x->iv->path);
		x->base_word = report_base_word(s);
		for (size_t k = 0; k < nr_base; k++)
			if (base[k]->benchmark && !strcmp(base[k]->benchmark, x->benchmark))
				x->base = base[k];
		for (size_t k = 0; k < m->nr_weak; k++)
			if (m->weak[k].interval == x->interval &&
			    !strcmp(m->weak[k].benchmark, x->benchmark) && m->weak[k].nr_points)
				x->weak = &m->weak[k];
		for (size_t k = 0; k < m->nr_iso; k++)
			if (m->iso[k].interval == x->interval &&
			    !strcmp(m->iso[k].benchmark, x->benchmark))
				x->iso = &m->iso[k];
		section_series(x, m);
	}
	return sec;
}

static int flagged(const struct html_section *x)
{
	return x->worst == REPORT_WORD_REGRESSION || x->worst == REPORT_WORD_WARNING ||
	       x->worst == REPORT_WORD_ERROR;
}

/* Plotted unless deeper than MAX_LEVEL without a warning, regression or error. */
static int eligible(const struct html_section *x)
{
	return flagged(x) || x->iv->depth <= MAX_LEVEL;
}

/* The plotted ones first: regressions, then warnings, then the rest by level; the matrix's order
 * within each. */
static int cmp_section(const void *p, const void *q)
{
	const struct html_section *x = p, *y = q;
	int gx = !eligible(x)                         ? 3
		 : x->worst == REPORT_WORD_REGRESSION ? 0
		 : x->worst == REPORT_WORD_WARNING    ? 1
						      : 2;
	int gy = !eligible(y)                         ? 3
		 : y->worst == REPORT_WORD_REGRESSION ? 0
		 : y->worst == REPORT_WORD_WARNING    ? 1
						      : 2;

	if (gx != gy)
		return gx - gy;
	if (x->iv->depth != y->iv->depth)
		return x->iv->depth - y->iv->depth;
	return (x->first > y->first) - (x->first < y->first);
}

/* The plotted section of this benchmark and interval, or -1. */
static long section_of(const struct html_section *sec, size_t nr, const char *benchmark,
		       const char *path)
{
	for (size_t i = 0; benchmark && path && i < nr; i++)
		if (!strcmp(sec[i].benchmark, benchmark) && !strcmp(sec[i].iv->path, path))
			return (long)i;
	return -1;
}

/* ---- the top of the page ---- */

static const char *status_class(enum verdict_status st)
{
	static const char *const cls[] = { "pass", "warn", "fail", "error", "skipped" };
	return cls[st];
}

static void config_text(struct strbuf *sb, const struct verdict *v)
{
	if (!v->ranks && !v->threads) {
		strbuf_addstr(sb, "\xe2\x80\x93");
		return;
	}
	char config[96];

	strbuf_addf(sb, "%s (p=%d)",
		    config_words(config, sizeof(config), v->ranks, v->threads, NULL), v->p);
	if (v->size && strcmp(v->size, "-")) {
		strbuf_addstr(sb, ", size ");
		html_text(sb, v->size);
	}
}

static void interval_link(struct strbuf *sb, const struct verdict *v,
			  const struct html_section *sec, size_t nr)
{
	long k = section_of(sec, nr, v->benchmark, v->interval);

	if (!v->interval)
		return;
	if (k >= 0)
		strbuf_addf(sb, "<a href=\"#s%ld\">", k);
	strbuf_addstr(sb, "<code>");
	html_text(sb, v->interval);
	strbuf_addstr(sb, "</code>");
	if (k >= 0)
		strbuf_addstr(sb, "</a>");
}

static void verdict_row(struct strbuf *sb, const struct verdict *v, const struct html_section *sec,
			size_t nr)
{
	char text[160];

	strbuf_addstr(sb, "<tr title=\"");
	html_attr(sb, v->message);
	strbuf_addstr(sb, "\"><td>");
	html_text(sb, v->benchmark ? v->benchmark : "scalegate");
	strbuf_addstr(sb, "</td><td>");
	interval_link(sb, v, sec, nr);
	strbuf_addstr(sb, "</td><td class=\"cfg\">");
	config_text(sb, v);
	strbuf_addstr(sb, "</td><td><code>");
	html_text(sb, v->metric ? v->metric : v->kind);
	strbuf_addstr(sb, "</code></td><td class=\"num\">");
	html_text(sb, report_value_text(text, sizeof(text), v, "\xe2\x80\x93"));
	strbuf_addstr(sb, "</td><td class=\"num\">");
	html_text(sb, report_baseline_text(text, sizeof(text), v, "\xe2\x80\x93"));
	strbuf_addstr(sb, "</td><td class=\"num\">");
	html_text(sb, report_change_text(text, sizeof(text), v, "\xe2\x80\x93"));
	strbuf_addstr(sb, "</td><td class=\"num\">");
	html_text(sb, report_p_text(text, sizeof(text), v->p_value, "\xe2\x80\x93"));
	/* the cause, else the message: what a reader acts on; the message is the row's hover text
	 */
	strbuf_addstr(sb, "</td><td class=\"cause\">");
	html_text(sb, v->cause ? v->cause : v->message);
	strbuf_addstr(sb, "</td></tr>\n");
}

static void table_head(struct strbuf *sb, const struct verdict_set *s)
{
	strbuf_addf(
		sb,
		"<table "
		"class=\"verdicts\"><thead><tr><th>Benchmark</th><th>Interval</th><th>Config</th>"
		"<th>Metric</th><th>Current [lo, hi]</th><th>%s / "
		"bound</th><th>Change</th><th>p</th>"
		"<th>Likely cause (hover a row for the message)</th></tr></thead><tbody>\n",
		s->ab ? "Base" : "Baseline");
}

/* The checks of a finding: their metrics, those of enclosing intervals after. */
static void finding_checks(struct strbuf *sb, const struct verdict_set *s, const struct finding *f)
{
	strbuf_addf(sb, "%zu: ", f->nr_checks);
	for (size_t k = 0; k < f->nr_checks; k++) {
		const struct verdict *v = &s->v[f->checks[k]];
		if (finding_folded(f, k) && finding_first_of_interval(s, f, k)) {
			strbuf_addstr(sb, "; with the enclosing <code>");
			html_text(sb, v->interval);
			strbuf_addstr(sb, "</code>: ");
		} else if (k) {
			strbuf_addstr(sb, ", ");
		}
		strbuf_addstr(sb, "<code>");
		html_text(sb, v->metric ? v->metric : v->kind);
		strbuf_addstr(sb, "</code>");
	}
}

static void finding_row(struct strbuf *sb, const struct verdict_set *s, const struct finding *f,
			const struct html_section *sec, size_t nr)
{
	const struct verdict *w = finding_where(s, f);
	const char *cause = finding_cause(s, f);

	strbuf_addstr(sb, "<tr><td>");
	html_text(sb, w->benchmark ? w->benchmark : "scalegate");
	strbuf_addstr(sb, "</td><td>");
	interval_link(sb, w, sec, nr);
	strbuf_addstr(sb, "</td><td class=\"cfg\">");
	config_text(sb, w);
	strbuf_addstr(sb, "</td><td class=\"cause\">");
	html_text(sb, cause ? cause : w->message);
	strbuf_addstr(sb, "</td><td>");
	finding_checks(sb, s, f);
	strbuf_addstr(sb, "</td></tr>\n");
}

/* The findings of one severity, one row each, then their checks as the evidence, collapsed: at
 * most MAX_TABLE_ROWS of each. */
static void finding_table(struct strbuf *sb, const struct verdict_set *s, enum verdict_status st,
			  const struct html_section *sec, size_t nr)
{
	const struct findings *fs = s->findings;
	struct strbuf title = STRBUF_INIT;
	size_t shown = 0, rows = 0, count = st == VERDICT_FAIL ? fs->regressions : fs->warnings;
	size_t checks = st == VERDICT_FAIL ? fs->failed : fs->warned;

	if (!count)
		return;
	if (st == VERDICT_FAIL)
		findings_add_regressions(&title, fs);
	else
		findings_add_warnings(&title, fs);
	strbuf_addf(sb, "<h2 id=\"%s\">%s</h2>\n", status_class(st), title.buf);
	strbuf_release(&title);
	strbuf_addstr(sb, "<table class=\"findings\"><thead><tr><th>Benchmark</th><th>Interval</th>"
			  "<th>Config</th><th>Likely cause</th><th>Checks</th></tr></thead>"
			  "<tbody>\n");
	for (size_t i = 0; i < fs->nr && shown < MAX_TABLE_ROWS; i++)
		if (fs->f[i].status == st) {
			finding_row(sb, s, &fs->f[i], sec, nr);
			shown++;
		}
	strbuf_addstr(sb, "</tbody></table>\n");
	if (count > shown)
		strbuf_addf(sb, "<p class=\"note\">%zu more in the JSON summary.</p>\n",
			    count - shown);
	strbuf_addf(sb, "<details><summary>The evidence: %zu check%s %s</summary>\n", checks,
		    checks == 1 ? "" : "s", st == VERDICT_FAIL ? "failed" : "warned");
	table_head(sb, s);
	for (size_t i = 0; i < fs->nr; i++)
		for (size_t k = 0; fs->f[i].status == st && k < fs->f[i].nr_checks; k++)
			if (rows++ < MAX_TABLE_ROWS)
				verdict_row(sb, &s->v[fs->f[i].checks[k]], sec, nr);
	strbuf_addstr(sb, "</tbody></table>\n");
	if (rows > MAX_TABLE_ROWS)
		strbuf_addf(sb, "<p class=\"note\">%zu more in the JUnit report.</p>\n",
			    rows - MAX_TABLE_ROWS);
	strbuf_addstr(sb, "</details>\n");
}

static void verdict_list(struct strbuf *sb, const struct verdict_set *s, int st, const char *title,
			 const struct html_section *sec, size_t nr)
{
	size_t shown = 0, count = report_count_listed(s, st);

	if (!count)
		return;
	/* errors (a crash, a baseline that cannot be used) are what to read first: open */
	strbuf_addf(sb, "<details%s><summary>%s (%zu)</summary><ul>\n",
		    st == VERDICT_ERROR ? " open" : "", title, count);
	for (size_t i = 0; i < s->nr && shown < MAX_LIST_ITEMS; i++) {
		const struct verdict *v = &s->v[i];
		if (!report_listed(v, st))
			continue;
		strbuf_addstr(sb, "<li><b>");
		html_text(sb, v->benchmark ? v->benchmark : "scalegate");
		strbuf_addstr(sb, "</b> ");
		interval_link(sb, v, sec, nr);
		strbuf_addch(sb, ' ');
		config_text(sb, v);
		strbuf_addstr(sb, " <code>");
		html_text(sb, v->kind);
		strbuf_addstr(sb, "</code>: ");
		html_text(sb, v->message);
		strbuf_addstr(sb, "</li>\n");
		shown++;
	}
	if (count > shown)
		strbuf_addf(sb, "<li>%zu more in the JUnit report</li>\n", count - shown);
	strbuf_addstr(sb, "</ul></details>\n");
}

static const char *fingerprint(const struct verdict_set *s, const char *key)
{
	for (size_t i = 0; i < s->nr_fingerprint; i++)
		if (!strcmp(s->fingerprint[2 * i], key) && strcmp(s->fingerprint[2 * i + 1], "-"))
			return s->fingerprint[2 * i + 1];
	return NULL;
}

static void header(struct strbuf *sb, const struct verdict_set *s, const struct analysis *a,
		   const size_t *count)
{
	static const char *const keys[] = {"date",     "hostname",    "cpu_model", "cores",
					   "compiler", "omp_runtime", "mpi"};
	struct strbuf outcome = STRBUF_INIT;
	const char *st = count[VERDICT_FAIL]                         ? "fail"
			 : s->exit_code == 3 || count[VERDICT_ERROR] ? "error"
			 : report_count_listed(s, VERDICT_WARN)      ? "warn"
			 : count[VERDICT_WARN]                       ? "inconclusive"
								     : "pass";

	report_outcome(&outcome, s);
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			  "<meta name=\"viewport\" content=\"width=device-width, "
			  "initial-scale=1\">\n<title>scalegate: ");
	html_text(sb, outcome.buf);
	strbuf_addf(sb,
		    "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<div "
		    "class=\"outcome st-%s\">"
		    "<h1>scalegate: ",
		    html_css, st);
	html_text(sb, outcome.buf);
	strbuf_addstr(sb, "</h1>\n<p class=\"counts\">");
	if (s->findings) {
		strbuf_addstr(sb, "<span class=\"badge fail\">");
		findings_add_regressions(sb, s->findings);
		strbuf_addstr(sb, "</span> <span class=\"badge warn\">");
		findings_add_warnings(sb, s->findings);
		strbuf_addstr(sb, "</span> ");
	}
	/* counted as in every report: the inconclusive checks apart from the warnings */
	strbuf_addf(sb, "<span class=\"badge inconclusive\">%zu inconclusive</span> ",
		    report_count_listed(s, REPORT_INCONCLUSIVE));
	strbuf_addf(sb,
		    "<span class=\"badge error\">%zu error%s</span> <span class=\"badge "
		    "skipped\">%zu "
		    "skipped</span> <span class=\"badge pass\">%zu passed</span> &middot; exit "
		    "%d</p>\n",
		    count[VERDICT_ERROR], count[VERDICT_ERROR] == 1 ? "" : "s",
		    count[VERDICT_SKIPPED], count[VERDICT_PASS], s->exit_code);
	strbuf_addstr(sb, "<p class=\"meta\">");
	if (a && a->dir) {
		/* "results <code>results</code>" said the word twice */
		strbuf_addstr(sb, "from <code>");
		html_text(sb, a->dir);
		if (!*a->dir || a->dir[strlen(a->dir) - 1] != '/')
			strbuf_addch(sb, '/');
		strbuf_addstr(sb, "</code>");
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = fingerprint(s, keys[i]);
		if (!v)
			continue;
		strbuf_addf(sb, " &middot; %s ", keys[i]);
		html_text(sb, v);
	}
	strbuf_addstr(sb, "</p></div>\n</header>\n<main>\n");
	strbuf_release(&outcome);
}

/* The intervals not plotted: how many, why, and the first few names. */
static void left_out(struct strbuf *sb, const struct html_section *sec, size_t from, size_t nr,
		     size_t deep)
{
	if (nr <= from)
		return;
	strbuf_addf(sb, "<p class=\"note\" id=\"left-out\">%zu interval%s not plotted", nr - from,
		    nr - from == 1 ? "" : "s");
	if (deep)
		strbuf_addf(sb, " (%zu deeper than level %d without a warning or regression", deep,
			    MAX_LEVEL);
	if (nr - from > deep)
		strbuf_addf(sb, "%s%zu past the cap of %d sections", deep ? ", " : " (",
			    nr - from - deep, HTML_MAX_SECTIONS);
	strbuf_addstr(sb, "): ");
	for (size_t i = from; i < nr && i < from + MAX_LEFT_OUT_NAMES; i++) {
		strbuf_addstr(sb, i > from ? ", " : "");
		html_text(sb, sec[i].benchmark);
		strbuf_addstr(sb, " <code>");
		html_text(sb, sec[i].iv->path);
		strbuf_addstr(sb, "</code>");
	}
	if (nr - from > MAX_LEFT_OUT_NAMES)
		strbuf_addstr(sb, ", \xe2\x80\xa6");
	strbuf_addstr(sb, ". <code>scalegate analyze</code> prints them all.</p>\n");
}

/* Sorts the sections and writes those within the cap; returns how many (the first ones of 'sec').
 */
static size_t sections(struct strbuf *sb, struct html_section *sec, size_t nr)
{
	size_t shown = 0, deep = 0;

	qsort(sec, nr, sizeof(*sec), cmp_section);
	for (size_t i = 0; i < nr; i++)
		deep += !eligible(&sec[i]);
	shown = nr - deep < HTML_MAX_SECTIONS ? nr - deep : HTML_MAX_SECTIONS;
	strbuf_addstr(sb, "<h2 id=\"scaling\">Scaling per interval</h2>\n");
	if (!shown)
		strbuf_addstr(sb, "<p class=\"note\">No interval to plot.</p>\n");
	else
		strbuf_addstr(sb, "<nav><ul>\n");
	for (size_t i = 0; i < shown; i++) {
		enum report_word w = sec[i].worst;
		strbuf_addf(sb, "<li><a href=\"#s%zu\">", i);
		html_text(sb, sec[i].benchmark);
		strbuf_addstr(sb, " <code>");
		html_text(sb, sec[i].iv->path);
		strbuf_addstr(sb, "</code></a>");
		if (w >= REPORT_WORD_INCONCLUSIVE)
			strbuf_addf(sb, " <span class=\"badge %s\">%s</span>",
				    html_word_class(w), report_word_name(w));
		strbuf_addstr(sb, "</li>\n");
	}
	if (shown)
		strbuf_addstr(sb, "</ul></nav>\n");
	for (size_t i = 0; i < shown; i++) {
		char id[32];
		snprintf(id, sizeof(id), "s%zu", i);
		html_section_write(sb, &sec[i], id);
	}
	left_out(sb, sec, shown, nr, deep);
	return shown;
}

/*
 * The HTML report (docs/reports.md): one self-contained page, inline CSS and
 * SVG, no script. The outcome, the regressions and warnings, then per
 * benchmark and interval (flagged ones first, then by level, at most
 * HTML_MAX_SECTIONS) plots of speedup, efficiency and Karp-Flatt e against p
 * with their intervals and the baseline, the lost-time breakdown, and weak
 * scaling and isoefficiency where 'm' has them. 'base' holds the baselines
 * read, one per benchmark (nr_base may be 0). The same input gives the same
 * bytes. Written atomically; 0 or gate_error().
 */
static int html_write(const struct verdict_set *s, const struct analysis *a,
		      const struct matrix *m, const struct baseline *const *base, size_t nr_base,
		      const char *path)
{
	struct strbuf sb = STRBUF_INIT, body = STRBUF_INIT;
	size_t count[VERDICT_SKIPPED + 1], nr = 0, plotted = 0;
	struct html_section *sec = a && m ? build_sections(s, a, m, base, nr_base, &nr) : NULL;
	int ret;

	report_count(s, count);
	header(&sb, s, a, count);
	/* the tables link to the plotted sections: sort and write those first, put them after the
	 * tables */
	if (sec)
		plotted = sections(&body, sec, nr);
	if (s->findings) {
		finding_table(&sb, s, VERDICT_FAIL, sec, plotted);
		finding_table(&sb, s, VERDICT_WARN, sec, plotted);
	}
	verdict_list(&sb, s, VERDICT_ERROR, "Errors", sec, plotted);
	verdict_list(&sb, s, REPORT_INCONCLUSIVE,
		     "Inconclusive: the noise allows only larger changes to be detected", sec,
		     plotted);
	verdict_list(&sb, s, VERDICT_SKIPPED, "Skipped", sec, plotted);
	if (body.len)
		strbuf_add(&sb, body.buf, body.len);
	strbuf_release(&body);
	strbuf_addf(&sb,
		    "</main>\n<footer>scalegate %s &middot; medians over the repeats with 95 %% "
		    "intervals; "
		    "dashed: %s; hover a mark for its figures.</footer>\n</body>\n</html>\n",
		    SG_VERSION,
		    s->ab ? "the base revision, run in the same job" : "the stored baseline");
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(sec);
	return ret;
}

int report_write_html(const struct judge *j, const char *path)
{
	size_t n;
	const struct baseline **base = report_bases(&j->c, &n);
	int ret = html_write(&j->vs, judge_shown_analysis(j), judge_shown_matrix(j), base, n, path);

	free(base);
	return ret;
}

static int write_html(const struct report_input *in, const char *path)
{
	return report_write_html(in->j, path);
}

const struct report_format report_html = {
	"html", "report.html", "--html", "write the HTML report with the scaling plots", write_html,
};
