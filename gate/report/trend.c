/* Trend pages: a static site of the history. The index lists every benchmark x interval x
 * configuration with its state; each benchmark's intervals are drawn on its page, or on pages of
 * their own when they would not fit in one (trend-pages.c); the runs with their commits' subjects
 * are on one page. What the pages share: trend-site.c. */
#include "report/trend-priv.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

static int slug_taken(const struct trend_site *s, const char *slug)
{
	for (size_t i = 0; i < s->nr_bench; i++)
		if (!strcmp(s->bench[i].slug, slug))
			return 1;
	return 0;
}

/* A benchmark's name as part of a file name: letters, digits, '-' and '_' (never a '.': parts are
 * bench-SLUG.K.html); another benchmark's slug already taken gets a number. */
static char *slug_of(const struct trend_site *s, const char *name)
{
	char *slug = xstrdup(name), *numbered;

	for (char *p = slug; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", *p))
			*p = '_';
	if (!slug_taken(s, slug))
		return slug;
	for (int k = 2;; k++) {
		numbered = xstrfmt("%s_%d", slug, k);
		if (!slug_taken(s, numbered))
			break;
		free(numbered);
	}
	free(slug);
	return numbered;
}

/* The intervals (series of one benchmark and interval) and the benchmarks of d, in its order. */
static void site_build(struct trend_site *s)
{
	const struct history_data *d = s->d;
	size_t alloc_iv = 0, alloc_bench = 0;

	s->interval_of = xcalloc(d->nr_series + 1, sizeof(*s->interval_of));
	for (size_t i = 0; i < d->nr_series;) {
		struct trend_interval *iv;
		size_t end = i;
		while (end < d->nr_series &&
		       !strcmp(d->series[end].benchmark, d->series[i].benchmark) &&
		       !strcmp(d->series[end].interval, d->series[i].interval))
			end++;
		if (!s->nr_bench ||
		    strcmp(s->bench[s->nr_bench - 1].name, d->series[i].benchmark)) {
			struct trend_bench *b;
			ALLOC_GROW(s->bench, s->nr_bench + 1, alloc_bench);
			b = memset(&s->bench[s->nr_bench], 0, sizeof(*b));
			b->name = d->series[i].benchmark;
			b->slug = slug_of(s, b->name);
			b->first = b->end = s->nr_iv;
			s->nr_bench++;
		}
		ALLOC_GROW(s->iv, s->nr_iv + 1, alloc_iv);
		iv = &s->iv[s->nr_iv];
		*iv = (struct trend_interval){ i, end, s->nr_bench - 1, 0 };
		for (size_t k = i; k < end; k++)
			s->interval_of[k] = s->nr_iv;
		s->bench[s->nr_bench - 1].end = ++s->nr_iv;
		i = end;
	}
}

static void site_release(struct trend_site *s)
{
	for (size_t i = 0; i < s->nr_bench; i++)
		free(s->bench[i].slug);
	free(s->bench);
	free(s->iv);
	free(s->interval_of);
	free(s->f);
}

/* runs.html: every run with its commit's subject; the commit links of every page end here when
 * there is no commit URL. */
static int write_runs(const struct trend_site *s, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/runs.html", dir);
	int ret;

	trend_page_head(&sb, "scalegate history: runs");
	strbuf_addf(&sb,
		    "<p class=\"meta\"><a href=\"index.html\">all benchmarks</a></p>\n"
		    "<h1>Runs</h1>\n<table><tr><th>#</th><th>commit</th><th>subject</th>"
		    "<th>date</th><th>branch</th><th>job</th></tr>\n");
	for (size_t i = 0; i < s->d->nr_runs; i++) {
		const struct history_run *run = &s->d->runs[i];
		strbuf_addf(&sb, "<tr id=\"run-%zu\"><td class=\"num\">%zu</td><td><code>", i + 1,
			    i + 1);
		xml_add_text(&sb, run->commit);
		strbuf_addstr(&sb, "</code></td><td>");
		xml_add_text(&sb, run->subject);
		strbuf_addstr(&sb, "</td><td>");
		xml_add_text(&sb, run->date);
		strbuf_addstr(&sb, "</td><td>");
		xml_add_text(&sb, run->branch);
		strbuf_addstr(&sb, "</td><td>");
		if (run->job_url) {
			strbuf_addstr(&sb, "<a href=\"");
			xml_add_attr(&sb, run->job_url);
			strbuf_addstr(&sb, "\">job</a>");
		}
		strbuf_addstr(&sb, "</td></tr>\n");
	}
	strbuf_addstr(&sb, "</table>\n");
	trend_page_end(&sb);
	ret = write_file_atomic(path, sb.buf, sb.len);
	free(path);
	strbuf_release(&sb);
	return ret;
}

int trend_write_site(const char *dir, const struct history_data *d, const struct detect_result *r,
		     const struct trend_options *o)
{
	struct trend_site s = { .d = d, .r = r, .o = o };
	int ret = mkdir_p(dir);

	s.page_bytes = o->page_bytes ? o->page_bytes : TREND_PAGE_BYTES;
	site_build(&s);
	trend_findings_build(&s);
	for (size_t b = 0; !ret && b < s.nr_bench; b++)
		ret = trend_write_bench(&s, dir, b);
	if (!ret)
		ret = write_runs(&s, dir);
	if (!ret)
		ret = trend_write_index(&s, dir);
	site_release(&s);
	return ret;
}
