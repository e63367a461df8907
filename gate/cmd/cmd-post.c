/* scalegate post: send the JSON summary, or a GitHub/GitLab commit status made from it, to CI. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "config/config.h"
#include "base/exitcode.h"
#include "cmd/options.h"
#include "post/post.h"
#include "base/util.h"

static const struct command_usage usage = {
	"post",
	"usage: scalegate post [--format json|github|gitlab] [--url URL] [--token-env NAME]\n"
	"                      [--comment [--pull-request N]] [--dry-run] [--require-post]\n"
	"                      [-c scalegate.yml] [options] SUMMARY.json\n"
	"Posts the summary written by 'scalegate check --json' (docs/post.md): to a URL, or\n"
	"as a commit status and one pull-request comment kept up to date. A failed post\n"
	"is a warning: the gate's verdict and exit code stand.\n",
	"exit codes: 0 posted, or not posted (a warning); 2 usage, configuration or\n"
	"            summary error; 4 not posted with --require-post\n"};

/* '30', '30s', '500ms', '2m', '1h': seconds in (0, 1 h], or -1. */
static double parse_seconds(const char *s)
{
	static const struct { const char *suffix; double scale; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "m", 60 }, { "h", 3600 },
	};
	char *end;
	double v;

	if (!*s || !strchr("0123456789.", *s))
		return -1;
	v = strtod(s, &end);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		v *= units[i].scale;
		return v > 0 && v <= POST_MAX_TIMEOUT ? v : -1;
	}
	return -1;
}

static int parse_format(const struct option *o, const char *v)
{
	if (!(*(enum post_format *)o->value = post_format_parse(v)))
		return option_bad_choice(o, v, post_format_names);
	return 0;
}

static int parse_name(const struct option *o, const char *v)
{
	if (!*v)
		return option_bad_value(o, v, "a name, a project ID or path");
	*(const char **)o->value = v;
	return 0;
}

static int parse_number(const struct option *o, const char *v)
{
	if (!post_valid_number(v))
		return option_bad_value(o, v, "a pull request's number or a merge request's IID");
	*(const char **)o->value = v;
	return 0;
}

static int parse_duration(const struct option *o, const char *v)
{
	if ((*(double *)o->value = parse_seconds(v)) < 0)
		return option_bad_value(o, v, "a duration up to 1h such as 30, 30s or 500ms");
	return 0;
}

static int parse_retries(const struct option *o, const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < 0 || n > POST_MAX_RETRIES)
		return option_bad_value(o, v, "an integer from 0 to 10");
	*(int *)o->value = (int)n;
	return 0;
}

static int parse_ca_bundle(const struct option *o, const char *v)
{
	if (access(v, R_OK))
		return gate_error("cannot read the CA bundle '%s'", v);
	*(const char **)o->value = v;
	return 0;
}

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct post_options *o, const char **config,
			 const char **summary)
{
	const struct option opts[] = {
		OPT_PARSE(NULL, "--format", &o->format, "F",
			  "json: the summary to --url; github: a commit status;\n"
			  "gitlab: a commit status (default: json with --url, else the CI's)",
			  parse_format),
		OPT_STRING(NULL, "--url", &o->url, "URL", "the endpoint of the json format"),
		OPT_STRING(NULL, "--token-env", &o->token_env, "NAME",
			   "the environment variable holding the token\n"
			   "(default: GITHUB_TOKEN, GITLAB_TOKEN; none for json)"),
		OPT_FLAG(NULL, "--dry-run", &o->dry_run,
			 "print the requests, the token as ***; send nothing"),
		OPT_FLAG(NULL, "--require-post", &o->require,
			 "a failed post is an error (exit code 4)"),
		OPT_STRING("-c", "--config", config, "FILE",
			   "take defaults from the post: section of this configuration"),
		OPT_FLAG(NULL, "--check-run", &o->check_run,
			 "github: also create a check run with the Markdown report"),
		OPT_FLAG(NULL, "--comment", &o->comment,
			 "github, gitlab: also one comment on the pull (merge) request,\n"
			 "edited on every post"),
		OPT_PARSE(NULL, "--pull-request", &o->pull_request, "N",
			  "the pull request's number, the merge request's IID (default:\n"
			  "the pull_request event's; $CI_MERGE_REQUEST_IID)",
			  parse_number),
		OPT_PARSE(NULL, "--context", &o->context, "NAME",
			  "the status's name (default: scalegate)", parse_name),
		OPT_STRING(NULL, "--target-url", &o->target_url, "URL",
			   "the status's link (default: the CI run or pipeline)"),
		OPT_STRING(NULL, "--repository", &o->repository, "O/N",
			   "github: the repository (default: $GITHUB_REPOSITORY)"),
		OPT_STRING(NULL, "--sha", &o->sha, "SHA",
			   "the commit (default: $GITHUB_SHA, $CI_COMMIT_SHA)"),
		OPT_STRING(NULL, "--api-url", &o->api_url, "URL",
			   "the API (default: $GITHUB_API_URL or https://api.github.com;\n"
			   "$CI_API_V4_URL)"),
		OPT_PARSE(NULL, "--project-id", &o->project_id, "ID",
			  "gitlab: the project (default: $CI_PROJECT_ID)", parse_name),
		OPT_PARSE(NULL, "--timeout", &o->timeout, "T",
			  "limit of one attempt: 30, 30s, 500ms, 2m (default: 30s)",
			  parse_duration),
		OPT_PARSE(NULL, "--connect-timeout", &o->connect_timeout, "T",
			  "limit to connect (default: 10s)", parse_duration),
		OPT_PARSE(NULL, "--retries", &o->retries, "N",
			  "attempts after a failed one, 0 to 10 (default: 3)", parse_retries),
		OPT_PARSE(NULL, "--ca-bundle", &o->ca_bundle, "FILE",
			  "the CA certificates to verify the server with", parse_ca_bundle),
		OPT_END()};
	int n = options_parse(argc, argv, opts, &usage);

	if (n < 0)
		return n;
	if (n == 0)
		return gate_error(
			"which summary? give the file written by 'scalegate check --json'");
	if (n > 1)
		return gate_error("one summary only, not '%s' and '%s'", argv[0], argv[1]);
	*summary = argv[0];
	return 0;
}

int cmd_post(int argc, char **argv)
{
	struct post_options flags, file;
	struct post_plan plan;
	struct config c;
	const char *config = NULL, *summary = NULL;
	int code = SG_EXIT_USAGE, loaded = 0, ret;

	post_options_init(&flags);
	post_options_init(&file);
	ret = parse_options(argc, argv, &flags, &config, &summary);
	if (ret)
		return ret == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		gate_error("cannot initialize libcurl");
		return SG_EXIT_USAGE;
	}
	if (config) {
		loaded = 1;
		if (config_load(&c, config) || post_config_parse(&c.doc, c.post, c.dir, &file))
			goto out;
		post_options_merge(&flags, &file);
	}
	if (post_prepare(&plan, &flags, summary, NULL) < 0)
		goto out;
	if (flags.dry_run) {
		post_print(&plan, stdout);
		code = SG_EXIT_PASS;
	} else if (post_send(&plan) < 0) {
		if (plan.require == 1) {
			code = SG_EXIT_POST_FAILED;
		} else {
			warning("the summary was not posted; the exit code stays 0 "
				"(--require-post makes this an error)");
			code = SG_EXIT_PASS;
		}
	} else {
		code = SG_EXIT_PASS;
	}
	post_plan_release(&plan);
out:
	post_options_release(&file);
	if (loaded)
		config_release(&c);
	curl_global_cleanup();
	return code;
}
