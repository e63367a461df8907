/* Unit tests of the runner's pieces: program paths against the workdir, status names, the
 * fingerprint's keys. */
#include <fcntl.h>
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

#include "run/fingerprint.h"
#include "run/runner-exec.h"
#include "run/runner.h"
#include "base/secret.h"

static void check_resolve(const char *cmd, const char *want)
{
	char *got = exec_resolve_command(cmd, "/w");

	if (strcmp(got, want))
		fail_msg("'%s' resolved to '%s', expected '%s'", cmd, got, want);
	free(got);
}

static void test_resolve_command(void **state)
{
	(void)state;
	check_resolve("./jacobi 2 100", "/w/./jacobi 2 100");
	check_resolve("examples/jacobi 2 100", "/w/examples/jacobi 2 100");
	check_resolve("../bin/x -i ./in.dat out/o.dat", "/w/../bin/x -i /w/./in.dat out/o.dat");
	check_resolve("/abs/prog ./a", "/abs/prog /w/./a");
	check_resolve("jacobi 2", "jacobi 2");
	check_resolve("$HOME/prog x/y", "$HOME/prog x/y");
	check_resolve("FOO=a/b ./prog", "FOO=a/b /w/./prog");
	check_resolve("FOO=a/b bin/prog", "FOO=a/b /w/bin/prog");
	check_resolve("sh -c './x; ./y'", "sh -c './x; ./y'");
	check_resolve("./a && ./b | ./c", "/w/./a && /w/./b | /w/./c");
	check_resolve("echo \\ ./x", "echo \\ ./x");
	check_resolve("", "");
}

/* exec_named_program(fmt with %1$s the test's own executable, %2$s a script) is 'want' (NULL). */
static void check_named(const char *fmt, const char *self, const char *script, const char *want)
{
	char line[8192], *got;

	snprintf(line, sizeof(line), fmt, self, script);
	got = exec_named_program(line);
	if (want ? !got || strcmp(got, want) : !!got)
		fail_msg("'%s' names '%s', expected '%s'", line, got ? got : "(none)",
			 want ? want : "(none)");
	free(got);
}

static void test_named_program(void **state)
{
	char self[4096], script[] = "/tmp/sg-test-script-XXXXXX", *name;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd = mkstemp(script);

	(void)state;
	assert_true(n > 0 && fd >= 0);
	self[n] = '\0';
	name = strrchr(self, '/') + 1;
	assert_int_equal(write(fd, "#!/bin/sh\nexit 0\n", 18), 18);
	close(fd);
	chmod(script, 0755);
	check_named("%1$s 1 50 2", self, script, name);
	check_named("mpirun -np 2 --oversubscribe %1$s", self, script, name);
	check_named("/usr/bin/env A=1 %1$s", self, script, name); /* a wrapper is not the program */
	check_named("cd /tmp && '%1$s' x >out.txt", self, script, name);
	check_named("%2$s %1$s", self, script, name); /* a script runs the program it is given */
	check_named("%2$s", self, script, NULL);      /* ... or some other: no check */
	check_named("$PROG 1 2", self, script, NULL);
	check_named("prog 1 2", self, script, NULL);
	check_named("%1$s && /bin/sh -c true", self, script, NULL); /* two: no check */
	check_named("%1$s; %1$s", self, script, name);
	check_named("X=%1$s sh -c $X", self, script, NULL);
	unlink(script);
	assert_true(exec_program_matches("jac*", "/a/jacobi"));
	assert_true(exec_program_matches("jacobi", "/a/b/jacobi"));
	assert_false(exec_program_matches("heat", "/a/jacobi"));
}

static void test_status_names(void **state)
{
	(void)state;
	assert_string_equal(run_status_name(RUN_OK), "ok");
	assert_string_equal(run_status_name(RUN_CRASH), "crash");
	assert_string_equal(run_status_name(RUN_EXIT), "exit");
	assert_string_equal(run_status_name(RUN_TIMEOUT), "timeout");
	assert_string_equal(run_status_name(RUN_NO_PROFILE), "no-profile");
	assert_string_equal(run_status_name(RUN_BAD_PROFILE), "bad-profile");
	assert_string_equal(run_status_name(RUN_BUILD_FAILED), "build-failed");
}

static void test_signal_name(void **state)
{
	(void)state;
	assert_string_equal(exec_signal_name(SIGSEGV), "SIGSEGV");
	assert_string_equal(exec_signal_name(SIGKILL), "SIGKILL");
}

static void test_tail(void **state)
{
	char path[] = "/tmp/sg-tail-XXXXXX";
	int fd = mkstemp(path);
	char *t;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "one\ntwo\tx\nthree\n\n", 17), 17);
	close(fd);
	t = exec_tail(path, 1000);
	assert_string_equal(t, "one | two x | three");
	free(t);
	t = exec_tail(path, 5);
	assert_string_equal(t, "...three");
	free(t);
	unlink(path);
	t = exec_tail(path, 10);
	assert_string_equal(t, "");
	free(t);
}

/* Writes 'text' 'times' times to 'path', truncated first or appended. */
static void put(const char *path, int append, const char *text, int times)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));

	assert_true(fd >= 0);
	for (int i = 0; i < times; i++)
		assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* A long output: its first lines worth reading (a banner's rules and blank lines skipped), " ... ",
 * its last bytes from a line's start and without the closing rule; a short one whole. */
static void test_excerpt(void **state)
{
	char path[] = "/tmp/sg-excerpt-XXXXXX";
	int fd = mkstemp(path);
	char *t;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	put(path, 0, "-----\n\nthe cause\nsecond line\n", 1);
	t = exec_excerpt(path, 16, 16); /* all of it fits: whole, as exec_tail */
	assert_string_equal(t, "----- |  | the cause | second line");
	free(t);
	put(path, 1, "middle of it\n", 20);
	put(path, 1, "the way out\n------\n", 1);
	t = exec_excerpt(path, 24, 14); /* "it\nthe way out": from the line's start */
	assert_string_equal(t, "the cause | second line ... the way out");
	free(t);
	t = exec_excerpt(path, 24, 16); /* no line starts near: from the byte */
	assert_string_equal(t, "the cause | second line ... f it | the way out");
	free(t);
	t = exec_excerpt(path, 4, 14); /* a first line longer than the head: cut */
	assert_string_equal(t, "the  ... the way out");
	free(t);
	/* nothing to read at the start: the tail, as before */
	put(path, 0, "=====\n", 20);
	put(path, 1, "last words\n", 1);
	t = exec_excerpt(path, 6, 6);
	assert_string_equal(t, "...last words");
	free(t);
	unlink(path);
}

/* Invalid UTF-8 shown as \xNN, valid characters kept, a cut character not shown in halves. */
static void test_tail_utf8(void **state)
{
	char path[] = "/tmp/sg-tail-XXXXXX";
	int fd = mkstemp(path);
	char *t;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a\xff b\xc3 \xc3\xa9\x01\x7f\xc2\x85 \xe2\x82\xac\n", 17), 17);
	close(fd);
	t = exec_tail(path, 1000);
	assert_string_equal(t, "a\\xff b\\xc3 \xc3\xa9 \\x7f  \xe2\x82\xac");
	free(t);
	t = exec_tail(path, 2); /* the last 2 bytes of the euro sign: nothing of it */
	assert_string_equal(t, "...");
	free(t);
	unlink(path);
}

/* Every occurrence of every secret, the longer one where two start at one place, short ones not at
 * all. */
static void test_secret_mask(void **state)
{
	char *m;

	(void)state;
	secret_clear();
	secret_add("abc");
	assert_int_equal(secret_count(), 0);
	secret_add("tok-123");
	secret_add("tok-123-long");
	secret_add("tok-123");
	assert_int_equal(secret_count(), 2);
	m = secret_mask("x tok-123-long y tok-123tok-123 z");
	assert_string_equal(m, "x *** y ****** z");
	free(m);
	m = secret_mask("nothing here");
	assert_string_equal(m, "nothing here");
	free(m);
	secret_clear();
}

static void test_fingerprint_keys(void **state)
{
	struct config c;
	struct fingerprint f = { 0 };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	memset(&c, 0, sizeof(c));
	fingerprint_collect(&f, &c, NULL);
	fingerprint_format(&f, &sb);
	assert_non_null(strstr(sb.buf, "scalegate_version\t"));
	assert_non_null(strstr(sb.buf, "\ncpu_model\t"));
	assert_non_null(strstr(sb.buf, "\nlauncher\t-\n"));
	for (int k = 0; k < FP_NR_KEYS; k++) {
		assert_non_null(f.value[k]);
		assert_null(strchr(f.value[k], '\t'));
		assert_null(strchr(f.value[k], '\n'));
	}
	strbuf_release(&sb);
	fingerprint_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_command),
		cmocka_unit_test(test_named_program),
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_signal_name),
		cmocka_unit_test(test_tail),
		cmocka_unit_test(test_tail_utf8),
		cmocka_unit_test(test_excerpt),
		cmocka_unit_test(test_secret_mask),
		cmocka_unit_test(test_fingerprint_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
