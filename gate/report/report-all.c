/* The reports of one judged check, written together: what 'check' asks for and what 'ci' always writes. */
#include <stdlib.h>

#include "judge/judge.h"
#include "report/report.h"
#include "base/util.h"

/* The baselines (or the base revision's samples) the check read, one per benchmark that has one; caller frees. */
static const struct baseline **bases_of(const struct check *c, size_t *n)
{
	const struct baseline **base = xcalloc(c->nr_bench + 1, sizeof(*base));

	*n = 0;
	for (size_t i = 0; i < c->nr_bench; i++)
		if (c->bench[i].has_base)
			base[(*n)++] = &c->bench[i].base;
	return base;
}

int report_write_html(const struct check *c, const struct verdict_set *vs, const char *path)
{
	size_t n;
	const struct baseline **base = bases_of(c, &n);
	int ret = html_write(vs, c->a, c->m, base, n, path);

	free(base);
	return ret;
}

static int write_markdown(const struct judge *j, const char *path)
{
	size_t n;
	const struct baseline **base = bases_of(&j->c, &n);
	int ret = markdown_write_analysis(&j->vs, &j->a, &j->m, base, n, path);

	free(base);
	return ret;
}

int report_write_all(const struct judge *j, const struct report_paths *paths, int testcase_output)
{
	int ret = 0;

	/* Each report on its own: one that cannot be written does not cost the others. */
	if (paths->junit && junit_write(&j->vs, paths->junit, testcase_output))
		ret = -1;
	if (paths->markdown && write_markdown(j, paths->markdown))
		ret = -1;
	if (paths->html && report_write_html(&j->c, &j->vs, paths->html))
		ret = -1;
	if (paths->json && summary_write(&j->vs, paths, paths->json))
		ret = -1;
	return ret;
}
