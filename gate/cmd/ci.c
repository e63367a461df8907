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
	strbuf_init(&r->summary);
	for (size_t i = 0; report_formats[i]; i++)
		if (report_formats[i]->file)
			r->name[i] = xstrdup(report_formats[i]->file);
}

void ci_reports_release(struct ci_reports *r)
{
	free(r->dir);
	for (size_t i = 0; i < REPORT_MAX_FORMATS; i++) {
		free(r->name[i]);
		free(r->path[i]);
	}
	strbuf_release(&r->summary);
	memset(r, 0, sizeof(*r));
}

/* A key of 'reports:' that names a format: the file's name under 'dir'. 0, 1 when 'key' names
 * no format, or -1. */
static int parse_format(struct ci_reports *r, struct config *c, const char *key, yaml_node_t *value)
{
	int k = key ? report_format_index(key) : -1;
	const char *s;

	if (k < 0)
		return 1;
	if (!(s = yamldoc_get_str(&c->doc, value, key)))
		return -1;
	if (!*s || strchr(s, '/'))
		return yamldoc_error(&c->doc, value,
				     "'%s' must be a file name in the reports' directory", key);
	free(r->name[k]);
	r->name[k] = xstrdup(s);
	return 0;
}

static int parse_section(struct ci_reports *r, struct config *c)
{
	const char *known[REPORT_MAX_FORMATS + 3] = { "dir", "testcase_output" };
	struct yamldoc_iter it;
	int ret = 0, one;

	for (size_t i = 0; report_formats[i]; i++)
		known[i + 2] = report_formats[i]->name;
	if (!c->reports)
		return 0;
	if (!yamldoc_is_map(c->reports))
		return yamldoc_error(
			&c->doc, c->reports,
			"'reports' must be a mapping with 'dir' and 'testcase_output'");
	yamldoc_map_iter(&it, &c->doc, c->reports);
	while (yamldoc_map_next(&it)) {
		const char *s;
		if ((one = parse_format(r, c, it.key, it.value)) <= 0) {
			ret = one ? -1 : ret;
		} else if (!it.key || (strcmp(it.key, "dir") &&
					strcmp(it.key, "testcase_output"))) {
			ret = yamldoc_unknown_key(&c->doc, it.key_node, known);
		} else if (!strcmp(it.key, "dir")) {
			if (!(s = yamldoc_get_str(&c->doc, it.value, "dir")))
				ret = -1;
			else
				free(r->dir), r->dir = config_resolve(c, s);
		} else if (yamldoc_get_bool(&c->doc, it.value, "testcase_output",
					    &r->testcase_output)) {
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
	struct report_input in = { j, (const char *const *)r->path, r->testcase_output,
				   &r->summary };

	if (mkdir_p(r->dir))
		return -1;
	for (size_t i = 0; report_formats[i]; i++) {
		free(r->path[i]);
		r->path[i] = r->name[i] ? xstrfmt("%s/%s", r->dir, r->name[i]) : NULL;
	}
	return report_write_all(&in);
}

void ci_reports_print(const struct ci_reports *r, FILE *out)
{
	fputs("reports:\n", out);
	for (size_t i = 0; report_formats[i]; i++)
		if (r->path[i])
			fprintf(out, "  %-9s %s\n", report_formats[i]->name, r->path[i]);
}
