/* A check loaded and judged in one call: configuration, rules, results, matrix, baselines and
 * verdicts (check, report, ci). */
#include "judge/judge.h"

#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/interrupt.h"
#include "base/util.h"

void judge_init(struct judge *j)
{
	memset(j, 0, sizeof(*j));
	j->load_error = SG_EXIT_USAGE;
	rules_init(&j->rules);
	analysis_init(&j->a);
	matrix_init(&j->m);
	verdict_set_init(&j->vs);
}

void judge_release(struct judge *j)
{
	judge_shown_release(j);
	results_release(&j->res);
	check_release(&j->c);
	verdict_set_release(&j->vs);
	matrix_release(&j->m);
	analysis_release(&j->a);
	rules_release(&j->rules);
	config_release(&j->config);
	memset(j, 0, sizeof(*j));
}

int judge_configure(struct judge *j, const char *config)
{
	int ret = config_parse(&j->config, config);

	/* the rules' errors with the configuration's, in one pass */
	if (ret == -2 || rules_load(&j->rules, &j->config) || ret)
		return -1;
	return 0;
}

int judge_evaluate(struct judge *j, const char *results, const char *baselines)
{
	j->results = results ? results : j->config.results_dir;
	j->baselines = baselines ? baselines : j->config.baselines_dir;
	results_release(&j->res);
	results_init(&j->res, j->results);
	/* interrupted: what is missing is an error verdict each (judge_not_run), not a warning */
	if (!j->interrupted &&
	    (j->load_error = judge_check_results(&j->config, &j->res, NULL, j->partial)))
		return -1;
	j->load_error = SG_EXIT_USAGE;
	if (!results_adaptive(&j->res)) {
		j->load_error = SG_EXIT_RUN_FAILED;
		return -1;
	}
	return judge_again(j);
}

int judge_again(struct judge *j)
{
	struct judge_look look = { &j->a, &j->m, &j->vs, &j->c, 1, NULL, 1 };
	const struct adaptive *looks = &j->res.adaptive;

	if (looks->present ? judge_two_looks(j, looks) : judge_pass(j, &look))
		return -1;
	verdict_set_sources(&j->vs, &j->a, &j->config);
	if (rules_report_unmatched(&j->rules))
		return -1;
	if (j->interrupted) {
		judge_not_run(j, interrupt_name(j->interrupted));
		j->vs.interrupted = j->interrupted;
	} else {
		check_decided(&j->c, j->config.undecided_pass);
	}
	verdict_set_finish(&j->vs);
	return judge_shown(j);
}

int judge_load(struct judge *j, const char *config, const char *results, const char *baselines)
{
	return judge_configure(j, config) || judge_evaluate(j, results, baselines) ? -1 : 0;
}
