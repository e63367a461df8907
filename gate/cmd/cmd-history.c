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
#include "judge/baseline.h"
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
	"           commit, parent, branch, date and job URL default from the CI's\n"
	"           environment and git\n"
	"  import   records existing results directories in the order given; each\n"
	"           directory's name is its commit, its fingerprint's date the date;\n"
	"           a stored baseline (.sgbase) adds its earlier sittings (times) and its\n"
	"           samples, as commits baseline-NAME-sitting-K and baseline-NAME\n"
	"  detect   change points in every series (E-divisive means, t-test, false\n"
	"           discovery rate Q across all series, default 0.01; the minimum change\n"
	"           is the rules' tolerance, else 5 %); exit 1 when the last N runs\n"
	"           (--window, default 1) made a regression known: one lies within them,\n"
	"           or a creep's change point was found only with them\n"
	"  report   trend pages: one static HTML page per benchmark, change points marked\n"
	"           and linked to TEMPLATE with {commit} replaced (default: the commit on\n"
	"           GitHub or GitLab when run there, else the page's table of runs);\n"
	"           --compare draws the scaling curves of those commits side by side\n",
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

static char *now_iso(void)
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
	if (meta->date) {
		r->date = xstrdup(meta->date);
	} else if (plain_revision(r->commit)) {
		cmd = xstrfmt("show -s --format=%%cI %s", r->commit);
		r->date = git_line(cmd);
		free(cmd);
	}
	if (!r->date)
		r->date = now_iso();
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

static char *file_hash(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *out = NULL;

	if (path && !access(path, R_OK) && !strbuf_read_file(&sb, path))
		out = xstrfmt("%016llx", fnv1a64(sb.buf, sb.len));
	strbuf_release(&sb);
	return out;
}

/* The points, machine and (when unset) date of r from an analysed results directory. */
static void fill(struct history_record *r, const struct analysis *a, const struct matrix *m)
{
	history_record_add(r, a, m);
	r->run.machine = machine_of(a);
	if (!r->run.date && fingerprint_value(a, "date"))
		r->run.date = xstrdup(fingerprint_value(a, "date"));
}

/* Analyses 'results' into r's points; 0 or -1. */
static int analyse(struct history_record *r, struct config *c, const char *results)
{
	struct analysis a;
	struct matrix m;
	int ret = -1;

	analysis_init(&a);
	matrix_init(&m);
	m.skip_trend = 1; /* not recorded */
	for (size_t i = 0; c && i < c->nr_benchmarks; i++)
		if (c->benchmarks[i].memory)
			matrix_set_memory(&m, c->benchmarks[i].name, c->benchmarks[i].memory);
	if (!analysis_load(&a, results) && !matrix_build(&m, &a)) {
		fill(r, &a, &m);
		ret = 0;
	}
	matrix_release(&m);
	analysis_release(&a);
	return ret;
}

static int write_record(const char *where, struct history_record *r, const char *results)
{
	struct history *h;
	int ret;

	if (!r->nr)
		return gate_error("'%s' holds no figure to record", results);
	if (history_open(&h, where))
		return -1;
	ret = history_write(h, r);
	history_close(h);
	if (!ret) {
		char *text = history_where_text(where);
		printf("history: recorded run %lld of commit %s (%zu figures) into %s\n", r->run.id,
		       r->run.commit, r->nr, text);
		free(text);
	}
	return ret;
}

int history_cmd_record(const char *where, struct config *c, const char *config_path,
		       const char *results, const struct history_meta *meta)
{
	struct history_record r;
	int ret;

	history_record_init(&r);
	ret = run_names(&r.run, meta) || analyse(&r, c, results) ? -1 : 0;
	if (!ret) {
		r.run.config_hash = c ? file_hash(config_path) : NULL;
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
		fill(&r, a, m);
		r.run.config_hash = c ? file_hash(config_path) : NULL;
		ret = write_record(where, &r, a->dir);
	}
	history_record_release(&r);
	return ret;
}

/* One results directory of an import: its name is its commit, its fingerprint's date its date. */
static int import_one(const char *where, struct config *c, const char *config_path, const char *dir,
		      const struct history_options *o)
{
	struct history_record r;
	const char *slash;
	char *name = xstrdup(dir);
	int ret;

	while (strlen(name) > 1 && name[strlen(name) - 1] == '/')
		name[strlen(name) - 1] = 0;
	slash = strrchr(name, '/');
	history_record_init(&r);
	r.run.commit = xstrdup(o->meta.commit ? o->meta.commit : slash ? slash + 1 : name);
	r.run.branch = dup_or(o->meta.branch, NULL);
	r.run.date = dup_or(o->meta.date, NULL);
	r.run.config_hash = c ? file_hash(config_path) : NULL;
	ret = analyse(&r, c, dir);
	if (!ret && !r.run.date)
		r.run.date = now_iso();
	if (!ret)
		ret = write_record(where, &r, dir);
	history_record_release(&r);
	free(name);
	return ret;
}

/* ---- stored baselines: their samples as an analysis, their earlier sittings as runs of their own
 * ---- */

static struct analysis_point *baseline_point(struct analysis_config *cfg, int repeat, int id)
{
	struct analysis_run *run = NULL;

	for (size_t i = 0; i < cfg->nr_runs && !run; i++)
		if (cfg->runs[i].repeat == repeat)
			run = &cfg->runs[i];
	if (!run) {
		ALLOC_GROW(cfg->runs, cfg->nr_runs + 1, cfg->alloc_runs);
		run = &cfg->runs[cfg->nr_runs++];
		memset(run, 0, sizeof(*run));
		run->repeat = repeat;
		run->contention = NAN;
	}
	if ((size_t)id >= run->nr_points) {
		run->points = xrealloc(run->points, ((size_t)id + 1) * sizeof(*run->points));
		for (size_t k = run->nr_points; k <= (size_t)id; k++) {
			struct analysis_point *pt = &run->points[k];
			memset(pt, 0, sizeof(*pt));
			for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
				pt->fig[f] = NAN;
			for (int q = 0; q < ANALYSIS_NR_PQ; q++)
				pt->cmp[q].min = pt->cmp[q].max = pt->cmp[q].mean = NAN;
		}
		run->nr_points = (size_t)id + 1;
	}
	return &run->points[id];
}

/* The repeats of a stored baseline as the analysis of a results directory. */
static void baseline_analysis(struct analysis *a, const struct baseline *b)
{
	for (size_t i = 0; i < b->nr_cells; i++) {
		const struct baseline_cell *c = &b->cells[i];
		struct analysis_config *cfg =
			analysis_config_get(a, b->benchmark, c->size, c->ranks, c->threads);
		int depth = 0, id;
		for (const char *p = c->interval; *p; p++)
			depth += *p == '/';
		id = analysis_interval_id(a, b->benchmark, c->interval, NULL, 0, depth);
		for (size_t r = 0; r < c->n; r++) {
			struct analysis_point *pt = baseline_point(cfg, (int)r + 1, id);
			pt->present = 1;
			for (int f = 0; f < ANALYSIS_NR_FIGURES; f++)
				if (c->fig[f])
					pt->fig[f] = c->fig[f][r];
			pt->fig[ANALYSIS_PROCESSORS] = (double)c->ranks * c->threads;
		}
	}
	for (size_t i = 0; i < b->nr_fingerprint; i++) {
		ALLOC_GROW(a->fingerprint, a->nr_fingerprint + 1, a->alloc_fingerprint);
		a->fingerprint[a->nr_fingerprint++] = xstrdup(b->fingerprint[i]);
	}
}

/* Earlier sitting k of a baseline: the median time of each interval x configuration, one run. */
static void sitting_points(struct history_record *r, const struct baseline *b, size_t k)
{
	for (size_t i = 0; i < b->nr_cells; i++) {
		const struct baseline_cell *c = &b->cells[i];
		struct history_point p = { .metric = HISTORY_TIME, .lo = NAN, .hi = NAN, .n = 1 };
		if (!c->earlier || !isfinite(c->earlier[k]))
			continue;
		p.median = c->earlier[k];
		p.benchmark = xstrdup(b->benchmark);
		p.interval = xstrdup(c->interval);
		p.configuration = history_configuration(c->size, c->ranks, c->threads);
		ALLOC_GROW(r->points, r->nr + 1, r->alloc);
		r->points[r->nr++] = p;
	}
}

/* A stored baseline: its earlier sittings (times only), then its samples; commits
 * "baseline-NAME-..." */
static int import_baseline(const char *where, struct config *c, const char *path,
			   const struct history_options *o)
{
	struct baseline b;
	int ret = baseline_read(&b, path) ? -1 : 0;

	for (size_t k = 0; !ret && k < b.nr_sittings; k++) {
		struct history_record r;
		history_record_init(&r);
		r.run.commit = xstrfmt("baseline-%s-sitting-%zu", b.benchmark, k + 1);
		r.run.branch = dup_or(o->meta.branch, NULL);
		r.run.date = xstrdup(b.sittings[k]);
		sitting_points(&r, &b, k);
		ret = r.nr ? write_record(where, &r, path) : 0;
		history_record_release(&r);
	}
	if (!ret) {
		struct history_record r;
		struct analysis a;
		struct matrix m;
		history_record_init(&r);
		analysis_init(&a);
		matrix_init(&m);
		m.skip_trend = 1;
		baseline_analysis(&a, &b);
		r.run.commit = o->meta.commit ? xstrdup(o->meta.commit)
					      : xstrfmt("baseline-%s", b.benchmark);
		r.run.branch = dup_or(o->meta.branch, NULL);
		r.run.date = dup_or(o->meta.date, NULL);
		r.run.config_hash = c ? file_hash(o->config) : NULL;
		ret = matrix_build(&m, &a);
		if (!ret) {
			fill(&r, &a, &m);
			if (!r.run.date)
				r.run.date = now_iso();
			ret = write_record(where, &r, path);
		}
		matrix_release(&m);
		analysis_release(&a);
		history_record_release(&r);
	}
	baseline_release(&b);
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
	if (!strcmp(o->verb, "import")) {
		if (!o->nr_dirs || (o->meta.commit && o->nr_dirs > 1)) {
			gate_error(o->nr_dirs ? "--commit names the commit of one directory"
					      : "no directory to import");
			return SG_EXIT_USAGE;
		}
		for (size_t i = 0; i < o->nr_dirs; i++) {
			size_t len = strlen(o->dirs[i]);
			int baseline =
				len > strlen(BASELINE_EXT) &&
				!strcmp(o->dirs[i] + len - strlen(BASELINE_EXT), BASELINE_EXT);
			if (baseline ? import_baseline(where, c, o->dirs[i], o)
				     : import_one(where, c, o->config, o->dirs[i], o))
				return SG_EXIT_USAGE;
		}
		return SG_EXIT_PASS;
	}
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
