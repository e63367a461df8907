/* Private to the trend pages: trend.c writes the site, trend-findings.c groups the change points
 * into findings, trend-index.c the index, trend-pages.c the benchmarks' pages, trend-plot.c the
 * plots. */
#ifndef SG_TREND_PRIV_H
#define SG_TREND_PRIV_H

#include "base/util.h"
#include "report/trend.h"

/* One interval of one benchmark: its series, and the page it is drawn on. */
struct trend_interval {
	size_t first, end; /* d->series[first..end) */
	size_t bench;	   /* index into site->bench */
	size_t page;	   /* 0: the benchmark's page; k: its part k */
};

struct trend_bench {
	const char *name;
	char *slug;	   /* of its file names: bench-SLUG.html, bench-SLUG.K.html */
	size_t first, end; /* its intervals, site->iv[first..end) */
	size_t nr_parts;   /* 0: every interval is on bench-SLUG.html */
};

/* What a finding is, strongest first: an alarm's kind, or one that is not. */
enum trend_kind { TREND_REGRESSION, TREND_SUSPECT, TREND_IMPROVEMENT, TREND_TOLERATED };

/*
 * One finding: the change points of one cell (interval x configuration) at one commit (within a
 * run), whatever metrics they moved: a step moves time, speedup, efficiency and a share together,
 * and is one cause.
 */
struct trend_finding {
	size_t interval; /* site->iv */
	const char *configuration;
	size_t run, previous; /* of its earliest change point */
	enum trend_kind kind;
	size_t nr_changes;
	int worse; /* a metric of it moved its worse way */
	/* a finding of a descendant interval in the same configuration at the same commit, the
	 * cause this one shows again (-1: none): counted there, not here */
	long inner;
};

struct trend_site {
	const struct history_data *d;
	const struct detect_result *r;
	const struct trend_options *o;
	struct trend_interval *iv;
	size_t nr_iv;
	struct trend_bench *bench;
	size_t nr_bench;
	size_t *interval_of; /* of each series */
	struct trend_finding *f; /* by interval, configuration, run */
	size_t nr_f;
	size_t page_bytes;
};

/* The site's pages, as trend.c writes them. */
void trend_page_head(struct strbuf *sb, const char *title);
void trend_page_end(struct strbuf *sb);
/* "bench-SLUG.html" (part 0) or "bench-SLUG.K.html"; caller frees. */
char *trend_page_name(const struct trend_site *s, size_t bench, size_t part);
/* An <a href> opening to the commit of run 'run' (commit_url with {commit}), else to its row of
 * the runs' page. */
void trend_commit_link(struct strbuf *sb, const char *commit_url, const char *commit, size_t run);
/* The commit of run 'run' in <code>, linked, with its subject when the history has one. */
void trend_commit(struct strbuf *sb, const struct trend_site *s, size_t run);
/* The interval's path, depth: its number of '/'. */
const char *trend_interval_path(const struct trend_site *s, size_t interval);
int trend_interval_depth(const struct trend_site *s, size_t interval);
/* Whether interval 'inner' lies within 'outer' (same benchmark, a longer path below it). */
int trend_interval_within(const struct trend_site *s, size_t inner, size_t outer);

/* The findings of every cell (trend-findings.c). */
void trend_findings_build(struct trend_site *s);
/* The findings of one cell: s->f[*first..*end). */
void trend_cell_findings(const struct trend_site *s, size_t interval, const char *configuration,
			 size_t *first, size_t *end);
/* A cell's state: the kind of its newest finding that is not tolerated; -1: quiet. */
int trend_cell_state(const struct trend_site *s, size_t first, size_t end);
const char *trend_kind_name(int kind); /* -1: "quiet" */

/* The index page (trend-index.c) and a benchmark's pages (trend-pages.c): 0 or gate_error(). */
int trend_write_index(const struct trend_site *s, const char *dir);
int trend_write_bench(struct trend_site *s, const char *dir, size_t bench);
/* The table of a benchmark's cells, with their state, linked to where they are drawn. */
void trend_cells_table(struct strbuf *sb, const struct trend_site *s, size_t bench);

/* An interval's section: its plots over the runs, its POP factors, its scaling curves and its
 * change points (trend-plot.c), with id="i<interval>". */
void trend_interval_section(struct strbuf *sb, const struct trend_site *s, size_t interval);

#endif
