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

struct post_request {
	const char *what;            /* "summary", "commit status", "check run": for messages */
	char *url;
	struct post_header *headers;
	size_t nr_headers, alloc_headers;
	char *body;
	size_t body_len;
};

/* One request, retried within the plan's bounds: 0 on a 2xx answer, else -1 (reported). */
int post_http_send(const struct post_request *r, const struct post_plan *p);

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
/* pull_request.head.sha of a GitHub event file ($GITHUB_EVENT_PATH), or NULL; caller frees. */
char *post_github_event_sha(const char *path);

/* Text. The length of the valid UTF-8 sequence at 's' (at most 'n' bytes), 0 when invalid. */
size_t post_utf8_seq(const char *s, size_t n);
/* Appends 's' with every occurrence of 'secret' (if not NULL or empty) replaced by ***. */
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
