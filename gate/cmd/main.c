/* scalegate: the subcommand table and dispatch, nothing else. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "base/exitcode.h"
#include "base/util.h"
#include "base/yamldoc.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct cmd commands[] = {
	{"analyze", cmd_analyze,
	 "compute the characteristics of a results directory or of profiles"},
	{"baseline", cmd_baseline, "record the current results as the baselines of the benchmarks"},
	{"calibrate", cmd_calibrate,
	 "measure the false-positive rate and the detectable change of the rules"},
	{"ci", cmd_ci,
	 "the whole gate in one command: run, check, reports, post; the check's exit code"},
	{"check", cmd_check,
	 "judge the results against the rules and the baselines: the gate's verdict"},
	{"export", cmd_export, "write results for Extra-P or for Hatchet and Thicket"},
	{"history", cmd_history, "record runs, find change points over commits, write trend pages"},
	{"import", cmd_import, "read TALP or Caliper measurements as a results directory"},
	{"post", cmd_post, "post the summary of a check: a webhook, a GitHub or GitLab status"},
	{"profile", cmd_profile, "check and summarize profile files written by the tracer"},
	{"report", cmd_report,
	 "write the HTML report: verdicts and scaling plots against the baselines"},
	{"run", cmd_run, "run the benchmark matrix of scalegate.yml and record the results"},
};

static void usage(FILE *out)
{
	fputs("usage: scalegate [-V|--version] [--help] <command> [<args>]\n\ncommands:\n", out);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\n'scalegate <command> --help' describes a command; 'man scalegate' shows\n"
	      "every command's help. The docs/*.md they name are installed in\n"
	      "<prefix>/share/doc/scalegate/docs.\n"
	      "exit codes: 0 pass, 1 regression, 2 usage or configuration error,\n"
	      "            3 a benchmark failed to run or a check could not be judged,\n"
	      "            4 a required post failed\n", out);
}

/* "did you mean 'run'?" for a mistyped command. */
static const char *nearest_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands) + 1];

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	names[ARRAY_SIZE(commands)] = NULL;
	return yamldoc_closest(name, names);
}

/* A report that could not be written completely must not pass silently. */
static int finish(int code)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		if (errno != EPIPE) {
			gate_error("cannot write to standard output: %s", strerror(errno));
			return SG_EXIT_USAGE;
		}
	}
	return code;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return SG_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(SG_EXIT_PASS);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "version")) {
		printf("scalegate %s\n", SG_VERSION);
		return finish(SG_EXIT_PASS);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].fn(argc - 1, argv + 1));
	gate_error("'%s' is not a scalegate command", argv[1]);
	if (nearest_command(argv[1]))
		fprintf(stderr, "did you mean '%s'?\n", nearest_command(argv[1]));
	else
		usage(stderr);
	return SG_EXIT_USAGE;
}
