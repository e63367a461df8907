/* scalegate.yml's environment names: 'secret_env', 'pass_env', and the secrets taken by default
 * (credentials by name, the posting token). */
#include "config/config-priv.h"
#include "base/secret.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static void add_secret(struct config *c, const char *name)
{
	for (size_t i = 0; i < c->nr_secret_env; i++)
		if (!strcmp(c->secret_env[i], name))
			return;
	c->secret_env = xrealloc(c->secret_env, (c->nr_secret_env + 1) * sizeof(*c->secret_env));
	c->secret_env[c->nr_secret_env++] = xstrdup(name);
	secret_take_env(name); /* masked from now on, and out of the gate's own environment block */
}

static void add_pass(struct config *c, const char *name)
{
	c->pass_env = xrealloc(c->pass_env, (c->nr_pass_env + 1) * sizeof(*c->pass_env));
	c->pass_env[c->nr_pass_env++] = xstrdup(name);
}

void config_parse_env_names(struct config_loader *l, yaml_node_t *v, const char *key, int secret)
{
	struct yamldoc_iter it;
	char buf[64];

	if (!yamldoc_is_list(v)) {
		yamldoc_error(l->d, v, "'%s' must be a list of environment variable names, not %s",
			      key, yamldoc_describe(v, buf, sizeof(buf)));
		return;
	}
	yamldoc_list_iter(&it, l->d, v);
	while (yamldoc_list_next(&it)) {
		const char *s = yamldoc_scalar(it.value);
		if (!s || yamldoc_is_null(it.value) || !config_valid_env_name(s))
			yamldoc_error(l->d, it.value, "'%s' names must be environment variable "
				      "names, not %s", key,
				      yamldoc_describe(it.value, buf, sizeof(buf)));
		else if (secret)
			add_secret(l->c, s);
		else
			add_pass(l->c, s);
	}
}

static int passed(const struct config *c, const char *name)
{
	for (size_t i = 0; i < c->nr_pass_env; i++)
		if (!strcmp(c->pass_env[i], name))
			return 1;
	return 0;
}

/* Default-deny: a credential by name (secret_name_denied) is a secret unless 'pass_env' lists it.
 */
static void deny_credentials(struct config *c)
{
	extern char **environ;
	char **names = NULL;
	size_t nr = 0;

	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char *name = eq ? xstrndup(*e, (size_t)(eq - *e)) : NULL;
		if (name && secret_name_denied(name) && !passed(c, name)) {
			names = xrealloc(names, (nr + 1) * sizeof(*names));
			names[nr++] = name;
		} else {
			free(name);
		}
	}
	/* after the walk: taking a variable out changes environ */
	for (size_t i = 0; i < nr; i++) {
		add_secret(c, names[i]);
		free(names[i]);
	}
	free(names);
}

/* The posting token's variable is a secret too: post.token_env, else the format's default. */
static void add_post_token(struct config_loader *l)
{
	yaml_node_t *post = l->c->post;
	const char *name = yamldoc_scalar(
		yamldoc_is_map(post) ? yamldoc_map_get(l->d, post, "token_env") : NULL);
	const char *format = yamldoc_scalar(
		yamldoc_is_map(post) ? yamldoc_map_get(l->d, post, "format") : NULL);

	if (!name && format)
		name = !strcmp(format, "github")   ? "GITHUB_TOKEN"
		       : !strcmp(format, "gitlab") ? "GITLAB_TOKEN"
						   : NULL;
	if (name && config_valid_env_name(name))
		add_secret(l->c, name);
}

void config_env_secrets(struct config_loader *l)
{
	add_post_token(l);
	deny_credentials(l->c);
}
