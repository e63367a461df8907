/* Command-line options shared by the subcommands. */
#ifndef SG_OPTIONS_H
#define SG_OPTIONS_H

/*
 * The value of option 'name' at argv[*i] ("--opt V" or "--opt=V"), advancing
 * *i past it; NULL when argv[*i] is another option. A missing value is
 * reported, sets *bad and returns NULL.
 */
const char *option_value(int argc, char **argv, int *i, const char *name, int *bad);

#endif
