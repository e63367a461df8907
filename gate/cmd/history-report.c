/* scalegate history report: the trend pages, one static HTML page per benchmark. */
#include <stdio.h>
#include <stdlib.h>

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

int history_cmd_report(const char *where, struct config *c, const struct history_options *o)
{
	struct history_data d;
	struct detect_result r;
	char *url;
	int ret;

	if (!o->html)
		return error("nothing to write: give --html DIR"), SG_EXIT_USAGE;
	if (history_cmd_read(where, o->meta.branch, &d))
		return SG_EXIT_USAGE;
	ret = history_cmd_changes(&d, c, DETECT_FDR, &r);
	url = commit_url(o->commit_url);
	if (!ret)
		ret = trend_write_site(o->html, &d, &r, url);
	free(url);
	if (!ret)
		printf("history: wrote %s/index.html (%zu runs, %zu change points)\n", o->html,
		       d.nr_runs, r.nr);
	detect_result_release(&r);
	history_data_release(&d);
	return ret ? SG_EXIT_USAGE : SG_EXIT_PASS;
}
