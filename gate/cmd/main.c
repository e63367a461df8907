/* scalegate: the subcommand table and dispatch, nothing else. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "base/exitcode.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct cmd commands[] = {
	{ "analyze", cmd_analyze, "compute the characteristics of a results directory or of profiles" },
	{ "baseline", cmd_baseline, "record the current results as the baselines of the benchmarks" },
	{ "calibrate", cmd_calibrate, "measure the false-positive rate and the detectable change of the rules" },
	{ "ci", cmd_ci, "the whole gate in one command: run, check, reports, post; the check's exit code" },
	{ "check", cmd_check, "judge the results against the rules and the baselines: the gate's verdict" },
	{ "history", cmd_history, "record runs, find change points over commits, write trend pages" },
	{ "post", cmd_post, "post the summary of a check: a webhook, a GitHub or GitLab status" },
	{ "profile", cmd_profile, "check and summarize profile files written by the tracer" },
	{ "report", cmd_report, "write the HTML report: verdicts and scaling plots against the baselines" },
	{ "run", cmd_run, "run the benchmark matrix of scalegate.yml and record the results" },
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

/* The edit distance of 'a' and 'b' (Levenshtein), capped at 9: enough to rank near misses. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[32], prev, tmp;

	if (la > 30 || lb > 30)
		return 9;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb] > 9 ? 9 : row[lb];
}

/* "did you mean 'run'?" for a mistyped command: the nearest within two edits, or a swap of two letters. */
static const char *nearest_command(const char *name)
{
	const char *best = NULL;
	size_t best_d = 3, n = strlen(name);

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const char *c = commands[i].name;
		size_t d = distance(name, c);
		/* a transposition ("rnu", "chekc") is one slip, not two */
		for (size_t k = 0; k + 1 < n && strlen(c) == n; k++)
			if (name[k] == c[k + 1] && name[k + 1] == c[k] && !strncmp(name, c, k) &&
			    !strcmp(name + k + 2, c + k + 2))
				d = 1;
		if (d < best_d && d < strlen(c)) {
			best = c;
			best_d = d;
		}
	}
	return best;
}

/* A report that could not be written completely must not pass silently. */
static int finish(int code)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		if (errno != EPIPE) {
			fprintf(stderr, "scalegate: error: cannot write to standard output: %s\n", strerror(errno));
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
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version")) {
		printf("scalegate %s\n", SG_VERSION);
		return finish(SG_EXIT_PASS);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "scalegate: error: '%s' is not a scalegate command\n", argv[1]);
	if (nearest_command(argv[1]))
		fprintf(stderr, "did you mean '%s'?\n", nearest_command(argv[1]));
	else
		usage(stderr);
	return SG_EXIT_USAGE;
}
