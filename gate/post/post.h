/* Posting the JSON summary, or a GitHub/GitLab commit status made from it and a pull-request
 * comment kept up to date, with libcurl (docs/post.md). */
#ifndef SG_POST_H
#define SG_POST_H

#include <stddef.h>
#include <stdio.h>

#include "base/yamldoc.h"

enum post_format {
	POST_FORMAT_UNSET,
	POST_FORMAT_JSON,   /* the summary file, verbatim, to 'url' */
	POST_FORMAT_GITHUB, /* a commit status; a check run, a pull-request comment when asked */
	POST_FORMAT_GITLAB, /* a commit status, and a merge-request note when asked */
};

/* "json", "github", "gitlab" -> the format; POST_FORMAT_UNSET for anything else. */
enum post_format post_format_parse(const char *s);
const char *post_format_name(enum post_format f);
/* The names post_format_parse takes, NULL-terminated: the choices a message offers. */
extern const char *const *const post_format_names;
/* 1 to 18 digits: the number of a pull request, a merge request's IID, a comment's id. */
int post_valid_number(const char *s);

#define POST_UNSET (-1)
#define POST_DEFAULT_CONTEXT "scalegate"
#define POST_DEFAULT_TIMEOUT 30.0        /* seconds for one attempt, connect included */
#define POST_DEFAULT_CONNECT_TIMEOUT 10.0
#define POST_DEFAULT_RETRIES 3
#define POST_MAX_RETRIES 10
#define POST_MAX_TIMEOUT 3600.0
#define POST_MAX_WAIT 60.0 /* the longest wait between attempts, Retry-After included */

/*
 * What to post where. Strings are borrowed: they must outlive the use of the
 * options (command-line arguments, or the loaded configuration). NULL,
 * POST_UNSET (and POST_FORMAT_UNSET) mean "not given here": the flags, the
 * configuration and then the CI's environment fill the gaps (post_options_merge()).
 */
struct post_options {
	enum post_format format;
	const char *url;             /* json: the endpoint */
	const char *token_env;       /* the environment variable holding the token */
	const char *context;         /* GitHub 'context' and check run name, GitLab 'name' */
	const char *target_url;      /* the link of the status */
	const char *repository;      /* GitHub "owner/name" */
	const char *sha;             /* the commit */
	const char *api_url;         /* the API base, e.g. https://api.github.com */
	const char *project_id;      /* GitLab: a number or a "group/project" path */
	const char *ca_bundle;       /* CA certificates for TLS verification (CURLOPT_CAINFO) */
	int check_run;               /* github: also create a check run */
	int comment;                 /* also one pull (merge) request comment, kept up to date */
	const char *pull_request;    /* its number (GitHub) or IID (GitLab), digits */
	double timeout;              /* seconds per attempt */
	double connect_timeout;      /* seconds to connect */
	int retries;                 /* attempts after the first one */
	int require;                 /* a failed post is an error, not a warning */
	int dry_run;                 /* print the requests, send nothing */
	/* owned: 'ca_bundle' resolved against the configuration's directory */
	char *ca_bundle_buf;
};

void post_options_init(struct post_options *o);
void post_options_release(struct post_options *o);
/* Fills the fields 'o' leaves unset from 'fallback' (which keeps owning its buffers). */
void post_options_merge(struct post_options *o, const struct post_options *fallback);

/*
 * Parses the 'post:' mapping of scalegate.yml ('post' may be NULL: no
 * section) into 'o'; relative paths are taken from 'dir', the configuration's
 * directory. Reports every problem as "file:line:col: message" through 'd'
 * and returns -1 if there was one; strings point into 'd'.
 */
int post_config_parse(struct yamldoc *d, yaml_node_t *post, const char *dir,
		      struct post_options *o);

struct post_request;

/* The requests of one post, resolved and built from the options, the environment and the summary.
 */
struct post_plan {
	enum post_format format;
	const char *token_env;       /* NULL: no token (json without --token-env) */
	const char *token;           /* its value; NULL when unset or empty */
	int require;
	double timeout, connect_timeout;
	int retries;
	char *ca_bundle;
	struct post_request *req;    /* in the order they are sent */
	size_t nr_req;
};

struct strbuf;

/*
 * Reads the summary (or takes its text, 'summary', when not NULL) and builds every
 * request. Problems of the command line,
 * the configuration, the environment or the summary (a missing repository,
 * sha, URL...) are reported with gate_error() and return -1: they are usage
 * errors, not failed posts. A token that is not set is not an error here:
 * post_send() reports it as a failed post. 'p' is released on failure.
 */
int post_prepare(struct post_plan *p, const struct post_options *o, const char *summary_path,
		 const struct strbuf *summary);
/* --dry-run: each request's method, URL, headers (the token as ***) and body. */
void post_print(const struct post_plan *p, FILE *out);
/*
 * Sends every request, with retries. A failure is reported as a warning, or
 * as an error when 'require' is set; returns -1 if some request failed.
 * curl_global_init() must have been called (cmd_post does).
 */
int post_send(const struct post_plan *p);
void post_plan_release(struct post_plan *p);

/*
 * post_prepare(), then post_print() to stdout for a dry run or post_send():
 * 0, or -1 for any problem (reported). For 'scalegate ci'; the caller has
 * called curl_global_init(). 'summary': the summary's text in memory (NULL: read 'summary_path'),
 * which still names it in messages and locates the Markdown report recorded beside it.
 */
int post_run(const struct post_options *o, const char *summary_path, const struct strbuf *summary);

#endif
