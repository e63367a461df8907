/* The registry of secret values and their masking (docs/running.md, "Secrets"). */
#include "base/secret.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char **values;
static size_t nr_values;

void secret_add(const char *value)
{
	if (!value || strlen(value) < SECRET_MIN_LEN)
		return;
	for (size_t i = 0; i < nr_values; i++)
		if (!strcmp(values[i], value))
			return;
	values = xrealloc(values, (nr_values + 1) * sizeof(*values));
	values[nr_values++] = xstrdup(value);
	set_message_filter(secret_mask_strbuf); /* error() and warning() mask it from now on */
}

void secret_add_env(const char *name)
{
	secret_add(getenv(name));
}

void secret_clear(void)
{
	for (size_t i = 0; i < nr_values; i++)
		free(values[i]);
	free(values);
	values = NULL;
	nr_values = 0;
}

size_t secret_count(void)
{
	return nr_values;
}

/* The first occurrence of any value at or after 'from' in 'sb' (its length in '*len'), or NULL. */
static char *find_any(const struct strbuf *sb, size_t from, size_t *len)
{
	char *best = NULL;

	for (size_t i = 0; i < nr_values; i++) {
		size_t n = strlen(values[i]);
		char *p = sb->len >= from + n ? memmem(sb->buf + from, sb->len - from, values[i], n) : NULL;
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
