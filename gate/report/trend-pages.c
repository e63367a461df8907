/* A benchmark's trend pages. bench-SLUG.html holds its cells, its change points and the plots of
 * every interval when they fit in the page budget; else the plots go on pages of their own,
 * bench-SLUG.K.html, filled in the intervals' order: a top-level interval (program/solve and what
 * lies within it) stays on one page when it fits in one, and is split between intervals when it
 * does not. 5,004 series of 100 runs made one page of 98 MB; a browser took 87 s to open it. */
#include "report/trend-priv.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

/* The sections of a benchmark's intervals, rendered and not yet on a page. */
struct held {
	struct strbuf sb;
	size_t *end;	  /* each section's end in sb */
	size_t *interval; /* and its interval */
	size_t n, alloc;
};

/* The pages of one benchmark being filled. */
struct pages {
	struct trend_site *s;
	const char *dir;
	size_t bench, budget; /* budget: the bytes a part holds, less its end */
	size_t head_len;      /* of a part's head */
	struct strbuf part;   /* the part being filled */
	size_t nr_part_sections;
	int ret;
};

/* "program/solve/sweep": "program/solve", the top-level interval it lies within. */
static size_t top_level_len(const char *path)
{
	const char *slash = strchr(path, '/');

	if (!slash)
		return strlen(path);
	slash = strchr(slash + 1, '/');
	return slash ? (size_t)(slash - path) : strlen(path);
}

/* Whether intervals i and k lie within one top-level interval. */
static int same_top(const struct trend_site *s, size_t i, size_t k)
{
	const char *a = trend_interval_path(s, i), *b = trend_interval_path(s, k);
	size_t n = top_level_len(a);

	return top_level_len(b) == n && !strncmp(a, b, n);
}

/* Whether 'size' more bytes fit on the part being filled (a new one when it is empty). */
static int fits(const struct pages *p, size_t size)
{
	return (p->nr_part_sections ? p->part.len : p->head_len) + size <= p->budget;
}

static void part_head(struct pages *p, size_t part)
{
	const struct trend_bench *b = &p->s->bench[p->bench];
	char *title = xstrfmt("scalegate history: %s, part %zu", b->name, part);
	char *overview = trend_page_name(p->s, p->bench, 0);

	trend_page_head(&p->part, title);
	strbuf_addf(&p->part,
		    "<p class=\"meta\"><a href=\"index.html\">all benchmarks</a> · <a href=\"%s\">",
		    overview);
	xml_add_text(&p->part, b->name);
	strbuf_addstr(&p->part, "</a></p>\n<h1>");
	xml_add_text(&p->part, title);
	strbuf_addstr(&p->part, "</h1>\n");
	free(title);
	free(overview);
}

/* Writes the part being filled, when it holds a section. */
static void part_flush(struct pages *p)
{
	char *name, *path;

	if (!p->nr_part_sections || p->ret)
		return;
	trend_page_end(&p->part);
	name = trend_page_name(p->s, p->bench, p->s->bench[p->bench].nr_parts);
	path = xstrfmt("%s/%s", p->dir, name);
	p->ret = write_file_atomic(path, p->part.buf, p->part.len);
	free(path);
	free(name);
	strbuf_reset(&p->part);
	p->nr_part_sections = 0;
}

/* Adds section k of h to the part being filled, opening a new part when it is empty. */
static void part_add(struct pages *p, const struct held *h, size_t k)
{
	size_t start = k ? h->end[k - 1] : 0;

	if (!p->nr_part_sections)
		part_head(p, ++p->s->bench[p->bench].nr_parts);
	strbuf_add(&p->part, h->sb.buf + start, h->end[k] - start);
	p->s->iv[h->interval[k]].page = p->s->bench[p->bench].nr_parts;
	p->nr_part_sections++;
}

/* Sections first..end of h (one top-level interval's) onto the parts: on the part being filled
 * when they fit there, on a new one when they fit in one, else filling parts section by
 * section. */
static void pages_add(struct pages *p, const struct held *h, size_t first, size_t end)
{
	size_t size = h->end[end - 1] - (first ? h->end[first - 1] : 0);

	if (!fits(p, size) && p->head_len + size <= p->budget)
		part_flush(p); /* it fits on a page of its own: kept together */
	for (size_t k = first; k < end; k++) {
		if (!fits(p, h->end[k] - (k ? h->end[k - 1] : 0)))
			part_flush(p);
		part_add(p, h, k);
	}
}

static void held_add(struct held *h, const struct trend_site *s, size_t interval)
{
	trend_interval_section(&h->sb, s, interval);
	ALLOC_GROW(h->end, h->n + 1, h->alloc);
	h->interval = xrealloc(h->interval, h->alloc * sizeof(*h->interval));
	h->end[h->n] = h->sb.len;
	h->interval[h->n++] = interval;
}

static void held_release(struct held *h)
{
	strbuf_release(&h->sb);
	free(h->end);
	free(h->interval);
	memset(h, 0, sizeof(*h));
}

/* Every section of held h onto parts, a top-level interval at a time. */
static void pages_add_held(struct pages *p, const struct held *h)
{
	for (size_t k = 0; k < h->n;) {
		size_t end = k + 1;
		while (end < h->n && same_top(p->s, h->interval[k], h->interval[end]))
			end++;
		pages_add(p, h, k, end);
		k = end;
	}
}

/* The change points of the benchmark, in a table. */
static void changes_table(struct strbuf *sb, const struct trend_site *s, size_t bench)
{
	size_t shown = 0;

	for (size_t i = 0; i < s->r->nr; i++) {
		const struct detect_change *c = &s->r->changes[i];
		const struct history_series *hs = &s->d->series[c->series];
		if (s->iv[s->interval_of[c->series]].bench != bench)
			continue;
		if (!shown++)
			strbuf_addstr(sb, "<h2>Change points</h2>\n<table><tr><th>commit</th>"
				      "<th>after</th><th>interval</th><th>configuration</th>"
				      "<th>metric</th><th>before</th><th>after</th>"
				      "<th>change</th><th>p</th><th></th></tr>\n");
		strbuf_addstr(sb, "<tr><td>");
		trend_commit(sb, s, c->run);
		strbuf_addstr(sb, "</td><td><code>");
		xml_add_text(sb, s->d->runs[c->previous].commit);
		strbuf_addstr(sb, "</code></td><td>");
		xml_add_text(sb, hs->interval);
		strbuf_addstr(sb, "</td><td>");
		xml_add_text(sb, hs->configuration);
		strbuf_addf(sb,
			    "</td><td>%s</td><td class=\"num\">%.4g</td><td class=\"num\">%.4g</td>"
			    "<td class=\"num\">%+.1f %%</td><td class=\"num\">%.2g</td><td "
			    "class=\"%s\">%s</td></tr>\n",
			    history_metric_name(hs->metric), c->before, c->after, c->change * 100,
			    c->p, c->regression ? "regression" : "improvement",
			    detect_change_word(c));
	}
	strbuf_addstr(sb, shown ? "</table>\n" : "<p class=\"meta\">No change point.</p>\n");
}

/* Which commits the scaling curves compare, when chosen. */
static void compared_line(struct strbuf *sb, const struct trend_site *s)
{
	const struct trend_options *o = s->o;

	if (!o->nr_compare)
		return;
	strbuf_addstr(sb, "<p class=\"meta compare\">The scaling curves compare ");
	for (size_t k = 0; k < o->nr_compare && k < TREND_MAX_COMPARE; k++) {
		strbuf_addstr(sb, k ? ", <code>" : "<code>");
		xml_add_text(sb, s->d->runs[o->compare[k]].commit);
		strbuf_addstr(sb, "</code>");
	}
	strbuf_addstr(sb, ", side by side.</p>\n");
}

/* The benchmark page's head: the plots' legend, its cells, its change points. */
static void bench_head(struct strbuf *sb, const struct trend_site *s, size_t bench)
{
	char *title = xstrfmt("scalegate history: %s", s->bench[bench].name);

	trend_page_head(sb, title);
	strbuf_addstr(sb, "<p class=\"meta\"><a href=\"index.html\">all benchmarks</a> · "
			  "<a href=\"runs.html\">runs</a></p>\n<h1>");
	xml_add_text(sb, title);
	strbuf_addf(sb,
		    "</h1>\n<p class=\"meta\">%zu runs. Dashed vertical lines are change "
		    "points (<span class=\"regression\">regressions</span>, <span "
		    "class=\"improvement\">improvements</span>), linked to their commit; thin "
		    "dotted ones are change points of an interval within the one drawn; bars are "
		    "the 95 %% intervals of the medians.</p>\n",
		    s->d->nr_runs);
	compared_line(sb, s);
	trend_cells_table(sb, s, bench);
	changes_table(sb, s, bench);
	free(title);
}

/* The overview of a benchmark whose plots are on parts: its cells (linked), its change points and
 * its parts. */
static void overview(struct strbuf *sb, const struct trend_site *s, size_t bench)
{
	const struct trend_bench *b = &s->bench[bench];

	strbuf_addf(sb, "<h2>Pages</h2>\n<p class=\"meta\">The plots of its %zu intervals are on "
			"%zu pages:", b->end - b->first, b->nr_parts);
	for (size_t k = 1; k <= b->nr_parts; k++) {
		char *name = trend_page_name(s, bench, k);
		size_t first = b->end, last = b->first;
		for (size_t i = b->first; i < b->end; i++)
			if (s->iv[i].page == k) {
				first = first < i ? first : i;
				last = i;
			}
		strbuf_addf(sb, "%s<a href=\"%s\">part %zu</a> (", k > 1 ? ";" : "", name, k);
		xml_add_text(sb, trend_interval_path(s, first));
		if (last != first) {
			strbuf_addstr(sb, " to ");
			xml_add_text(sb, trend_interval_path(s, last));
		}
		strbuf_addch(sb, ')');
		free(name);
	}
	strbuf_addstr(sb, ".</p>\n");
}

/* Renders the benchmark's sections, keeping them while they fit on its page; past that, onto
 * parts (p->s->bench[bench].nr_parts > 0). */
static void render(struct pages *p, struct held *h, size_t room)
{
	const struct trend_bench *b = &p->s->bench[p->bench];
	int split = 0;

	for (size_t i = b->first; i < b->end; i++) {
		held_add(h, p->s, i);
		if (!split && h->sb.len <= room)
			continue;
		if (!split) {
			split = 1;
			part_head(p, 1); /* its size, and the room left for sections */
			p->head_len = p->part.len;
			p->budget = p->s->page_bytes > 64 ? p->s->page_bytes - 64 : 0;
			strbuf_reset(&p->part);
		}
		/* a top-level interval's sections go together: hold them until the next one */
		if (i + 1 < b->end && same_top(p->s, i, i + 1))
			continue;
		pages_add_held(p, h);
		held_release(h);
	}
	if (split) {
		pages_add_held(p, h);
		part_flush(p);
		strbuf_release(&p->part);
	}
}

int trend_write_bench(struct trend_site *s, const char *dir, size_t bench)
{
	struct pages p = { s, dir, bench, 0, 0, STRBUF_INIT, 0, 0 };
	struct held h = { STRBUF_INIT, NULL, NULL, 0, 0 };
	struct strbuf page = STRBUF_INIT;
	char *name = trend_page_name(s, bench, 0), *path = xstrfmt("%s/%s", dir, name);
	size_t room;

	/* the head's size, its cells' links to this page; 4 bytes a series for longer links */
	bench_head(&page, s, bench);
	room = page.len + 64 + 4 * (s->iv[s->bench[bench].end - 1].end -
				    s->iv[s->bench[bench].first].first);
	room = s->page_bytes > room ? s->page_bytes - room : 0;
	render(&p, &h, room);
	strbuf_reset(&page);
	bench_head(&page, s, bench); /* its cells linked to the pages now chosen */
	if (!s->bench[bench].nr_parts)
		strbuf_add(&page, h.sb.buf ? h.sb.buf : "", h.sb.len);
	else
		overview(&page, s, bench);
	trend_page_end(&page);
	if (!p.ret)
		p.ret = write_file_atomic(path, page.buf, page.len);
	held_release(&h);
	strbuf_release(&page);
	free(name);
	free(path);
	return p.ret;
}
