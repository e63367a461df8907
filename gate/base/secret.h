/* Secrets (the posting token, the variables of 'secret_env'): their values masked in everything the
 * gate writes or prints. */
#ifndef SG_SECRET_H
#define SG_SECRET_H

#include <stddef.h>

struct strbuf;

#define SECRET_MASK "***"
/* Values shorter than this are not masked: "***" for every "a" would say nothing and hide
 * everything. */
#define SECRET_MIN_LEN 4

/* Registers a value to mask (copied; NULL, short or known values are ignored). */
void secret_add(const char *value);
/*
 * Whether a variable of this name is a credential by its name, kept from the
 * benchmarks unless 'pass_env' lists it (docs/running.md, "Secrets"): CI
 * tokens (GITHUB_TOKEN, CI_JOB_TOKEN, ACTIONS_*TOKEN*, CI_JOB_JWT*) and names
 * ending in _TOKEN, _SECRET, _PASSWORD, _PASSWD, _KEY, _CREDENTIALS, _JWT.
 */
int secret_name_denied(const char *name);
/*
 * Takes variable 'name' out of the gate's own environment: registers its value
 * to mask, keeps it for secret_getenv(), overwrites its bytes where they lie
 * (the process's initial environment block, which /proc/PID/environ shows)
 * and unsets it.
 */
void secret_take_env(const char *name);
/* The value of 'name': the one secret_take_env() kept, else getenv(). */
const char *secret_getenv(const char *name);
/* Forgets every value (tests). */
void secret_clear(void);
size_t secret_count(void);

/* The length of the longest value, 0 when there is none. */
size_t secret_max_len(void);
/*
 * Whether a value lies across offset 'at' of buf[0, len) (starts before it,
 * ends after it): a cut there would leave it in two pieces. Its place in
 * '*start' and '*end' when so.
 */
int secret_across(const char *buf, size_t len, size_t at, size_t *start, size_t *end);
/* Replaces every occurrence of a registered value in 'sb' by SECRET_MASK; returns how many. */
size_t secret_mask_strbuf(struct strbuf *sb);
/* A copy of 's' with the values masked; caller frees. */
char *secret_mask(const char *s);
/* Rewrites 'path' with the values masked when it holds one; 0, or gate_error(). */
int secret_mask_file(const char *path);
/*
 * Masks the values everywhere under 'dir' (secret-tree.c): renames the files
 * and directories whose names hold one, rewrites the symbolic links whose
 * targets do (never following them), and calls 'mask_file' on every regular
 * file, at any depth. More than 'max' entries is an error, never a silent
 * stop. 0, or gate_error().
 */
int secret_mask_tree(const char *dir, size_t max, int (*mask_file)(const char *path));

#endif
