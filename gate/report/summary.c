/* The JSON summary of a check, input of 'scalegate post' (schema: docs/summary.md), and its
 * one-line headline. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/interrupt.h"
#include "base/words.h"
#include "base/exitcode.h"
#include "report/report-priv.h"
#include "base/util.h"
#include "judge/findings.h"
#include "judge/judge.h"

/* "jacobi program/solve 1 rank × 4 threads: Measured_efficiency 0.61 (baseline 0.83)" */
static void headline_detail(struct strbuf *sb, const struct verdict *v)
{
	strbuf_addf(sb, " \xe2\x80\x94 %s", v->benchmark ? v->benchmark : "scalegate");
	if (v->interval)
		strbuf_addf(sb, " %s", v->interval);
	char config[96];

	strbuf_addf(sb, " %s", config_words(config, sizeof(config), v->ranks, v->threads, v->size));
	if (v->metric && isfinite(v->value)) {
		char value[48];
		strbuf_addf(sb, ": %s %s", v->metric,
			    unit_format(value, sizeof(value), v->unit, v->value));
		if (isfinite(v->baseline))
			strbuf_addf(sb, " (%s %s)", report_reference(v),
				    unit_format(value, sizeof(value), v->unit, v->baseline));
	} else if (v->message) {
		strbuf_addf(sb, ": %s", v->message);
	} else if (v->kind) {
		strbuf_addf(sb, ": %s", v->kind);
	}
}

char *summary_headline(const struct verdict_set *s, size_t max)
{
	struct strbuf raw = STRBUF_INIT, line = STRBUF_INIT;
	size_t count[VERDICT_SKIPPED + 1], n;
	const struct verdict *first = NULL;

	report_count(s, count);
	strbuf_addstr(&raw, "scalegate: ");
	report_outcome(&raw, s);
	/* the first regression's first check: the cell of the cause, not an enclosing interval */
	for (size_t i = 0; s->findings && i < s->findings->nr && !first; i++)
		if (s->findings->f[i].status == VERDICT_FAIL)
			first = finding_where(s, &s->findings->f[i]);
	for (size_t i = 0; i < s->nr && count[VERDICT_FAIL] && !first; i++)
		if (s->v[i].status == VERDICT_FAIL)
			first = &s->v[i];
	/* the run error that failed the check, else the first error */
	for (size_t i = 0; i < s->nr && report_run_failed(s, count) && !first; i++)
		if (s->v[i].status == VERDICT_ERROR && report_is_run(&s->v[i]))
			first = &s->v[i];
	for (size_t i = 0; i < s->nr && report_run_failed(s, count) && !first; i++)
		if (s->v[i].status == VERDICT_ERROR)
			first = &s->v[i];
	if (first)
		headline_detail(&raw, first);

	/* one line of well-formed UTF-8 */
	for (const char *c = raw.buf; *c;) {
		unsigned cp;
		size_t len = utf8_decode(c, &cp);
		if (!len)
			strbuf_addstr(&line, "\xef\xbf\xbd"), len = 1;
		else if (cp < 0x20 || cp == 0x7f)
			strbuf_addch(&line, ' ');
		else
			strbuf_add(&line, c, len);
		c += len;
	}
	strbuf_release(&raw);
	if (line.len > max) {
		const char *ellipsis = "\xe2\x80\xa6";
		if (max > strlen(ellipsis)) {
			n = utf8_prefix(line.buf, max - strlen(ellipsis));
			line.len = n;
			strbuf_addstr(&line, ellipsis);
		} else {
			line.len = utf8_prefix(line.buf, max);
			line.buf[line.len] = '\0';
		}
	}
	return strbuf_detach(&line);
}

static const char *verdict_word(int exit_code)
{
	switch (exit_code) {
	case SG_EXIT_PASS:
		return "pass";
	case SG_EXIT_REGRESSION:
		return "regression";
	default: /* an interrupted gate's too (130, 143): "interrupted" says it */
		return "run-failed";
	}
}

static void add_key(struct strbuf *sb, const char *key)
{
	json_add_string(sb, key);
	strbuf_addstr(sb, ": ");
}

static void verdict_json(struct strbuf *sb, const struct verdict *v)
{
	strbuf_addstr(sb, "{\"status\": ");
	json_add_string(sb, verdict_status_name(v->status));
	strbuf_addstr(sb, ", \"benchmark\": ");
	json_add_string(sb, v->benchmark);
	strbuf_addstr(sb, ", \"interval\": ");
	json_add_string(sb, v->interval);
	strbuf_addstr(sb, ", \"size\": ");
	json_add_string(sb, v->size ? v->size : "-");
	strbuf_addf(sb, ", \"ranks\": %d, \"threads\": %d, \"p\": %d, \"kind\": ", v->ranks,
		    v->threads, v->p);
	json_add_string(sb, v->kind);
	strbuf_addstr(sb, ", \"metric\": ");
	json_add_string(sb, v->metric);
	strbuf_addf(sb, ", \"n\": %zu, \"value\": ", v->n);
	json_add_number(sb, v->value);
	strbuf_addstr(sb, ", \"lo\": ");
	json_add_number(sb, v->lo);
	strbuf_addstr(sb, ", \"hi\": ");
	json_add_number(sb, v->hi);
	/* value, lo and hi were scaled by it to the stored baseline's machine speed */
	strbuf_addstr(sb, ", \"speed_factor\": ");
	json_add_number(sb, v->speed > 0 ? v->speed : NAN);
	strbuf_addf(sb, ", \"n_base\": %zu, \"baseline\": ", v->n_base);
	json_add_number(sb, v->baseline);
	/* what value, lo, hi and baseline are in, and change (docs/summary.md, "Units") */
	strbuf_addstr(sb, ", \"unit\": ");
	json_add_string(sb, v->metric ? unit_name(v->unit) : NULL);
	strbuf_addstr(sb, ", \"change\": ");
	json_add_number(sb, v->change);
	strbuf_addstr(sb, ", \"change_unit\": ");
	json_add_string(sb, v->metric ? unit_name(v->change_unit) : NULL);
	strbuf_addstr(sb, ", \"p_value\": ");
	json_add_number(sb, v->p_value);
	strbuf_addf(sb, ", \"inconclusive\": %s", v->inconclusive ? "true" : "false");
	strbuf_addstr(sb, ", \"message\": ");
	json_add_string(sb, v->message ? v->message : "");
	strbuf_addstr(sb, ", \"cause\": ");
	json_add_string(sb, v->cause);
	strbuf_addstr(sb, ", \"rule\": ");
	json_add_string(sb, v->rule_origin);
	strbuf_addch(sb, '}');
}

/* Where to look: the interval's SG_BEGIN, else (the whole program, an interval recorded without a
 * line) the program's executable with no line; and the benchmark's command. */
static void finding_source(struct strbuf *sb, const struct verdict_set *s, const struct verdict *w)
{
	const struct verdict_program *prog = verdict_program(s, w->benchmark);
	int own = w->file && w->line > 0;

	strbuf_addstr(sb, ", \"file\": ");
	json_add_string(sb, own ? w->file : prog && prog->file ? prog->file : NULL);
	if (own)
		strbuf_addf(sb, ", \"line\": %d", w->line);
	else
		strbuf_addstr(sb, ", \"line\": null");
	strbuf_addstr(sb, ", \"command\": ");
	json_add_string(sb, prog ? prog->command : NULL);
}

/* One finding: where, its cause, its severity, and its checks by their JUnit testcase names. */
static void finding_json(struct strbuf *sb, const struct verdict_set *s, const struct finding *f)
{
	const struct verdict *w = finding_where(s, f);
	struct strbuf name = STRBUF_INIT;

	strbuf_addstr(sb, "{\"severity\": ");
	json_add_string(sb, finding_severity(f));
	strbuf_addstr(sb, ", \"benchmark\": ");
	json_add_string(sb, w->benchmark);
	strbuf_addstr(sb, ", \"interval\": ");
	json_add_string(sb, w->interval);
	finding_source(sb, s, w);
	strbuf_addstr(sb, ", \"configuration\": {\"size\": ");
	json_add_string(sb, w->size ? w->size : "-");
	strbuf_addf(sb, ", \"ranks\": %d, \"threads\": %d, \"p\": %d}, \"cause\": ", w->ranks,
		    w->threads, w->p);
	json_add_string(sb, finding_cause(s, f));
	strbuf_addf(sb, ", \"failed\": %zu, \"warned\": %zu, \"checks\": [", f->failed, f->warned);
	for (size_t k = 0; k < f->nr_checks; k++) {
		strbuf_reset(&name);
		report_testcase_name(&name, &s->v[f->checks[k]]);
		strbuf_addstr(sb, k ? ", " : "");
		json_add_string(sb, name.buf);
	}
	strbuf_addstr(sb, "], \"folded\": [");
	for (size_t k = f->nr_own; k < f->nr_checks; k++)
		if (finding_first_of_interval(s, f, k)) {
			strbuf_addstr(sb, k > f->nr_own ? ", " : "");
			json_add_string(sb, s->v[f->checks[k]].interval);
		}
	strbuf_addstr(sb, "]}");
	strbuf_release(&name);
}

/* "reports": every format ci writes by default, null when not written, then the others written. */
static void summary_reports(struct strbuf *out, const char *const *paths)
{
	const char *sep = "";

	strbuf_addch(out, '{');
	for (size_t i = 0; report_formats[i]; i++) {
		const char *path = paths ? paths[i] : NULL;
		if (!report_formats[i]->file && !path)
			continue;
		strbuf_addstr(out, sep);
		add_key(out, report_formats[i]->name);
		json_add_string(out, path);
		sep = ", ";
	}
	strbuf_addch(out, '}');
}

/* The JSON summary, input of 'scalegate post' (schema: docs/summary.md), into 'out'. 'paths' are
 * the files of the reports written with it, one per row of report_formats (NULL: none written). */
static void summary_format(struct strbuf *out, const struct verdict_set *s,
			   const char *const *paths)
{
	static const enum verdict_status order[] = {VERDICT_FAIL, VERDICT_ERROR, VERDICT_WARN,
						    VERDICT_SKIPPED, VERDICT_PASS};
	size_t count[VERDICT_SKIPPED + 1];
	char *headline = summary_headline(s, 140);
	const char *sep = "\n    ";

	report_count(s, count);
	strbuf_addf(out, "{\"scalegate_summary\": 1,\n \"verdict\": \"%s\",\n \"exit_code\": %d,\n",
		    verdict_word(s->exit_code), s->exit_code);
	/* an interrupted gate's reports hold what it could judge: never the whole verdict */
	strbuf_addf(out, " \"complete\": %s,\n \"interrupted\": ",
		    s->interrupted ? "false" : "true");
	json_add_string(out, s->interrupted ? interrupt_name(s->interrupted) : (const char *)NULL);
	strbuf_addstr(out, ",\n \"counts\": {");
	for (int st = 0; st <= VERDICT_SKIPPED; st++) {
		strbuf_addstr(out, st ? ", " : "");
		add_key(out, verdict_status_name((enum verdict_status)st));
		strbuf_addf(out, "%zu", count[st]);
	}
	strbuf_addf(out, ", \"inconclusive\": %zu", report_count_listed(s, REPORT_INCONCLUSIVE));
	strbuf_addstr(out, "},\n \"headline\": ");
	json_add_string(out, headline);
	strbuf_addstr(out, ",\n \"timestamp\": ");
	json_add_string(out, s->timestamp);
	strbuf_addstr(out, ",\n \"hostname\": ");
	json_add_string(out, s->hostname);
	strbuf_addstr(out, ",\n \"fingerprint\": {");
	for (size_t i = 0; i < s->nr_fingerprint; i++) {
		strbuf_addstr(out, i ? ", " : "");
		add_key(out, s->fingerprint[2 * i] ? s->fingerprint[2 * i] : "");
		json_add_string(out, s->fingerprint[2 * i + 1]);
	}
	strbuf_addstr(out, "},\n \"reports\": ");
	summary_reports(out, paths);
	strbuf_addstr(out, ",\n \"findings\": [");
	for (size_t i = 0; s->findings && i < s->findings->nr; i++) {
		strbuf_addstr(out, i ? ",\n    " : "\n    ");
		finding_json(out, s, &s->findings->f[i]);
	}
	strbuf_addstr(out, s->findings && s->findings->nr ? "\n ],\n \"verdicts\": ["
							  : "],\n \"verdicts\": [");
	for (size_t k = 0; k < ARRAY_SIZE(order); k++)
		for (size_t i = 0; i < s->nr; i++)
			if (s->v[i].status == order[k]) {
				strbuf_addstr(out, sep);
				verdict_json(out, &s->v[i]);
				sep = ",\n    ";
			}
	strbuf_addstr(out, s->nr ? "\n ]}\n" : "]}\n");
	free(headline);
}

int summary_write(const struct verdict_set *s, const char *const *paths, const char *path)
{
	struct strbuf out = STRBUF_INIT;
	int ret;

	summary_format(&out, s, paths);
	ret = write_file_atomic(path, out.buf, out.len);
	strbuf_release(&out);
	return ret;
}

static int write_json(const struct report_input *in, const char *path)
{
	struct strbuf out = STRBUF_INIT;
	int ret;

	summary_format(&out, &in->j->vs, in->paths);
	ret = write_file_atomic(path, out.buf, out.len);
	if (in->summary)
		strbuf_add(in->summary, out.buf, out.len);
	strbuf_release(&out);
	return ret;
}

const struct report_format report_json = {
	"json", "summary.json", "--json", "write the JSON summary (the input of 'scalegate post')",
	write_json,
};
