/* Trend pages: a static site of the history, one page per benchmark, series over commits with their
 * change points. */
#include "report/trend-priv.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

static const char css[] =
	"body{font:14px/1.45 'DejaVu "
	"Sans',system-ui,sans-serif;color:#222;background:#f6f6f4;margin:0}\n"
	"main{max-width:1700px;margin:0 auto;padding:12px 16px}h1{font-size:22px;margin:6px 0}"
	"h2{font-size:17px;margin:22px 0 6px}code{font:13px 'DejaVu Sans Mono',monospace}\n"
	"table{border-collapse:collapse;background:#fff;font-size:13px;margin:6px 0}"
	"th,td{border:1px solid #ddd;padding:3px "
	"7px;text-align:left}th{background:#efefec}td.num{text-align:right}\n"
	".regression{color:#B84A00;font-weight:600}.improvement{color:#00785A}\n"
	"section{background:#fff;border:1px solid #ddd;margin:12px 0;padding:10px 14px}\n"
	".plots{display:flex;flex-wrap:wrap;gap:8px 18px}figure{margin:4px 0;width:400px}"
	"figcaption{font-weight:600;font-size:13px}\n"
	"svg text{font:11px 'DejaVu "
	"Sans',sans-serif;fill:#333}.frame{fill:#fff;stroke:#999}.grid{stroke:#e6e6e6}\n"
	"ul.legend{list-style:none;padding:0;margin:2px "
	"0;font-size:12px;display:flex;flex-wrap:wrap;gap:2px 12px}\n"
	".key{display:inline-block;width:22px;border-top:2.5px solid "
	"var(--c);vertical-align:middle;margin-right:5px}\n"
	".meta{color:#555;font-size:13px}\n";

void trend_commit_link(struct strbuf *sb, const char *commit_url, const char *commit, size_t run)
{
	const char *at = commit_url ? strstr(commit_url, "{commit}") : NULL;
	struct strbuf url = STRBUF_INIT;

	if (at) {
		strbuf_add(&url, commit_url, (size_t)(at - commit_url));
		strbuf_addstr(&url, commit);
		strbuf_addstr(&url, at + 8);
	} else {
		strbuf_addf(&url, "#run-%zu", run + 1);
	}
	strbuf_addstr(sb, "<a href=\"");
	xml_add_attr(sb, url.buf);
	strbuf_addstr(sb, "\">");
	strbuf_release(&url);
}
static void page_head(struct strbuf *sb, const char *title)
{
	strbuf_addstr(
		sb,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	xml_add_text(sb, title);
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", css);
}

static void changes_table(struct strbuf *sb, const struct history_data *d,
			  const struct detect_result *r, const char *benchmark,
			  const char *commit_url)
{
	size_t shown = 0;

	for (size_t i = 0; i < r->nr; i++) {
		const struct detect_change *c = &r->changes[i];
		const struct history_series *s = &d->series[c->series];
		if (strcmp(s->benchmark, benchmark))
			continue;
		if (!shown++)
			strbuf_addstr(
				sb,
				"<h2>Change points</h2>\n<table><tr><th>commit</th><th>after</th>"
				"<th>interval</th><th>configuration</th><th>metric</th><th>before</"
				"th>"
				"<th>after</th><th>change</th><th>p</th><th></th></tr>\n");
		strbuf_addstr(sb, "<tr><td><code>");
		trend_commit_link(sb, commit_url, d->runs[c->run].commit, c->run);
		xml_add_text(sb, d->runs[c->run].commit);
		strbuf_addstr(sb, "</a></code></td><td><code>");
		xml_add_text(sb, d->runs[c->previous].commit);
		strbuf_addstr(sb, "</code></td><td>");
		xml_add_text(sb, s->interval);
		strbuf_addstr(sb, "</td><td>");
		xml_add_text(sb, s->configuration);
		strbuf_addf(sb,
			    "</td><td>%s</td><td class=\"num\">%.4g</td><td class=\"num\">%.4g</td>"
			    "<td class=\"num\">%+.1f %%</td><td class=\"num\">%.2g</td><td "
			    "class=\"%s\">%s</td></tr>\n",
			    history_metric_name(s->metric), c->before, c->after, c->change * 100,
			    c->p, c->regression ? "regression" : "improvement",
			    detect_change_word(c));
	}
	if (shown)
		strbuf_addstr(sb, "</table>\n");
	else
		strbuf_addstr(sb, "<p class=\"meta\">No change point.</p>\n");
}

static void runs_table(struct strbuf *sb, const struct history_data *d)
{
	strbuf_addstr(
		sb,
		"<h2>Runs</h2>\n<table><tr><th>#</th><th>commit</th><th>date</th><th>branch</th>"
		"<th>job</th></tr>\n");
	for (size_t i = 0; i < d->nr_runs; i++) {
		const struct history_run *run = &d->runs[i];
		strbuf_addf(sb, "<tr id=\"run-%zu\"><td class=\"num\">%zu</td><td><code>", i + 1,
			    i + 1);
		xml_add_text(sb, run->commit);
		strbuf_addstr(sb, "</code></td><td>");
		xml_add_text(sb, run->date);
		strbuf_addstr(sb, "</td><td>");
		xml_add_text(sb, run->branch ? run->branch : "");
		strbuf_addstr(sb, "</td><td>");
		if (run->job_url) {
			strbuf_addstr(sb, "<a href=\"");
			xml_add_attr(sb, run->job_url);
			strbuf_addstr(sb, "\">job</a>");
		}
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* Which commits the scaling curves compare, when chosen. */
static void compared_line(struct strbuf *sb, const struct history_data *d,
			  const struct trend_options *o)
{
	if (!o->nr_compare)
		return;
	strbuf_addstr(sb, "<p class=\"meta compare\">The scaling curves compare ");
	for (size_t k = 0; k < o->nr_compare && k < TREND_MAX_COMPARE; k++) {
		strbuf_addstr(sb, k ? ", <code>" : "<code>");
		xml_add_text(sb, d->runs[o->compare[k]].commit);
		strbuf_addstr(sb, "</code>");
	}
	strbuf_addstr(sb, ", side by side.</p>\n");
}

/* The benchmark of d->series[first..): its page; returns the end of its series. */
static size_t benchmark_page(struct strbuf *sb, const struct history_data *d,
			     const struct detect_result *r, size_t first,
			     const struct trend_options *o)
{
	const char *name = d->series[first].benchmark;
	size_t end = first;
	char *title = xstrfmt("scalegate history: %s", name);

	while (end < d->nr_series && !strcmp(d->series[end].benchmark, name))
		end++;
	page_head(sb, title);
	strbuf_addstr(sb, "<p class=\"meta\"><a href=\"index.html\">all benchmarks</a></p>\n<h1>");
	xml_add_text(sb, title);
	strbuf_addf(sb,
		    "</h1>\n<p class=\"meta\">%zu runs. Dashed vertical lines are change points "
		    "(<span class=\"regression\">regressions</span>, <span "
		    "class=\"improvement\">improvements"
		    "</span>), linked to their commit; bars are the 95 %% intervals of the "
		    "medians.</p>\n",
		    d->nr_runs);
	compared_line(sb, d, o);
	changes_table(sb, d, r, name, o->commit_url);
	for (size_t i = first; i < end;) {
		struct trend_group g = { i, i };
		while (g.end < end && !strcmp(d->series[g.end].interval, d->series[i].interval))
			g.end++;
		trend_interval_section(sb, d, r, g, o);
		i = g.end;
	}
	runs_table(sb, d);
	strbuf_addstr(sb, "</main>\n</body>\n</html>\n");
	free(title);
	return end;
}

static size_t count_changes(const struct history_data *d, const struct detect_result *r,
			    const char *benchmark, int regression)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr; i++)
		n += !strcmp(d->series[r->changes[i].series].benchmark, benchmark) &&
		     r->changes[i].regression == regression &&
		     r->changes[i].kind != CHANGEPOINT_SUSPECT;
	return n;
}

int trend_write_site(const char *dir, const struct history_data *d, const struct detect_result *r,
		     const struct trend_options *o)
{
	struct strbuf index = STRBUF_INIT, page = STRBUF_INIT;
	int ret = mkdir_p(dir);

	page_head(&index, "scalegate history");
	strbuf_addf(&index,
		    "<h1>scalegate history</h1>\n<p class=\"meta\">%zu runs, %zu series.</p>\n"
		    "<table><tr><th>benchmark</th><th>regressions</th><th>improvements</th></tr>\n",
		    d->nr_runs, d->nr_series);
	for (size_t i = 0; !ret && i < d->nr_series;) {
		const char *name = d->series[i].benchmark;
		char *path = xstrfmt("%s/bench-%s.html", dir, name);
		strbuf_reset(&page);
		i = benchmark_page(&page, d, r, i, o);
		ret = write_file_atomic(path, page.buf, page.len);
		strbuf_addstr(&index, "<tr><td><a href=\"bench-");
		xml_add_attr(&index, name);
		strbuf_addstr(&index, ".html\">");
		xml_add_text(&index, name);
		strbuf_addf(&index,
			    "</a></td><td class=\"num\">%zu</td><td class=\"num\">%zu</td></tr>\n",
			    count_changes(d, r, name, 1), count_changes(d, r, name, 0));
		free(path);
	}
	strbuf_addstr(&index, "</table>\n</main>\n</body>\n</html>\n");
	if (!ret) {
		char *path = xstrfmt("%s/index.html", dir);
		ret = write_file_atomic(path, index.buf, index.len);
		free(path);
	}
	strbuf_release(&index);
	strbuf_release(&page);
	return ret;
}
