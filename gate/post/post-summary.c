/*
 * Reading the JSON summary of 'scalegate check --json' with libyaml: JSON is
 * YAML 1.2 flow syntax, and libyaml 0.2 parses what the summary writer emits.
 * Valid JSON that libyaml refuses (surrogate-pair escapes such as "\ud83d\ude00",
 * raw U+007F..U+009F, keys of more than 1024 characters, a key and its ':' on
 * different lines) is reported as a syntax error with its position; see
 * docs/post.md for why this beats a hand-written parser here.
 */
#include "post/post-priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const verdict_names[] = {
	[POST_VERDICT_PASS] = "pass",
	[POST_VERDICT_REGRESSION] = "regression",
	[POST_VERDICT_RUN_FAILED] = "run-failed",
};

static const char *string_value(yaml_node_t *n)
{
	return n && yamldoc_scalar(n) && !yamldoc_is_null(n) ? yamldoc_scalar(n) : NULL;
}

/* ": 2 regressions (8 checks failed)" from the findings of a summary that has them, as check says
 * it (judge/findings.c); 1 if it said so. */
static int add_regressions(struct strbuf *sb, struct yamldoc *d, yaml_node_t *root)
{
	yaml_node_t *findings = yamldoc_map_get(d, root, "findings");
	struct yamldoc_iter it;
	size_t regressions = 0, failed = 0;

	yamldoc_list_iter(&it, d, findings);
	while (yamldoc_list_next(&it)) {
		const char *sev = string_value(yamldoc_map_get(d, it.value, "severity"));
		const char *n = string_value(yamldoc_map_get(d, it.value, "failed"));
		if (!sev || strcmp(sev, "regression"))
			continue;
		regressions++;
		failed += n ? strtoul(n, NULL, 10) : 0;
	}
	if (!regressions)
		return 0;
	strbuf_addf(sb, ": %zu regression%s (%zu check%s failed)", regressions,
		    regressions == 1 ? "" : "s", failed, failed == 1 ? "" : "s");
	return 1;
}

/* A headline for a summary without one: the verdict and the counts. */
static char *fallback_headline(struct yamldoc *d, yaml_node_t *root, enum post_verdict v)
{
	static const char *const keys[] = { "fail", "error", "warn", "pass", "skipped" };
	yaml_node_t *counts = yamldoc_map_get(d, root, "counts");
	struct strbuf sb = STRBUF_INIT;
	const char *sep = ": ";

	strbuf_addf(&sb, "scalegate: %s", verdict_names[v]);
	if (add_regressions(&sb, d, root))
		return strbuf_detach(&sb);
	for (size_t i = 0; yamldoc_is_map(counts) && i < ARRAY_SIZE(keys); i++) {
		const char *n = string_value(yamldoc_map_get(d, counts, keys[i]));
		if (n && strcmp(n, "0")) {
			strbuf_addf(&sb, "%s%s %s", sep, n, keys[i]);
			sep = ", ";
		}
	}
	return strbuf_detach(&sb);
}

/* One line: a commit status shows no line breaks. */
static char *one_line(const char *s)
{
	char *out = xstrdup(s);

	for (char *p = out; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	return out;
}

int post_summary_read(struct post_summary *s, const char *path, const struct strbuf *text)
{
	struct yamldoc d;
	yaml_node_t *root, *n;
	const char *v;
	char buf[64];
	int ret = -1, found = -1;

	memset(s, 0, sizeof(*s));
	strbuf_init(&s->raw);
	yamldoc_init(&d);
	if (text)
		strbuf_add(&s->raw, text->buf, text->len);
	else if (strbuf_read_file(&s->raw, path) < 0)
		goto out;
	if (!s->raw.buf)
		strbuf_add(&s->raw, "", 0);
	if (yamldoc_load_text(&d, path, s->raw.buf, s->raw.len) < 0 || d.nr_errors) {
		gate_error("'%s' is not a JSON summary written by 'scalegate check --json'", path);
		goto out;
	}
	root = yamldoc_root(&d);
	n = yamldoc_map_get(&d, root, "scalegate_summary");
	if (!n) {
		gate_error("'%s' is not a scalegate summary: it has no 'scalegate_summary' key",
			   path);
		goto out;
	}
	if (!(v = string_value(n)) || strcmp(v, "1")) {
		yamldoc_error(&d, n,
			      "summary format %s is not supported; this scalegate reads format 1",
			      v ? v : yamldoc_describe(n, buf, sizeof(buf)));
		goto out;
	}
	n = yamldoc_map_get(&d, root, "verdict");
	v = string_value(n);
	for (size_t i = 0; v && i < ARRAY_SIZE(verdict_names); i++)
		if (!strcmp(v, verdict_names[i]))
			found = (int)i;
	if (found < 0) {
		if (n)
			yamldoc_error(&d, n,
				      "'verdict' must be pass, regression or run-failed, not %s",
				      yamldoc_describe(n, buf, sizeof(buf)));
		else
			gate_error("'%s' has no 'verdict'", path);
		goto out;
	}
	s->verdict = (enum post_verdict)found;
	v = string_value(yamldoc_map_get(&d, root, "headline"));
	s->headline = v && *v ? one_line(v) : fallback_headline(&d, root, s->verdict);
	n = yamldoc_map_get(&d, root, "reports");
	if (yamldoc_is_map(n) && (v = string_value(yamldoc_map_get(&d, n, "markdown"))) && *v)
		s->markdown = xstrdup(v);
	ret = 0;
out:
	yamldoc_release(&d);
	if (ret)
		post_summary_release(s);
	return ret;
}

void post_summary_release(struct post_summary *s)
{
	strbuf_release(&s->raw);
	free(s->headline);
	free(s->markdown);
	memset(s, 0, sizeof(*s));
}
