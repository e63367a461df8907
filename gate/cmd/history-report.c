/* scalegate history report: the trend pages, a static site (report/trend.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "cmd/history-priv.h"
#include "report/trend.h"

/* Where a commit is shown: the option, else GitHub's or GitLab's page of it; NULL: none known. */
static char *commit_url(const char *option)
{
	const char *server = history_cmd_env("GITHUB_SERVER_URL"),
		   *repo = history_cmd_env("GITHUB_REPOSITORY");

	if (option)
		return xstrdup(option);
	if (server && repo)
		return xstrfmt("%s/%s/commit/{commit}", server, repo);
	if (history_cmd_env("CI_PROJECT_URL"))
		return xstrfmt("%s/-/commit/{commit}", history_cmd_env("CI_PROJECT_URL"));
	return NULL;
}

/*
 * The run of commit 'name' (its newest when recorded more than once): the commit itself, else the
 * one commit it is a prefix of. The index into d->runs, or -1 after gate_error().
 */
static long find_commit(const struct history_data *d, const char *name)
{
	const char *match = NULL;
	long found = -1;
	size_t len = strlen(name);

	for (size_t i = 0; len && i < d->nr_runs; i++)
		if (!strcmp(d->runs[i].commit, name))
			found = (long)i;
	for (size_t i = 0; len && found < 0 && i < d->nr_runs; i++) {
		const char *commit = d->runs[i].commit;
		if (strncmp(commit, name, len))
			continue;
		if (match && strcmp(match, commit))
			return gate_error("--compare: '%s' starts more than one commit (%s, %s)",
					  name, match, commit);
		match = commit;
	}
	for (size_t i = 0; match && i < d->nr_runs; i++)
		if (!strcmp(d->runs[i].commit, match))
			found = (long)i;
	if (found < 0)
		return gate_error("--compare: no recorded run of commit '%s'", name);
	return found;
}

/* The runs of --compare SHA,SHA[,...]: their number, or -1 after gate_error(). */
static int compared_runs(const struct history_data *d, const char *text, size_t *runs)
{
	char *list = xstrdup(text), *save = NULL;
	int n = 0;

	for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		long run;
		if (n == TREND_MAX_COMPARE) {
			n = gate_error("--compare: at most %d commits", TREND_MAX_COMPARE);
			break;
		}
		if ((run = find_commit(d, name)) < 0) {
			n = -1;
			break;
		}
		runs[n++] = (size_t)run;
	}
	free(list);
	return n ? n : gate_error("--compare: no commit given");
}

int history_cmd_report(const char *where, struct config *c, const struct history_options *o)
{
	struct history_data d;
	struct detect_result r;
	struct trend_options to = { NULL, NULL, 0, 0 };
	const char *page_bytes = history_cmd_env("SCALEGATE_TREND_PAGE_BYTES");
	size_t runs[TREND_MAX_COMPARE];
	char *url;
	int ret, n = 0;

	if (!o->html)
		return gate_error("nothing to write: give --html DIR"), SG_EXIT_USAGE;
	if (history_cmd_read(where, o->meta.branch, 1, &d))
		return SG_EXIT_USAGE;
	if (o->compare_text && (n = compared_runs(&d, o->compare_text, runs)) < 0) {
		history_data_release(&d);
		return SG_EXIT_USAGE;
	}
	ret = history_cmd_changes(&d, c, DETECT_FDR, &r);
	url = commit_url(o->commit_url);
	to.commit_url = url;
	to.compare = runs;
	to.nr_compare = (size_t)n;
	/* the most a page holds; smaller in tests, to split pages of a small history */
	to.page_bytes = page_bytes ? strtoul(page_bytes, NULL, 10) : 0;
	if (!ret)
		ret = trend_write_site(o->html, &d, &r, &to);
	free(url);
	if (!ret)
		printf("history: wrote %s/index.html (%zu runs, %zu change points)\n", o->html,
		       d.nr_runs, r.nr);
	detect_result_release(&r);
	history_data_release(&d);
	return ret ? SG_EXIT_USAGE : SG_EXIT_PASS;
}
