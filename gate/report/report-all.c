/* The registry of report formats, and the reports of one judged check written together: what
 * 'check' asks for and what 'ci' always writes. */
#include <string.h>

#include "judge/judge.h"
#include "report/report.h"
#include "base/util.h"

/* One row per format; a new format adds its row here and its writer in its own file. */
const struct report_format *const report_formats[] = {
	&report_junit,
	&report_markdown,
	&report_json,
	&report_html,
	&report_protocol,
	NULL,
};

int report_format_index(const char *name)
{
	for (int i = 0; report_formats[i]; i++)
		if (!strcmp(report_formats[i]->name, name))
			return i;
	return -1;
}

int report_write_all(const struct report_input *in)
{
	int ret = 0;

	/* Each report on its own: one that cannot be written does not cost the others. */
	for (size_t i = 0; report_formats[i]; i++)
		if (in->paths[i] && report_formats[i]->write(in, in->paths[i]))
			ret = -1;
	return ret;
}
