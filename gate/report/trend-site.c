/* What every trend page shares: the page's head with its style and its end, the pages' names, links
 * to commits, and the intervals' paths and nesting. */
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
	".regression{color:#B84A00;font-weight:600}.improvement{color:#00785A}"
	".suspect{color:#7A5C00}.quiet{color:#666}\n"
	"section{background:#fff;border:1px solid #ddd;margin:12px 0;padding:10px 14px}\n"
	".plots{display:flex;flex-wrap:wrap;gap:8px 18px}figure{margin:4px 0;width:400px}"
	"figcaption{font-weight:600;font-size:13px}\n"
	"svg text{font:11px 'DejaVu "
	"Sans',sans-serif;fill:#333}.frame{fill:#fff;stroke:#999}.grid{stroke:#e6e6e6}\n"
	"ul.legend{list-style:none;padding:0;margin:2px "
	"0;font-size:12px;display:flex;flex-wrap:wrap;gap:2px 12px}\n"
	".key{display:inline-block;width:22px;border-top:2.5px solid "
	"var(--c);vertical-align:middle;margin-right:5px}\n"
	".meta{color:#555;font-size:13px}.subject{color:#444}"
	"ul.changes{margin:4px 0;font-size:13px}\n"
	/* the index's filter: a radio button per state, no script */
	".filter input{margin-left:12px}.filter label{margin-right:4px}\n"
	"#show-regression:checked~table.cells tr.cell:not(.st-regression),"
	"#show-suspect:checked~table.cells tr.cell:not(.st-suspect),"
	"#show-improvement:checked~table.cells tr.cell:not(.st-improvement),"
	"#show-quiet:checked~table.cells tr.cell:not(.st-quiet),"
	"#show-changed:checked~table.cells tr.cell.st-quiet{display:none}\n";

void trend_page_head(struct strbuf *sb, const char *title)
{
	strbuf_addstr(
		sb,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	xml_add_text(sb, title);
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", css);
}

void trend_page_end(struct strbuf *sb)
{
	strbuf_addstr(sb, "</main>\n</body>\n</html>\n");
}

char *trend_page_name(const struct trend_site *s, size_t bench, size_t part)
{
	if (!part)
		return xstrfmt("bench-%s.html", s->bench[bench].slug);
	return xstrfmt("bench-%s.%zu.html", s->bench[bench].slug, part);
}

void trend_commit_link(struct strbuf *sb, const char *commit_url, const char *commit, size_t run)
{
	const char *at = commit_url ? strstr(commit_url, "{commit}") : NULL;
	struct strbuf url = STRBUF_INIT;

	if (at) {
		strbuf_add(&url, commit_url, (size_t)(at - commit_url));
		strbuf_addstr(&url, commit);
		strbuf_addstr(&url, at + 8);
	} else {
		strbuf_addf(&url, "runs.html#run-%zu", run + 1);
	}
	strbuf_addstr(sb, "<a href=\"");
	xml_add_attr(sb, url.buf);
	strbuf_addstr(sb, "\">");
	strbuf_release(&url);
}

void trend_commit(struct strbuf *sb, const struct trend_site *s, size_t run)
{
	const struct history_run *r = &s->d->runs[run];

	strbuf_addstr(sb, "<code>");
	trend_commit_link(sb, s->o->commit_url, r->commit, run);
	xml_add_text(sb, r->commit);
	strbuf_addstr(sb, "</a></code>");
	if (r->subject) {
		strbuf_addstr(sb, " <span class=\"subject\">");
		xml_add_text(sb, r->subject);
		strbuf_addstr(sb, "</span>");
	}
}

const char *trend_interval_path(const struct trend_site *s, size_t interval)
{
	return s->d->series[s->iv[interval].first].interval;
}

int trend_interval_depth(const struct trend_site *s, size_t interval)
{
	int depth = 0;

	for (const char *p = trend_interval_path(s, interval); *p; p++)
		depth += *p == '/';
	return depth;
}

int trend_interval_within(const struct trend_site *s, size_t inner, size_t outer)
{
	const char *in = trend_interval_path(s, inner), *out = trend_interval_path(s, outer);
	size_t n = strlen(out);

	return s->iv[inner].bench == s->iv[outer].bench && !strncmp(in, out, n) && in[n] == '/';
}
