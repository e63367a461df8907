/* scalegate post: the requests of each format, from the options, the CI's environment and the
 * summary. */
#include "post/post-priv.h"
#include "base/escape.h"
#include "base/secret.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define GITHUB_DEFAULT_API "https://api.github.com"
#define GITHUB_DESCRIPTION_MAX 140  /* GitHub refuses a longer status description */
#define GITLAB_DESCRIPTION_MAX 255
#define CHECK_RUN_TEXT_MAX 65535    /* GitHub's limit for a check run's output.summary and .text */

/* An environment variable, with an empty value taken as unset (as CI templates leave them). */
static const char *env(const char *name)
{
	const char *v = secret_getenv(name); /* the token: out of the environment since loading */

	return v && *v ? v : NULL;
}

static void set_body(struct post_request *r, struct strbuf *sb)
{
	r->body_len = sb->len;
	r->body = strbuf_detach(sb);
}

/* ,"key": "value" */
static void json_member(struct strbuf *sb, const char *key, const char *value)
{
	if (sb->len > 1)
		strbuf_addstr(sb, ", ");
	json_add_string(sb, key);
	strbuf_addstr(sb, ": ");
	json_add_string(sb, value);
}

/* A path segment: everything but the unreserved characters percent-encoded ("group/app" ->
 * "group%2Fapp"). */
static char *url_segment(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    strchr("-._~", c))
			strbuf_addch(&sb, c);
		else
			strbuf_addf(&sb, "%%%02X", c);
	}
	return strbuf_detach(&sb);
}

static char *api_base(const char *url)
{
	size_t len = strlen(url);

	while (len && url[len - 1] == '/')
		len--;
	return xstrndup(url, len);
}

static int is_loopback(const char *host)
{
	return !strcasecmp(host, "localhost") || !strncmp(host, "127.", 4) ||
	       !strcmp(host, "[::1]") || !strcmp(host, "::1");
}

/* A token over plain http can be read on the way; to this machine it stays on it. */
static void warn_cleartext(const struct post_plan *p, const struct post_request *r)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL;

	if (u && !curl_url_set(u, CURLUPART_URL, r->url, 0) &&
	    !curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) &&
	    !curl_url_get(u, CURLUPART_HOST, &host, 0) &&
	    !strcasecmp(scheme, "http") && !is_loopback(host))
		warning("the %s goes to %s over plain http: the token in $%s can be read on the "
			"way; use https",
			r->what, host, p->token_env);
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
}

static int build_json(struct post_plan *p, const struct post_options *o, struct post_summary *s)
{
	struct post_request *r;
	struct strbuf body = STRBUF_INIT;

	if (!o->url)
		return gate_error(
			"the json format needs a URL: --url URL, or 'url' in the post: section");
	if (!post_is_http_url(o->url))
		return gate_error("'%s' is not an http:// or https:// URL", o->url);
	r = post_add_request(p, "summary", xstrdup(o->url));
	if (p->token_env)
		post_add_header(r, "Authorization", "Bearer ", 1);
	post_common_headers(r, "application/json");
	/* The body is the summary, byte for byte. */
	strbuf_add(&body, s->raw.buf, s->raw.len);
	set_body(r, &body);
	return 0;
}

/* The commit of a pull request's head: GITHUB_SHA is a merge commit nobody sees on the pull
 * request. */
static char *github_sha(const struct post_options *o)
{
	static const char *const head_sha[] = { "pull_request", "head", "sha", NULL };
	const char *event = env("GITHUB_EVENT_NAME"), *path = env("GITHUB_EVENT_PATH");
	char *sha;

	if (o->sha)
		return xstrdup(o->sha);
	if (event && path &&
	    (!strcmp(event, "pull_request") || !strcmp(event, "pull_request_target"))) {
		if ((sha = post_github_event(path, head_sha)))
			return sha;
		warning("cannot read the pull request's head commit from $GITHUB_EVENT_PATH; using "
			"$GITHUB_SHA");
	}
	return env("GITHUB_SHA") ? xstrdup(env("GITHUB_SHA")) : NULL;
}

static char *github_target(const struct post_options *o)
{
	const char *server = env("GITHUB_SERVER_URL"), *repo = env("GITHUB_REPOSITORY"),
		   *run = env("GITHUB_RUN_ID");

	if (o->target_url)
		return xstrdup(o->target_url);
	if (server && repo && run)
		return xstrfmt("%s/%s/actions/runs/%s", server, repo, run);
	return NULL;
}

/* The Markdown report for the check run's text: as recorded, else next to the summary. */
static int read_markdown(struct strbuf *sb, const char *recorded, const char *summary_path)
{
	const char *slash = strrchr(summary_path, '/');
	char *beside = NULL;
	const char *path = recorded;
	int ret;

	if (access(recorded, R_OK) && recorded[0] != '/' && slash) {
		beside = xstrfmt("%.*s/%s", (int)(slash - summary_path), summary_path, recorded);
		path = beside;
	}
	if (access(path, R_OK)) {
		warning("cannot read the Markdown report '%s': the check run goes without its text",
			recorded);
		free(beside);
		return -1;
	}
	ret = strbuf_read_file(sb, path);
	free(beside);
	return ret;
}

static const char *const github_states[] = { "success", "failure", "error" };
static const char *const check_titles[] = {
	"No scaling regression", "Scaling regression", "A benchmark failed to run",
};

static void github_check_run(struct post_plan *p, const struct post_options *o,
			     const struct post_summary *s, const char *summary_path,
			     const char *base, const char *repo, const char *sha,
			     const char *target)
{
	struct strbuf body = STRBUF_INIT, md = STRBUF_INIT, out = STRBUF_INIT;
	struct post_request *r = post_add_request(p, "check run",
					     xstrfmt("%s/repos/%s/check-runs", base, repo));
	char *summary = utf8_cut(s->headline, CHECK_RUN_TEXT_MAX), *text;

	post_api_headers(r, POST_FORMAT_GITHUB);
	strbuf_addch(&body, '{');
	json_member(&body, "name", o->context);
	json_member(&body, "head_sha", sha);
	json_member(&body, "status", "completed");
	json_member(&body, "conclusion",
			s->verdict == POST_VERDICT_PASS ? "success" : "failure");
	if (target)
		json_member(&body, "details_url", target);
	strbuf_addch(&out, '{');
	json_member(&out, "title", check_titles[s->verdict]);
	json_member(&out, "summary", summary);
	if (s->markdown && !read_markdown(&md, s->markdown, summary_path)) {
		text = utf8_cut(md.buf, CHECK_RUN_TEXT_MAX);
		json_member(&out, "text", text);
		free(text);
	}
	strbuf_addch(&out, '}');
	strbuf_addstr(&body, ", \"output\": ");
	strbuf_add(&body, out.buf, out.len);
	strbuf_addch(&body, '}');
	set_body(r, &body);
	free(summary);
	strbuf_release(&md);
	strbuf_release(&out);
}

static int build_github(struct post_plan *p, const struct post_options *o,
			const struct post_summary *s, const char *summary_path)
{
	const char *repo = o->repository ? o->repository : env("GITHUB_REPOSITORY");
	char *sha = github_sha(o), *target = github_target(o), *base = NULL, *desc;
	struct strbuf body = STRBUF_INIT;
	struct post_request *r;
	int ret = -1;

	if (!repo || !sha) {
		gate_error(
			"the github format needs %s%s%s",
			repo ? ""
			     : "the repository (--repository OWNER/NAME, 'repository' in the post: "
			       "section, or $GITHUB_REPOSITORY)",
			!repo && !sha ? " and " : "",
			sha ? ""
			    : "the commit (--sha SHA, 'sha' in the post: section, or $GITHUB_SHA)");
		goto out;
	}
	if (!post_valid_repository(repo)) {
		gate_error("the repository must be 'owner/name', not '%s'", repo);
		goto out;
	}
	if (!post_valid_sha(sha)) {
		gate_error("the commit must be a SHA (7 to 64 hexadecimal digits), not '%s'", sha);
		goto out;
	}
	base = api_base(o->api_url              ? o->api_url
			: env("GITHUB_API_URL") ? env("GITHUB_API_URL")
						: GITHUB_DEFAULT_API);
	if (!post_is_http_url(base)) {
		gate_error("the API URL must be an http:// or https:// URL, not '%s'", base);
		goto out;
	}
	if (target && !post_is_http_url(target)) {
		gate_error("the target URL must be an http:// or https:// URL, not '%s'", target);
		goto out;
	}
	r = post_add_request(p, "commit status",
			     xstrfmt("%s/repos/%s/statuses/%s", base, repo, sha));
	post_api_headers(r, POST_FORMAT_GITHUB);
	desc = utf8_cut(s->headline, GITHUB_DESCRIPTION_MAX);
	strbuf_addch(&body, '{');
	json_member(&body, "state", github_states[s->verdict]);
	json_member(&body, "description", desc);
	json_member(&body, "context", o->context);
	if (target)
		json_member(&body, "target_url", target);
	strbuf_addch(&body, '}');
	set_body(r, &body);
	free(desc);
	if (o->check_run)
		github_check_run(p, o, s, summary_path, base, repo, sha, target);
	ret = post_comment_add(p, o, s,
			       &(struct post_target){ POST_FORMAT_GITHUB, base, repo, sha,
						      target });
out:
	free(sha);
	free(target);
	free(base);
	return ret;
}

static int build_gitlab(struct post_plan *p, const struct post_options *o,
			const struct post_summary *s)
{
	const char *api = o->api_url ? o->api_url : env("CI_API_V4_URL");
	const char *project = o->project_id ? o->project_id : env("CI_PROJECT_ID");
	const char *sha = o->sha ? o->sha : env("CI_COMMIT_SHA");
	const char *target = o->target_url ? o->target_url : env("CI_PIPELINE_URL");
	const char *pipeline = env("CI_PIPELINE_ID"), *ref = env("CI_COMMIT_REF_NAME");
	struct strbuf body = STRBUF_INIT, missing = STRBUF_INIT;
	struct post_request *r;
	char *base, *id, *desc;
	int ret;

	/* No default API: a token sent to gitlab.com by mistake is a leaked token. */
	if (!api)
		strbuf_addstr(&missing, "the API URL (--api-url URL, 'api_url' in the post: "
					"section, or $CI_API_V4_URL)");
	if (!project)
		strbuf_addf(&missing,
			    "%sthe project (--project-id ID, 'project_id' in the post: section, or "
			    "$CI_PROJECT_ID)",
			    missing.len ? " and " : "");
	if (!sha)
		strbuf_addf(
			&missing,
			"%sthe commit (--sha SHA, 'sha' in the post: section, or $CI_COMMIT_SHA)",
			missing.len ? " and " : "");
	if (missing.len) {
		gate_error("the gitlab format needs %s", missing.buf);
		strbuf_release(&missing);
		return -1;
	}
	if (!post_valid_sha(sha))
		return gate_error("the commit must be a SHA (7 to 64 hexadecimal digits), not '%s'",
				  sha);
	if (!post_is_http_url(api))
		return gate_error("the API URL must be an http:// or https:// URL, not '%s'", api);
	if (target && !post_is_http_url(target))
		return gate_error("the target URL must be an http:// or https:// URL, not '%s'",
				  target);
	base = api_base(api);
	id = url_segment(project);
	r = post_add_request(p, "commit status",
			     xstrfmt("%s/projects/%s/statuses/%s", base, id, sha));
	post_api_headers(r, POST_FORMAT_GITLAB);
	desc = utf8_cut(s->headline, GITLAB_DESCRIPTION_MAX);
	/* A JSON body, as the GitLab REST API documents for POST requests. */
	strbuf_addch(&body, '{');
	json_member(&body, "state", s->verdict == POST_VERDICT_PASS ? "success" : "failed");
	json_member(&body, "name", o->context);
	json_member(&body, "description", desc);
	if (target)
		json_member(&body, "target_url", target);
	/* In the pipeline that posts, the status belongs to that pipeline and its ref. */
	if (!o->project_id && !o->sha && ref)
		json_member(&body, "ref", ref);
	if (!o->project_id && !o->sha && pipeline &&
	    strspn(pipeline, "0123456789") == strlen(pipeline))
		strbuf_addf(&body, ", \"pipeline_id\": %s", pipeline);
	strbuf_addch(&body, '}');
	set_body(r, &body);
	free(desc);
	ret = post_comment_add(p, o, s,
			       &(struct post_target){ POST_FORMAT_GITLAB, base, id, sha, target });
	free(id);
	free(base);
	return ret;
}

/* Without --format: a URL means json, else the CI we run in says which. */
static enum post_format default_format(const struct post_options *o)
{
	if (o->url)
		return POST_FORMAT_JSON;
	if (env("GITHUB_ACTIONS"))
		return POST_FORMAT_GITHUB;
	if (env("GITLAB_CI"))
		return POST_FORMAT_GITLAB;
	return POST_FORMAT_UNSET;
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int post_prepare(struct post_plan *p, const struct post_options *opt, const char *summary_path,
		 const struct strbuf *summary)
{
	struct post_options o = *opt;
	struct post_summary s;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	if (o.format == POST_FORMAT_UNSET && !(o.format = default_format(&o)))
		return gate_error(
			"where to post? give --format json|github|gitlab (json needs --url), "
			"or a post: section in the configuration");
	if (o.check_run == POST_UNSET)
		o.check_run = 0;
	if (o.check_run && o.format != POST_FORMAT_GITHUB)
		return gate_error(
			"a check run is GitHub's: --check-run needs --format github, not %s",
			post_format_name(o.format));
	if (o.comment == 1 && o.format == POST_FORMAT_JSON)
		return gate_error("a comment goes on a pull or merge request: --comment needs "
				  "--format github or gitlab, not json");
	if (!o.context)
		o.context = POST_DEFAULT_CONTEXT;
	if (!o.token_env && o.format != POST_FORMAT_JSON)
		o.token_env = o.format == POST_FORMAT_GITHUB ? "GITHUB_TOKEN" : "GITLAB_TOKEN";
	if (o.token_env && !post_valid_env_name(o.token_env))
		return gate_error("'%s' is not the name of an environment variable", o.token_env);
	p->format = o.format;
	p->require = o.require == POST_UNSET ? 0 : o.require;
	p->timeout = o.timeout == POST_UNSET ? POST_DEFAULT_TIMEOUT : o.timeout;
	p->connect_timeout = o.connect_timeout == POST_UNSET ? POST_DEFAULT_CONNECT_TIMEOUT
							     : o.connect_timeout;
	p->retries = o.retries == POST_UNSET ? POST_DEFAULT_RETRIES : o.retries;
	p->ca_bundle = o.ca_bundle ? xstrdup(o.ca_bundle) : NULL;
	p->token_env = o.token_env;
	p->token = o.token_env ? env(o.token_env) : NULL;
	if (p->token && has_control(p->token)) {
		/* It would end the header: a request smuggled into the token. */
		gate_error("the value of $%s contains a line break or a control character",
			   p->token_env);
		goto out;
	}
	if (post_summary_read(&s, summary_path, summary) < 0)
		goto out;
	if (o.format == POST_FORMAT_JSON)
		ret = build_json(p, &o, &s);
	else if (o.format == POST_FORMAT_GITHUB)
		ret = build_github(p, &o, &s, summary_path);
	else
		ret = build_gitlab(p, &o, &s);
	/* Short tokens would match by chance; a real one in a body is a leak to refuse. */
	for (size_t i = 0; !ret && p->token && strlen(p->token) >= 8 && i < p->nr_req; i++)
		if (memmem(p->req[i].body, p->req[i].body_len, p->token, strlen(p->token)))
			ret = gate_error("the %s would contain the value of $%s: not posting it",
					 p->req[i].what, p->token_env);
	for (size_t i = 0; !ret && p->token_env && i < p->nr_req; i++)
		warn_cleartext(p, &p->req[i]);
	post_summary_release(&s);
out:
	if (ret)
		post_plan_release(p);
	return ret;
}

void post_plan_release(struct post_plan *p)
{
	for (size_t i = 0; i < p->nr_req; i++) {
		struct post_request *r = &p->req[i];
		for (size_t j = 0; j < r->nr_headers; j++)
			free(r->headers[j].value);
		free(r->headers);
		free(r->url);
		free(r->body);
		post_comment_free(r->comment);
	}
	free(p->req);
	free(p->ca_bundle);
	memset(p, 0, sizeof(*p));
}

void post_print(const struct post_plan *p, FILE *out)
{
	for (size_t i = 0; i < p->nr_req; i++) {
		const struct post_request *r = &p->req[i];
		struct strbuf body = STRBUF_INIT;
		char *url = post_display_url(r->url, p->token);

		if (i)
			fputc('\n', out);
		if (r->comment)
			post_comment_print(r, out);
		fprintf(out, "POST %s\n", url);
		for (size_t j = 0; j < r->nr_headers; j++) {
			struct strbuf v = STRBUF_INIT;
			post_mask(&v, r->headers[j].value, strlen(r->headers[j].value), p->token);
			fprintf(out, "%s: %s%s\n", r->headers[j].name, v.buf ? v.buf : "",
				r->headers[j].secret ? POST_MASK : "");
			strbuf_release(&v);
		}
		post_mask(&body, r->body, r->body_len, p->token);
		fprintf(out, "\n%s%s", body.buf ? body.buf : "",
			body.len && body.buf[body.len - 1] == '\n' ? "" : "\n");
		strbuf_release(&body);
		free(url);
	}
	if (p->token_env && !p->token)
		warning("$%s is not set: a real post would fail", p->token_env);
}

int post_send(const struct post_plan *p)
{
	int ret = 0;

	if (p->token_env && !p->token) {
		post_report(p->require,
			    "cannot post: the environment variable %s is not set or empty",
			    p->token_env);
		return -1;
	}
	for (size_t i = 0; i < p->nr_req; i++) {
		char *url;

		if (p->req[i].comment) {
			ret |= post_comment_send(&p->req[i], p);
			continue;
		}
		if (post_http_send(&p->req[i], p, NULL) < 0) {
			ret = -1;
			continue;
		}
		url = post_display_url(p->req[i].url, p->token);
		printf("scalegate: posted the %s to %s\n", p->req[i].what, url);
		free(url);
	}
	return ret;
}

int post_run(const struct post_options *o, const char *summary_path, const struct strbuf *summary)
{
	struct post_plan p;
	int ret;

	if (post_prepare(&p, o, summary_path, summary) < 0)
		return -1;
	if (o->dry_run) {
		post_print(&p, stdout);
		ret = 0;
	} else {
		ret = post_send(&p);
	}
	post_plan_release(&p);
	return ret;
}
