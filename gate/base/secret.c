/* The registry of secret values and their masking (docs/running.md, "Secrets"). */
#include "base/secret.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static char **values;
static size_t nr_values;
static char **taken; /* "NAME=value" of the variables taken out of the environment */
static size_t nr_taken;

extern char **environ;

void secret_add(const char *value)
{
	if (!value || strlen(value) < SECRET_MIN_LEN)
		return;
	for (size_t i = 0; i < nr_values; i++)
		if (!strcmp(values[i], value))
			return;
	values = xrealloc(values, (nr_values + 1) * sizeof(*values));
	values[nr_values++] = xstrdup(value);
	set_message_filter(secret_mask_strbuf); /* gate_error() and warning() mask it from now on */
}

static int ends_with_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcasecmp(s + n - k, suffix);
}

int secret_name_denied(const char *name)
{
	static const char *const exact[] = {
		"GITHUB_TOKEN", "GH_TOKEN", "CI_JOB_TOKEN", "GITLAB_TOKEN", "CI_REGISTRY_PASSWORD",
		"CI_DEPLOY_PASSWORD",
	};
	static const char *const suffix[] = {
		"_TOKEN", "_SECRET", "_SECRETS", "_PASSWORD", "_PASSWD", "_KEY", "_CREDENTIALS",
		"_JWT",
	};

	for (size_t i = 0; i < sizeof(exact) / sizeof(*exact); i++)
		if (!strcasecmp(name, exact[i]))
			return 1;
	for (size_t i = 0; i < sizeof(suffix) / sizeof(*suffix); i++)
		if (ends_with_ci(name, suffix[i]))
			return 1;
	if (!strncasecmp(name, "ACTIONS_", 8) && strcasestr(name, "TOKEN"))
		return 1;
	return !strncasecmp(name, "CI_JOB_JWT", 10);
}

/* A value overwritten in place by SECRET_MASK and NUL bytes: one '*' a byte would tell its length
 * in /proc/PID/environ. */
static void blank(char *value)
{
	size_t len = strlen(value), mask = strlen(SECRET_MASK);

	if (len > mask) {
		memcpy(value, SECRET_MASK, mask);
		memset(value + mask, '\0', len - mask);
	} else {
		memset(value, '*', len);
	}
}

void secret_take_env(const char *name)
{
	size_t n = strlen(name);
	const char *v = getenv(name);

	if (!v)
		return;
	secret_add(v);
	taken = xrealloc(taken, (nr_taken + 1) * sizeof(*taken));
	taken[nr_taken++] = xstrfmt("%s=%s", name, v);
	/* unsetenv() only drops the pointer: the bytes would stay in /proc/PID/environ */
	for (char **e = environ; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			blank(*e + n + 1);
	unsetenv(name);
}

const char *secret_getenv(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = nr_taken; i-- > 0;)
		if (!strncmp(taken[i], name, n) && taken[i][n] == '=')
			return taken[i] + n + 1;
	return getenv(name);
}

void secret_clear(void)
{
	for (size_t i = 0; i < nr_values; i++)
		free(values[i]);
	free(values);
	values = NULL;
	nr_values = 0;
	for (size_t i = 0; i < nr_taken; i++)
		free(taken[i]);
	free(taken);
	taken = NULL;
	nr_taken = 0;
}

size_t secret_count(void)
{
	return nr_values;
}

size_t secret_max_len(void)
{
	size_t max = 0;

	for (size_t i = 0; i < nr_values; i++)
		if (strlen(values[i]) > max)
			max = strlen(values[i]);
	return max;
}

int secret_across(const char *buf, size_t len, size_t at, size_t *start, size_t *end)
{
	for (size_t i = 0; i < nr_values && at < len; i++) {
		size_t n = strlen(values[i]), from = at >= n ? at - n + 1 : 0;
		const char *p;
		/* every occurrence that starts in (at - n, at) */
		while (from < at && (p = memmem(buf + from, len - from, values[i], n)) &&
		       (size_t)(p - buf) < at) {
			if ((size_t)(p - buf) + n > at) {
				*start = (size_t)(p - buf);
				*end = *start + n;
				return 1;
			}
			from = (size_t)(p - buf) + 1;
		}
	}
	return 0;
}

/* The first occurrence of any value at or after 'from' in 'sb' (its length in '*len'), or NULL. */
static char *find_any(const struct strbuf *sb, size_t from, size_t *len)
{
	char *best = NULL;

	for (size_t i = 0; i < nr_values; i++) {
		size_t n = strlen(values[i]);
		char *p = sb->len >= from + n ? memmem(sb->buf + from, sb->len - from, values[i], n)
					      : NULL;
		/* Of two values found at one place, the longer: no part of it is left. */
		if (p && (!best || p < best || (p == best && n > *len))) {
			best = p;
			*len = n;
		}
	}
	return best;
}

size_t secret_mask_strbuf(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	size_t from = 0, len = 0, count = 0;
	char *p;

	if (!nr_values || !sb->len)
		return 0;
	while ((p = find_any(sb, from, &len))) {
		strbuf_add(&out, sb->buf + from, (size_t)(p - sb->buf) - from);
		strbuf_addstr(&out, SECRET_MASK);
		from = (size_t)(p - sb->buf) + len;
		count++;
	}
	if (!count) {
		strbuf_release(&out);
		return 0;
	}
	strbuf_add(&out, sb->buf + from, sb->len - from);
	strbuf_release(sb);
	*sb = out;
	return count;
}

char *secret_mask(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, s);
	secret_mask_strbuf(&sb);
	return strbuf_detach(&sb);
}

int secret_mask_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (!nr_values || access(path, F_OK))
		return 0;
	if (strbuf_read_file(&sb, path))
		ret = -1;
	else if (secret_mask_strbuf(&sb))
		ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
