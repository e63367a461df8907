/* Rules over tests/data/rules/<case>/ ('expected' stderr or dump), the built-in defaults, and
 * rules_effective(). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "datacase.h"
#include "rules/rules.h"
#include "base/util.h"

/* Relative, as the gate is run: the messages must carry the paths the expected files show. */
#define CASES_DIR "tests/data/rules"

static const char *const level_names[] = { "error", "warn", "off" };

static void dump_ints(struct strbuf *sb, const char *key, const int *v, size_t nr)
{
	if (!nr)
		return;
	strbuf_addf(sb, "  %s", key);
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(sb, " %d", v[i]);
	strbuf_addch(sb, '\n');
}

static void dump_value(struct strbuf *sb, const char *key, const char *suffix,
		       const struct rules_value *v)
{
	if (!v->set)
		return;
	if (v->off)
		strbuf_addf(sb, "  %s%s off\n", key, suffix);
	else if (v->relative)
		strbuf_addf(sb, "  %s%s %g%%\n", key, suffix, v->value * 100);
	else
		strbuf_addf(sb, "  %s%s %g\n", key, suffix, v->value);
}

/* 'with_files': origins as file:line:col; without, line:col only (built-in vs shipped file). */
static void dump_rule(struct strbuf *sb, const struct rules_rule *rule, int with_files)
{
	strbuf_addf(sb, "rule %s\n", rule->name ? rule->name : "-");
	if (with_files)
		strbuf_addf(sb, "  at %s:%d:%d\n", rule->origin.file, rule->origin.line,
			    rule->origin.col);
	else
		strbuf_addf(sb, "  at %d:%d\n", rule->origin.line, rule->origin.col);
	if (rule->benchmark)
		strbuf_addf(sb, "  benchmark %s\n", rule->benchmark);
	if (rule->interval)
		strbuf_addf(sb, "  interval %s\n", rule->interval);
	dump_ints(sb, "threads", rule->threads, rule->nr_threads);
	dump_ints(sb, "ranks", rule->ranks, rule->nr_ranks);
	dump_ints(sb, "p", rule->p, rule->nr_p);
	if (rule->nr_sizes) {
		strbuf_addstr(sb, "  size");
		for (size_t i = 0; i < rule->nr_sizes; i++)
			strbuf_addf(sb, " %lld", rule->sizes[i]);
		strbuf_addch(sb, '\n');
	}
	for (int m = 0; m < RULES_NR_METRICS; m++) {
		const struct rules_value *max = &rule->max[m];
		char growth[48];

		dump_value(sb, rules_metric_key(m), "_min", &rule->min[m]);
		if (m == RULES_ISOEFFICIENCY_GROWTH && max->set && !max->off) {
			rules_growth_text(max->value, max->log_power, growth, sizeof(growth));
			strbuf_addf(sb, "  %s_max %s\n", rules_metric_key(m), growth);
		} else {
			dump_value(sb, rules_metric_key(m), "_max", max);
		}
	}
	for (int m = 0; m < RULES_NR_METRICS; m++) {
		char key[64];

		snprintf(key, sizeof(key), "tolerance.%s", rules_metric_key(m));
		dump_value(sb, key, "", &rule->tolerance[m]);
	}
	if (rule->level.set)
		strbuf_addf(sb, "  level %s\n", level_names[(int)rule->level.value]);
	dump_value(sb, "significance", "", &rule->significance);
	dump_value(sb, "min_samples", "", &rule->min_samples);
	if (rule->across_fingerprints.set)
		strbuf_addf(sb, "  across_fingerprints %s\n",
			    rule->across_fingerprints.value ? "true" : "false");
}

static void dump_rules(struct strbuf *sb, const struct rules *r, int with_files)
{
	strbuf_addf(sb, "defaults %d\n", r->defaults);
	if (with_files) {
		strbuf_addstr(sb, "files");
		for (size_t i = 0; i < r->nr_files; i++)
			strbuf_addf(sb, " %s", r->files[i]);
		strbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < r->nr; i++)
		dump_rule(sb, &r->rule[i], with_files);
}

/* What a case loads: a configuration file with its rules, or one rule file. */
struct load_job {
	struct rules *r;
	struct config *c;
	const char *path;
};

static int run_load(struct load_job *job)
{
	if (job->c) {
		if (config_load(job->c, job->path) < 0)
			return -1;
		return rules_load(job->r, job->c);
	}
	return rules_load_file(job->r, job->path);
}

static int load_fn(void *arg)
{
	return run_load(arg);
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static void test_case(void **state)
{
	const char *name = *state;
	char *yml = xstrfmt("%s/%s/scalegate.yml", CASES_DIR, name);
	struct strbuf actual = STRBUF_INIT;
	struct rules r;
	struct config c;
	struct load_job job = { &r, &c, yml };
	int ret;

	memset(&c, 0, sizeof(c));
	rules_init(&r);
	if (!exists(yml)) {
		free(yml);
		job.path = yml = xstrfmt("%s/%s/rules.yml", CASES_DIR, name);
		job.c = NULL;
	}
	ret = datacase_capture(load_fn, &job, &actual);
	if (ret == 0) {
		strbuf_addstr(&actual,
			      "ok\n"); /* after anything printed: a valid file must load silently */
		dump_rules(&actual, &r, 1);
	} else {
		assert_int_equal(r.nr, 0); /* a failed load leaves nothing behind */
	}
	datacase_expect(CASES_DIR, name, &actual, ret);
	rules_release(&r);
	rules_release(&r); /* released twice, or after a failed load: harmless */
	config_release(&c);
	strbuf_release(&actual);
	free(yml);
}

/* The rules built into the binary are those of the shipped rules/default.yml. */
static void test_defaults_are_the_shipped_file(void **state)
{
	struct strbuf builtin = STRBUF_INIT, shipped = STRBUF_INIT;
	struct rules r;

	(void)state;
	rules_init(&r);
	assert_int_equal(rules_load(&r, NULL), 0);
	assert_int_equal(r.defaults, 1);
	assert_int_equal(r.nr, 2);
	for (size_t i = 0; i < r.nr; i++) {
		assert_true(r.rule[i].builtin);
		assert_string_equal(r.rule[i].origin.file, RULES_DEFAULT_FILE);
	}
	dump_rules(&builtin, &r, 0);
	rules_release(&r);

	assert_int_equal(rules_load_file(&r, RULES_DEFAULT_FILE), 0);
	assert_int_equal(r.defaults, 0);
	r.defaults = 1;
	dump_rules(&shipped, &r, 0);
	rules_release(&r);
	if (strcmp(builtin.buf, shipped.buf))
		print_error("built in:\n%s--- rules/default.yml:\n%s", builtin.buf, shipped.buf);
	assert_string_equal(builtin.buf, shipped.buf);
	strbuf_release(&builtin);
	strbuf_release(&shipped);
}

/* rules/example.yml is documentation: it must load as it is. */
static void test_example_loads(void **state)
{
	struct rules r;

	(void)state;
	rules_init(&r);
	assert_int_equal(rules_load_file(&r, "rules/example.yml"), 0);
	assert_true(r.nr > 3);
	rules_release(&r);
}

/* Loads rules written here through a temporary file; returns what rules_load_file() did. */
static int try_load_text(struct rules *r, const char *text, size_t len)
{
	char path[] = "/tmp/test-rules-XXXXXX";
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0 && write(fd, text, len) == (ssize_t)len);
	close(fd);
	rules_init(r);
	ret = rules_load_file(r, path);
	unlink(path);
	return ret;
}

static void load_text(struct rules *r, const char *text)
{
	assert_int_equal(try_load_text(r, text, strlen(text)), 0);
}

/* The examples of docs/rules.md in the rule-file form load as they are. */
static void test_docs_examples_load(void **state)
{
	struct strbuf doc = STRBUF_INIT;
	const char *p, *end;
	int nr = 0;

	(void)state;
	assert_int_equal(strbuf_read_file(&doc, "docs/rules.md"), 0);
	for (p = doc.buf; (p = strstr(p, "```yaml\n")); p = end + 4) {
		struct rules r;

		p += 8;
		end = strstr(p, "```\n");
		assert_non_null(end);
		/* The mapping form belongs in scalegate.yml, with files beside it. */
		if (memmem(p, (size_t)(end - p), "files:", 6))
			continue;
		if (try_load_text(&r, p, (size_t)(end - p)))
			fail_msg("docs/rules.md: this example does not load:\n%.*s", (int)(end - p),
				 p);
		rules_release(&r);
		nr++;
	}
	assert_true(nr >= 5);
	strbuf_release(&doc);
}

static const struct rules_rule *rule_named(const struct rules *r, const char *name)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->rule[i].name && !strcmp(r->rule[i].name, name))
			return &r->rule[i];
	fail_msg("no rule '%s'", name);
	return NULL;
}

static void test_general_then_specific(void **state)
{
	static const char text[] =
		"rules:\n"
		"  - name: general\n"
		"    efficiency_min: 0.5\n"
		"    efficiency_max: 0.99\n"
		"    tolerance: {time: 10%, efficiency: 0.05}\n"
		"  - name: solver\n"
		"    benchmark: 'jac*'\n"
		"    interval: solve\n"
		"    threads: 4\n"
		"    efficiency_min: 0.7\n"
		"    tolerance: {time: 20%}\n"
		"    level: warn\n"
		"    significance: 0.01\n";
	struct rules_settings s;
	struct rules r;

	(void)state;
	load_text(&r, text);
	/* Both select: 'solver' overrides what it sets, field by field. */
	rules_effective(&r, "jacobi", "program/solve", "-", 1, 4, &s);
	assert_true(s.min[RULES_EFFICIENCY].set && s.min[RULES_EFFICIENCY].value == 0.7);
	assert_true(s.max[RULES_EFFICIENCY].set && s.max[RULES_EFFICIENCY].value == 0.99);
	assert_ptr_equal(s.bound_from[RULES_EFFICIENCY], rule_named(&r, "solver"));
	assert_true(s.tolerance[RULES_TIME].set && s.tolerance[RULES_TIME].relative);
	assert_true(s.tolerance[RULES_TIME].value == 0.2);
	assert_ptr_equal(s.tolerance_from[RULES_TIME], rule_named(&r, "solver"));
	assert_int_equal(s.tolerance_policy[RULES_TIME].level, RULES_LEVEL_WARN);
	assert_true(s.tolerance_policy[RULES_TIME].significance == 0.01);
	/* ... and 'general' keeps what 'solver' does not set, with its own policy. */
	assert_true(s.tolerance[RULES_EFFICIENCY].set && !s.tolerance[RULES_EFFICIENCY].relative);
	assert_true(s.tolerance[RULES_EFFICIENCY].value == 0.05);
	assert_ptr_equal(s.tolerance_from[RULES_EFFICIENCY], rule_named(&r, "general"));
	assert_int_equal(s.tolerance_policy[RULES_EFFICIENCY].level, RULES_LEVEL_ERROR);
	assert_true(s.tolerance_policy[RULES_EFFICIENCY].significance ==
		    RULES_DEFAULT_SIGNIFICANCE);
	assert_int_equal(s.tolerance_policy[RULES_EFFICIENCY].min_samples,
			 RULES_DEFAULT_MIN_SAMPLES);
	assert_int_equal(s.level, RULES_LEVEL_ERROR);
	assert_false(s.tolerance[RULES_KARP_FLATT].set);
	assert_null(s.tolerance_from[RULES_KARP_FLATT]);

	/* Other thread counts, benchmarks and intervals: 'general' only. */
	rules_effective(&r, "jacobi", "program/solve", "-", 1, 2, &s);
	assert_true(s.min[RULES_EFFICIENCY].value == 0.5 && s.tolerance[RULES_TIME].value == 0.1);
	rules_effective(&r, "heat", "program/solve", "-", 1, 4, &s);
	assert_ptr_equal(s.bound_from[RULES_EFFICIENCY], rule_named(&r, "general"));
	rules_effective(&r, "jacobi", "program/solver", "-", 1, 4, &s);
	assert_ptr_equal(s.bound_from[RULES_EFFICIENCY], rule_named(&r, "general"));
	rules_effective(&r, "jacobi", "program/outer/solve", "-", 1, 4, &s);
	assert_ptr_equal(s.bound_from[RULES_EFFICIENCY], rule_named(&r, "solver"));
	assert_true(r.rule[0].matched && r.rule[1].matched);
	rules_release(&r);
}

static void test_globs_and_selectors(void **state)
{
	static const char text[] =
		"rules:\n"
		"  - name: path\n"
		"    interval: 'program/solve*'\n"
		"    time_max: 1\n"
		"  - name: tag\n"
		"    interval: 'step\\[3\\]'\n"
		"    time_max: 2\n"
		"  - name: any-tag\n"
		"    interval: 'iter\\[*\\]'\n"
		"    time_max: 5\n"
		"  - name: p-and-size\n"
		"    p: [4, 8]\n"
		"    size: [1000]\n"
		"    time_max: 3\n"
		"  - name: ranks\n"
		"    benchmark: 'halo-?'\n"
		"    ranks: [2]\n"
		"    time_max: 4\n";
	struct rules_settings s;
	struct rules r;

	(void)state;
	load_text(&r, text);
	rules_effective(&r, "b", "program/solve/step[3]", "-", 1, 1, &s);
	assert_true(s.max[RULES_TIME].value == 2);
	rules_effective(&r, "b", "program/solve/step[4]", "-", 1, 1, &s);
	assert_true(s.max[RULES_TIME].value == 1);
	rules_effective(&r, "b", "program/other/step3", "-", 1, 1, &s);
	assert_false(s.max[RULES_TIME].set);
	rules_effective(&r, "b", "program/solve", "-", 1, 1, &s);
	assert_true(s.max[RULES_TIME].value == 1);
	rules_effective(&r, "b", "program", "-", 1, 1, &s);
	assert_false(s.max[RULES_TIME].set);
	rules_effective(&r, "b", "program/iter[12]", "-", 1, 1, &s);
	assert_true(s.max[RULES_TIME].value == 5);
	rules_effective(&r, "b", "program/iter", "-", 1, 1, &s);
	assert_false(s.max[RULES_TIME].set);
	/* p = ranks x threads, and the size as the results write it */
	rules_effective(&r, "b", "program", "1000", 2, 2, &s);
	assert_true(s.max[RULES_TIME].value == 3);
	rules_effective(&r, "b", "program", "1000", 1, 8, &s);
	assert_true(s.max[RULES_TIME].value == 3);
	rules_effective(&r, "b", "program", "2000", 2, 2, &s);
	assert_false(s.max[RULES_TIME].set);
	rules_effective(&r, "b", "program", "-", 2, 2, &s);
	assert_false(s.max[RULES_TIME].set);
	rules_effective(&r, "b", "program", NULL, 2, 2, &s);
	assert_false(s.max[RULES_TIME].set);
	rules_effective(&r, "b", "program", "1000", 1, 2, &s);
	assert_false(s.max[RULES_TIME].set);
	rules_effective(&r, "halo-1", "program", "1000", 2, 2, &s);
	assert_true(s.max[RULES_TIME].value == 4);
	rules_effective(&r, "halo-10", "program", "1000", 2, 2, &s);
	assert_true(s.max[RULES_TIME].value == 3);
	rules_release(&r);
}

/* A rule that sets no check changes the policy of everything it selects, before and after it. */
static void test_policy_rules(void **state)
{
	static const char text[] =
		"rules:\n"
		"  - significance: 0.01\n"
		"  - name: general\n"
		"    tolerance: {time: 10%, efficiency: 0.05}\n"
		"    karp_flatt_max: 0.2\n"
		"  - name: quiet\n"
		"    benchmark: noisy\n"
		"    level: off\n"
		"  - name: strict-time\n"
		"    benchmark: noisy\n"
		"    tolerance: {time: 5%}\n"
		"    level: error\n"
		"    min_samples: 5\n"
		"  - name: no-time\n"
		"    benchmark: other\n"
		"    tolerance: {time: off}\n"
		"    karp_flatt_max: off\n"
		"  - name: band\n"
		"    benchmark: other\n"
		"    efficiency_min: 0.4\n"
		"    efficiency_max: 0.9\n"
		"  - name: open-top\n"
		"    benchmark: other\n"
		"    efficiency_max: off\n"
		"    level: warn\n"
		"  - name: across\n"
		"    benchmark: other\n"
		"    across_fingerprints: true\n";
	struct rules_settings s;
	struct rules r;

	(void)state;
	load_text(&r, text);
	rules_effective(&r, "b", "program", "-", 1, 2, &s);
	assert_true(s.tolerance_policy[RULES_TIME].significance == 0.01);
	assert_true(s.bound_policy[RULES_KARP_FLATT].significance == 0.01);
	assert_true(s.significance == 0.01);
	assert_int_equal(s.tolerance_policy[RULES_TIME].across_fingerprints, 0);
	assert_int_equal(s.tolerance_policy[RULES_EFFICIENCY].across_fingerprints, 1);

	rules_effective(&r, "noisy", "program", "-", 1, 2, &s);
	assert_int_equal(s.tolerance_policy[RULES_EFFICIENCY].level, RULES_LEVEL_OFF);
	assert_int_equal(s.bound_policy[RULES_KARP_FLATT].level, RULES_LEVEL_OFF);
	assert_int_equal(s.level, RULES_LEVEL_OFF);
	/* set after the 'off': its own level, and the significance of the first rule */
	assert_int_equal(s.tolerance_policy[RULES_TIME].level, RULES_LEVEL_ERROR);
	assert_int_equal(s.tolerance_policy[RULES_TIME].min_samples, 5);
	assert_true(s.tolerance_policy[RULES_TIME].significance == 0.01);
	assert_true(s.tolerance[RULES_TIME].value == 0.05);

	rules_effective(&r, "other", "program", "-", 1, 2, &s);
	assert_false(s.tolerance[RULES_TIME].set);
	assert_null(s.tolerance_from[RULES_TIME]);
	assert_false(s.max[RULES_KARP_FLATT].set);
	assert_null(s.bound_from[RULES_KARP_FLATT]);
	assert_true(s.tolerance[RULES_EFFICIENCY].set);
	assert_int_equal(s.tolerance_policy[RULES_TIME].across_fingerprints, 1);
	assert_int_equal(s.tolerance_policy[RULES_EFFICIENCY].across_fingerprints, 1);
	/* clearing the top of the band leaves the bottom to the rule that set it */
	assert_true(s.min[RULES_EFFICIENCY].set && !s.max[RULES_EFFICIENCY].set);
	assert_ptr_equal(s.bound_from[RULES_EFFICIENCY], rule_named(&r, "band"));
	assert_int_equal(s.bound_policy[RULES_EFFICIENCY].level, RULES_LEVEL_ERROR);
	rules_release(&r);
}

static void test_default_policy(void **state)
{
	struct rules_settings s;
	struct rules r;

	(void)state;
	rules_init(&r);
	assert_int_equal(rules_load(&r, NULL), 0);
	rules_effective(&r, "any", "program/solve", "-", 2, 2, &s);
	/* The defaults gate the time ratio, the scalability ratio and the lost-time shares, not e.
	 */
	assert_false(s.tolerance[RULES_EFFICIENCY].set || s.tolerance[RULES_KARP_FLATT].set);
	assert_true(s.tolerance[RULES_SPEEDUP].relative &&
		    s.tolerance[RULES_SPEEDUP].value == 0.05);
	assert_true(s.tolerance[RULES_INSUFFICIENT_PARALLELISM].value == 0.05);
	assert_true(s.tolerance[RULES_SYNCHRONIZATION].value == 0.05);
	assert_true(s.tolerance_policy[RULES_SPEEDUP].significance == 0.01);
	assert_true(s.tolerance[RULES_TIME].relative && s.tolerance[RULES_TIME].value == 0.05);
	assert_int_equal(s.tolerance_policy[RULES_SPEEDUP].level, RULES_LEVEL_ERROR);
	assert_int_equal(s.tolerance_policy[RULES_IDLE].level, RULES_LEVEL_ERROR);
	assert_int_equal(s.tolerance_policy[RULES_TIME].level, RULES_LEVEL_ERROR);
	assert_int_equal(s.tolerance_policy[RULES_SPEEDUP].across_fingerprints, 1);
	assert_int_equal(s.tolerance_policy[RULES_TIME].across_fingerprints, 0);
	assert_int_equal(s.tolerance_policy[RULES_TIME].min_samples, 3);
	for (int m = 0; m < RULES_NR_METRICS; m++)
		assert_false(s.min[m].set || s.max[m].set);
	rules_release(&r);
}

static int report_fn(void *arg)
{
	return rules_report_unmatched(arg);
}

static void test_report_unmatched(void **state)
{
	static const char text[] =
		"rules:\n"
		"  - name: used\n"
		"    benchmark: jacobi\n"
		"    time_max: 1\n"
		"  - name: typo\n"
		"    benchmark: jacoby\n"
		"    time_max: 1\n"
		"  - threads: [3]\n"
		"    time_max: 1\n"
		"  - benchmark: gone\n"
		"    level: off\n";
	struct strbuf err = STRBUF_INIT;
	struct rules_settings s;
	struct rules r;
	char *expected;

	(void)state;
	load_text(&r, text);
	rules_effective(&r, "jacobi", "program", "-", 1, 4, &s);
	assert_int_equal(datacase_capture(report_fn, &r, &err), 2);
	expected = xstrfmt("scalegate: error: %s:5:5: rule 'typo' selects nothing in the results\n"
			   "scalegate: error: %s:8:5: rule selects nothing in the results\n",
			   r.files[0], r.files[0]);
	assert_string_equal(err.buf, expected);
	free(expected);
	strbuf_release(&err);
	rules_release(&r);

	/* The defaults are not the user's mistake. */
	assert_int_equal(rules_load(&r, NULL), 0);
	assert_int_equal(datacase_capture(report_fn, &r, &err), 0);
	assert_null(err.buf);
	rules_release(&r);
}

static void test_metrics(void **state)
{
	(void)state;
	assert_string_equal(rules_metric_key(RULES_KARP_FLATT), "karp_flatt");
	assert_int_equal(rules_metric_find("load_balance"), RULES_LOAD_BALANCE);
	assert_int_equal(rules_metric_find("balance"), -1);
	assert_int_equal(rules_metric_worse(RULES_TIME), 1);
	assert_int_equal(rules_metric_worse(RULES_EFFICIENCY), -1);
	assert_true(rules_metric_is_share(RULES_IDLE));
	assert_false(rules_metric_is_share(RULES_LOAD_BALANCE));
	assert_true(rules_metric_across_default(RULES_SPEEDUP));
	assert_false(rules_metric_across_default(RULES_TIME));
	assert_false(rules_metric_across_default(RULES_COMMUNICATION));
}

/* constant < log p < p^0.5 < p < p log p < p^1.5: docs/rules.md. */
static void test_growth_order(void **state)
{
	static const char *const ordered[] = {"constant", "log p", "p^0.5", "p",
					      "p log p",  "p^1.5", "p^2"};
	static const char *const bad[] = {"",  "p^",    "p^0",       "p^-1", "p^x",
					  "n", "p log", "p^2 log p", "P"};
	double k[ARRAY_SIZE(ordered)], x;
	int lp[ARRAY_SIZE(ordered)], l;
	char buf[48];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ordered); i++) {
		assert_int_equal(rules_growth_parse(ordered[i], &k[i], &lp[i]), 0);
		rules_growth_text(k[i], lp[i], buf, sizeof(buf));
		assert_string_equal(buf, ordered[i]);
		for (size_t j = 0; j < i; j++) {
			assert_true(rules_growth_cmp(k[j], lp[j], k[i], lp[i]) < 0);
			assert_true(rules_growth_cmp(k[i], lp[i], k[j], lp[j]) > 0);
		}
		assert_int_equal(rules_growth_cmp(k[i], lp[i], k[i], lp[i]), 0);
	}
	assert_int_equal(rules_growth_parse(" p   log p ", &x, &l), 0);
	assert_true(x == 1 && l == 1);
	assert_int_equal(rules_growth_parse("p^1", &x, &l), 0);
	assert_true(x == 1 && l == 0); /* the same as p */
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(rules_growth_parse(bad[i], &x, &l), -1);
	assert_int_equal(rules_metric_worse(RULES_AVERAGE_PARALLELISM), -1);
	assert_int_equal(rules_metric_worse(RULES_WEAK_EFFICIENCY), -1);
	assert_true(rules_metric_across_default(RULES_AVERAGE_PARALLELISM));
}

int main(void)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_defaults_are_the_shipped_file),
		cmocka_unit_test(test_example_loads),
		cmocka_unit_test(test_docs_examples_load),
		cmocka_unit_test(test_general_then_specific),
		cmocka_unit_test(test_globs_and_selectors),
		cmocka_unit_test(test_policy_rules),
		cmocka_unit_test(test_default_policy),
		cmocka_unit_test(test_report_unmatched),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_growth_order),
	};

	return datacase_main("rules", unit, ARRAY_SIZE(unit), CASES_DIR, test_case);
}
