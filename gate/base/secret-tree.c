/* The secret values masked in a directory tree: the names, the symbolic links' targets and the
 * files' contents, at any depth (docs/running.md, "Secrets"). */
#include "base/secret.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directories still to walk: a list, not a recursion, so that no depth is too deep. */
struct tree_walk {
	char **dirs;
	size_t nr, alloc;
	size_t seen, max;
	int (*mask_file)(const char *path);
};

/* 'path' renamed to its masked name (".1", ".2"... when that is taken); the new path (caller
 * frees), or NULL (reported). */
static char *mask_name(const char *dir, const char *name, const char *path)
{
	char *masked = secret_mask(name), *to = xstrfmt("%s/%s", dir, masked);
	struct stat st;

	for (int n = 1; !lstat(to, &st); n++) {
		free(to);
		to = xstrfmt("%s/%s.%d", dir, masked, n);
	}
	free(masked);
	if (rename(path, to)) {
		gate_error("cannot rename '%s' to mask a secret in its name: %s", path,
		      strerror(errno));
		free(to);
		return NULL;
	}
	return to;
}

/* A symbolic link whose target holds a value points to the masked target instead. */
static int mask_link(const char *path, const struct stat *st)
{
	size_t size = st->st_size > 0 ? (size_t)st->st_size + 1 : 4096;
	char *target = xmalloc(size), *masked = NULL;
	ssize_t n = readlink(path, target, size - 1);
	int ret = 0;

	if (n < 0) {
		ret = gate_error("cannot read the link '%s': %s", path, strerror(errno));
		goto out;
	}
	target[n] = '\0';
	masked = secret_mask(target);
	if (strcmp(masked, target) && (unlink(path) || symlink(masked, path)))
		ret = gate_error("cannot rewrite the link '%s': %s", path, strerror(errno));
out:
	free(target);
	free(masked);
	return ret;
}

/* One entry of 'dir': its name masked, then its target, its contents, or (a directory) queued. */
static int mask_entry(struct tree_walk *w, const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name), *masked = secret_mask(name);
	struct stat st;
	int ret = 0;

	if (strcmp(masked, name)) {
		char *to = mask_name(dir, name, path);
		free(path);
		if (!(path = to)) {
			free(masked);
			return -1;
		}
	}
	free(masked);
	if (lstat(path, &st))
		ret = gate_error("cannot read '%s': %s", path, strerror(errno));
	else if (S_ISDIR(st.st_mode)) {
		ALLOC_GROW(w->dirs, w->nr + 1, w->alloc);
		w->dirs[w->nr++] = path;
		return 0;
	} else if (S_ISLNK(st.st_mode))
		ret = mask_link(path, &st);
	else if (S_ISREG(st.st_mode))
		ret = w->mask_file(path);
	free(path);
	return ret;
}

/* The entries of 'dir'. */
static int mask_dir(struct tree_walk *w, const char *dir)
{
	char **names;
	long n = dir_names(dir, NULL, &names);
	int ret = 0;

	if (n < 0)
		return gate_error("cannot open directory '%s' to mask the secrets in it: %s", dir,
				  strerror(errno));
	for (long i = 0; i < n; i++) {
		if (!ret && ++w->seen > w->max)
			ret = gate_error(
				"'%s' holds more than %zu files and directories: the secrets "
				"past them cannot be masked",
				dir, w->max);
		if (!ret)
			ret = mask_entry(w, dir, names[i]);
		free(names[i]);
	}
	free(names);
	return ret;
}

int secret_mask_tree(const char *dir, size_t max, int (*mask_file)(const char *path))
{
	struct tree_walk w = { .max = max, .mask_file = mask_file };
	int ret;

	if (!secret_count())
		return 0;
	ret = mask_dir(&w, dir);
	while (w.nr) {
		char *next = w.dirs[--w.nr];
		if (!ret)
			ret = mask_dir(&w, next);
		free(next);
	}
	free(w.dirs);
	return ret;
}
