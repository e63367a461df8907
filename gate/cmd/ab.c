/* A/B options of 'run' and 'ci': the scratch worktree of the base revision and the runner's A/B
 * settings. */
#include "cmd/ab.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cmd/options.h"
#include "run/worktree.h"

int ab_parse_inject(const struct option *o, const char *v)
{
	if (!strchr(v, ':') || v[0] == ':')
		return gate_error("--inject '%s': expected INTERVAL:PERCENT, e.g. solve:10%%", v);
	*(const char **)o->value = v;
	return 0;
}

int ab_parse_seed(const struct option *o, const char *v)
{
	char *end;
	uint64_t seed = strtoull(v, &end, 10);

	if (!*v || *end || !seed)
		return gate_error("--seed '%s': expected a positive integer", v);
	*(uint64_t *)o->value = seed;
	return 0;
}

int ab_check(const struct ab_options *o)
{
	if (o->against && o->against_dir)
		return gate_error("--against and --against-dir exclude each other");
	return 0;
}

int ab_wanted(const struct ab_options *o)
{
	return o->against || o->against_dir;
}

int ab_locate(struct ab_options *o, const struct config *c)
{
	char resolved[PATH_MAX];

	if (!ab_wanted(o))
		return 0;
	free(o->repo);
	o->repo = worktree_toplevel(c->dir);
	if (o->against && !o->repo)
		return gate_error("--against %s: '%s' is not in a git repository; run the gate "
				  "in a clone (git clone URL), or build the base yourself and "
				  "pass --against-dir DIR",
				  o->against, c->dir);
	if (o->against)
		return worktree_check_rev(o->repo, o->against);
	if (!realpath(o->against_dir, resolved))
		return gate_error("--against-dir '%s': no such directory", o->against_dir);
	return 0;
}

int ab_prepare(struct ab_options *o, const struct config *c, const char *results,
	       struct runner_options *ro)
{
	char resolved[PATH_MAX];

	ro->inject = o->inject;
	ro->seed = o->seed;
	if (!ab_wanted(o))
		return 0;
	if (ab_locate(o, c))
		return -1;
	if (o->against) {
		if (mkdir_p(results))
			return -1;
		o->scratch = xstrfmt("%s/.base-tree",
				     realpath(results, resolved) ? resolved : results);
		fprintf(stderr, "scalegate: checking out %s into %s\n", o->against, o->scratch);
		if (worktree_add(o->repo, o->against, o->scratch))
			return -1;
		o->base_root = xstrdup(o->scratch);
	} else { /* there: ab_locate found it */
		const char *dir = realpath(o->against_dir, resolved) ? resolved : o->against_dir;
		o->base_root = xstrdup(dir);
	}
	o->head_root = o->repo ? xstrdup(o->repo)
			       : xstrdup(realpath(c->dir, resolved) ? resolved : c->dir);
	ro->base_root = o->base_root;
	ro->head_root = o->head_root;
	return 0;
}

void ab_finish(struct ab_options *o)
{
	if (o->scratch && o->repo)
		worktree_remove(o->repo, o->scratch);
	free(o->repo);
	free(o->head_root);
	free(o->base_root);
	free(o->scratch);
	o->repo = o->head_root = o->base_root = o->scratch = NULL;
}
