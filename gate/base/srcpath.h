/* Source paths as the gate shows them: relative to the repository, whatever directory the build
 * compiled from (Meson's "../src/x.c", CMake's absolute paths). */
#ifndef SG_SRCPATH_H
#define SG_SRCPATH_H

/*
 * 'file' as recorded by __FILE__, relative to the repository 'root' (NULL: the current directory,
 * where the gate runs): an absolute path under root loses the root; "." and "dir/.." are folded;
 * a relative path's leading ".." steps, which climbed out of a build directory inside the
 * repository, are dropped ("../src/x.c" -> "src/x.c"). Other absolute paths stay absolute; "-", "?"
 * and "" are kept. Caller frees.
 */
char *srcpath_normalize(const char *file, const char *root);

#endif
