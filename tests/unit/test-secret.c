/* Unit tests of the secrets' masking: in a directory tree at any depth, up to a bound; across a
 * cut. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/secret.h"
#include "base/util.h"
#include "run/runner-exec.h"

static int files_masked;

static int count_file(const char *path)
{
	files_masked++;
	return secret_mask_file(path);
}

/* A tree 300 directories deep (no depth bound), and a count bound that is an error when passed. */
static void test_mask_tree(void **state)
{
	char dir[] = "/tmp/sg-secret-XXXXXX";
	struct strbuf path = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	char *file;

	(void)state;
	assert_non_null(mkdtemp(dir));
	strbuf_addstr(&path, dir);
	for (int i = 0; i < 300; i++)
		strbuf_addstr(&path, "/d");
	assert_int_equal(mkdir_p(path.buf), 0);
	file = xstrfmt("%s/tok-secret-1", path.buf);
	assert_int_equal(write_file_atomic(file, "x tok-secret-1 y\n", 17), 0);
	free(file);
	secret_clear();
	secret_add("tok-secret-1");
	files_masked = 0;
	assert_int_equal(secret_mask_tree(dir, 1000, count_file), 0);
	assert_int_equal(files_masked, 1);
	file = xstrfmt("%s/***", path.buf);
	assert_int_equal(strbuf_read_file(&text, file), 0);
	assert_string_equal(text.buf, "x *** y\n");
	/* 301 entries: past a bound of 300, an error, not a silent stop */
	assert_int_equal(secret_mask_tree(dir, 300, count_file), -1);
	assert_int_equal(secret_mask_tree(dir, 301, count_file), 0);
	secret_clear();
	assert_int_equal(remove_tree(dir), 0);
	strbuf_release(&text);
	free(file);
	strbuf_release(&path);
}

/* A value across an offset is found, whichever of two values it is; one that ends or starts there
 * is not. */
static void test_across(void **state)
{
	const char *buf = "aaatok-secret-1bbbxy-other-2";
	size_t start = 0, end = 0;

	(void)state;
	secret_clear();
	assert_int_equal(secret_max_len(), 0);
	secret_add("tok-secret-1");
	secret_add("xy-other-2");
	assert_int_equal(secret_max_len(), 12);
	assert_int_equal(secret_across(buf, strlen(buf), 3, &start, &end), 0);
	assert_int_equal(secret_across(buf, strlen(buf), 15, &start, &end), 0);
	assert_int_equal(secret_across(buf, strlen(buf), 4, &start, &end), 1);
	assert_int_equal(start, 3);
	assert_int_equal(end, 15);
	assert_int_equal(secret_across(buf, strlen(buf), 27, &start, &end), 1);
	assert_int_equal(start, 18);
	assert_int_equal(end, 28);
	secret_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mask_tree),
		cmocka_unit_test(test_across),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
