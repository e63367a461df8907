/* Command-line options shared by the subcommands. */
#include "cmd/options.h"

#include <stdio.h>
#include <string.h>

const char *option_value(int argc, char **argv, int *i, const char *name, int *bad)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len))
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len])
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "scalegate: error: '%s' needs a value\n", name);
		*bad = 1;
		return NULL;
	}
	return argv[++*i];
}

int option_inputs(int argc, char **argv, int *i, int *bad, const char **config, const char **results,
		  const char **baselines)
{
	const char *v;

	if ((v = option_value(argc, argv, i, "-c", bad)) || (v = option_value(argc, argv, i, "--config", bad)))
		*config = v;
	else if ((v = option_value(argc, argv, i, "-r", bad)) || (v = option_value(argc, argv, i, "--results", bad)))
		*results = v;
	else if ((v = option_value(argc, argv, i, "--baselines", bad)))
		*baselines = v;
	return v != NULL;
}
