/* Unit tests of the reports: JUnit checked by xmllint against shared/junit-xsd, the registry, the
 * JSON summary (Markdown, headline and escaping: test-report-text.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <yaml.h>

#include "analyze/analysis.h"
#include "base/escape.h"
#include "analyze/matrix.h"
#include "report/report.h"
#include "base/util.h"
#include "report-testing.h"

static const char *schemas[] = { "windyroad.xsd", "junit10.xsd", "jenkins-junit4.xsd" };

/* The public JUnit schemas: $SG_JUNIT_XSD (tests/run.sh sets it when ../shared/junit-xsd is beside
 * the repository). Without them or xmllint the validations are not run: test_junit_valid says why
 * and is skipped (never a pass), while the other tests run and count. */
static const char *no_schemas;

static const char *schema_dir(void)
{
	const char *dir = getenv("SG_JUNIT_XSD");
	char *probe;

	if (!dir || !*dir) {
		no_schemas = "no JUnit schemas: set SG_JUNIT_XSD to a directory with "
			     "windyroad.xsd, junit10.xsd and "
			     "jenkins-junit4.xsd, or put shared/junit-xsd beside the repository";
		return NULL;
	}
	probe = xstrfmt("%s/windyroad.xsd", dir);
	if (access(probe, R_OK))
		fail_msg("SG_JUNIT_XSD='%s' has no windyroad.xsd", dir);
	free(probe);
	if (system("command -v xmllint >/dev/null")) {
		no_schemas = "xmllint not found (libxml2-utils)";
		return NULL;
	}
	return dir;
}

/* 0 when 'file' is valid against 'schema', 1 when not (xmllint says why, unless 'quiet'). */
static int validate(const char *dir, const char *file, const char *schema, int quiet)
{
	char *cmd;
	int rc;

	cmd = xstrfmt("xmllint --noout --schema '%s/%s' '%s' %s", dir, schema, file,
		      quiet ? ">/dev/null 2>&1" : "2>&1");
	rc = system(cmd) != 0;
	if (rc && !quiet)
		fprintf(stderr, "%s: not valid against %s\n", file, schema);
	free(cmd);
	return rc;
}

#define assert_valid(dir, file, schema) assert_int_equal(validate(dir, file, schema, 0), 0)
#define assert_invalid(dir, file, schema) assert_int_equal(validate(dir, file, schema, 1), 1)

static size_t occurrences(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_junit_content(void **state)
{
	struct verdict_set s;
	char *dir = make_dir(), *path = xstrfmt("%s/junit.xml", dir), *xml, *jacobi, *stream;

	(void)state;
	build_set(&s);
	assert_int_equal(junit_write(&s, path, 0), 0);
	xml = read_text(path);
	assert_non_null(strstr(xml, "\n<testsuites>\n"));
	/* one suite per benchmark, in order of first appearance */
	assert_int_equal(occurrences(xml, "<testsuite "), 2);
	jacobi = strstr(xml, "<testsuite name=\"jacobi\"");
	stream = strstr(xml, "<testsuite name=\"stream\"");
	assert_non_null(jacobi);
	assert_non_null(stream);
	assert_true(jacobi < stream);
	assert_non_null(strstr(jacobi, "tests=\"5\" failures=\"1\" errors=\"1\" skipped=\"1\""));
	assert_non_null(
		strstr(jacobi, "timestamp=\"2026-11-22T10:22:36\" hostname=\"ci-runner-7\""));
	assert_non_null(strstr(
		xml, "<property name=\"cpu_model\" value=\"Intel(R) Xeon(R) &lt;Gold&gt; &amp; "
		     "&quot;6230&quot;\"/>"));
	/* the failure: rule kind as type, message escaped, cause and details in the text */
	assert_non_null(strstr(xml, "<testcase name=\"program/solve 1 rank \xc3\x97 4 threads "
				    "(p=4) tolerance.efficiency\" "
				    "classname=\"jacobi.program.solve\" time=\"1.024500\">"));
	assert_non_null(strstr(
		xml, "<failure type=\"tolerance.efficiency\" message=\"Measured_efficiency fell "
		     "0.83 -&gt; 0.61 (-0.22, p = 0.004) &lt;&amp;&gt;&quot;&apos; |\">"));
	assert_non_null(strstr(xml, "cause: Karp_Flatt rises"));
	assert_non_null(strstr(
		xml, "samples: 0.60 0.61 0.61 0.62 0.64\nbaseline: 0.82 0.83 &lt;&amp;&gt;"));
	assert_non_null(strstr(xml, "rule: rules/ci.yml:12:5"));
	assert_non_null(strstr(
		xml, "<error type=\"fingerprint\" message=\"baseline recorded on another machine"));
	assert_non_null(strstr(xml, "<skipped>too few samples: 2 &lt; 3 (min_samples)</skipped>"));
	assert_null(strstr(xml, "<skipped message"));
	/* the warning: a passing testcase, its text in the suite's system-out */
	assert_non_null(strstr(
		xml, "name=\"program/solve/inner 1 rank \xc3\x97 2 threads (p=2) tolerance.time\" "
		     "classname=\"jacobi.program.solve.inner\" time=\"1.300000\"/>"));
	assert_non_null(strstr(xml, "warning: program/solve/inner 1 rank \xc3\x97 2 threads (p=2) "
				    "tolerance.time\n  Execution_time +8.3 %"));
	assert_non_null(strstr(xml, "caf\xc3\xa9\xc2\x85\xef\xbb\xbf\xf0\x9f\x98\x80"));
	assert_null(strchr(xml, '\x01'));
	/* sizes in the name; times plain decimals */
	assert_non_null(strstr(
		stream,
		"name=\"program 1 rank \xc3\x97 2 threads, size large (p=2) efficiency_min\""));
	assert_non_null(strstr(stream, "time=\"0.000000\""));
	assert_non_null(strstr(stream, "time=\"1234567.250000\""));
	assert_null(strstr(xml, "e+"));
	assert_null(strstr(xml, "e-0"));
	free(xml);

	/* testcase-level system-out (its validity: test_junit_valid) */
	assert_int_equal(junit_write(&s, path, 1), 0);
	xml = read_text(path);
	assert_non_null(strstr(xml, "</failure>\n      <system-out>Measured_efficiency fell"));
	assert_non_null(strstr(xml, "<system-out>warning: Execution_time +8.3 %"));
	free(xml);

	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

/* An empty set: no verdicts, no benchmark, fingerprint, timestamp or hostname. */
static void empty_set(struct verdict_set *s)
{
	verdict_set_init(s);
	verdict_set_finish(s);
}

/* One error without a benchmark, a timestamp that is no date, a blank hostname. */
static void bare_set(struct verdict_set *s)
{
	struct verdict *v;

	verdict_set_init(s);
	v = verdict_add(s, VERDICT_ERROR, NULL, NULL, NULL, 1, 1, "run");
	verdict_set_message(v, "no benchmark ran");
	s->timestamp = xstrdup(
		"2026-02-30T10:00:00Z"); /* not a date: replaced by the current time */
	s->hostname = xstrdup(" ");
	verdict_set_finish(s);
}

/* The bare set's report names a suite and a host of its own, and no false date. */
static void test_junit_empty(void **state)
{
	struct verdict_set s;
	char *dir = make_dir(), *path = xstrfmt("%s/junit.xml", dir), *xml;

	(void)state;
	empty_set(&s);
	assert_int_equal(junit_write(&s, path, 0), 0);
	verdict_set_release(&s);
	bare_set(&s);
	assert_int_equal(junit_write(&s, path, 0), 0);
	xml = read_text(path);
	assert_non_null(strstr(xml, "<testsuite name=\"scalegate\""));
	assert_non_null(strstr(xml, "hostname=\"localhost\""));
	assert_null(strstr(xml, "2026-02-30"));
	free(xml);

	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

/* Every JUnit report written above is valid against the three public schemas; with testcase-level
 * system-out, against junit10.xsd and jenkins-junit4.xsd but not windyroad.xsd (the schemas do
 * bite). Skipped, with the reason, where the schemas or xmllint are not here. */
static void test_junit_valid(void **state)
{
	void (*sets[])(struct verdict_set *) = { build_set, empty_set, bare_set };
	const char *xsd = schema_dir();
	struct verdict_set s;
	char *dir, *path;

	(void)state;
	if (!xsd) {
		printf("# the JUnit schema validations: skipped: %s\n", no_schemas);
		skip();
	}
	dir = make_dir();
	path = xstrfmt("%s/junit.xml", dir);
	for (size_t k = 0; k < ARRAY_SIZE(sets); k++) {
		sets[k](&s);
		assert_int_equal(junit_write(&s, path, 0), 0);
		for (size_t i = 0; i < ARRAY_SIZE(schemas); i++)
			assert_valid(xsd, path, schemas[i]);
		verdict_set_release(&s);
	}
	build_set(&s);
	assert_int_equal(junit_write(&s, path, 1), 0);
	assert_valid(xsd, path, "junit10.xsd");
	assert_valid(xsd, path, "jenkins-junit4.xsd");
	assert_invalid(xsd, path, "windyroad.xsd");
	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

/* 'scalegate post' reads the summary with libyaml: what it refuses in valid JSON, the writer never
 * emits. */
static void yaml_loads(const char *path)
{
	FILE *f = fopen(path, "rb");
	yaml_parser_t parser;
	yaml_document_t doc;
	int ok;

	assert_non_null(f);
	assert_true(yaml_parser_initialize(&parser));
	yaml_parser_set_input_file(&parser, f);
	ok = yaml_parser_load(&parser, &doc);
	if (!ok)
		fprintf(stderr, "%s:%zu:%zu: libyaml: %s\n", path, parser.problem_mark.line + 1,
			parser.problem_mark.column + 1, parser.problem ? parser.problem : "?");
	assert_true(ok);
	assert_non_null(yaml_document_get_root_node(&doc));
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(f);
}

static void python(const char *script, const char *path)
{
	char *cmd = xstrfmt("python3 -c '%s' '%s'", script, path);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* Every row of the registry is complete and its name, flag and file are its own. */
static void test_report_registry(void **state)
{
	size_t n = 0;

	(void)state;
	for (; report_formats[n]; n++) {
		const struct report_format *f = report_formats[n];
		assert_non_null(f->name);
		assert_non_null(f->flag);
		assert_non_null(f->help);
		assert_non_null(f->write);
		assert_int_equal(report_format_index(f->name), (int)n);
		for (size_t k = 0; k < n; k++) {
			assert_string_not_equal(report_formats[k]->flag, f->flag);
			if (f->file && report_formats[k]->file)
				assert_string_not_equal(report_formats[k]->file, f->file);
		}
	}
	assert_true(n > 0 && n < REPORT_MAX_FORMATS);
	/* a name no row has is no format (docs/extending.md adds a "sarif" row: any name may be
	 * one) */
	for (size_t k = 0; k < n; k++)
		assert_string_not_equal(report_formats[k]->name, "no-such-format");
	assert_int_equal(report_format_index("no-such-format"), -1);
}

static void test_summary_json(void **state)
{
	struct verdict_set s;
	const char *paths[REPORT_MAX_FORMATS] = { 0 };
	char *dir = make_dir(), *path = xstrfmt("%s/summary.json", dir);

	(void)state;
	paths[report_format_index("junit")] = "out/junit.xml";
	paths[report_format_index("markdown")] = "out/summary.md";
	build_set(&s);
	assert_int_equal(summary_write(&s, paths, path), 0);
	python("import json, sys\n"
	       "d = json.load(open(sys.argv[1], encoding=\"utf-8\"))\n"
	       "assert d[\"scalegate_summary\"] == 1\n"
	       "assert d[\"verdict\"] == \"regression\" and d[\"exit_code\"] == 1, d\n"
	       "assert d[\"counts\"] == {\"pass\": 3, \"warn\": 1, \"fail\": 1, \"error\": 1, "
	       "\"skipped\": 1, \"inconclusive\": 0}, d\n"
	       "assert d[\"headline\"].startswith(\"scalegate: 1 regression (1 check failed), 1 "
	       "warning (1 check), 1 error, 1 skipped in 7 checks\")\n"
	       "assert d[\"timestamp\"] == \"2026-11-22T10:22:36\" and d[\"hostname\"] == "
	       "\"ci-runner-7\"\n"
	       "assert list(d[\"fingerprint\"]) == [\"cpu_model\", \"cores\", \"compiler\"]\n"
	       "assert d[\"fingerprint\"][\"cpu_model\"] == \"Intel(R) Xeon(R) <Gold> & "
	       "\\\"6230\\\"\"\n"
	       "assert d[\"reports\"] == {\"junit\": \"out/junit.xml\", \"markdown\": "
	       "\"out/summary.md\", \"json\": None, \"html\": None}\n"
	       "fs = d[\"findings\"]\n"
	       "assert [f[\"severity\"] for f in fs] == [\"regression\", \"warning\"], fs\n"
	       "f = fs[0]\n"
	       "assert (f[\"benchmark\"], f[\"interval\"], f[\"configuration\"]) == (\"jacobi\", "
	       "\"program/solve\", {\"size\": \"-\", \"ranks\": 1, \"threads\": 4, \"p\": 4}), f\n"
	       "assert f[\"cause\"].startswith(\"Karp_Flatt rises\") and (f[\"failed\"], "
	       "f[\"warned\"]) == (1, 0), f\n"
	       "assert f[\"checks\"] == [\"program/solve 1 rank \\u00d7 4 threads (p=4) "
	       "tolerance.efficiency\"] and f[\"folded\"] == [], f\n"
	       "assert (fs[1][\"interval\"], fs[1][\"cause\"], fs[1][\"warned\"]) == "
	       "(\"program/solve/inner\", None, 1), fs[1]\n"
	       "st = [v[\"status\"] for v in d[\"verdicts\"]]\n"
	       "assert st == [\"fail\", \"error\", \"warn\", \"skipped\", \"pass\", \"pass\", "
	       "\"pass\"], st\n"
	       "f = d[\"verdicts\"][0]\n"
	       "assert (f[\"benchmark\"], f[\"interval\"], f[\"size\"], f[\"ranks\"], "
	       "f[\"threads\"], f[\"p\"]) == (\"jacobi\", \"program/solve\", \"-\", 1, 4, 4)\n"
	       "assert (f[\"kind\"], f[\"metric\"], f[\"n\"], f[\"n_base\"]) == "
	       "(\"tolerance.efficiency\", \"Measured_efficiency\", 5, 5)\n"
	       "assert (f[\"value\"], f[\"lo\"], f[\"hi\"], f[\"baseline\"], f[\"change\"], "
	       "f[\"p_value\"]) == (0.61, 0.58, 0.64, 0.83, -0.22, 0.004)\n"
	       "assert (f[\"unit\"], f[\"change_unit\"], f[\"inconclusive\"]) == (\"ratio\", "
	       "\"ratio\", False)\n"
	       "assert (d[\"verdicts\"][2][\"unit\"], d[\"verdicts\"][2][\"change_unit\"]) == "
	       "(\"s\", \"relative\")\n"
	       "assert f[\"cause\"].endswith(\"<&>\\\"\\x27 |\") and f[\"rule\"] == "
	       "\"rules/ci.yml:12:5\"\n"
	       "e = d[\"verdicts\"][1]\n"
	       "assert e[\"metric\"] is None and e[\"unit\"] is None and e[\"value\"] is None and "
	       "e[\"p_value\"] is None and e[\"cause\"] is None and e[\"rule\"] is None\n"
	       "w = d[\"verdicts\"][2]\n"
	       "assert w[\"message\"].endswith(\"\\x01\\ufffd "
	       "caf\\u00e9\\x85\\ufeff\\U0001f600\"), w[\"message\"]\n"
	       "assert d[\"verdicts\"][6][\"size\"] == \"large\"\n",
	       path);
	yaml_loads(path);

	/* no verdicts, no paths */
	verdict_set_release(&s);
	verdict_set_finish(&s);
	assert_int_equal(summary_write(&s, NULL, path), 0);
	python("import json, sys\n"
	       "d = json.load(open(sys.argv[1]))\n"
	       "assert d[\"verdict\"] == \"pass\" and d[\"exit_code\"] == 0 and d[\"verdicts\"] == "
	       "[]\n"
	       "assert d[\"headline\"] == \"scalegate: no checks\" and d[\"timestamp\"] is None "
	       "and d[\"fingerprint\"] == {}\n"
	       "assert d[\"reports\"][\"junit\"] is None\n",
	       path);

	/* a run failure */
	verdict_add(&s, VERDICT_PASS, "a", "program", "-", 1, 1, "time_max");
	verdict_set_message(verdict_add(&s, VERDICT_ERROR, "a", NULL, "-", 1, 8, "run"),
			    "crashed: signal 11");
	verdict_set_finish(&s);
	assert_int_equal(summary_write(&s, NULL, path), 0);
	python("import json, sys\n"
	       "d = json.load(open(sys.argv[1]))\n"
	       "assert d[\"verdict\"] == \"run-failed\" and d[\"exit_code\"] == 3, d\n"
	       "assert d[\"headline\"] == \"scalegate: run failed: 1 error in 2 checks \\u2014 a 1 "
	       "rank \\u00d7 8 threads: crashed: signal 11\", d[\"headline\"]\n",
	       path);

	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_junit_content),
		cmocka_unit_test(test_junit_empty),
		cmocka_unit_test(test_junit_valid),
		cmocka_unit_test(test_report_registry),
		cmocka_unit_test(test_summary_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
