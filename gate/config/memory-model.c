/* The memory model of a benchmark: M(n) as written in scalegate.yml, parsed into n^a (ln n)^b. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/memory-model.h"
#include "base/util.h"

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The cursor after 'word' (and spaces), or NULL. */
static const char *accept(const char *s, const char *word)
{
	size_t len = strlen(word);

	s = skip_space(s);
	return strncasecmp(s, word, len) ? NULL : skip_space(s + len);
}

/* The cursor after an optional 'word'. */
static const char *optional(const char *s, const char *word)
{
	const char *t = accept(s, word);

	return t ? t : skip_space(s);
}

/* The variable 'n', not the start of a longer word. */
static const char *accept_n(const char *s)
{
	s = skip_space(s);
	if (tolower((unsigned char)s[0]) != 'n' || isalnum((unsigned char)s[1]) || s[1] == '_')
		return NULL;
	return skip_space(s + 1);
}

/* "log n", "log(n)", "ln n": the cursor after it, or NULL. */
static const char *accept_log(const char *s)
{
	const char *t = optional(s, "*"), *u;

	if (!(u = accept(t, "log")) && !(u = accept(t, "ln")))
		return NULL;
	if ((t = accept(u, "(")) && (t = accept_n(t)) && (t = accept(t, ")")))
		return t;
	return accept_n(u);
}

int memory_model_read(const char *text, struct memory_model *m)
{
	const char *s = skip_space(text), *t;
	char *end;

	m->a = 1;
	m->b = 0;
	if (isdigit((unsigned char)*s) || *s == '.') {
		strtod(s, &end); /* a constant factor changes C, not the growth */
		s = optional(end, "*");
	}
	if (!(s = accept_n(s)))
		goto bad;
	if ((t = accept(s, "^")) || (t = accept(s, "**"))) {
		m->a = strtod(t, &end);
		if (end == t || !(m->a > 0) || m->a > 100)
			goto bad;
		s = skip_space(end);
	}
	if ((t = accept_log(s))) {
		m->b = 1;
		s = t;
	}
	if (!*s)
		return 0;
bad:
	return -1;
}

int memory_model_parse(const char *text, struct memory_model *m)
{
	if (memory_model_read(text, m))
		return gate_error("memory model '%s' is not understood: " MEMORY_MODEL_FORMS, text);
	return 0;
}
