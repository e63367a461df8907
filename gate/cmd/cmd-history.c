/* scalegate history: its options and dispatch, and record and import, which put runs into the
 * history database (detect and report: history-detect.c, history-report.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/matrix.h"
#include "base/exitcode.h"
#include "base/util.h"
#include "cmd/cmds.h"
#include "cmd/history-cmd.h"
#include "cmd/history-priv.h"
#include "cmd/options.h"
#include "config/config.h"
#include "history/history.h"

static const struct command_usage usage = {
	"history",
	"usage: scalegate history record [OPTIONS] [RESULTS_DIR]\n"
	"       scalegate history import [OPTIONS] DIR|BASELINE.sgbase...\n"
	"       scalegate history detect [OPTIONS] [--json] [--window N] [--fdr Q]\n"
	"       scalegate history report [OPTIONS] --html DIR [--commit-url TEMPLATE]\n"
	"                                [--compare SHA,SHA[,...]]\n"
	"The history database remembers every recorded run (main-branch jobs, nightly\n"
	"runs): per interval and configuration the time, speedup, efficiency and the\n"
	"lost-time shares, with every repeat (docs/history.md).\n"
	"  record   records a results directory (default: 'results' of the configuration);\n"
	"           commit, parent, branch, date, job URL and subject default from the\n"
	"           CI's environment and git\n"
	"  import   records existing results directories in the order given, in one\n"
	"           transaction (all or none); each directory's name is its commit, its\n"
	"           fingerprint's date the date; a stored baseline (.sgbase) adds its\n"
	"           earlier sittings (times) and its samples, as commits\n"
	"           baseline-NAME-sitting-K and baseline-NAME\n"
	"  detect   change points in every series (E-divisive means, t-test, false\n"
	"           discovery rate Q across all series, default 0.01; the minimum change\n"
	"           is the rules' tolerance, else 5 %); exit 1 when the last N runs\n"
	"           (--window, default 1) made a regression known: one lies within them,\n"
	"           or a creep's change point was found only with them\n"
	"  report   trend pages: a static site, an index of every interval and\n"
	"           configuration with its state, each benchmark's plots on pages of at\n"
	"           most 5 MB, change points marked and linked to TEMPLATE with {commit}\n"
	"           replaced (default: the commit on GitHub or GitLab when run there, else\n"
	"           the site's table of runs); --compare draws the scaling curves of those\n"
	"           commits side by side\n",
	"exit codes: 0 done (detect: no recent regression), 1 a regression made known by the\n"
	"window's runs, 2 usage or configuration error, or the database failed\n"
};

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct history_options *o)
{
	const char *config = NULL;
	const struct option opts[] = {
		OPT_STRING(
			NULL, "--history", &o->history, "DB",
			"the database: a file (SQLite) or a postgresql:// URL (default: 'history'\n"
			"of the configuration)"),
		OPT_STRING("-c", "--config", &config, "FILE",
			   "the configuration (default: scalegate.yml, when there is one)"),
		OPT_STRING(NULL, "--branch", &o->meta.branch, "NAME",
			   "record: the run's branch; detect, report: only that branch's runs"),
		OPT_STRING(NULL, "--commit", &o->meta.commit, "SHA",
			   "record, import: the run's commit"),
		OPT_STRING(NULL, "--parent", &o->meta.parent, "SHA", "record: the commit's parent"),
		OPT_STRING(NULL, "--date", &o->meta.date, "ISO-8601",
			   "record, import: the run's date"),
		OPT_STRING(NULL, "--job-url", &o->meta.job_url, "URL", "record: the CI job's page"),
		OPT_STRING(NULL, "--subject", &o->meta.subject, "TEXT",
			   "record, import: the commit's subject (default: CI_COMMIT_TITLE,\n"
			   "git's)"),
		OPT_FLAG(NULL, "--json", &o->json, "detect: the documented JSON instead of text"),
		OPT_STRING(NULL, "--window", &o->window_text, "N",
			   "detect: exit 1 for a regression the last N runs made known\n"
			   "(default 1)"),
		OPT_STRING(NULL, "--fdr", &o->fdr_text, "Q",
			   "detect: the false discovery rate across all series (default 0.01)"),
		OPT_STRING(NULL, "--html", &o->html, "DIR", "report: where the pages go"),
		OPT_STRING(NULL, "--commit-url", &o->commit_url, "TEMPLATE",
			   "report: a commit's page, with {commit}"),
		OPT_STRING(NULL, "--compare", &o->compare_text, "SHA,SHA[,...]",
			   "report: the commits whose scaling curves each interval shows\n"
			   "side by side (up to 6; a unique prefix will do; default: the\n"
			   "newest run and the one before the interval's last regression)"),
		OPT_END()
	};
	int n;

	if (argc < 2) {
		options_usage(stderr, opts, &usage);
		return -1;
	}
	if (strcmp(argv[1], "-h") && strcmp(argv[1], "--help")) {
		o->verb = argv[1];
		if (strcmp(o->verb, "record") && strcmp(o->verb, "import") &&
		    strcmp(o->verb, "detect") && strcmp(o->verb, "report"))
			return gate_error("'%s' is not a history command (record, import, detect, "
					  "report; see "
					  "'scalegate history --help')",
					  o->verb);
		argc--;
		argv++;
	}
	n = options_parse(argc, argv, opts, &usage);
	if (n < 0)
		return n;
	if (config) {
		o->config = config;
		o->config_given = 1;
	}
	o->dirs = argv;
	o->nr_dirs = (size_t)n;
	return 0;
}

/* ---- what names a run: options, the CI's environment, git ---- */

const char *history_cmd_env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* The first line git prints for 'args' in the current directory, or NULL; caller frees. */
static char *git_line(const char *args)
{
	char *cmd = xstrfmt("git %s 2>/dev/null", args), line[4096];
	FILE *p = popen(cmd, "r");
	char *out = NULL;

	free(cmd);
	if (!p)
		return NULL;
	if (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\r\n")] = 0;
		if (*line)
			out = xstrdup(line);
	}
	if (pclose(p) != 0) {
		free(out);
		out = NULL;
	}
	return out;
}

/* A commit as git may take it on a command line: hex digits, letters of ref names, no shell syntax.
 */
static int plain_revision(const char *s)
{
	return s && *s &&
	       strspn(s, "0123456789abcdefABCDEFghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ_./-") ==
		       strlen(s);
}

char *history_cmd_subject(const char *commit)
{
	char *cmd, *subject;

	if (!plain_revision(commit))
		return NULL;
	cmd = xstrfmt("show -s --format=%%s %s --", commit);
	subject = git_line(cmd);
	free(cmd);
	return subject;
}

char *history_cmd_now(void)
{
	char buf[32];
	time_t t = time(NULL);

	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	return xstrdup(buf);
}

static char *dup_or(const char *a, const char *b)
{
	return a ? xstrdup(a) : b ? xstrdup(b) : NULL;
}

static char *default_branch(void)
{
	const char *e = history_cmd_env("GITHUB_HEAD_REF");
	char *b;

	if (!e)
		e = history_cmd_env("GITHUB_REF_NAME");
	if (!e)
		e = history_cmd_env("CI_COMMIT_BRANCH");
	if (!e)
		e = history_cmd_env("CI_COMMIT_REF_NAME");
	if (!e)
		e = history_cmd_env("BRANCH_NAME");
	if (e)
		return xstrdup(e);
	b = git_line("rev-parse --abbrev-ref HEAD");
	if (b && !strcmp(b, "HEAD")) { /* detached */
		free(b);
		b = NULL;
	}
	return b;
}

static char *default_job_url(void)
{
	const char *server = history_cmd_env("GITHUB_SERVER_URL"),
		   *repo = history_cmd_env("GITHUB_REPOSITORY"),
		   *id = history_cmd_env("GITHUB_RUN_ID");

	if (server && repo && id)
		return xstrfmt("%s/%s/actions/runs/%s", server, repo, id);
	return dup_or(history_cmd_env("CI_JOB_URL"), history_cmd_env("BUILD_URL"));
}

/* Fills r from 'meta', the CI's environment and git; 0, or gate_error() when there is no commit. */
static int run_names(struct history_run *r, const struct history_meta *meta)
{
	char *cmd;

	r->commit = dup_or(meta->commit, history_cmd_env("GITHUB_SHA"));
	if (!r->commit)
		r->commit = dup_or(history_cmd_env("CI_COMMIT_SHA"), history_cmd_env("GIT_COMMIT"));
	if (!r->commit)
		r->commit = git_line("rev-parse HEAD");
	if (!r->commit)
		return gate_error(
			"no commit: give --commit SHA (no GITHUB_SHA, CI_COMMIT_SHA, nor a "
			"git checkout here)");
	r->branch = meta->branch ? xstrdup(meta->branch) : default_branch();
	r->job_url = meta->job_url ? xstrdup(meta->job_url) : default_job_url();
	if (meta->parent) {
		r->parent = xstrdup(meta->parent);
	} else if (plain_revision(r->commit)) {
		cmd = xstrfmt("rev-parse --verify --quiet %s^", r->commit);
		r->parent = git_line(cmd);
		free(cmd);
	}
	r->subject = dup_or(meta->subject, history_cmd_env("CI_COMMIT_TITLE"));
	if (!r->subject)
		r->subject = history_cmd_subject(r->commit);
	if (meta->date) {
		r->date = xstrdup(meta->date);
	} else if (plain_revision(r->commit)) {
		cmd = xstrfmt("show -s --format=%%cI %s", r->commit);
		r->date = git_line(cmd);
		free(cmd);
	}
	if (!r->date)
		r->date = history_cmd_now();
	if (strlen(r->date) < 10 || r->date[4] != '-' || r->date[7] != '-')
		return gate_error(
			"'%s' is not an ISO-8601 date (2026-11-25 or 2026-11-25T22:00:00Z)",
			r->date);
	return 0;
}

/* The machine: a hash of the fingerprint's keys that describe it (not the date nor the job). */
static char *machine_of(const struct analysis *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *out = NULL;

	for (size_t i = 0; i + 1 < a->nr_fingerprint; i += 2) {
		const char *k = a->fingerprint[i];
		if (!strcmp(k, "date") || !strcmp(k, "slurm_job") ||
		    !strcmp(k, "scalegate_version"))
			continue;
		strbuf_addf(&sb, "%s\t%s\n", k, a->fingerprint[i + 1]);
	}
	if (sb.len)
		out = xstrfmt("%016llx", fnv1a64(sb.buf, sb.len));
	strbuf_release(&sb);
	return out;
}

static const char *fingerprint_value(const struct analysis *a, const char *key)
{
	for (size_t i = 0; i + 1 < a->nr_fingerprint; i += 2)
		if (!strcmp(a->fingerprint[i], key) && strcmp(a->fingerprint[i + 1], "-"))
			return a->fingerprint[i + 1];
	return NULL;
}

char *history_cmd_file_hash(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *out = NULL;

	if (path && !access(path, R_OK) && !strbuf_read_file(&sb, path))
		out = xstrfmt("%016llx", fnv1a64(sb.buf, sb.len));
	strbuf_release(&sb);
	return out;
}

void history_cmd_fill(struct history_record *r, const struct analysis *a, const struct matrix *m)
{
	history_record_add(r, a, m);
	r->run.machine = machine_of(a);
	if (!r->run.date && fingerprint_value(a, "date"))
		r->run.date = xstrdup(fingerprint_value(a, "date"));
}

int history_cmd_analyse(struct history_record *r, struct config *c, const char *results)
{
	struct analysis a;
	struct matrix m;
	int ret = -1;

	analysis_init(&a);
	matrix_init(&m);
	m.skip_trend = 1; /* not recorded */
	m.medians_only = 1;
	for (size_t i = 0; c && i < c->nr_benchmarks; i++)
		if (c->benchmarks[i].memory)
			matrix_set_memory(&m, c->benchmarks[i].name, c->benchmarks[i].memory);
	if (!analysis_load(&a, results) && !matrix_build(&m, &a)) {
		history_cmd_fill(r, &a, &m);
		ret = 0;
	}
	matrix_release(&m);
	analysis_release(&a);
	return ret;
}

int history_cmd_write(struct history *h, const char *where, struct history_record *r,
		      const char *results)
{
	char *text;

	if (!r->nr)
		return gate_error("'%s' holds no figure to record", results);
	if (history_write(h, r))
		return -1;
	text = history_where_text(where);
	printf("history: recorded run %lld of commit %s (%zu figures) into %s\n", r->run.id,
	       r->run.commit, r->nr, text);
	free(text);
	return 0;
}

/* One run in a transaction of its own. */
static int write_record(const char *where, struct history_record *r, const char *results)
{
	struct history *h;
	int ret;

	if (!r->nr)
		return gate_error("'%s' holds no figure to record", results);
	if (history_open(&h, where))
		return -1;
	ret = history_cmd_write(h, where, r, results);
	history_close(h);
	return ret;
}

/*
 * Records the results directory into the database 'where' (config may be NULL: no configuration
 * hash); prints one line. 0, or -1 (reported).
 */
static int history_cmd_record(const char *where, struct config *c, const char *config_path,
			      const char *results, const struct history_meta *meta)
{
	struct history_record r;
	int ret;

	history_record_init(&r);
	ret = run_names(&r.run, meta) || history_cmd_analyse(&r, c, results) ? -1 : 0;
	if (!ret) {
		r.run.config_hash = c ? history_cmd_file_hash(config_path) : NULL;
		ret = write_record(where, &r, results);
	}
	history_record_release(&r);
	return ret;
}

int history_cmd_record_analysis(const char *where, struct config *c, const char *config_path,
				const struct analysis *a, const struct matrix *m,
				const struct history_meta *meta)
{
	struct history_record r;
	int ret;

	history_record_init(&r);
	ret = run_names(&r.run, meta);
	if (!ret) {
		history_cmd_fill(&r, a, m);
		r.run.config_hash = c ? history_cmd_file_hash(config_path) : NULL;
		ret = write_record(where, &r, a->dir);
	}
	history_record_release(&r);
	return ret;
}

/* ---- the command ---- */

static int load_config(struct config *c, const struct history_options *o, int *loaded)
{
	*loaded = 0;
	if (!o->config_given && access(o->config, F_OK))
		return 0; /* no scalegate.yml here: --history and the arguments say everything */
	if (config_load(c, o->config))
		return -1;
	*loaded = 1;
	return 0;
}

static int dispatch(struct history_options *o, struct config *c, const char *where)
{
	if (!strcmp(o->verb, "detect"))
		return history_cmd_detect(where, c, o);
	if (!strcmp(o->verb, "report"))
		return history_cmd_report(where, c, o);
	if (!strcmp(o->verb, "import"))
		return history_cmd_import(where, c, o);
	if (o->nr_dirs > 1 || (!o->nr_dirs && !c)) {
		gate_error(o->nr_dirs ? "one results directory at a time"
				      : "no results directory given (nor a configuration)");
		return SG_EXIT_USAGE;
	}
	return history_cmd_record(where, c, o->config, o->nr_dirs ? o->dirs[0] : c->results_dir,
				  &o->meta)
		       ? SG_EXIT_USAGE
		       : SG_EXIT_PASS;
}

int cmd_history(int argc, char **argv)
{
	struct history_options o = { .config = "scalegate.yml" };
	struct config c;
	int loaded = 0, code = SG_EXIT_USAGE, r = parse_options(argc, argv, &o);
	const char *where;

	if (r)
		return r == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	if (load_config(&c, &o, &loaded))
		goto out;
	where = o.history ? o.history : loaded ? c.history : NULL;
	if (!where)
		gate_error("no history database: set 'history:' in %s or give --history DB",
			   o.config);
	else
		code = dispatch(&o, loaded ? &c : NULL, where);
out:
	if (loaded)
		config_release(&c);
	return code;
}
