/* scalegate ci: run -> analyze -> check -> reports -> post, one command and one exit code. */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "judge/check.h"
#include "cmd/ci.h"
#include "cmd/cmds.h"
#include "base/exitcode.h"
#include "base/interrupt.h"
#include "cmd/options.h"
#include "post/post.h"
#include "report/report.h"
#include "run/runner.h"
#include "cmd/ab.h"
#include "cmd/adapt.h"
#include "cmd/history-cmd.h"
#include "cmd/validate.h"

static const struct command_usage usage = {
	"ci",
	"usage: scalegate ci [-c|--config FILE] [-o|--output DIR] [--no-run] [--local] "
	"[--no-post]\n"
	"                    [--require-post] [--partial] [--testcase-output]\n"
	"                    [--allow-no-reference] [-q|--quiet] [--all]\n"
	"                    [--against REV | --against-dir DIR] [--inject I:PCT] [--seed N]\n"
	"                    [-r|--results DIR] [--baselines DIR] [--record] [--history DB]\n"
	"                    [--validate]\n"
	"Runs the benchmark matrix of the configuration, judges the results against\n"
	"the rules and the baselines, writes the JUnit, Markdown, JSON and HTML reports,\n"
	"posts the summary when the configuration has a 'post:' section, and exits\n"
	"with the check's code. At the end it prints the path of every report.\n",
	"exit codes: 0 pass, 1 regression or rule violated, 2 usage or configuration\n"
	"error, 3 a benchmark failed to run, the results are incomplete or something\n"
	"could not be judged (and nothing regressed), 4 a required post\n"
	"failed (and the check passed), 130/143 interrupted (128 + SIGINT/SIGTERM)\n"};

struct ci_options {
	const char *config, *reports, *results, *baselines, *history;
	int no_run, local, no_post, require_post, partial, testcase_output, record;
	int allow_no_reference, quiet, all, validate;
	struct ab_options ab;
};

/* 0, OPTIONS_HELP, or -1 (reported). */
static int parse_options(int argc, char **argv, struct ci_options *o)
{
	const struct option opts[] = {
		OPT_INPUTS(&o->config, &o->results, &o->baselines),
		OPT_STRING("-o", "--output", &o->reports, "DIR",
			   "the reports' directory (default: 'reports:' of the\n"
			   "configuration, else 'reports' beside it)"),
		OPT_FLAG(NULL, "--no-run", &o->no_run,
			 "judge the results already there instead of running"),
		OPT_FLAG("-q", "--quiet", &o->quiet,
			 "no progress lines: the verdicts, the recap and the counts"),
		OPT_FLAG(NULL, "--local", &o->local,
			 "run here even when the configuration has a 'slurm:' section"),
		OPT_FLAG(NULL, "--no-post", &o->no_post,
			 "do not post, even with a 'post:' section"),
		OPT_FLAG(NULL, "--require-post", &o->require_post,
			 "a failed post exits 4 when the check passed"),
		OPT_JUDGING(&o->partial, &o->allow_no_reference, &o->all, &o->testcase_output),
		OPT_FLAG(NULL, "--record", &o->record,
			 "record the results into the history (a main-branch job;\n"
			 "docs/history.md); a failed record warns, the verdict stands"),
		OPT_STRING(NULL, "--history", &o->history, "DB",
			   "the history database (default: 'history' of the configuration);\n"
			   "with one, ci prints the drift of the last recorded runs"),
		AB_OPTIONS(&o->ab),
		OPT_FLAG(NULL, "--validate", &o->validate,
			 "check what ci would use and run nothing: the configuration,\n"
			 "rules, reports, post (unless --no-post), workdirs, preload\n"
			 "libraries, the base revision or the baselines (exit 0 or 2)"),
		OPT_END()};
	int ret = options_parse_no_args(argc, argv, opts, &usage);

	return ret ? ret : ab_check(&o->ab);
}

/* Runs the whole matrix, or with 'extend' an adaptive run's extra rounds; -1 when the gate could
 * not go on. */
static long run_matrix(struct config *c, const struct runner_options *ro)
{
	struct runner r = { 0 };
	long failed = -1;

	if (!runner_init(&r, c, ro))
		failed = runner_run(&r);
	runner_release(&r);
	return failed;
}

/* Marks the verdicts interrupted when an interrupt came since they were judged (they are then not
 * the whole verdict); 1 when it did. */
static int mark_interrupted(struct verdict_set *vs)
{
	if (!interrupt_signal || vs->interrupted)
		return 0;
	vs->interrupted = interrupt_signal;
	verdict_set_finish(vs);
	return 1;
}

/* A run that could not go on: 128 + the signal when interrupted (130 Ctrl-C, 143 TERM), else 3. */
static int run_failed_code(void)
{
	return interrupt_signal ? interrupt_exit_code() : SG_EXIT_RUN_FAILED;
}

/*
 * Adaptive repeats (docs/check.md): the first look was judged at
 * CHECK_FIRST_LOOK of the level; the cells it found undecided get more
 * rounds within the budget, appended to the results the judge holds, and the
 * second look judges them on all their rounds at the rest. When no cell gets
 * more, the first look was the last: the record goes and the results in memory
 * are judged again in one look at the full level.
 * 0, or -1 when a run or a look could not go on (j->load_error, or code 3).
 */
static int adapt(struct judge *j, const struct runner_options *ro)
{
	struct runner_options more = *ro;
	struct adaptive plan;
	int ret = 0;

	if (!adapt_plan(j, &plan)) {
		adaptive_release(&plan);
		if (adaptive_remove(j->results)) {
			j->load_error = SG_EXIT_RUN_FAILED;
			return -1;
		}
		results_set_adaptive(&j->res, &plan); /* none: one look */
		adapt_forget(j);
		return judge_again(j) ? -1 : 0;
	}
	more.extend = &plan;
	more.record = &j->res; /* the judge's results get the new rounds: nothing is read again */
	if (adaptive_write(&plan, j->results) ||
	    (run_matrix(&j->config, &more) < 0 && !interrupt_signal)) {
		j->load_error = run_failed_code();
		ret = -1;
	}
	j->interrupted = interrupt_signal; /* the rounds that ran are judged, marked incomplete */
	results_set_adaptive(&j->res, &plan);
	fflush(stdout);
	adapt_forget(j);
	return ret || judge_again(j) ? -1 : 0;
}

/* Adaptive repeats run here, after the matrix: not with --no-run, nor through a 'slurm:' job
 * (docs/check.md). */
static int adapting(const struct config *c, const struct ci_options *o)
{
	return !o->no_run && (!c->batch || o->local) && adapt_wanted(c);
}

/* Reads and validates the 'post:' section before anything runs; 0 or -1 (reported). */
static int post_section_load(struct config *c, struct post_options *o, int require)
{
	if (post_config_parse(&c->doc, c->post, c->dir, o))
		return -1;
	if (require)
		o->require = 1;
	return 0;
}

/* Posts the summary; the check's code stands unless a required post failed on a pass. */
static int post(struct post_options *o, const char *path, const struct strbuf *summary, int code)
{
	int failed;

	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		gate_error("cannot initialize libcurl");
		failed = -1;
	} else {
		failed = post_run(o, path, summary);
		curl_global_cleanup();
	}
	if (interrupt_signal)
		return interrupt_exit_code();
	if (failed && o->require == 1 && code == SG_EXIT_PASS)
		code = SG_EXIT_POST_FAILED;
	else if (failed)
		fputs("scalegate: warning: the summary was not posted; the gate's verdict stands\n",
		      stderr);
	return code;
}

/* --record, then the drift of the recorded runs (docs/history.md); neither changes the verdict. */
static void history(const struct ci_options *o, struct judge *j)
{
	struct config *c = &j->config;
	const char *where = o->history ? o->history : c->history;

	if (!where) {
		if (o->record)
			fputs("scalegate: warning: --record: no history database ('history:' or "
			      "--history)\n",
			      stderr);
		return;
	}
	if (o->record && history_cmd_record_analysis(where, c, o->config, &j->a, &j->m,
						     &(struct history_meta){0}))
		fputs("scalegate: warning: the run was not recorded; the gate's verdict stands\n",
		      stderr);
	history_cmd_drift(stdout, where, c, NULL, 30);
}

/* --validate: what ci would read, checked; nothing runs. */
static int validate(struct ci_options *o)
{
	struct validate_options vo = {
		.config = o->config,
		.post = !o->no_post,
		.ci = 1,
		.reports_dir = o->reports,
		.baselines = o->baselines,
		.allow_no_reference = o->allow_no_reference,
		.ab = &o->ab,
	};
	int code = validate_inputs(&vo);

	ab_finish(&o->ab);
	return code;
}

int cmd_ci(int argc, char **argv)
{
	struct ci_options o = { .config = "scalegate.yml" };
	struct post_options po;
	struct ci_reports rep;
	struct runner_options ro = { 0 };
	const char *results;
	struct judge j;
	int code = SG_EXIT_USAGE, ret = parse_options(argc, argv, &o), posting, failed;

	if (ret)
		return ret == OPTIONS_HELP ? SG_EXIT_PASS : SG_EXIT_USAGE;
	if (o.validate)
		return validate(&o);
	/* From here on an interrupt stops the phase going on, and the reports say what was judged
	 * (docs/running.md, "Interrupts"). */
	interrupt_catch();
	ci_reports_init(&rep);
	post_options_init(&po);
	judge_init(&j);
	/* The whole configuration (benchmarks, rules, reports, post) is valid before anything runs.
	 */
	if (judge_configure(&j, o.config) || ci_reports_load(&rep, &j.config, o.reports)) {
		code = interrupt_signal ? interrupt_exit_code() : code;
		goto out;
	}
	if (o.testcase_output)
		rep.testcase_output = 1;
	posting = j.config.post && !o.no_post;
	if (posting && post_section_load(&j.config, &po, o.require_post))
		goto out;
	results = o.results ? o.results : j.config.results_dir;
	ro.results_dir = results;
	ro.local = o.local;
	ro.quiet = o.quiet;
	if (interrupt_signal) { /* nothing ran: nothing to report */
		code = interrupt_exit_code();
		goto out;
	}
	if (!o.no_run) {
		/* one seed for the first rounds and any adaptive ones */
		if (ab_wanted(&o.ab) && !o.ab.seed)
			o.ab.seed = ((uint64_t)time(NULL) << 20 ^ (uint64_t)getpid()) | 1;
		/* a revision that is not there, or no git repository: a usage error with the fix */
		if (ab_prepare(&o.ab, &j.config, results, &ro)) {
			code = interrupt_signal ? interrupt_exit_code() : SG_EXIT_USAGE;
			goto out;
		}
		if ((run_matrix(&j.config, &ro) < 0 && !interrupt_signal) ||
		    (adapting(&j.config, &o) && !interrupt_signal &&
		     adaptive_write(&(struct adaptive){.present = 1}, results))) {
			code = run_failed_code();
			goto out;
		}
	}
	fflush(stdout);
	/* interrupted during the runs: what ran is judged, the rest is an error each */
	j.interrupted = interrupt_signal;
	j.partial = o.partial || j.interrupted;
	j.allow_no_reference = o.allow_no_reference;
	if (judge_evaluate(&j, results, o.baselines) ||
	    (adapting(&j.config, &o) && !j.interrupted && adapt(&j, &ro))) {
		code = interrupt_signal ? interrupt_exit_code() : j.load_error;
		goto out;
	}
	mark_interrupted(&j.vs); /* during the judging: no verdict given */
	check_print_verdicts(stdout, &j.vs, o.all);
	code = j.vs.exit_code;
	/* The reports come first: a failed post must never cost them. Those an interrupt met while
	 * they were written are written again, saying incomplete. */
	failed = ci_reports_write(&rep, &j);
	if (mark_interrupted(&j.vs))
		failed = ci_reports_write(&rep, &j);
	if (failed && code == SG_EXIT_PASS)
		code = SG_EXIT_USAGE;
	ci_reports_print(&rep, stdout);
	if (!interrupt_signal)
		history(&o, &j);
	/* last, where a CI log ends: what failed, where, by which rule */
	report_recap(stdout, &j.vs);
	check_print_counts(stdout, &j.vs);
	fflush(stdout);
	if (posting && !interrupt_signal)
		code = post(&po, rep.path[report_format_index("json")], &rep.summary, code);
	if (interrupt_signal) /* whenever it came, the gate says it was interrupted */
		code = interrupt_exit_code();
	check_print_exit(stdout, &j.vs, code);
out:
	ab_finish(&o.ab);
	judge_release(&j);
	post_options_release(&po);
	ci_reports_release(&rep);
	return code;
}
