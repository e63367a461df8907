/* Command-line options: each command describes its options in one table, which parses them and
 * writes their lines of the --help text (git's parse-options). */
#ifndef SG_OPTIONS_H
#define SG_OPTIONS_H

#include <stdio.h>

enum option_kind { OPTION_END, OPTION_FLAG, OPTION_STRING, OPTION_PARSE };

struct option {
	enum option_kind kind;
	const char *short_name; /* "-c", or NULL */
	const char *long_name;  /* "--config", or NULL */
	const char *arg;        /* what the value is in the help ("FILE"); NULL for a flag */
	const char *help;       /* its help; '\n' starts a continuation line */
	/* int * (FLAG: set to 1), const char ** (STRING), or the parser's */
	void *value;
	/* OPTION_PARSE: takes the value into o->value; returns 0 or gate_error() */
	int (*parse)(const struct option *o, const char *value);
};

#define OPT_FLAG(s, l, v, h) { OPTION_FLAG, s, l, NULL, h, v, NULL }
#define OPT_STRING(s, l, v, a, h) { OPTION_STRING, s, l, a, h, v, NULL }
#define OPT_PARSE(s, l, v, a, h, fn) { OPTION_PARSE, s, l, a, h, v, fn }
#define OPT_END() { OPTION_END, NULL, NULL, NULL, NULL, NULL, NULL }

/* The -c/--config, -r/--results and --baselines inputs of the commands that judge results. */
#define OPT_INPUTS(config, results, baselines) \
	OPT_STRING("-c", "--config", config, "FILE", \
		   "the configuration (default: scalegate.yml)"), \
		OPT_STRING("-r", "--results", results, "DIR", \
			   "the results (default: 'results' of the configuration)"), \
		OPT_STRING(NULL, "--baselines", baselines, "DIR", \
			   "the baselines (default: 'baselines' of the configuration)")

/* How 'check' and 'ci' judge and what they list, the same rows in both. */
#define OPT_JUDGING(partial, allow_no_reference, all, testcase_output) \
	OPT_FLAG(NULL, "--partial", partial, \
		 "judge results that 'scalegate run' did not finish (warned)"), \
		OPT_FLAG(NULL, "--allow-no-reference", allow_no_reference, \
			 "a benchmark with nothing to compare with passes on its\n" \
			 "absolute rules (a first run; as 'allow_no_reference: true');\n" \
			 "without it, exit 3: could not be judged"), \
		OPT_FLAG(NULL, "--all", all, \
			 "list every check: the inconclusive and the passing ones too"), \
		OPT_FLAG(NULL, "--testcase-output", testcase_output, \
			 "JUnit: each testcase's text in its own <system-out>, with\n" \
			 "file and line attributes (GitLab; valid against junit10.xsd)")

/* What a command's --help says around the table's lines. */
struct command_usage {
	const char *name; /* "check": for "see 'scalegate check --help'" */
	const char *head; /* the synopsis and what the command does */
	const char *tail; /* after the options: exit codes; may be NULL */
};

#define OPTIONS_HELP (-2)

/*
 * Parses argv[1..argc-1] against 'opts' ("--opt V", "--opt=V", flags, "--" ends the options).
 * Arguments that are not options are moved to argv[0..n-1]; returns n, or OPTIONS_HELP after
 * printing the help on stdout for -h/--help, or -1 after an gate_error() (an unknown option gets
 * "did you mean" and a pointer to --help).
 */
int options_parse(int argc, char **argv, const struct option *opts, const struct command_usage *u);

/* options_parse for a command that takes no arguments: 0, OPTIONS_HELP or -1 (reported). */
int options_parse_no_args(int argc, char **argv, const struct option *opts,
			  const struct command_usage *u);

/* Writes the whole --help text: head, one line (or more) per option, tail. */
void options_usage(FILE *f, const struct option *opts, const struct command_usage *u);

/* An gate_error() for a value that is not what an option wants; returns -1. */
int option_bad_value(const struct option *o, const char *value, const char *want);
/* The same for a value that must be one of 'words' (NULL-terminated): "a, b or c", and "did you
 * mean" when one is near. */
int option_bad_choice(const struct option *o, const char *value, const char *const *words);

#endif
