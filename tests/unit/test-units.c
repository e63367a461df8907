/* The one rendering of each kind of figure (base/units.c) and repository-relative source paths
 * (base/srcpath.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "base/srcpath.h"
#include "base/units.h"

static void test_units(void **state)
{
	char b[96];

	(void)state;
	assert_string_equal(unit_format(b, sizeof(b), UNIT_SECONDS, 0.0150528), "0.01505 s");
	assert_string_equal(unit_format(b, sizeof(b), UNIT_SHARE, 0.5), "50.0 %");
	assert_string_equal(unit_format(b, sizeof(b), UNIT_RATIO, 0.70412), "0.704");
	assert_string_equal(unit_format(b, sizeof(b), UNIT_RATIO, NAN), "?");
	assert_string_equal(unit_format_change(b, sizeof(b), UNIT_RELATIVE, -0.202), "-20.2 %");
	assert_string_equal(unit_format_change(b, sizeof(b), UNIT_SHARE, 0.498), "+49.8 points");
	assert_string_equal(unit_format_change(b, sizeof(b), UNIT_RATIO, -0.122), "-0.122");
	assert_string_equal(unit_format_change(b, sizeof(b), UNIT_SECONDS, 0.0012), "+0.0012 s");
	assert_string_equal(unit_format_interval(b, sizeof(b), UNIT_SHARE, 0.5, 0.4912, 0.5021),
			    "50.0 % [49.1 %, 50.2 %]");
	/* an interval that reads as the median says nothing */
	assert_string_equal(unit_format_interval(b, sizeof(b), UNIT_SHARE, 0.5, 0.49999, 0.50001),
			    "50.0 %");
	assert_string_equal(unit_format_interval(b, sizeof(b), UNIT_RATIO, 1.5, NAN, 2), "1.5");
	assert_string_equal(unit_format_p(b, sizeof(b), 0.0004), "< 0.001");
	assert_string_equal(unit_format_p(b, sizeof(b), 0.0691), "0.069");
	assert_string_equal(unit_name(UNIT_SECONDS), "s");
	assert_string_equal(unit_name(UNIT_SHARE), "share");
	assert_string_equal(unit_name(UNIT_RATIO), "ratio");
	assert_string_equal(unit_name(UNIT_RELATIVE), "relative");
}

static void expect_path(const char *file, const char *root, const char *want)
{
	char *got = srcpath_normalize(file, root);

	assert_string_equal(got, want);
	free(got);
}

static void test_srcpath(void **state)
{
	(void)state;
	/* Meson compiles from the build directory: ../src/x.c is src/x.c of the repository */
	expect_path("../src/x.c", "/repo", "src/x.c");
	expect_path("../../src/x.c", "/repo", "src/x.c");
	expect_path("./src/./x.c", "/repo", "src/x.c");
	expect_path("src/sub/../x.c", "/repo", "src/x.c");
	expect_path("src//x.c", "/repo", "src/x.c");
	/* CMake's absolute paths, under the repository or not */
	expect_path("/repo/src/x.c", "/repo", "src/x.c");
	expect_path("/repo/src/x.c", "/repo/", "src/x.c");
	expect_path("/repository/x.c", "/repo", "/repository/x.c");
	expect_path("/usr/include/../include/y.h", "/repo", "/usr/include/y.h");
	expect_path("examples/jacobi.c", "/repo", "examples/jacobi.c");
	/* what is no path stays */
	expect_path("-", "/repo", "-");
	expect_path("?", "/repo", "?");
	expect_path("", "/repo", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_srcpath),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
