/* scalegate calibrate --inject: whole gate runs, A/A and with injected slowdowns, counted with
 * Wilson intervals. */
#include "cmd/calibrate-inject.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "stats/stats.h"
#include "run/worktree.h"

#define MAX_PCTS 8

/* "solve:5,10%,20": the interval and up to MAX_PCTS percentages; 0 or gate_error(). */
static int parse_spec(const char *spec, char **interval, double *pct, int *n)
{
	const char *colon = strchr(spec, ':');
	char *list, *save = NULL;

	*n = 0;
	if (!colon || colon == spec)
		return gate_error(
			"--inject '%s': expected INTERVAL:PCT[,PCT...], e.g. solve:5,10,20", spec);
	list = xstrdup(colon + 1);
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double x = strtod(tok, &end);
		if (*end == '%')
			end++;
		if (end == tok || *end || !(x > 0) || x > 1000 || *n == MAX_PCTS) {
			gate_error("--inject '%s': '%s' is not a percentage above 0 (at most %d of "
				   "them)",
				   spec, tok, MAX_PCTS);
			free(list);
			return -1;
		}
		pct[(*n)++] = x;
	}
	free(list);
	if (!*n)
		return gate_error("--inject '%s': no percentage", spec);
	*interval = xstrndup(spec, (size_t)(colon - spec));
	return 0;
}

/*
 * Runs this scalegate with 'args' (NULL-terminated), its output into 'log'; its exit code, or -1.
 * Through /proc/self/exe, not its path: a rebuild during a long calibration replaces the file, not
 * this image.
 */
static int self(char *const *args, const char *log)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return gate_error("fork: %s", strerror(errno));
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execv("/proc/self/exe", args);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return gate_error("waitpid: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* "k of n (p %, 95 % [lo, hi])" */
static void wilson(char *buf, size_t size, int k, int n)
{
	double z = 1.96, p = n ? (double)k / n : 0, d = 1 + z * z / n,
	       c = (p + z * z / (2.0 * n)) / d;
	double h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;

	snprintf(buf, size, "%d of %d (%.0f %%, 95 %% [%.0f, %.0f])", k, n, 100 * p,
		 100 * fmax(0, c - h), 100 * fmin(1, c + h));
}

struct inject_run {
	const char *config, *against, *baselines, *dir;
	int ab;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One whole gate run; its exit code (1: it failed the build), or -1; its wall time into *seconds.
 */
static int gate(const struct inject_run *g, const char *name, const char *inject, double *seconds)
{
	char *results = xstrfmt("%s/%s", g->dir, name),
	     *reports = xstrfmt("%s/%s-reports", g->dir, name);
	char *log = xstrfmt("%s/%s.log", g->dir, name);
	char *args[20];
	int n = 0, code;

	args[n++] = "scalegate";
	args[n++] = "ci";
	args[n++] = (char *)"-c";
	args[n++] = (char *)g->config;
	args[n++] = "--no-post";
	args[n++] = "--results";
	args[n++] = results;
	args[n++] = "-o";
	args[n++] = reports;
	if (g->ab) {
		args[n++] = "--against-dir";
		args[n++] = (char *)g->against;
	} else {
		args[n++] = "--baselines";
		args[n++] = (char *)g->baselines;
	}
	if (inject) {
		args[n++] = "--inject";
		args[n++] = (char *)inject;
	}
	args[n] = NULL;
	*seconds = now();
	code = self(args, log);
	*seconds = now() - *seconds;
	fprintf(stderr, "scalegate calibrate: %s %s: exit %d (%s)\n", g->ab ? "A/B" : "stored",
		name, code, log);
	free(results);
	free(reports);
	free(log);
	return code;
}

/* The stored baseline of the stored mode, from a clean run recorded before its sets; 0 or -1. */
static int record_baseline(const struct inject_run *g)
{
	char *results = xstrfmt("%s/baseline-run", g->dir),
	     *log = xstrfmt("%s/baseline-run.log", g->dir);
	char *run[] = { "scalegate", "run", "-c", (char *)g->config, "-o", results, NULL };
	char *update[] = {"scalegate",          "baseline", "update", "-c",
			  (char *)g->config,    "-r",       results,  "--baselines",
			  (char *)g->baselines, "--force",  NULL};
	int ret = self(run, log) || self(update, log)
			  ? gate_error("the stored baseline could not be recorded (see %s)", log)
			  : 0;

	free(results);
	free(log);
	return ret;
}

/* "median 12.3 s over 20 gate runs" of the wall times t[0..n) (sorted in place). */
static void print_median(const char *mode, const char *what, double *t, int n)
{
	if (n)
		printf("%-7s median wall time of a gate run %s: %.1f s (%d runs)\n", mode, what,
		       stats_median(t, (size_t)n), n);
}

static int one_mode(const struct inject_run *g, const char *interval, const double *pct, int npct,
		    int sets)
{
	int fa = 0, errors = 0, caught[MAX_PCTS] = { 0 }, n_inj = 0;
	double *t_aa = xcalloc((size_t)sets, sizeof(double)),
	       *t_inj = xcalloc((size_t)sets * npct, sizeof(double));
	char buf[96];

	if (mkdir_p(g->dir) || (!g->ab && record_baseline(g))) {
		free(t_aa);
		free(t_inj);
		return -1;
	}
	for (int k = 1; k <= sets; k++) {
		char *name = xstrfmt("%d-aa", k);
		int code = gate(g, name, NULL, &t_aa[k - 1]);
		free(name);
		fa += code == SG_EXIT_REGRESSION;
		errors += code != SG_EXIT_REGRESSION && code != SG_EXIT_PASS;
		for (int i = 0; i < npct; i++) {
			char *spec = xstrfmt("%s:%g%%", interval, pct[i]);
			name = xstrfmt("%d-%g", k, pct[i]);
			code = gate(g, name, spec, &t_inj[n_inj++]);
			caught[i] += code == SG_EXIT_REGRESSION;
			errors += code != SG_EXIT_REGRESSION && code != SG_EXIT_PASS;
			free(name);
			free(spec);
		}
	}
	wilson(buf, sizeof(buf), fa, sets);
	printf("%-7s A/A gate runs that fail: %s", g->ab ? "A/B" : "stored", buf);
	printf("\n");
	for (int i = 0; i < npct; i++) {
		wilson(buf, sizeof(buf), caught[i], sets);
		printf("%-7s %s +%g %% caught: %s\n", g->ab ? "A/B" : "stored", interval, pct[i],
		       buf);
	}
	if (errors)
		printf("%-7s %d gate runs ended with another code than 0 or 1 (see their logs in "
		       "%s)\n",
		       g->ab ? "A/B" : "stored", errors, g->dir);
	print_median(g->ab ? "A/B" : "stored", "A/A", t_aa, sets);
	print_median(g->ab ? "A/B" : "stored", "with an injection", t_inj, n_inj);
	fflush(stdout);
	free(t_aa);
	free(t_inj);
	return 0;
}

int calibrate_inject(const char *config_path, const struct config *c, const char *spec, int sets,
		     const char *dir)
{
	double pct[MAX_PCTS];
	char *interval = NULL, *top, *out, *baselines, *ab_dir, *stored_dir;
	char resolved[PATH_MAX];
	int npct, ret;

	if (parse_spec(spec, &interval, pct, &npct))
		return SG_EXIT_USAGE;
	top = worktree_toplevel(c->dir);
	if (!top)
		top = xstrdup(realpath(c->dir, resolved) ? resolved : c->dir);
	out = dir ? xstrdup(dir) : xstrfmt("%s-calibrate", c->results_dir);
	baselines = xstrfmt("%s/stored/baselines", out);
	ab_dir = xstrfmt("%s/ab", out);
	stored_dir = xstrfmt("%s/stored", out);
	printf("== calibrate --inject %s: %d independent set%s per mode; each a whole 'scalegate "
	       "ci' (adaptive repeats "
	       "included) with the configured rules; A/B against this tree itself, stored against "
	       "a baseline "
	       "recorded before the sets\n",
	       spec, sets, sets == 1 ? "" : "s");
	fflush(stdout);
	{
		struct inject_run ab = { config_path, top, NULL, ab_dir, 1 };
		struct inject_run st = { config_path, NULL, baselines, stored_dir, 0 };
		ret = one_mode(&ab, interval, pct, npct, sets) ||
		      one_mode(&st, interval, pct, npct, sets);
	}
	free(interval);
	free(top);
	free(out);
	free(baselines);
	free(ab_dir);
	free(stored_dir);
	return ret ? SG_EXIT_RUN_FAILED : SG_EXIT_PASS;
}
