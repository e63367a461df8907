/* The JUnit XML report, in the layout valid against the three schemas of shared/junit-xsd
 * (docs/reports.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/escape.h"
#include "base/interrupt.h"
#include "report/report-priv.h"
#include "base/util.h"
#include "base/words.h"
#include "judge/judge.h"

#ifndef SG_VERSION
#define SG_VERSION "unknown"
#endif

/* windyroad.xsd: names are xs:token with minLength 1, so blank is as bad as absent. */
static int blank(const char *s)
{
	if (!s)
		return 1;
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return 0;
	return 1;
}

static const char *suite_name(const struct verdict *v)
{
	return blank(v->benchmark) ? "scalegate" : v->benchmark;
}

static int leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* The first 19 characters of 'ts' when they are a valid xs:dateTime without zone, else now. */
static void suite_timestamp(char out[20], const char *ts)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	static const char pattern[] = "dddd-dd-ddTdd:dd:dd";
	int y, mo, d, h, mi, sec, ok = ts != NULL;
	time_t now;
	struct tm tm;

	for (size_t i = 0; ok && i < sizeof(pattern) - 1; i++)
		ok = pattern[i] == 'd' ? ts[i] >= '0' && ts[i] <= '9' : ts[i] == pattern[i];
	if (ok && sscanf(ts, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &sec) == 6)
		ok = y >= 1 && mo >= 1 && mo <= 12 && d >= 1 &&
		     d <= mdays[mo - 1] + (mo == 2 && leap(y)) && h <= 23 && mi <= 59 && sec <= 59;
	else
		ok = 0;
	if (ok) {
		memcpy(out, ts, 19);
		out[19] = '\0';
		return;
	}
	now = time(NULL);
	if (!localtime_r(&now, &tm) || !strftime(out, 20, "%Y-%m-%dT%H:%M:%S", &tm))
		strcpy(out, "1970-01-01T00:00:00");
}

/* A time to write with %.6f (testcase) or %.3f (suite: junit10.xsd's SUREFIRE_TIME
 * takes at most three decimals): plain decimals, so never NaN or negative. */
static double seconds(double t)
{
	return isfinite(t) && t > 0 ? t : 0;
}

void report_testcase_name(struct strbuf *sb, const struct verdict *v)
{
	char config[96];

	if (v->interval)
		strbuf_addf(sb, "%s ", v->interval);
	strbuf_addf(sb, "%s (p=%d)",
		    config_words(config, sizeof(config), v->ranks, v->threads, v->size), v->p);
	if (v->kind)
		strbuf_addf(sb, " %s", v->kind);
}

/* "benchmark.interval", slashes as dots: Jenkins reads the last dot as package.class. */
static void classname(struct strbuf *sb, const struct verdict *v)
{
	strbuf_addstr(sb, suite_name(v));
	if (v->interval) {
		strbuf_addch(sb, '.');
		for (const char *c = v->interval; *c; c++)
			strbuf_addch(sb, *c == '/' ? '.' : *c);
	}
}

/* What a person reads under a failure, error or warning. */
static void verdict_text(struct strbuf *sb, const struct verdict *v)
{
	if (v->message)
		strbuf_addf(sb, "%s\n", v->message);
	if (v->cause)
		strbuf_addf(sb, "cause: %s\n", v->cause);
	if (v->details) {
		strbuf_addstr(sb, v->details);
		if (!*v->details || v->details[strlen(v->details) - 1] != '\n')
			strbuf_addch(sb, '\n');
	}
	if (v->file && v->line > 0)
		strbuf_addf(sb, "source: %s:%d\n", v->file, v->line);
	if (v->rule_origin)
		strbuf_addf(sb, "rule: %s\n", v->rule_origin);
}

static void add_attr(struct strbuf *out, const char *name, const char *value)
{
	strbuf_addf(out, " %s=\"", name);
	xml_add_attr(out, value);
	strbuf_addch(out, '"');
}

static void problem(struct strbuf *out, const char *element, const struct verdict *v)
{
	struct strbuf text = STRBUF_INIT;

	verdict_text(&text, v);
	strbuf_addf(out, "      <%s", element);
	add_attr(out, "type", v->kind ? v->kind : "scalegate");
	add_attr(out, "message", v->message ? v->message : verdict_status_name(v->status));
	strbuf_addstr(out, ">");
	xml_add_text(out, text.buf ? text.buf : "");
	strbuf_addf(out, "</%s>\n", element);
	strbuf_release(&text);
}

static void testcase(struct strbuf *out, const struct verdict *v, int testcase_output)
{
	struct strbuf sb = STRBUF_INIT;
	int body = v->status != VERDICT_PASS && v->status != VERDICT_WARN;

	strbuf_addstr(out, "    <testcase");
	report_testcase_name(&sb, v);
	add_attr(out, "name", sb.buf);
	strbuf_reset(&sb);
	classname(&sb, v);
	add_attr(out, "classname", sb.buf);
	strbuf_addf(out, " time=\"%.6f\"", seconds(v->seconds));
	/* GitLab, mikepenz/action-junit-report and dorny/test-reporter point annotations at file
	 * and line; none of the three schemas declares them, so only in the opt-in layout */
	if (testcase_output && v->file && v->line > 0) {
		add_attr(out, "file", v->file);
		strbuf_addf(out, " line=\"%d\"", v->line);
	}
	strbuf_reset(&sb);
	verdict_text(&sb, v);
	if (!body && !(testcase_output && sb.len)) {
		strbuf_addstr(out, "/>\n");
		strbuf_release(&sb);
		return;
	}
	strbuf_addstr(out, ">\n");
	switch (v->status) {
	case VERDICT_FAIL:
		problem(out, "failure", v);
		break;
	case VERDICT_ERROR:
		problem(out, "error", v);
		break;
	case VERDICT_SKIPPED:
		/* jenkins-junit4.xsd: no message attribute, the reason is the text */
		strbuf_addstr(out, "      <skipped>");
		xml_add_text(out, v->message ? v->message : "skipped");
		if (v->cause) {
			strbuf_addstr(out, ": ");
			xml_add_text(out, v->cause);
		}
		strbuf_addstr(out, "</skipped>\n");
		break;
	default:
		break;
	}
	if (testcase_output && sb.len) {
		strbuf_addstr(out, "      <system-out>");
		if (v->status == VERDICT_WARN)
			strbuf_addf(out, "%s: ", report_word_name(report_word_of(v)));
		xml_add_text(out, sb.buf);
		strbuf_addstr(out, "</system-out>\n");
	}
	strbuf_addstr(out, "    </testcase>\n");
	strbuf_release(&sb);
}

/* The suite of benchmark 'name': verdicts 'first' onwards whose suite name it is. */
static void testsuite(struct strbuf *out, const struct verdict_set *s, size_t first, int id,
		      const char *timestamp, int testcase_output)
{
	const char *name = suite_name(&s->v[first]);
	size_t count[VERDICT_SKIPPED + 1] = { 0 }, tests = 0, undecided = 0;
	double time = 0;
	struct strbuf warnings = STRBUF_INIT, sb = STRBUF_INIT;

	for (size_t i = first; i < s->nr; i++) {
		const struct verdict *v = &s->v[i];
		if (strcmp(suite_name(v), name))
			continue;
		count[v->status]++;
		undecided += v->status == VERDICT_WARN && v->inconclusive;
		tests++;
		time += seconds(v->seconds);
		if (v->status == VERDICT_WARN) {
			report_testcase_name(&sb, v);
			strbuf_addf(&warnings, "%s: %s\n", report_word_name(report_word_of(v)),
				    sb.buf);
			strbuf_reset(&sb);
			verdict_text(&sb, v);
			/* indent the verdict's lines under the testcase name */
			for (const char *c = sb.buf; c && *c; c++) {
				if (c == sb.buf || c[-1] == '\n')
					strbuf_addstr(&warnings, "  ");
				strbuf_addch(&warnings, *c);
			}
			strbuf_reset(&sb);
		}
	}

	strbuf_addstr(out, "  <testsuite");
	add_attr(out, "name", name);
	add_attr(out, "timestamp", timestamp);
	add_attr(out, "hostname", blank(s->hostname) ? "localhost" : s->hostname);
	strbuf_addf(out,
		    " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\"",
		    tests, count[VERDICT_FAIL], count[VERDICT_ERROR], count[VERDICT_SKIPPED], time);
	strbuf_addf(out, " package=\"scalegate\" id=\"%d\">\n", id);

	/* never empty: jenkins-junit4.xsd rejects <properties/> */
	strbuf_addstr(out, "    <properties>\n      <property name=\"scalegate.version\" value=\"");
	xml_add_attr(out, SG_VERSION);
	strbuf_addstr(out, "\"/>\n");
	if (s->interrupted) /* the testcases are what the gate judged before it was interrupted */
		strbuf_addf(out, "      <property name=\"scalegate.interrupted\" value=\"%s\"/>\n",
			    interrupt_name(s->interrupted));
	for (size_t i = 0; i < s->nr_fingerprint; i++) {
		const char *key = s->fingerprint[2 * i], *value = s->fingerprint[2 * i + 1];
		if (blank(key))
			continue;
		strbuf_addstr(out, "      <property");
		add_attr(out, "name", key);
		add_attr(out, "value", value ? value : "");
		strbuf_addstr(out, "/>\n");
	}
	strbuf_addstr(out, "    </properties>\n");

	for (size_t i = first; i < s->nr; i++)
		if (!strcmp(suite_name(&s->v[i]), name))
			testcase(out, &s->v[i], testcase_output);

	/* windyroad.xsd requires both, after the testcases; warnings live here as it
	 * forbids a testcase's own <system-out>; counted in the headline's words, the inconclusive
	 * checks apart from the warnings */
	strbuf_addf(out,
		    "    <system-out>%zu %s: %zu failed, %zu warned, %zu inconclusive, %zu %s, "
		    "%zu skipped, %zu passed\n",
		    tests, tests == 1 ? "check" : "checks", count[VERDICT_FAIL],
		    count[VERDICT_WARN] - undecided, undecided, count[VERDICT_ERROR],
		    count[VERDICT_ERROR] == 1 ? "error" : "errors", count[VERDICT_SKIPPED],
		    count[VERDICT_PASS]);
	xml_add_text(out, warnings.buf);
	strbuf_addstr(out, "</system-out>\n    <system-err></system-err>\n  </testsuite>\n");
	strbuf_release(&warnings);
	strbuf_release(&sb);
}

int junit_write(const struct verdict_set *s, const char *path, int testcase_output)
{
	struct strbuf out = STRBUF_INIT;
	char timestamp[20];
	int id = 0, ret;

	suite_timestamp(timestamp, s->timestamp);
	strbuf_addstr(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
	for (size_t i = 0; i < s->nr; i++) {
		int seen = 0;
		/* a suite per benchmark, in order of first appearance */
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(suite_name(&s->v[j]), suite_name(&s->v[i]));
		if (!seen)
			testsuite(&out, s, i, id++, timestamp, testcase_output);
	}
	strbuf_addstr(&out, "</testsuites>\n");
	ret = write_file_atomic(path, out.buf, out.len);
	strbuf_release(&out);
	return ret;
}

static int write_junit(const struct report_input *in, const char *path)
{
	return junit_write(&in->j->vs, path, in->testcase_output);
}

const struct report_format report_junit = {
	"junit", "junit.xml", "--junit", "write a JUnit XML report", write_junit,
};
