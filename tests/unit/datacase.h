/*
 * Tests as data for cmocka: each directory under CASES holds one case's input and
 * its 'expected' output (the exact stderr, or "ok" and a dump). Shared by the
 * unit tests whose cases live under tests/data/; include after cmocka.h.
 */
#ifndef SG_DATACASE_H
#define SG_DATACASE_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* Runs fn(arg) with fd 2 going to a temporary file; appends what was written there to 'err'. */
static inline int datacase_capture(int (*fn)(void *), void *arg, struct strbuf *err)
{
	FILE *tmp = tmpfile();
	int saved, ret;
	char chunk[4096];
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), 2) >= 0);
	ret = fn(arg);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	rewind(tmp);
	while ((n = fread(chunk, 1, sizeof(chunk), tmp)) > 0)
		strbuf_add(err, chunk, n);
	fclose(tmp);
	return ret;
}

/*
 * Compares 'actual' with the case's expected file, and the return code with what
 * it promises (0 for "ok", else -1). SG_UPDATE_EXPECTED=1 rewrites the expected
 * files instead: review the diff before committing.
 */
static inline void datacase_expect(const char *cases, const char *name, const struct strbuf *actual,
				   int ret)
{
	char *exp_path = xstrfmt("%s/%s/expected", cases, name);
	struct strbuf expected = STRBUF_INIT;
	const char *got = actual->buf ? actual->buf : "";

	if (getenv("SG_UPDATE_EXPECTED"))
		assert_int_equal(write_file_atomic(exp_path, got, actual->len), 0);
	assert_int_equal(strbuf_read_file(&expected, exp_path), 0);
	if (strcmp(expected.buf, got))
		print_error("%s: expected:\n%s--- got:\n%s", name, expected.buf, got);
	assert_string_equal(expected.buf, got);
	assert_int_equal(ret, strncmp(expected.buf, "ok\n", 3) ? -1 : 0);
	strbuf_release(&expected);
	free(exp_path);
}

static inline int datacase_by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Runs the 'unit' tests, then 'case_fn' once per directory under 'cases' (its
 * name as the test state), from the repository root (SG_TOP, set by tests/run.sh).
 * Returns the process exit status.
 */
static inline int datacase_main(const char *group, const struct CMUnitTest *unit, size_t nr_unit,
				const char *cases, CMUnitTestFunction case_fn)
{
	const char *top = getenv("SG_TOP");
	struct CMUnitTest *tests = NULL;
	char **names = NULL, *case_group;
	size_t nr = 0, alloc = 0;
	struct dirent *e;
	DIR *dir;
	int failed;

	if (top && chdir(top)) {
		perror(top);
		return 1;
	}
	if (!(dir = opendir(cases))) {
		fprintf(stderr, "%s: cannot open '%s': run from the repository root\n", group,
			cases);
		return 1;
	}
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(e->d_name);
	}
	closedir(dir);
	qsort(names, nr, sizeof(*names), datacase_by_name);
	tests = xcalloc(nr + 1, sizeof(*tests));
	for (size_t i = 0; i < nr; i++)
		tests[i] = (struct CMUnitTest){
			.name = names[i], .test_func = case_fn, .initial_state = names[i]};
	case_group = xstrfmt("%s cases", group);
	/* Both groups are sized at run time, so the counts are not a sizeof. */
	failed = _cmocka_run_group_tests(group, unit, nr_unit, NULL, NULL);
	failed += _cmocka_run_group_tests(case_group, tests, nr, NULL, NULL);
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(tests);
	free(case_group);
	return failed ? 1 : 0;
}

#endif
