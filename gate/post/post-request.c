/* A request of the plan and its headers: what every format's requests are made of (post.c, the
 * pull-request comment's post-comment.c). */
#include "post/post-priv.h"
#include "base/util.h"

#include <string.h>

#define USER_AGENT "scalegate/" SG_VERSION

struct post_request *post_add_request(struct post_plan *p, const char *what, char *url)
{
	struct post_request *r;

	p->req = xrealloc(p->req, (p->nr_req + 1) * sizeof(*p->req));
	r = &p->req[p->nr_req++];
	memset(r, 0, sizeof(*r));
	r->what = what;
	r->url = url;
	return r;
}

void post_add_header(struct post_request *r, const char *name, const char *value, int secret)
{
	ALLOC_GROW(r->headers, r->nr_headers + 1, r->alloc_headers);
	r->headers[r->nr_headers].name = name;
	r->headers[r->nr_headers].value = xstrdup(value);
	r->headers[r->nr_headers].secret = secret;
	r->nr_headers++;
}

void post_common_headers(struct post_request *r, const char *accept)
{
	post_add_header(r, "Accept", accept, 0);
	post_add_header(r, "Content-Type", "application/json", 0);
	post_add_header(r, "User-Agent", USER_AGENT, 0);
}

void post_api_headers(struct post_request *r, enum post_format f)
{
	if (f == POST_FORMAT_GITLAB) {
		post_add_header(r, "PRIVATE-TOKEN", "", 1);
		post_common_headers(r, "application/json");
		return;
	}
	post_add_header(r, "Authorization", "Bearer ", 1);
	post_common_headers(r, "application/vnd.github+json");
	post_add_header(r, "X-GitHub-Api-Version", "2022-11-28", 0);
}
