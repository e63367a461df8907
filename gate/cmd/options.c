/* Command-line options: one table per command parses its arguments and writes its help lines. */
#include "cmd/options.h"

#include <string.h>

#include "base/util.h"
#include "base/yamldoc.h"

static const char *option_name(const struct option *o)
{
	return o->long_name ? o->long_name : o->short_name;
}

/* The option spelled 'arg' (its value after '=' in *value), or NULL. */
static const struct option *find_option(const struct option *opts, const char *arg,
					const char **value)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);

	for (const struct option *o = opts; o->kind != OPTION_END; o++) {
		const char *names[] = { o->short_name, o->long_name };
		for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
			if (names[k] && strlen(names[k]) == len && !strncmp(names[k], arg, len)) {
				*value = eq ? eq + 1 : NULL;
				return o;
			}
		}
	}
	return NULL;
}

static int unknown_option(const struct option *opts, const char *arg, const struct command_usage *u)
{
	const char *known[128], *hint;
	size_t n = 0;

	/* one letter is a slip from every other letter: hints are for long names */
	for (const struct option *o = opts; o->kind != OPTION_END && n + 2 < ARRAY_SIZE(known); o++)
		if (o->long_name)
			known[n++] = o->long_name;
	known[n++] = "--help";
	known[n] = NULL;
	hint = strncmp(arg, "--", 2) ? NULL : yamldoc_closest(arg, known);
	if (hint)
		return gate_error(
			"unknown option '%s'; did you mean '%s'? (see 'scalegate %s --help')", arg,
			hint, u->name);
	return gate_error("unknown option '%s' (see 'scalegate %s --help')", arg, u->name);
}

static int take_value(const struct option *o, const char *v)
{
	if (o->kind == OPTION_STRING)
		*(const char **)o->value = v;
	else if (o->parse(o, v))
		return -1;
	return 0;
}

/* Takes the option at argv[*i]: 0, or -1 after gate_error(). */
static int take_option(const struct option *o, const char *inline_value, int argc, char **argv,
		       int *i)
{
	if (o->kind == OPTION_FLAG) {
		if (inline_value)
			return gate_error("'%s' takes no value", option_name(o));
		*(int *)o->value = 1;
		return 0;
	}
	if (inline_value)
		return take_value(o, inline_value);
	if (*i + 1 >= argc)
		return gate_error("'%s' needs a value (%s)", argv[*i],
				  o->arg ? o->arg : "an argument");
	return take_value(o, argv[++*i]);
}

int options_parse(int argc, char **argv, const struct option *opts, const struct command_usage *u)
{
	int nr = 0, only_args = 0;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *inline_value;
		const struct option *o;

		if (only_args || arg[0] != '-' || !arg[1]) {
			argv[nr++] = argv[i]; /* argv[0] and what came before i are consumed */
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_args = 1;
			continue;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			options_usage(stdout, opts, u);
			return OPTIONS_HELP;
		}
		if (!(o = find_option(opts, arg, &inline_value)))
			return unknown_option(opts, arg, u);
		if (take_option(o, inline_value, argc, argv, &i))
			return -1;
	}
	return nr;
}

int options_parse_no_args(int argc, char **argv, const struct option *opts,
			  const struct command_usage *u)
{
	int n = options_parse(argc, argv, opts, u);

	if (n > 0)
		return gate_error("unexpected argument '%s' (see 'scalegate %s --help')", argv[0],
				  u->name);
	return n;
}

/* "  -c, --config FILE" padded to the help column, then the help, its continuations aligned. */
static void usage_option(FILE *f, const struct option *o)
{
	enum { HELP_COLUMN = 22 };
	char names[128];
	const char *h = o->help;
	int len;

	len = snprintf(names, sizeof(names), "  %s%s%s%s%s", o->short_name ? o->short_name : "",
		       o->short_name && o->long_name ? ", " : "", o->long_name ? o->long_name : "",
		       o->arg ? " " : "", o->arg ? o->arg : "");
	fputs(names, f);
	if (len >= HELP_COLUMN - 1) {
		fputc('\n', f);
		len = 0;
	}
	for (;;) {
		const char *nl = strchr(h, '\n');
		int n = nl ? (int)(nl - h) : (int)strlen(h);
		fprintf(f, "%*s%.*s\n", HELP_COLUMN - len, "", n, h);
		if (!nl)
			break;
		h = nl + 1;
		len = 0;
	}
}

void options_usage(FILE *f, const struct option *opts, const struct command_usage *u)
{
	fputs(u->head, f);
	for (const struct option *o = opts; o->kind != OPTION_END; o++)
		usage_option(f, o);
	if (u->tail)
		fputs(u->tail, f);
}

int option_bad_value(const struct option *o, const char *value, const char *want)
{
	return gate_error("%s must be %s, not '%s'", option_name(o), want, value);
}

int option_bad_choice(const struct option *o, const char *value, const char *const *words)
{
	const char *hint = yamldoc_closest(value, words);
	char all[256];

	yamldoc_choices(all, sizeof(all), words);
	if (hint)
		return gate_error("%s must be %s, not '%s'; did you mean '%s'?", option_name(o),
				  all, value, hint);
	return option_bad_value(o, value, all);
}
