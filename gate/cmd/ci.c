/* The one CI command's parts: the 'reports:' section and writing every report of a judged check. */
#include "cmd/ci.h"

#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "report/report.h"
#include "base/util.h"

void ci_reports_init(struct ci_reports *r)
{
	memset(r, 0, sizeof(*r));
}

void ci_reports_release(struct ci_reports *r)
{
	free(r->dir);
	free(r->junit);
	free(r->markdown);
	free(r->json);
	free(r->html);
	ci_reports_init(r);
}

static int parse_section(struct ci_reports *r, struct config *c)
{
	static const char *const known[] = { "dir", "testcase_output", NULL };
	struct yamldoc_iter it;
	int ret = 0;

	if (!c->reports)
		return 0;
	if (!yamldoc_is_map(c->reports))
		return yamldoc_error(&c->doc, c->reports, "'reports' must be a mapping with 'dir' and 'testcase_output'");
	yamldoc_map_iter(&it, &c->doc, c->reports);
	while (yamldoc_map_next(&it)) {
		const char *s;
		if (!it.key || (strcmp(it.key, "dir") && strcmp(it.key, "testcase_output"))) {
			ret = yamldoc_unknown_key(&c->doc, it.key_node, known);
		} else if (!strcmp(it.key, "dir")) {
			if (!(s = yamldoc_get_str(&c->doc, it.value, "dir")))
				ret = -1;
			else
				free(r->dir), r->dir = config_resolve(c, s);
		} else if (yamldoc_get_bool(&c->doc, it.value, "testcase_output", &r->testcase_output)) {
			ret = -1;
		}
	}
	return ret;
}

int ci_reports_load(struct ci_reports *r, struct config *c, const char *dir)
{
	if (parse_section(r, c))
		return -1;
	if (dir) {
		free(r->dir);
		r->dir = xstrdup(dir);
	} else if (!r->dir) {
		r->dir = config_resolve(c, "reports");
	}
	return 0;
}

int ci_reports_write(struct ci_reports *r, struct judge *j)
{
	struct report_paths paths;

	if (mkdir_p(r->dir))
		return -1;
	r->junit = xstrfmt("%s/junit.xml", r->dir);
	r->markdown = xstrfmt("%s/summary.md", r->dir);
	r->json = xstrfmt("%s/summary.json", r->dir);
	r->html = xstrfmt("%s/report.html", r->dir);
	paths = (struct report_paths){ r->junit, r->markdown, r->json, r->html };
	return report_write_all(j, &paths, r->testcase_output);
}
