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

static const char usage_text[] =
	"usage: scalegate post [--format json|github|gitlab] [--url URL] [--token-env NAME]\n"
	"                      [--dry-run] [--require-post] [-c scalegate.yml] [options] SUMMARY.json\n"
	"Posts the summary written by 'scalegate check --json' (docs/post.md). A failed\n"
	"post is a warning: the gate's verdict and exit code stand.\n"
	"  --format F          json: the summary to --url; github: a commit status;\n"
	"                      gitlab: a commit status (default: json with --url, else the CI's)\n"
	"  --url URL           the endpoint of the json format\n"
	"  --token-env NAME    the environment variable holding the token\n"
	"                      (default: GITHUB_TOKEN, GITLAB_TOKEN; none for json)\n"
	"  --dry-run           print the requests, the token as ***; send nothing\n"
	"  --require-post      a failed post is an error (exit code 4)\n"
	"  -c FILE             take defaults from the post: section of this configuration\n"
	"  --check-run         github: also create a check run with the Markdown report\n"
	"  --context NAME      the status's name (default: scalegate)\n"
	"  --target-url URL    the status's link (default: the CI run or pipeline)\n"
	"  --repository O/N    github: the repository (default: $GITHUB_REPOSITORY)\n"
	"  --sha SHA           the commit (default: $GITHUB_SHA, $CI_COMMIT_SHA)\n"
	"  --api-url URL       the API (default: $GITHUB_API_URL or https://api.github.com;\n"
	"                      $CI_API_V4_URL)\n"
	"  --project-id ID     gitlab: the project (default: $CI_PROJECT_ID)\n"
	"  --timeout T         limit of one attempt: 30, 30s, 500ms, 2m (default: 30s)\n"
	"  --connect-timeout T limit to connect (default: 10s)\n"
	"  --retries N         attempts after a failed one, 0 to 10 (default: 3)\n"
	"  --ca-bundle FILE    the CA certificates to verify the server with\n"
	"exit codes: 0 posted, or not posted (a warning); 2 usage, configuration or\n"
	"            summary error; 4 not posted with --require-post\n";

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

static int bad_value(const char *option, const char *value, const char *want)
{
	fprintf(stderr, "scalegate: error: %s must be %s, not '%s'\n", option, want, value);
	return 1;
}

static int parse_options(int argc, char **argv, struct post_options *o, const char **config,
			 const char **summary)
{
	int bad = 0;

	for (int i = 1; i < argc && !bad; i++) {
		const char *v;
		char *end;
		long n;

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 1;
		} else if (!strcmp(argv[i], "--dry-run")) {
			o->dry_run = 1;
		} else if (!strcmp(argv[i], "--require-post")) {
			o->require = 1;
		} else if (!strcmp(argv[i], "--check-run")) {
			o->check_run = 1;
		} else if ((v = option_value(argc, argv, &i, "-c", &bad)) ||
			   (v = option_value(argc, argv, &i, "--config", &bad))) {
			*config = v;
		} else if ((v = option_value(argc, argv, &i, "--format", &bad))) {
			if (!(o->format = post_format_parse(v)))
				bad = bad_value("--format", v, "json, github or gitlab");
		} else if ((v = option_value(argc, argv, &i, "--url", &bad))) {
			o->url = v;
		} else if ((v = option_value(argc, argv, &i, "--token-env", &bad))) {
			o->token_env = v;
		} else if ((v = option_value(argc, argv, &i, "--context", &bad))) {
			if (!*v)
				bad = bad_value("--context", v, "a name");
			o->context = v;
		} else if ((v = option_value(argc, argv, &i, "--target-url", &bad))) {
			o->target_url = v;
		} else if ((v = option_value(argc, argv, &i, "--repository", &bad))) {
			o->repository = v;
		} else if ((v = option_value(argc, argv, &i, "--sha", &bad))) {
			o->sha = v;
		} else if ((v = option_value(argc, argv, &i, "--api-url", &bad))) {
			o->api_url = v;
		} else if ((v = option_value(argc, argv, &i, "--project-id", &bad))) {
			if (!*v)
				bad = bad_value("--project-id", v, "a project ID or path");
			o->project_id = v;
		} else if ((v = option_value(argc, argv, &i, "--timeout", &bad))) {
			if ((o->timeout = parse_seconds(v)) < 0)
				bad = bad_value("--timeout", v, "a duration up to 1h such as 30, 30s or 500ms");
		} else if ((v = option_value(argc, argv, &i, "--connect-timeout", &bad))) {
			if ((o->connect_timeout = parse_seconds(v)) < 0)
				bad = bad_value("--connect-timeout", v, "a duration up to 1h such as 10, 10s or 500ms");
		} else if ((v = option_value(argc, argv, &i, "--retries", &bad))) {
			n = strtol(v, &end, 10);
			if (!*v || *end || n < 0 || n > POST_MAX_RETRIES)
				bad = bad_value("--retries", v, "an integer from 0 to 10");
			o->retries = (int)n;
		} else if ((v = option_value(argc, argv, &i, "--ca-bundle", &bad))) {
			if (access(v, R_OK)) {
				fprintf(stderr, "scalegate: error: cannot read the CA bundle '%s'\n", v);
				bad = 1;
			}
			o->ca_bundle = v;
		} else if (bad) {
			break;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "scalegate: error: unknown option '%s'\n", argv[i]);
			bad = 1;
		} else if (*summary) {
			fprintf(stderr, "scalegate: error: one summary only, not '%s' and '%s'\n", *summary, argv[i]);
			bad = 1;
		} else {
			*summary = argv[i];
		}
	}
	if (!bad && !*summary) {
		fputs("scalegate: error: which summary? give the file written by 'scalegate check --json'\n", stderr);
		bad = 1;
	}
	if (bad) {
		fputs(usage_text, stderr);
		return -1;
	}
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
		return ret > 0 ? SG_EXIT_PASS : SG_EXIT_USAGE;
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fputs("scalegate: error: cannot initialize libcurl\n", stderr);
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
			fputs("scalegate: warning: the summary was not posted; the exit code stays 0 "
			      "(--require-post makes this an error)\n", stderr);
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
