/* One comment per pull request, edited on every post: check the pull request (GitHub: its head is
 * the commit judged) or learn the token's user (GitLab), look for the comment that starts with the
 * marker among those that account wrote, then edit it, or create it when there is none. */
#include "post/post-priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PER_PAGE 100
#define MAX_PAGES 50 /* 5000 comments: a pull request with more is not looked through further */

/* A GET with the comment request's headers; 'url' is taken. */
static int get(const struct post_request *r, const struct post_plan *p, const char *what,
	       char *url, yaml_document_t *doc)
{
	struct post_request g = *r;
	struct strbuf answer = STRBUF_INIT;
	int ret = -1;

	g.what = what;
	g.method = "GET";
	g.url = url;
	g.body = NULL;
	g.body_len = 0;
	if (post_http_send(&g, p, &answer) < 0)
		goto out;
	if (post_json_load(doc, answer.buf ? answer.buf : "", answer.len) < 0) {
		post_report(p->require, "cannot read the %s: the answer is not JSON", what);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&answer);
	free(url);
	return ret;
}

/* GitHub: the pull request's head must be the commit judged, so that a number from elsewhere (a
 * fork's artifact) or a run overtaken by a later push comments nowhere. */
static int check_head(const struct post_request *r, const struct post_plan *p,
		      const struct post_comment *c)
{
	static const char what[] = "pull request";
	yaml_document_t doc;
	yaml_node_t *root;
	const char *head;
	int ret = -1;

	if (get(r, p, what, xstrdup(c->check_url), &doc) < 0)
		return -1;
	root = yaml_document_get_root_node(&doc);
	head = post_json_str(post_json_get(&doc, post_json_get(&doc, root, "head"), "sha"));
	if (!head)
		post_report(p->require, "cannot read the head commit of pull request #%s",
			    c->pull_request);
	else if (strncasecmp(head, c->sha, strlen(c->sha)))
		post_report(p->require,
			    "not commenting on pull request #%s: its head is %.12s, not the commit "
			    "judged (%.12s): a later push, or the number of another pull request",
			    c->pull_request, head, c->sha);
	else
		ret = 0;
	yaml_document_delete(&doc);
	return ret;
}

/* GitLab: the token's user, the only author whose note is ours. Caller frees. */
static char *token_user(const struct post_request *r, const struct post_plan *p,
			const struct post_comment *c)
{
	yaml_document_t doc;
	const char *id;
	char *user = NULL;

	if (get(r, p, "token's user", xstrdup(c->check_url), &doc) < 0)
		return NULL;
	id = post_json_str(post_json_get(&doc, yaml_document_get_root_node(&doc), "id"));
	if (id && post_valid_number(id))
		user = xstrdup(id);
	else
		post_report(p->require, "cannot read the id of the token's user");
	yaml_document_delete(&doc);
	return user;
}

/* Ours: it starts with the marker and the token's account wrote it (GitHub: a bot, as the
 * Actions token and apps are; anybody can write the marker). */
static int ours(yaml_document_t *doc, yaml_node_t *item, const struct post_comment *c,
		const char *user)
{
	const char *body = post_json_str(post_json_get(doc, item, "body")), *who;

	if (!body || strncmp(body, c->marker, strlen(c->marker)))
		return 0;
	if (c->format == POST_FORMAT_GITHUB) {
		who = post_json_str(post_json_get(doc, post_json_get(doc, item, "user"), "type"));
		return who && !strcmp(who, "Bot");
	}
	who = post_json_str(post_json_get(doc, post_json_get(doc, item, "author"), "id"));
	return who && user && !strcmp(who, user);
}

/* The id of our comment in one page into *id; the page's size, or -1 (reported). */
static long find_in_page(const struct post_request *r, const struct post_plan *p,
			 const struct post_comment *c, const char *user, int page, char **id)
{
	char *url = xstrfmt("%s?per_page=%d&page=%d%s", c->list_url, PER_PAGE, page,
			    c->format == POST_FORMAT_GITLAB ? "&sort=asc&order_by=created_at" : "");
	char what[64];
	yaml_document_t doc;
	yaml_node_t *list;
	long n = -1;

	snprintf(what, sizeof(what), "comments of the %s request, page %d",
		 c->format == POST_FORMAT_GITHUB ? "pull" : "merge", page);
	if (get(r, p, what, url, &doc) < 0)
		return -1;
	list = yaml_document_get_root_node(&doc);
	if (list->type != YAML_SEQUENCE_NODE) {
		post_report(p->require, "cannot read the %s: the answer is not a list", what);
		goto out;
	}
	n = list->data.sequence.items.top - list->data.sequence.items.start;
	for (yaml_node_item_t *i = list->data.sequence.items.start;
	     !*id && i < list->data.sequence.items.top; i++) {
		yaml_node_t *item = yaml_document_get_node(&doc, *i);
		const char *v = post_json_str(post_json_get(&doc, item, "id"));
		if (ours(&doc, item, c, user) && v && post_valid_number(v))
			*id = xstrdup(v);
	}
out:
	yaml_document_delete(&doc);
	return n;
}

/* Our comment's id into *id (NULL when there is none): 0, or -1 (reported). */
static int find(const struct post_request *r, const struct post_plan *p,
		const struct post_comment *c, char **id)
{
	char *user = NULL;
	long n = PER_PAGE;
	int ret = 0;

	*id = NULL;
	if (c->format == POST_FORMAT_GITHUB ? check_head(r, p, c) < 0
					    : !(user = token_user(r, p, c)))
		return -1;
	for (int page = 1; !*id && n == PER_PAGE && page <= MAX_PAGES; page++)
		if ((n = find_in_page(r, p, c, user, page, id)) < 0)
			ret = -1;
	free(user);
	return ret;
}

int post_comment_send(const struct post_request *r, const struct post_plan *p)
{
	const struct post_comment *c = r->comment;
	struct post_request edit = *r;
	char *id, *where;
	int ret;

	if (find(r, p, c, &id) < 0)
		return -1; /* never a second comment for one that could not be looked for */
	if (id) {
		edit.method = c->edit_method;
		edit.url = xstrfmt("%s/%s", c->edit_url, id);
	}
	ret = post_http_send(&edit, p, NULL);
	where = post_display_url(edit.url, p->token);
	if (!ret)
		printf("scalegate: %s the %s %s %s\n", id ? "updated" : "posted", r->what,
		       id ? "at" : "to", where);
	free(where);
	if (id)
		free(edit.url);
	free(id);
	return ret;
}

void post_comment_print(const struct post_request *r, FILE *out)
{
	const struct post_comment *c = r->comment;

	fprintf(out, "GET %s\n", c->check_url);
	fprintf(out, "GET %s (%d a page, until it is found)\n", c->list_url, PER_PAGE);
	fprintf(out,
		"# the comment that starts with '%s' by %s is edited: %s %s/ID; without one:\n",
		c->marker, c->format == POST_FORMAT_GITHUB ? "a bot" : "the token's user",
		c->edit_method, c->edit_url);
}
