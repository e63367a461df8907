/* Repository-relative source paths, folded lexically (no file is looked at). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/srcpath.h"
#include "base/util.h"

/* 'path' without the directory 'root' in front, or NULL when it is not under it. */
static const char *under(const char *path, const char *root)
{
	size_t n = strlen(root);

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n <= 1 || strncmp(path, root, n) || path[n] != '/')
		return NULL;
	return path + n + 1;
}

char *srcpath_normalize(const char *file, const char *root)
{
	char cwd[PATH_MAX];
	const char *rest;
	struct strbuf sb = STRBUF_INIT;
	size_t *ends, nr = 0;
	int absolute;

	if (!file || !*file || !strcmp(file, "-") || !strcmp(file, "?"))
		return xstrdup(file ? file : "?");
	if (!root)
		root = getcwd(cwd, sizeof(cwd)) ? cwd : NULL;
	if (file[0] == '/' && root && (rest = under(file, root)))
		file = rest;
	absolute = file[0] == '/';
	/* the end of each component kept, to fold "dir/.." back */
	ends = xcalloc(strlen(file) + 1, sizeof(*ends));
	if (absolute)
		strbuf_addch(&sb, '/');
	for (const char *p = file; *p;) {
		size_t len = strcspn(p, "/");
		if ((len == 1 && p[0] == '.') || !len) {
			/* "." and empty components: nothing */
		} else if (len == 2 && !strncmp(p, "..", 2)) {
			if (nr) {
				nr--;
				sb.len = nr ? ends[nr - 1] : (size_t)absolute;
				sb.buf[sb.len] = '\0';
			}
			/* at the top: a climb out of the build directory (or past '/'): dropped */
		} else {
			if (sb.len > (size_t)absolute)
				strbuf_addch(&sb, '/');
			strbuf_add(&sb, p, len);
			ends[nr++] = sb.len;
		}
		p += len;
		if (*p == '/')
			p++;
	}
	free(ends);
	if (!sb.len)
		strbuf_addch(&sb, '.');
	return strbuf_detach(&sb);
}
