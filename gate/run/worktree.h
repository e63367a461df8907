/* The base revision's tree for A/B runs (docs/running.md): git worktrees. */
#ifndef SG_WORKTREE_H
#define SG_WORKTREE_H

/* The top of the git repository holding 'dir', or NULL when it is in none; caller frees. */
char *worktree_toplevel(const char *dir);
/* 0 when 'rev' names a commit of 'repo'; else gate_error() naming the command that fixes it. */
int worktree_check_rev(const char *repo, const char *rev);
/* Checks 'rev' of the repository at 'repo' out into 'path' (replacing a leftover one). 0 or
 * gate_error(). */
int worktree_add(const char *repo, const char *rev, const char *path);
/* Removes the worktree at 'path' (and its directory); quiet when there is none. */
void worktree_remove(const char *repo, const char *path);

#endif
