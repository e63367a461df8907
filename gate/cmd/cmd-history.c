/* scalegate history: its options and dispatch (record: history-record.c, import: history-import.c,
 * detect and report: history-detect.c, history-report.c). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
