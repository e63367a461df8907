/* Inside the poster: requests, the HTTP transport, the summary reader and the text helpers they
 * share. */
#ifndef SG_POST_PRIV_H
#define SG_POST_PRIV_H

#include <stdarg.h>

#include "post/post.h"
#include "base/util.h"

#define POST_EXCERPT_MAX 200         /* bytes of a server's answer quoted in a message */
#define POST_MASK "***"

struct post_header {
	const char *name;
	char *value; /* a secret header: the part before the token, e.g. "Bearer " */
	int secret;                  /* the token follows 'value' */
};

struct post_comment;

struct post_request {
	const char *what;            /* "summary", "commit status", "check run": for messages */
	const char *method;          /* NULL: POST */
	char *url;
	struct post_header *headers;
	size_t nr_headers, alloc_headers;
	char *body;
	size_t body_len;
	/* not NULL: a comment found by its marker and edited, created when there is none (the URL
	 * and the body are the creation's) */
	struct post_comment *comment;
};

/* Where a GitHub or GitLab post goes, as the options and the CI's environment resolved it. */
struct post_target {
	enum post_format format;
	const char *base;            /* the API, without a trailing '/' */
	const char *repo;            /* github: owner/name; gitlab: the project, one URL segment */
	const char *sha;             /* the commit judged */
	const char *link;            /* the status's link, to the full report; NULL: none */
};

/* The comment kept on a pull (merge) request: how it is found and edited (post-comment.c). */
struct post_comment {
	enum post_format format;
	char *pull_request;          /* its number (GitHub), IID (GitLab) */
	char *sha;                   /* github: the head the pull request must have */
	char *marker;                /* the comment's first line, an HTML comment */
	char *check_url;             /* GET first: the pull request (github), the token's user */
	char *list_url;              /* GET, a page at a time; also where a new one is posted */
	char *edit_url;              /* + "/ID" */
	const char *edit_method;     /* PATCH (github), PUT (gitlab) */
};

struct post_summary;

/* With --comment and a pull (merge) request, the comment's request with its Markdown from the
 * summary: 0 (also when there is no pull request: said on stdout), or -1 (a usage error). */
int post_comment_add(struct post_plan *p, const struct post_options *o,
		     const struct post_summary *s, const struct post_target *t);
void post_comment_free(struct post_comment *c);
/* A dry run: the lookups before the request that creates it (post-sticky.c). */
void post_comment_print(const struct post_request *r, FILE *out);
/* Finds our comment and edits it, or creates one: 0, or -1 (reported as a failed post). */
int post_comment_send(const struct post_request *r, const struct post_plan *p);

/* post-request.c: a request added to the plan ('url' is taken); a header added to it (a secret
 * one: the token follows 'value'); the headers every request has (Accept, Content-Type,
 * User-Agent); those of the GitHub or GitLab API with the token. */
struct post_request *post_add_request(struct post_plan *p, const char *what, char *url);
void post_add_header(struct post_request *r, const char *name, const char *value, int secret);
void post_common_headers(struct post_request *r, const char *accept);
void post_api_headers(struct post_request *r, enum post_format f);

/* One request, retried within the plan's bounds: 0 on a 2xx answer, else -1 (reported). 'answer'
 * (NULL: none) gets the body of the 2xx answer, which must be shorter than 16 MiB. */
int post_http_send(const struct post_request *r, const struct post_plan *p, struct strbuf *answer);

/* A failed post: an error with --require-post, a warning without. */
void post_report(int require, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum post_verdict { POST_VERDICT_PASS, POST_VERDICT_REGRESSION, POST_VERDICT_RUN_FAILED };

/* What the poster needs of the JSON summary of 'scalegate check --json'. */
struct post_summary {
	struct strbuf raw;           /* the file as it is: the body of the json format */
	enum post_verdict verdict;
	char *headline;              /* one line; never NULL after post_summary_read() */
	char *markdown;              /* the Markdown report's path, as recorded; NULL when none */
};

/* The summary 'path', or its text when 'text' is not NULL (ci: the summary it just wrote): 0, or -1
 * with the problem reported (file:line:col where there is a position). */
int post_summary_read(struct post_summary *s, const char *path, const struct strbuf *text);
void post_summary_release(struct post_summary *s);
/* JSON from elsewhere, read with libyaml (post-json.c): an answer or a file into 'doc' (0, or -1
 * when it is no JSON), a member of a mapping (or NULL), a scalar's text (or NULL). */
int post_json_load(yaml_document_t *doc, const char *text, size_t len);
yaml_node_t *post_json_get(yaml_document_t *doc, yaml_node_t *map, const char *key);
const char *post_json_str(const yaml_node_t *n);
/* The value at the NULL-terminated path 'keys' of a GitHub event file ($GITHUB_EVENT_PATH), such
 * as pull_request.head.sha; NULL when absent, null or unreadable. Caller frees. */
char *post_github_event(const char *path, const char *const *keys);

/* Text. Appends 's' with every occurrence of 'secret' (if not NULL or empty) replaced by ***. */
void post_mask(struct strbuf *sb, const char *s, size_t len, const char *secret);
/* Appends a one-line, printable, masked excerpt of at most 'max' bytes of 's'. */
void post_excerpt(struct strbuf *sb, const char *s, size_t len, const char *secret, size_t max);
/* The URL for messages: password and query shown as ***, the token masked; caller frees. */
char *post_display_url(const char *url, const char *secret);

/* Checks shared by the configuration and the command line. */
int post_is_http_url(const char *s);
int post_valid_repository(const char *s);
int post_valid_sha(const char *s);
int post_valid_env_name(const char *s);

#endif
