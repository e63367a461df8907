/* The poster's options: unset, merged (the flags over the configuration), and the 'post:' section
 * of scalegate.yml, each key checked with its position. */
#include "post/post-priv.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void post_options_init(struct post_options *o)
{
	memset(o, 0, sizeof(*o));
	o->format = POST_FORMAT_UNSET;
	o->check_run = POST_UNSET;
	o->comment = POST_UNSET;
	o->timeout = POST_UNSET;
	o->connect_timeout = POST_UNSET;
	o->retries = POST_UNSET;
	o->require = POST_UNSET;
}

void post_options_release(struct post_options *o)
{
	free(o->ca_bundle_buf);
	post_options_init(o);
}

void post_options_merge(struct post_options *o, const struct post_options *fallback)
{
#define FILL(field, unset) if (o->field == (unset)) o->field = fallback->field
	FILL(format, POST_FORMAT_UNSET);
	FILL(url, NULL);
	FILL(token_env, NULL);
	FILL(context, NULL);
	FILL(target_url, NULL);
	FILL(repository, NULL);
	FILL(sha, NULL);
	FILL(api_url, NULL);
	FILL(project_id, NULL);
	FILL(ca_bundle, NULL);
	FILL(check_run, POST_UNSET);
	FILL(comment, POST_UNSET);
	FILL(pull_request, NULL);
	FILL(timeout, POST_UNSET);
	FILL(connect_timeout, POST_UNSET);
	FILL(retries, POST_UNSET);
	FILL(require, POST_UNSET);
#undef FILL
	o->dry_run |= fallback->dry_run;
}

static const char *const post_keys[] = {
	"url", "format", "token_env", "context", "target_url", "repository", "sha", "api_url",
	"project_id", "check_run", "comment", "timeout", "connect_timeout", "retries", "ca_bundle",
	"require", NULL,
};

static const char *get_url(struct yamldoc *d, yaml_node_t *n, const char *key)
{
	const char *v = yamldoc_get_str(d, n, key);

	if (v && !post_is_http_url(v)) {
		yamldoc_error(d, n, "'%s' must be an http:// or https:// URL, not '%s'", key, v);
		return NULL;
	}
	return v;
}

static const char *get_nonempty(struct yamldoc *d, yaml_node_t *n, const char *key)
{
	const char *v = yamldoc_get_str(d, n, key);

	if (v && !*v) {
		yamldoc_error(d, n, "'%s' must not be empty", key);
		return NULL;
	}
	return v;
}

static void get_seconds(struct yamldoc *d, yaml_node_t *n, const char *key, double *out)
{
	double s;

	if (yamldoc_get_duration(d, n, key, &s) < 0)
		return;
	if (s > POST_MAX_TIMEOUT)
		yamldoc_error(d, n, "'%s' must be at most 1h, not '%s'", key, yamldoc_scalar(n));
	else
		*out = s;
}

static void parse_key(struct yamldoc *d, const struct yamldoc_iter *it, const char *dir,
		      struct post_options *o)
{
	const char *k = it->key, *v;
	yaml_node_t *n = it->value;
	long long i;

	if (!strcmp(k, "url")) {
		o->url = get_url(d, n, k);
	} else if (!strcmp(k, "target_url")) {
		o->target_url = get_url(d, n, k);
	} else if (!strcmp(k, "api_url")) {
		o->api_url = get_url(d, n, k);
	} else if (!strcmp(k, "format")) {
		if ((v = yamldoc_get_str(d, n, k)) && !(o->format = post_format_parse(v)))
			yamldoc_bad_choice(d, n, k, v, post_format_names);
	} else if (!strcmp(k, "token_env")) {
		if ((v = yamldoc_get_str(d, n, k)) && !post_valid_env_name(v))
			yamldoc_error(
				d, n,
				"'token_env' must be the name of an environment variable, not '%s'",
				v);
		else
			o->token_env = v;
	} else if (!strcmp(k, "context")) {
		o->context = get_nonempty(d, n, k);
	} else if (!strcmp(k, "repository")) {
		if ((v = yamldoc_get_str(d, n, k)) && !post_valid_repository(v))
			yamldoc_error(d, n, "'repository' must be 'owner/name', not '%s'", v);
		else
			o->repository = v;
	} else if (!strcmp(k, "sha")) {
		if ((v = yamldoc_get_str(d, n, k)) && !post_valid_sha(v))
			yamldoc_error(
				d, n,
				"'sha' must be a commit SHA (7 to 64 hexadecimal digits), not '%s'",
				v);
		else
			o->sha = v;
	} else if (!strcmp(k, "project_id")) {
		o->project_id = get_nonempty(d, n, k);
	} else if (!strcmp(k, "check_run")) {
		yamldoc_get_bool(d, n, k, &o->check_run);
	} else if (!strcmp(k, "comment")) {
		yamldoc_get_bool(d, n, k, &o->comment);
	} else if (!strcmp(k, "require")) {
		yamldoc_get_bool(d, n, k, &o->require);
	} else if (!strcmp(k, "timeout")) {
		get_seconds(d, n, k, &o->timeout);
	} else if (!strcmp(k, "connect_timeout")) {
		get_seconds(d, n, k, &o->connect_timeout);
	} else if (!strcmp(k, "retries")) {
		if (!yamldoc_get_int(d, n, k, 0, POST_MAX_RETRIES, &i))
			o->retries = (int)i;
	} else if (!strcmp(k, "ca_bundle")) {
		if (!(v = get_nonempty(d, n, k)))
			return;
		free(o->ca_bundle_buf);
		o->ca_bundle_buf = v[0] == '/' || !dir || !strcmp(dir, ".")
					   ? xstrdup(v)
					   : xstrfmt("%s/%s", dir, v);
		if (access(o->ca_bundle_buf, R_OK))
			yamldoc_error(d, n, "cannot read the CA bundle '%s'", o->ca_bundle_buf);
		else
			o->ca_bundle = o->ca_bundle_buf;
	} else {
		yamldoc_unknown_key(d, it->key_node, post_keys);
	}
}

int post_config_parse(struct yamldoc *d, yaml_node_t *post, const char *dir,
		      struct post_options *o)
{
	int before = d->nr_errors;
	struct yamldoc_iter it;
	char buf[64];

	if (!post || yamldoc_is_null(post))
		return 0;
	if (!yamldoc_is_map(post))
		return yamldoc_error(d, post, "'post' must be a mapping (docs/post.md), not %s",
				     yamldoc_describe(post, buf, sizeof(buf)));
	yamldoc_map_iter(&it, d, post);
	while (yamldoc_map_next(&it)) {
		if (!it.key) {
			yamldoc_error(d, it.key_node, "keys of 'post' must be strings");
			continue;
		}
		parse_key(d, &it, dir, o);
	}
	return d->nr_errors == before ? 0 : -1;
}
