/* Command-line options shared by the subcommands. */
#ifndef SG_OPTIONS_H
#define SG_OPTIONS_H

/*
 * The value of option 'name' at argv[*i] ("--opt V" or "--opt=V"), advancing
 * *i past it; NULL when argv[*i] is another option. A missing value is
 * reported, sets *bad and returns NULL.
 */
const char *option_value(int argc, char **argv, int *i, const char *name, int *bad);

/*
 * The inputs of the commands that judge results: -c/--config FILE, -r/--results DIR
 * and --baselines DIR. Stores the value and returns 1 when argv[*i] was one of them.
 */
int option_inputs(int argc, char **argv, int *i, int *bad, const char **config, const char **results,
		  const char **baselines);

#endif
