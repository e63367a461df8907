/* Unit tests of the reports: JUnit checked by xmllint against shared/junit-xsd, JSON summary, Markdown, headline. */
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

static const char *schemas[] = { "windyroad.xsd", "junit10.xsd", "jenkins-junit4.xsd" };

#define NASTY "<&>\"' |"

/* A pass, a regression with a cause, a warning, a skipped check and a fingerprint
 * error in 'jacobi'; only passes in 'stream'. */
static void build_set(struct verdict_set *s)
{
	struct verdict *v;

	verdict_set_init(s);
	s->timestamp = xstrdup("2026-11-22T10:22:36");
	s->hostname = xstrdup("ci-runner-7");
	s->nr_fingerprint = 3;
	s->fingerprint = xcalloc(6, sizeof(char *));
	s->fingerprint[0] = xstrdup("cpu_model");
	s->fingerprint[1] = xstrdup("Intel(R) Xeon(R) <Gold> & \"6230\"");
	s->fingerprint[2] = xstrdup("cores");
	s->fingerprint[3] = xstrdup("40");
	s->fingerprint[4] = xstrdup("compiler");
	s->fingerprint[5] = xstrdup("gcc 12.2.0");

	v = verdict_add(s, VERDICT_PASS, "jacobi", "program/solve", "-", 1, 1, "tolerance.time");
	v->metric = xstrdup("Execution_time");
	v->n = v->n_base = 5;
	v->value = 2.5, v->lo = 2.4, v->hi = 2.6, v->baseline = 2.45, v->change = 0.02, v->p_value = 0.3;
	v->unit = UNIT_SECONDS, v->change_unit = UNIT_RELATIVE;
	v->seconds = 2.5;
	verdict_set_message(v, "Execution_time 2.5 s within 5 %% of the baseline 2.45 s");
	v->rule_origin = xstrdup("default rules");

	v = verdict_add(s, VERDICT_FAIL, "jacobi", "program/solve", "-", 1, 4, "tolerance.efficiency");
	v->metric = xstrdup("Measured_efficiency");
	v->n = v->n_base = 5;
	v->value = 0.61, v->lo = 0.58, v->hi = 0.64, v->baseline = 0.83, v->change = -0.22, v->p_value = 0.004;
	v->seconds = 1.0245;
	verdict_set_message(v, "Measured_efficiency fell 0.83 -> 0.61 (-0.22, p = 0.004) " NASTY);
	verdict_set_cause(v, "Karp_Flatt rises 0.04 -> 0.11 with p: Synchronization grew from 3 %% to 14 %% " NASTY);
	verdict_set_details(v, "samples: 0.60 0.61 0.61 0.62 0.64\nbaseline: 0.82 0.83 " NASTY "\n");
	v->rule_origin = xstrdup("rules/ci.yml:12:5");

	v = verdict_add(s, VERDICT_WARN, "jacobi", "program/solve/inner", "-", 1, 2, "tolerance.time");
	v->metric = xstrdup("Execution_time");
	v->n = v->n_base = 5;
	v->value = 1.3, v->lo = 1.1, v->hi = 1.5, v->baseline = 1.2, v->change = 0.083, v->p_value = 0.21;
	v->unit = UNIT_SECONDS, v->change_unit = UNIT_RELATIVE;
	v->seconds = 1.3;
	/* a control character and a byte that is not UTF-8 must not break the XML or the JSON */
	verdict_set_message(v, "Execution_time +8.3 %% past 5 %% but not significant \x01\xff caf\xc3\xa9"
			     "\xc2\x85\xef\xbb\xbf\xf0\x9f\x98\x80");

	v = verdict_add(s, VERDICT_SKIPPED, "jacobi", "program/init", "-", 2, 2, "tolerance.time");
	v->metric = xstrdup("Execution_time");
	v->n = 2;
	v->unit = UNIT_SECONDS, v->change_unit = UNIT_RELATIVE;
	verdict_set_message(v, "too few samples: 2 < 3 (min_samples)");

	v = verdict_add(s, VERDICT_ERROR, "jacobi", "program/solve", "-", 2, 4, "fingerprint");
	verdict_set_message(v, "baseline recorded on another machine: cpu_model differs");
	verdict_set_details(v, "baseline: AMD EPYC 7763\ncurrent: Intel(R) Xeon(R) Gold 6230");

	v = verdict_add(s, VERDICT_PASS, "stream", "program", "large", 1, 2, "efficiency_min");
	v->metric = xstrdup("Measured_efficiency");
	v->value = 0.9, v->baseline = 0.7;
	v->seconds = 0.5e-7; /* never written in exponent notation */
	v = verdict_add(s, VERDICT_PASS, "stream", "program", "large", 1, 4, "efficiency_min");
	v->metric = xstrdup("Measured_efficiency");
	v->value = 0.8, v->baseline = 0.7;
	v->seconds = 1234567.25;
	verdict_set_finish(s);
}

static char *make_dir(void)
{
	char *dir = xstrdup("/tmp/sg-test-report-XXXXXX");

	assert_non_null(mkdtemp(dir));
	return dir;
}

static void remove_dir(char *dir)
{
	char *cmd = xstrfmt(getenv("SG_KEEP") ? "echo kept '%s'" : "rm -rf '%s'", dir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

static char *read_text(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_read_file(&sb, path), 0);
	return strbuf_detach(&sb);
}

/* The public JUnit schemas: $SG_JUNIT_XSD (tests/run.sh sets it when ../shared/junit-xsd is beside
 * the repository). Without them or xmllint the validations are not run, and main() reports the
 * whole test as skipped (exit 77) with the reason: never a pass. */
static const char *no_schemas;
static int validations_skipped;

static const char *schema_dir(void)
{
	const char *dir = getenv("SG_JUNIT_XSD");
	char *probe;

	if (!dir || !*dir) {
		no_schemas = "no JUnit schemas: set SG_JUNIT_XSD to a directory with windyroad.xsd, junit10.xsd and "
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

/* 0 when 'file' is valid against 'schema', 1 when not (xmllint says why, unless 'quiet');
 * -1 when it cannot be validated here (counted: the test ends skipped). */
static int validate(const char *file, const char *schema, int quiet)
{
	const char *dir = schema_dir();
	char *cmd;
	int rc;

	if (!dir) {
		validations_skipped++;
		return -1;
	}
	cmd = xstrfmt("xmllint --noout --schema '%s/%s' '%s' %s", dir, schema, file, quiet ? ">/dev/null 2>&1" : "2>&1");
	rc = system(cmd) != 0;
	if (rc && !quiet)
		fprintf(stderr, "%s: not valid against %s\n", file, schema);
	free(cmd);
	return rc;
}

/* The assertions on validity: nothing is asserted where nothing could be validated. */
#define assert_valid(file, schema) \
	do { int r_ = validate(file, schema, 0); if (r_ >= 0) assert_int_equal(r_, 0); } while (0)
#define assert_invalid(file, schema) \
	do { int r_ = validate(file, schema, 1); if (r_ >= 0) assert_int_equal(r_, 1); } while (0)

static size_t occurrences(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_junit_schemas(void **state)
{
	struct verdict_set s;
	char *dir = make_dir(), *path = xstrfmt("%s/junit.xml", dir), *xml, *jacobi, *stream;

	(void)state;
	build_set(&s);
	assert_int_equal(junit_write(&s, path, 0), 0);
	for (size_t i = 0; i < ARRAY_SIZE(schemas); i++)
		assert_valid(path, schemas[i]);

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
	assert_non_null(strstr(jacobi, "timestamp=\"2026-11-22T10:22:36\" hostname=\"ci-runner-7\""));
	assert_non_null(strstr(xml, "<property name=\"cpu_model\" value=\"Intel(R) Xeon(R) &lt;Gold&gt; &amp; "
				    "&quot;6230&quot;\"/>"));
	/* the failure: rule kind as type, message escaped, cause and details in the text */
	assert_non_null(strstr(xml, "<testcase name=\"program/solve 1 rank \xc3\x97 4 threads (p=4) tolerance.efficiency\" "
				    "classname=\"jacobi.program.solve\" time=\"1.024500\">"));
	assert_non_null(strstr(xml, "<failure type=\"tolerance.efficiency\" message=\"Measured_efficiency fell "
				    "0.83 -&gt; 0.61 (-0.22, p = 0.004) &lt;&amp;&gt;&quot;&apos; |\">"));
	assert_non_null(strstr(xml, "cause: Karp_Flatt rises"));
	assert_non_null(strstr(xml, "samples: 0.60 0.61 0.61 0.62 0.64\nbaseline: 0.82 0.83 &lt;&amp;&gt;"));
	assert_non_null(strstr(xml, "rule: rules/ci.yml:12:5"));
	assert_non_null(strstr(xml, "<error type=\"fingerprint\" message=\"baseline recorded on another machine"));
	assert_non_null(strstr(xml, "<skipped>too few samples: 2 &lt; 3 (min_samples)</skipped>"));
	assert_null(strstr(xml, "<skipped message"));
	/* the warning: a passing testcase, its text in the suite's system-out */
	assert_non_null(strstr(xml, "name=\"program/solve/inner 1 rank \xc3\x97 2 threads (p=2) tolerance.time\" "
				    "classname=\"jacobi.program.solve.inner\" time=\"1.300000\"/>"));
	assert_non_null(strstr(xml, "warning: program/solve/inner 1 rank \xc3\x97 2 threads (p=2) tolerance.time\n  Execution_time +8.3 %"));
	assert_non_null(strstr(xml, "caf\xc3\xa9\xc2\x85\xef\xbb\xbf\xf0\x9f\x98\x80"));
	assert_null(strchr(xml, '\x01'));
	/* sizes in the name; times plain decimals */
	assert_non_null(strstr(stream, "name=\"program 1 rank \xc3\x97 2 threads, size large (p=2) efficiency_min\""));
	assert_non_null(strstr(stream, "time=\"0.000000\""));
	assert_non_null(strstr(stream, "time=\"1234567.250000\""));
	assert_null(strstr(xml, "e+"));
	assert_null(strstr(xml, "e-0"));
	free(xml);

	/* testcase-level system-out: valid against junit10.xsd (and jenkins-junit4.xsd), not windyroad.xsd */
	assert_int_equal(junit_write(&s, path, 1), 0);
	assert_valid(path, "junit10.xsd");
	assert_valid(path, "jenkins-junit4.xsd");
	assert_invalid(path, "windyroad.xsd"); /* the schemas do bite */
	xml = read_text(path);
	assert_non_null(strstr(xml, "</failure>\n      <system-out>Measured_efficiency fell"));
	assert_non_null(strstr(xml, "<system-out>warning: Execution_time +8.3 %"));
	free(xml);

	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

/* No verdicts; no benchmark, fingerprint, timestamp or hostname: still valid. */
static void test_junit_empty(void **state)
{
	struct verdict_set s;
	struct verdict *v;
	char *dir = make_dir(), *path = xstrfmt("%s/junit.xml", dir), *xml;

	(void)state;
	verdict_set_init(&s);
	verdict_set_finish(&s);
	assert_int_equal(junit_write(&s, path, 0), 0);
	for (size_t i = 0; i < ARRAY_SIZE(schemas); i++)
		assert_valid(path, schemas[i]);

	v = verdict_add(&s, VERDICT_ERROR, NULL, NULL, NULL, 1, 1, "run");
	verdict_set_message(v, "no benchmark ran");
	s.timestamp = xstrdup("2026-02-30T10:00:00Z"); /* not a date: replaced by the current time */
	s.hostname = xstrdup(" ");
	verdict_set_finish(&s);
	assert_int_equal(junit_write(&s, path, 0), 0);
	for (size_t i = 0; i < ARRAY_SIZE(schemas); i++)
		assert_valid(path, schemas[i]);
	xml = read_text(path);
	assert_non_null(strstr(xml, "<testsuite name=\"scalegate\""));
	assert_non_null(strstr(xml, "hostname=\"localhost\""));
	assert_null(strstr(xml, "2026-02-30"));
	free(xml);

	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

/* 'scalegate post' reads the summary with libyaml: what it refuses in valid JSON, the writer never emits. */
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
	assert_int_equal(report_format_index("sarif"), -1);
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
	       "assert d[\"counts\"] == {\"pass\": 3, \"warn\": 1, \"fail\": 1, \"error\": 1, \"skipped\": 1, \"inconclusive\": 0}, d\n"
	       "assert d[\"headline\"].startswith(\"scalegate: 1 regression (1 check failed), 1 warning (1 check), 1 error, 1 skipped in 7 checks\")\n"
	       "assert d[\"timestamp\"] == \"2026-11-22T10:22:36\" and d[\"hostname\"] == \"ci-runner-7\"\n"
	       "assert list(d[\"fingerprint\"]) == [\"cpu_model\", \"cores\", \"compiler\"]\n"
	       "assert d[\"fingerprint\"][\"cpu_model\"] == \"Intel(R) Xeon(R) <Gold> & \\\"6230\\\"\"\n"
	       "assert d[\"reports\"] == {\"junit\": \"out/junit.xml\", \"markdown\": \"out/summary.md\", \"json\": None, \"html\": None}\n"
	       "fs = d[\"findings\"]\n"
	       "assert [f[\"severity\"] for f in fs] == [\"regression\", \"warning\"], fs\n"
	       "f = fs[0]\n"
	       "assert (f[\"benchmark\"], f[\"interval\"], f[\"configuration\"]) == (\"jacobi\", \"program/solve\", {\"size\": \"-\", \"ranks\": 1, \"threads\": 4, \"p\": 4}), f\n"
	       "assert f[\"cause\"].startswith(\"Karp_Flatt rises\") and (f[\"failed\"], f[\"warned\"]) == (1, 0), f\n"
	       "assert f[\"checks\"] == [\"program/solve 1 rank \\u00d7 4 threads (p=4) tolerance.efficiency\"] and f[\"folded\"] == [], f\n"
	       "assert (fs[1][\"interval\"], fs[1][\"cause\"], fs[1][\"warned\"]) == (\"program/solve/inner\", None, 1), fs[1]\n"
	       "st = [v[\"status\"] for v in d[\"verdicts\"]]\n"
	       "assert st == [\"fail\", \"error\", \"warn\", \"skipped\", \"pass\", \"pass\", \"pass\"], st\n"
	       "f = d[\"verdicts\"][0]\n"
	       "assert (f[\"benchmark\"], f[\"interval\"], f[\"size\"], f[\"ranks\"], f[\"threads\"], f[\"p\"]) == (\"jacobi\", \"program/solve\", \"-\", 1, 4, 4)\n"
	       "assert (f[\"kind\"], f[\"metric\"], f[\"n\"], f[\"n_base\"]) == (\"tolerance.efficiency\", \"Measured_efficiency\", 5, 5)\n"
	       "assert (f[\"value\"], f[\"lo\"], f[\"hi\"], f[\"baseline\"], f[\"change\"], f[\"p_value\"]) == (0.61, 0.58, 0.64, 0.83, -0.22, 0.004)\n"
	       "assert (f[\"unit\"], f[\"change_unit\"], f[\"inconclusive\"]) == (\"ratio\", \"ratio\", False)\n"
	       "assert (d[\"verdicts\"][2][\"unit\"], d[\"verdicts\"][2][\"change_unit\"]) == (\"s\", \"relative\")\n"
	       "assert f[\"cause\"].endswith(\"<&>\\\"\\x27 |\") and f[\"rule\"] == \"rules/ci.yml:12:5\"\n"
	       "e = d[\"verdicts\"][1]\n"
	       "assert e[\"metric\"] is None and e[\"unit\"] is None and e[\"value\"] is None and e[\"p_value\"] is None and e[\"cause\"] is None and e[\"rule\"] is None\n"
	       "w = d[\"verdicts\"][2]\n"
	       "assert w[\"message\"].endswith(\"\\x01\\ufffd caf\\u00e9\\x85\\ufeff\\U0001f600\"), w[\"message\"]\n"
	       "assert d[\"verdicts\"][6][\"size\"] == \"large\"\n",
	       path);
	yaml_loads(path);

	/* no verdicts, no paths */
	verdict_set_release(&s);
	verdict_set_finish(&s);
	assert_int_equal(summary_write(&s, NULL, path), 0);
	python("import json, sys\n"
	       "d = json.load(open(sys.argv[1]))\n"
	       "assert d[\"verdict\"] == \"pass\" and d[\"exit_code\"] == 0 and d[\"verdicts\"] == []\n"
	       "assert d[\"headline\"] == \"scalegate: no checks\" and d[\"timestamp\"] is None and d[\"fingerprint\"] == {}\n"
	       "assert d[\"reports\"][\"junit\"] is None\n",
	       path);

	/* a run failure */
	verdict_add(&s, VERDICT_PASS, "a", "program", "-", 1, 1, "time_max");
	verdict_set_message(verdict_add(&s, VERDICT_ERROR, "a", NULL, "-", 1, 8, "run"), "crashed: signal 11");
	verdict_set_finish(&s);
	assert_int_equal(summary_write(&s, NULL, path), 0);
	python("import json, sys\n"
	       "d = json.load(open(sys.argv[1]))\n"
	       "assert d[\"verdict\"] == \"run-failed\" and d[\"exit_code\"] == 3, d\n"
	       "assert d[\"headline\"] == \"scalegate: run failed: 1 error in 2 checks \\u2014 a 1 rank \\u00d7 8 threads: crashed: signal 11\", d[\"headline\"]\n",
	       path);

	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

/* A run of every interval that took E[k] seconds. */
static void fake_run(struct analysis *a, struct analysis_config *c, const double *E)
{
	struct analysis_run *run;

	ALLOC_GROW(c->runs, c->nr_runs + 1, c->alloc_runs);
	run = &c->runs[c->nr_runs++];
	run->repeat = (int)c->nr_runs;
	run->nr_points = a->nr_intervals;
	run->points = xcalloc(run->nr_points, sizeof(*run->points));
	for (size_t k = 0; k < run->nr_points; k++) {
		run->points[k].present = 1;
		for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
			run->points[k].fig[f] = NAN;
		run->points[k].fig[ANALYSIS_EXECUTION_TIME] = E[k];
	}
}

static void test_markdown(void **state)
{
	struct verdict_set s;
	struct analysis a;
	struct matrix m;
	char *dir = make_dir(), *path = xstrfmt("%s/summary.md", dir), *md, *regressions, *warnings;

	(void)state;
	build_set(&s);
	analysis_init(&a);
	matrix_init(&m);
	analysis_interval_id(&a, "jacobi", "program", "prog", 0, 0);
	analysis_interval_id(&a, "jacobi", "program/solve", "t.c", 10, 1);
	analysis_interval_id(&a, "jacobi", "program/solve/inner", "t.c", 20, 2);
	analysis_interval_id(&a, "jacobi", "program/solve/inner/deep", "t.c", 30, 3);
	for (int t = 1; t <= 4; t *= 2)
		for (int r = 0; r < 3; r++) {
			double E[] = { 10.0 / t + 0.5, 8.0 / t + 0.4 + 0.05 * r, 4.0 / t + 1, 1.0 / t + 0.1 * r };
			fake_run(&a, analysis_config_get(&a, "jacobi", "-", 1, t), E);
		}
	assert_int_equal(matrix_build(&m, &a), 0);

	assert_int_equal(markdown_write_analysis(&s, &a, &m, NULL, 0, path), 0);
	md = read_text(path);
	if (getenv("SG_VERBOSE"))
		fputs(md, stderr);
	assert_true(!strncmp(md, "### \xe2\x9d\x8c scalegate: 1 regression (1 check failed), 1 warning (1 check), 1 error, 1 skipped in 7 checks\n", 
			     strlen("### \xe2\x9d\x8c scalegate: 1 regression (1 check failed), 1 warning (1 check), 1 error, 1 skipped in 7 checks\n")));
	regressions = strstr(md, "#### 1 regression (1 check failed)\n");
	warnings = strstr(md, "#### 1 warning (1 check)\n");
	assert_non_null(regressions);
	assert_non_null(warnings);
	assert_true(regressions < warnings);
	/* the finding: where, its cause, its checks */
	assert_non_null(strstr(regressions, "| jacobi | `program/solve` | 1 rank \xc3\x97 4 threads (p=4) | Karp\\_Flatt rises"));
	assert_non_null(strstr(regressions, "| 1: `Measured_efficiency` |\n"));
	assert_non_null(strstr(regressions, "<details><summary>The evidence: 1 check failed</summary>"));
	/* the evidence row of its check: figures, and its cause with '|' and HTML escaped */
	assert_non_null(strstr(regressions, "| jacobi | `program/solve` | 1 rank \xc3\x97 4 threads (p=4) | `Measured_efficiency` | "
					    "0.61 [0.58, 0.64] | 0.83 | -0.22 | 0.004 | Karp\\_Flatt rises"));
	assert_non_null(strstr(regressions, "\\<&amp;\\>\"' \\| |\n"));
	assert_non_null(strstr(warnings, "| 1.3 s [1.1 s, 1.5 s] | 1.2 s | +8.3 % | 0.21 |"));
	assert_non_null(strstr(md, "<details><summary>Errors (1)</summary>"));
	assert_non_null(strstr(md, "<details><summary>Skipped (1)</summary>"));
	assert_true(strstr(md, "Skipped (1)") > warnings);
	/* the scaling table: the warned interval first, then levels 0 and 1; not level 3 */
	assert_non_null(strstr(md, "#### Scaling"));
	assert_true(strstr(md, "** `program/solve/inner`") < strstr(md, "** `program`"));
	assert_non_null(strstr(md, "** `program/solve`"));
	assert_null(strstr(md, "`program/solve/inner/deep`"));
	assert_non_null(strstr(md, "| 1 | 1x1 | 8.45 s [8.4 s, 8.5 s] | 1 | 1 | \xe2\x80\x93 |  |\n"));
	/* no spread: no interval; the figures read as in every report (base/units.h) */
	assert_non_null(strstr(md, "| 4 | 1x4 | 3 s | 3.5 | 0.875 | 0.0476 |  |\n"));
	assert_non_null(strstr(md, "\xe2\x9d\x8c regression |"));
	free(md);

	/* without the analysis: no scaling table */
	assert_int_equal(markdown_write(&s, &m, path), 0);
	md = read_text(path);
	assert_null(strstr(md, "#### Scaling"));
	free(md);

	/* a pass */
	verdict_set_release(&s);
	verdict_add(&s, VERDICT_PASS, "a|b", "program", "-", 1, 1, "time_max");
	verdict_set_finish(&s);
	assert_int_equal(markdown_write(&s, NULL, path), 0);
	md = read_text(path);
	assert_string_equal(md, "### \xe2\x9c\x85 scalegate: 1 check passes\n\n");
	free(md);

	matrix_release(&m);
	analysis_release(&a);
	verdict_set_release(&s);
	free(path);
	remove_dir(dir);
}

static int valid_utf8(const char *s)
{
	unsigned cp;

	while (*s) {
		size_t len = utf8_decode(s, &cp);
		if (!len)
			return 0;
		s += len;
	}
	return 1;
}

static void test_headline(void **state)
{
	static const char want[] = "scalegate: 1 regression (1 check failed), 1 warning (1 check), 1 error, 1 skipped in 7 checks \xe2\x80\x94 "
				   "jacobi program/solve 1 rank \xc3\x97 4 thread\xe2\x80\xa6";
	struct verdict_set s;
	char *h;

	(void)state;
	build_set(&s);
	h = summary_headline(&s, 140);
	assert_string_equal(h, want);
	free(h);
	/* every cut: within max bytes, well-formed, an ellipsis when cut */
	for (size_t max = 0; max <= sizeof(want); max++) {
		h = summary_headline(&s, max);
		assert_true(strlen(h) <= max);
		assert_true(valid_utf8(h));
		if (max < sizeof(want) - 1 && max > 3)
			assert_non_null(strstr(h, "\xe2\x80\xa6"));
		free(h);
	}
	/* cut just inside the em dash: the dash goes whole */
	h = summary_headline(&s, strlen("scalegate: 1 regression (1 check failed), 1 warning (1 check), 1 error, 1 skipped in 7 checks ") + 4);
	assert_string_equal(h, "scalegate: 1 regression (1 check failed), 1 warning (1 check), 1 error, 1 skipped in 7 checks \xe2\x80\xa6");
	free(h);
	verdict_set_release(&s);

	verdict_add(&s, VERDICT_PASS, "a", "program", "-", 1, 1, "time_max");
	verdict_add(&s, VERDICT_WARN, "a", "program", "-", 1, 2, "tolerance.time");
	verdict_add(&s, VERDICT_WARN, "a", "program", "-", 1, 4, "tolerance.time");
	verdict_set_finish(&s);
	h = summary_headline(&s, 140);
	assert_string_equal(h, "scalegate: no regressions in 3 checks: 2 warnings (2 checks)");
	free(h);
	verdict_add(&s, VERDICT_SKIPPED, "a", "program", "-", 1, 8, "tolerance.time");
	verdict_add(&s, VERDICT_ERROR, "a", "program", "-", 1, 8, "fingerprint");
	verdict_set_finish(&s);
	h = summary_headline(&s, 140);
	assert_string_equal(h, "scalegate: no regressions in 5 checks: 2 warnings (2 checks), 1 error, 1 skipped");
	free(h);
	verdict_set_release(&s);
}

static void test_escape(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	xml_add_attr(&sb, "a\tb\nc\rd\x01\x1f<&>\"'\xef\xbf\xbe\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80z");
	assert_string_equal(sb.buf, "a&#9;b&#10;c&#13;d&lt;&amp;&gt;&quot;&apos;"
				    /* U+FFFE */ "\xef\xbf\xbd"
				    /* overlong */ "\xef\xbf\xbd\xef\xbf\xbd"
				    /* surrogate */ "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
				    /* past U+10FFFF */ "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
				    "z");
	strbuf_reset(&sb);
	xml_add_text(&sb, "a\tb\nc");
	assert_string_equal(sb.buf, "a\tb\nc");
	strbuf_reset(&sb);
	json_add_string(&sb, "q\"b\\n\n\x01\x7f\xff\xe2\x82\xac");
	assert_string_equal(sb.buf, "\"q\\\"b\\\\n\\n\\u0001\\u007f\\ufffd\xe2\x82\xac\"");
	strbuf_reset(&sb);
	json_add_string(&sb, NULL);
	json_add_number(&sb, NAN);
	json_add_number(&sb, 0.1);
	assert_string_equal(sb.buf, "nullnull0.1");
	assert_int_equal(utf8_prefix("a\xe2\x82\xac", 3), 1);
	assert_int_equal(utf8_prefix("a\xe2\x82\xac", 4), 4);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_junit_schemas),
		cmocka_unit_test(test_junit_empty),
		cmocka_unit_test(test_report_registry),
		cmocka_unit_test(test_summary_json),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_headline),
		cmocka_unit_test(test_escape),
	};

	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	if (failed)
		return failed;
	if (validations_skipped) {
		printf("SKIP: %d JUnit schema validations not run: %s (the other assertions passed)\n",
		       validations_skipped, no_schemas);
		return 77;
	}
	return 0;
}
