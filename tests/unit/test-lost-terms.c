/* The table of lost-time terms (base/lost-table.h) walked: rules, docs, identity on fixtures. */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze/analysis.h"
#include "analyze/lost-terms.h"
#include "rules/rules.h"
#include "base/util.h"

#define CHECK_CASES "tests/data/check"

/* Every term is a rule metric of its name, and 'share_max' and 'tolerance' take its key. */
static void test_terms_are_share_keys(void **state)
{
	char path[] = "/tmp/sg-test-lost-XXXXXX";
	int fd;

	(void)state;
	for (size_t i = 0; i < lost_nr_terms; i++) {
		const struct lost_term *t = &lost_terms[i];
		struct rules r;
		FILE *f;

		if (t->parent != ANALYSIS_LOST_TIME || t->machine) {
			/* a part, or the machine's Interference: no rule key, never gated */
			assert_null(t->share_key);
			char key[64] = "";
			for (size_t c = 0; t->name[c] && c + 1 < sizeof(key); c++) {
				key[c] = (char)tolower((unsigned char)t->name[c]);
				key[c + 1] = '\0';
			}
			assert_true(rules_metric_find(key) < 0);
			continue;
		}
		assert_non_null(t->share_key);
		assert_true(rules_metric_find(t->share_key) >= 0);
		fd = mkstemp(path);
		assert_true(fd >= 0);
		f = fdopen(fd, "w");
		fprintf(f, "rules:\n  - share_max:\n      %s: 0.5\n", t->share_key);
		fprintf(f, "    tolerance:\n      %s: 0.05\n", t->share_key);
		fclose(f);
		rules_init(&r);
		assert_int_equal(rules_load_file(&r, path), 0);
		assert_int_equal(r.nr, 1);
		assert_true(r.rule[0].max[rules_metric_find(t->share_key)].set);
		assert_true(r.rule[0].tolerance[rules_metric_find(t->share_key)].set);
		rules_release(&r);
		unlink(path);
		strcpy(path, "/tmp/sg-test-lost-XXXXXX");
	}
}

/* docs/metrics.md lists every row with the table's formula, and Lost_time as the terms' sum. */
static void test_terms_in_metrics_doc(void **state)
{
	struct strbuf doc = STRBUF_INIT, sum = STRBUF_INIT;

	(void)state;
	assert_true(strbuf_read_file(&doc, "docs/metrics.md") >= 0);
	for (size_t i = 0; i < lost_nr_terms; i++) {
		char *row = xstrfmt("\n| `%s` | %s |\n", lost_terms[i].name, lost_terms[i].formula);
		if (!strstr(doc.buf, row))
			print_error("docs/metrics.md lacks the row%s", row);
		assert_non_null(strstr(doc.buf, row));
		free(row);
		if (lost_terms[i].parent == ANALYSIS_LOST_TIME)
			strbuf_addf(&sum, "%s%s", sum.len ? " + " : "\n| `Lost_time` | `",
				    lost_terms[i].name);
	}
	strbuf_addstr(&sum, "` |\n");
	assert_non_null(strstr(doc.buf, sum.buf));
	strbuf_release(&doc);
	strbuf_release(&sum);
}

/* The parts of a term are listed right after it: the reports indent them under it. */
static void test_parts_follow_their_term(void **state)
{
	enum analysis_figure term = ANALYSIS_NR_FIGURES;

	(void)state;
	for (size_t i = 0; i < lost_nr_terms; i++) {
		if (lost_terms[i].parent == ANALYSIS_LOST_TIME)
			term = lost_terms[i].fig;
		else
			assert_int_equal(lost_terms[i].parent, term);
		assert_ptr_equal(lost_term_find(lost_terms[i].fig), &lost_terms[i]);
		assert_string_equal(analysis_figure_name(lost_terms[i].fig), lost_terms[i].name);
	}
}

static void check_point(const struct analysis_point *pt)
{
	const double *f = pt->fig;
	/* the terms, Interference too, fill the wall's Total_time */
	double sum = 0, total = f[ANALYSIS_TOTAL_TIME_WALL];

	if (!pt->present || isnan(f[ANALYSIS_LOST_TIME]))
		return;
	for (size_t i = 0; i < lost_nr_terms; i++) {
		double v = f[lost_terms[i].fig], parts = 0;
		int has = lost_term_has_parts(lost_terms[i].fig);
		if (isnan(v))
			continue;
		assert_true(v >= 0);
		for (size_t k = 0; has && k < lost_nr_terms; k++)
			if (lost_terms[k].parent == lost_terms[i].fig)
				parts += f[lost_terms[k].fig];
		if (has)
			assert_true(fabs(v - parts) <= 1e-9 * fmax(1, total));
		if (lost_terms[i].parent == ANALYSIS_LOST_TIME)
			sum += v;
	}
	assert_true(fabs(f[ANALYSIS_LOST_TIME] - sum) <= 1e-9 * fmax(1, total));
	assert_true(fabs(total - f[ANALYSIS_PRODUCTIVE_TIME] - f[ANALYSIS_LOST_TIME]) <=
		    1e-9 * fmax(1, total));
}

static size_t check_config(const struct analysis_config *c)
{
	size_t n = 0;

	for (size_t r = 0; r < c->nr_runs; r++)
		for (size_t i = 0; i < c->runs[r].nr_points; i++, n++)
			check_point(&c->runs[r].points[i]);
	return n;
}

/* Lost_time = the sum of the terms, a term with parts = the sum of its parts, on every fixture. */
static void test_identity_on_fixtures(void **state)
{
	DIR *d = opendir(CHECK_CASES);
	struct dirent *e;
	size_t points = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char *dir = xstrfmt(CHECK_CASES "/%s/results", e->d_name);
		char *manifest = xstrfmt("%s/manifest.tsv", dir);
		struct analysis a;

		if (e->d_name[0] != '.' && !access(manifest, R_OK)) {
			analysis_init(&a);
			assert_int_equal(analysis_load(&a, dir), 0);
			for (size_t c = 0; c < a.nr_configs; c++)
				points += check_config(&a.configs[c]);
			analysis_release(&a);
		}
		free(manifest);
		free(dir);
	}
	closedir(d);
	assert_true(points > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms_are_share_keys),
		cmocka_unit_test(test_terms_in_metrics_doc),
		cmocka_unit_test(test_parts_follow_their_term),
		cmocka_unit_test(test_identity_on_fixtures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
