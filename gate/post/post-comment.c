/* The pull-request comment: its Markdown from the summary (the headline, the findings with their
 * interval, file:line, configuration and cause, the inconclusive count, the link to the full
 * report) and the requests that find, edit or create it on GitHub or GitLab. */
#include "post/post-priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/secret.h"
#include "base/words.h"

#define COMMENT_MAX_FINDINGS 20
#define COMMENT_MAX_CAUSE 1000 /* bytes of a cause; past this it ends after a clause */
#define COMMENT_MAX 60000 /* bytes; GitHub takes 65536 characters, GitLab a million */

static const char *summary_str(struct yamldoc *d, yaml_node_t *map, const char *key)
{
	yaml_node_t *n = yamldoc_map_get(d, map, key);

	return n && yamldoc_scalar(n) && !yamldoc_is_null(n) ? yamldoc_scalar(n) : NULL;
}

static long summary_num(struct yamldoc *d, yaml_node_t *map, const char *key)
{
	const char *v = summary_str(d, map, key);

	return v ? strtol(v, NULL, 10) : 0;
}

/* ❌ regression, 💥 run failed, ⚠️ warnings or errors, ✅ pass: the Markdown report's icons. */
static const char *icon(const struct post_summary *s, long warnings, long errors)
{
	if (s->verdict == POST_VERDICT_REGRESSION)
		return "\xe2\x9d\x8c";
	if (s->verdict == POST_VERDICT_RUN_FAILED)
		return "\xf0\x9f\x92\xa5";
	return warnings > 0 || errors > 0 ? "\xe2\x9a\xa0\xef\xb8\x8f" : "\xe2\x9c\x85";
}

/* The interval at its SG_BEGIN, or (none recorded) the program's executable and its command. */
static void finding_where(struct strbuf *sb, struct yamldoc *d, yaml_node_t *f)
{
	const char *interval = summary_str(d, f, "interval"), *file = summary_str(d, f, "file");
	const char *command = summary_str(d, f, "command");
	long line = summary_num(d, f, "line");

	md_add_code(sb, interval ? interval : "-", 1);
	if (file && line > 0) {
		strbuf_addstr(sb, " at ");
		md_add_text(sb, file, 200);
		strbuf_addf(sb, ":%ld", line);
		return;
	}
	if (file) {
		strbuf_addstr(sb, " in ");
		md_add_text(sb, file, 200);
	}
	if (command) {
		strbuf_addstr(sb, ", run as ");
		md_add_code(sb, command, 1);
	}
}

static void finding_row(struct strbuf *sb, struct yamldoc *d, yaml_node_t *f)
{
	yaml_node_t *c = yamldoc_map_get(d, f, "configuration");
	const char *sev = summary_str(d, f, "severity"), *cause = summary_str(d, f, "cause");
	const char *bench = summary_str(d, f, "benchmark");
	int regression = sev && !strcmp(sev, "regression");
	long n = summary_num(d, f, regression ? "failed" : "warned");
	char config[128];

	strbuf_addf(sb, "| %s %s: %ld check%s %s | ",
		    regression ? "\xe2\x9d\x8c" : "\xe2\x9a\xa0\xef\xb8\x8f",
		    regression ? "regression" : "warning", n, n == 1 ? "" : "s",
		    regression ? "failed" : "warned");
	md_add_text(sb, bench ? bench : "-", 80);
	strbuf_addstr(sb, " | ");
	finding_where(sb, d, f);
	strbuf_addstr(sb, " | ");
	md_add_text(sb,
		    config_words(config, sizeof(config), (int)summary_num(d, c, "ranks"),
				 (int)summary_num(d, c, "threads"), summary_str(d, c, "size")),
		    120);
	strbuf_addstr(sb, " | ");
	md_add_sentence(sb, cause ? cause : "\xe2\x80\x93", COMMENT_MAX_CAUSE, "the full report");
	strbuf_addstr(sb, " |\n");
}

static void findings_table(struct strbuf *sb, struct yamldoc *d, yaml_node_t *findings)
{
	size_t nr = yamldoc_size(findings);
	struct yamldoc_iter it;

	if (!yamldoc_is_list(findings) || !nr)
		return;
	strbuf_addstr(sb, "| Finding | Benchmark | Interval | Configuration | Likely cause |\n"
			  "| --- | --- | --- | --- | --- |\n");
	yamldoc_list_iter(&it, d, findings);
	while (yamldoc_list_next(&it) && it.index < COMMENT_MAX_FINDINGS)
		finding_row(sb, d, it.value);
	if (nr > COMMENT_MAX_FINDINGS)
		strbuf_addf(sb, "\n%zu more findings in the full report.\n",
			    nr - COMMENT_MAX_FINDINGS);
	strbuf_addch(sb, '\n');
}

/* The link, with the characters that would end a Markdown link target percent-encoded. */
static void add_link(struct strbuf *sb, const char *url)
{
	strbuf_addstr(sb, "[The full report](");
	for (; *url; url++)
		if (*url == '(' || *url == ')' || *url == '<' || *url == '>')
			strbuf_addf(sb, "%%%02X", (unsigned char)*url);
		else
			strbuf_addch(sb, *url);
	strbuf_addch(sb, ')');
}

static void footer(struct strbuf *sb, const struct post_target *t, long inconclusive, long errors)
{
	if (inconclusive > 0)
		strbuf_addf(sb,
			    "**%ld check%s inconclusive**: the data could not decide either way "
			    "(more repeats would); inconclusive is not a warning.\n\n",
			    inconclusive, inconclusive == 1 ? "" : "s");
	if (errors > 0)
		strbuf_addf(sb,
			    "**%ld error%s**: a run failed or a check could not be judged; the "
			    "full report says which.\n\n",
			    errors, errors == 1 ? "" : "s");
	if (t->link)
		add_link(sb, t->link);
	else
		strbuf_addstr(sb, "The full report is in the CI job's reports");
	/* a hexadecimal SHA: nothing to escape */
	strbuf_addf(sb, " \xc2\xb7 commit `%.12s` \xc2\xb7 this comment is updated on every push\n",
		    t->sha);
}

/* The comment's Markdown: the marker first, by which the next post finds it. */
static int comment_body(struct strbuf *sb, const struct post_summary *s, const char *marker,
			const struct post_target *t)
{
	struct yamldoc d;
	yaml_node_t *root, *counts, *findings;
	long warn, inconclusive, errors;
	const char *dash;
	char *cut, *title;

	yamldoc_init(&d);
	if (yamldoc_load_text(&d, "the summary", s->raw.buf, s->raw.len) < 0)
		return -1; /* read before, so reported already if it could happen */
	root = yamldoc_root(&d);
	counts = yamldoc_map_get(&d, root, "counts");
	warn = summary_num(&d, counts, "warn");
	inconclusive = summary_num(&d, counts, "inconclusive");
	errors = summary_num(&d, counts, "error");
	findings = yamldoc_map_get(&d, root, "findings");
	strbuf_addf(sb, "%s\n### %s ", marker, icon(s, warn - inconclusive, errors));
	/* the outcome: the table below tells the findings, which the headline's tail begins */
	dash = yamldoc_size(findings) ? strstr(s->headline, " \xe2\x80\x94 ") : NULL;
	title = dash ? xstrndup(s->headline, (size_t)(dash - s->headline)) : xstrdup(s->headline);
	md_add_text(sb, title, 1000);
	strbuf_addstr(sb, "\n\n");
	findings_table(sb, &d, findings);
	footer(sb, t, inconclusive, errors);
	yamldoc_release(&d);
	free(title);
	cut = utf8_cut(sb->buf, COMMENT_MAX);
	strbuf_reset(sb);
	strbuf_addstr(sb, cut);
	free(cut);
	return 0;
}

/* "<!-- scalegate: CONTEXT -->", the context kept to characters that cannot end the comment. */
static char *comment_marker(const char *context)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "<!-- scalegate: ");
	for (const char *c = context; *c; c++)
		strbuf_addch(&sb, strchr("<>-!&", *c) || (unsigned char)*c < 0x20 ? '_' : *c);
	strbuf_addstr(&sb, " -->");
	return strbuf_detach(&sb);
}

/* The pull request: the option, else the pull_request event's, else the merge request's IID. */
static char *pull_request(const struct post_options *o, enum post_format f)
{
	static const char *const number[] = { "pull_request", "number", NULL };
	const char *event = secret_getenv("GITHUB_EVENT_NAME");
	const char *path = secret_getenv("GITHUB_EVENT_PATH"), *iid;

	if (o->pull_request)
		return xstrdup(o->pull_request);
	if (f == POST_FORMAT_GITHUB && event && path && *path &&
	    (!strcmp(event, "pull_request") || !strcmp(event, "pull_request_target")))
		return post_github_event(path, number);
	iid = secret_getenv("CI_MERGE_REQUEST_IID");
	return f == POST_FORMAT_GITLAB && iid && *iid ? xstrdup(iid) : NULL;
}

static void lookups(struct post_comment *c, const struct post_target *t, const char *pr)
{
	if (t->format == POST_FORMAT_GITHUB) {
		c->check_url = xstrfmt("%s/repos/%s/pulls/%s", t->base, t->repo, pr);
		c->list_url = xstrfmt("%s/repos/%s/issues/%s/comments", t->base, t->repo, pr);
		c->edit_url = xstrfmt("%s/repos/%s/issues/comments", t->base, t->repo);
		c->edit_method = "PATCH";
	} else {
		c->check_url = xstrfmt("%s/user", t->base);
		c->list_url = xstrfmt("%s/projects/%s/merge_requests/%s/notes", t->base, t->repo,
				      pr);
		c->edit_url = xstrdup(c->list_url);
		c->edit_method = "PUT";
	}
}

int post_comment_add(struct post_plan *p, const struct post_options *o,
		     const struct post_summary *s, const struct post_target *t)
{
	struct strbuf md = STRBUF_INIT, body = STRBUF_INIT;
	struct post_comment *c;
	struct post_request *r;
	char *pr;

	if (o->comment != 1)
		return 0;
	if (!(pr = pull_request(o, t->format))) {
		printf("scalegate: not a %s request: no comment to post\n",
		       t->format == POST_FORMAT_GITHUB ? "pull" : "merge");
		return 0;
	}
	if (!post_valid_number(pr)) {
		gate_error("the %s request must be a number, not '%s'",
			   t->format == POST_FORMAT_GITHUB ? "pull" : "merge", pr);
		free(pr);
		return -1;
	}
	c = xcalloc(1, sizeof(*c));
	c->format = t->format;
	c->pull_request = pr;
	c->sha = xstrdup(t->sha);
	c->marker = comment_marker(o->context);
	lookups(c, t, pr);
	if (comment_body(&md, s, c->marker, t) < 0) {
		strbuf_release(&md);
		post_comment_free(c);
		return -1;
	}
	strbuf_addch(&body, '{');
	json_add_string(&body, "body");
	strbuf_addstr(&body, ": ");
	json_add_string(&body, md.buf);
	strbuf_addch(&body, '}');
	r = post_add_request(p, t->format == POST_FORMAT_GITHUB ? "pull-request comment"
								: "merge-request note",
			     xstrdup(c->list_url));
	post_api_headers(r, t->format);
	r->body_len = body.len;
	r->body = strbuf_detach(&body);
	r->comment = c;
	strbuf_release(&md);
	return 0;
}

void post_comment_free(struct post_comment *c)
{
	if (!c)
		return;
	free(c->pull_request);
	free(c->sha);
	free(c->marker);
	free(c->check_url);
	free(c->list_url);
	free(c->edit_url);
	free(c);
}
