/* The trend site's index: per benchmark its findings, counted once per cause, and every interval x
 * configuration with its state, linked to where it is drawn; filtered by state without a script
 * (a radio button per state, CSS hides the other rows). */
#include "report/trend-priv.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

/* The states a cell takes, in the filter's order. */
static const int states[] = { TREND_REGRESSION, TREND_SUSPECT, TREND_IMPROVEMENT, -1 };

/* A cell's findings, newest last: "regression at c13 (3 metrics; in program/solve/sweep)". */
static void findings_text(struct strbuf *sb, const struct trend_site *s, size_t first, size_t end)
{
	size_t shown = 0;

	for (size_t i = end; i > first && shown < 3; i--, shown++) {
		const struct trend_finding *f = &s->f[i - 1];
		const struct history_run *run = &s->d->runs[f->run];
		strbuf_addf(sb, "%s<span class=\"%s\">%s</span> at <code>", shown ? "; " : "",
			    trend_kind_name((int)f->kind), trend_kind_name((int)f->kind));
		trend_commit_link(sb, s->o->commit_url, run->commit, f->run);
		xml_add_text(sb, run->commit);
		strbuf_addf(sb, "</a></code> (%zu metric%s", f->nr_changes,
			    f->nr_changes == 1 ? "" : "s");
		if (f->inner >= 0) {
			strbuf_addstr(sb, "; in ");
			xml_add_text(sb, trend_interval_path(s, s->f[f->inner].interval));
		}
		strbuf_addch(sb, ')');
	}
	if (end - first > shown)
		strbuf_addf(sb, "; %zu earlier", end - first - shown);
}

/* The row of one cell. */
static void cell_row(struct strbuf *sb, const struct trend_site *s, size_t interval,
		     const char *configuration)
{
	size_t first, end;
	int state;
	char *page = trend_page_name(s, s->iv[interval].bench, s->iv[interval].page);

	trend_cell_findings(s, interval, configuration, &first, &end);
	state = trend_cell_state(s, first, end);
	strbuf_addf(sb, "<tr class=\"cell st-%s\"><td><a href=\"%s#i%zu\">", trend_kind_name(state),
		    page, interval);
	xml_add_text(sb, trend_interval_path(s, interval));
	strbuf_addstr(sb, "</a></td><td>");
	xml_add_text(sb, configuration);
	strbuf_addf(sb, "</td><td class=\"%s\">%s</td><td>", trend_kind_name(state),
		    trend_kind_name(state));
	findings_text(sb, s, first, end);
	strbuf_addstr(sb, "</td></tr>\n");
	free(page);
}

void trend_cells_table(struct strbuf *sb, const struct trend_site *s, size_t bench)
{
	const struct trend_bench *b = &s->bench[bench];

	strbuf_addstr(sb, "<table class=\"cells\"><tr><th>interval</th><th>configuration</th>"
			  "<th>state</th><th>findings (newest first)</th></tr>\n");
	for (size_t i = b->first; i < b->end; i++)
		for (size_t k = s->iv[i].first; k < s->iv[i].end; k++)
			if (k == s->iv[i].first || strcmp(s->d->series[k].configuration,
							  s->d->series[k - 1].configuration))
				cell_row(sb, s, i, s->d->series[k].configuration);
	strbuf_addstr(sb, "</table>\n");
}

/* How many cells of the site are in each state (index of states[]). */
static void count_states(const struct trend_site *s, size_t *count)
{
	memset(count, 0, ARRAY_SIZE(states) * sizeof(*count));
	for (size_t i = 0; i < s->nr_iv; i++)
		for (size_t k = s->iv[i].first; k < s->iv[i].end; k++) {
			size_t first, end, j = 0;
			int state;
			if (k > s->iv[i].first && !strcmp(s->d->series[k].configuration,
							  s->d->series[k - 1].configuration))
				continue;
			trend_cell_findings(s, i, s->d->series[k].configuration, &first, &end);
			state = trend_cell_state(s, first, end);
			while (states[j] != state)
				j++;
			count[j]++;
		}
}

/* The filter: a radio button per state; CSS hides the rows of the other states. */
static void filter(struct strbuf *sb, const struct trend_site *s)
{
	size_t count[ARRAY_SIZE(states)], all = 0;

	count_states(s, count);
	for (size_t j = 0; j < ARRAY_SIZE(states); j++)
		all += count[j];
	strbuf_addf(sb,
		    "<span class=\"filter\">Show:</span>\n<input type=\"radio\" name=\"show\" "
		    "id=\"show-all\" checked><label for=\"show-all\">all (%zu)</label>\n"
		    "<input type=\"radio\" name=\"show\" id=\"show-changed\"><label "
		    "for=\"show-changed\">changed (%zu)</label>\n",
		    all, all - count[ARRAY_SIZE(states) - 1]);
	for (size_t j = 0; j < ARRAY_SIZE(states); j++)
		strbuf_addf(sb,
			    "<input type=\"radio\" name=\"show\" id=\"show-%s\"><label "
			    "for=\"show-%s\">%s (%zu)</label>\n",
			    trend_kind_name(states[j]), trend_kind_name(states[j]),
			    trend_kind_name(states[j]), count[j]);
}

/* A benchmark's findings of one kind, each cause once: "2 (c13, c25)". */
static void counted(struct strbuf *sb, const struct trend_site *s, size_t bench,
		    enum trend_kind kind)
{
	size_t n = 0, listed = 0;

	for (size_t i = 0; i < s->nr_f; i++)
		n += s->f[i].kind == kind && s->f[i].inner < 0 &&
		     s->iv[s->f[i].interval].bench == bench;
	strbuf_addf(sb, "<td class=\"num\">%zu", n);
	for (size_t i = 0; i < s->nr_f && n; i++) {
		const struct trend_finding *f = &s->f[i];
		int seen = 0;
		if (f->kind != kind || f->inner >= 0 || s->iv[f->interval].bench != bench)
			continue;
		for (size_t k = 0; k < i && !seen; k++) /* each commit once */
			seen = s->f[k].kind == kind && s->f[k].inner < 0 &&
			       s->iv[s->f[k].interval].bench == bench && s->f[k].run == f->run;
		if (seen || listed == 5)
			continue;
		strbuf_addstr(sb, listed++ ? ", " : " (");
		xml_add_text(sb, s->d->runs[f->run].commit);
	}
	strbuf_addstr(sb, listed ? ")</td>" : "</td>");
}

static void summary(struct strbuf *sb, const struct trend_site *s)
{
	strbuf_addstr(sb, "<table><tr><th>benchmark</th><th>intervals</th><th>regressions</th>"
			  "<th>suspects</th><th>improvements</th><th>pages</th></tr>\n");
	for (size_t b = 0; b < s->nr_bench; b++) {
		char *page = trend_page_name(s, b, 0);
		strbuf_addf(sb, "<tr><td><a href=\"%s\">", page);
		xml_add_text(sb, s->bench[b].name);
		strbuf_addf(sb, "</a> (<a href=\"#b-%s\">cells</a>)</td><td class=\"num\">%zu</td>",
			    s->bench[b].slug, s->bench[b].end - s->bench[b].first);
		counted(sb, s, b, TREND_REGRESSION);
		counted(sb, s, b, TREND_SUSPECT);
		counted(sb, s, b, TREND_IMPROVEMENT);
		strbuf_addf(sb, "<td class=\"num\">%zu</td></tr>\n", s->bench[b].nr_parts + 1);
		free(page);
	}
	strbuf_addstr(sb, "</table>\n");
}

int trend_write_index(const struct trend_site *s, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/index.html", dir);
	int ret;

	trend_page_head(&sb, "scalegate history");
	strbuf_addf(&sb,
		    "<h1>scalegate history</h1>\n<p class=\"meta\">%zu <a "
		    "href=\"runs.html\">runs</a>, %zu series. A finding is the change points of "
		    "one interval and configuration at one commit, whatever metrics moved; one "
		    "that an interval within it shows too is counted there.</p>\n",
		    s->d->nr_runs, s->d->nr_series);
	summary(&sb, s);
	filter(&sb, s);
	for (size_t b = 0; b < s->nr_bench; b++) {
		strbuf_addf(&sb, "<h2 id=\"b-%s\">", s->bench[b].slug);
		xml_add_text(&sb, s->bench[b].name);
		strbuf_addstr(&sb, "</h2>\n");
		trend_cells_table(&sb, s, b);
	}
	trend_page_end(&sb);
	ret = write_file_atomic(path, sb.buf, sb.len);
	free(path);
	strbuf_release(&sb);
	return ret;
}
