/* A check loaded and judged in one call: configuration, rules, results, matrix, baselines and verdicts (check, report, ci). */
#include "judge/judge.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void judge_init(struct judge *j)
{
	memset(j, 0, sizeof(*j));
	rules_init(&j->rules);
	analysis_init(&j->a);
	matrix_init(&j->m);
	verdict_set_init(&j->vs);
}

void judge_release(struct judge *j)
{
	check_release(&j->c);
	verdict_set_release(&j->vs);
	matrix_release(&j->m);
	analysis_release(&j->a);
	rules_release(&j->rules);
	config_release(&j->config);
	memset(j, 0, sizeof(*j));
}

int judge_set_memory(struct matrix *m, const struct config *c)
{
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		if (c->benchmarks[i].memory && matrix_set_memory(m, c->benchmarks[i].name, c->benchmarks[i].memory))
			return -1;
	return 0;
}

int judge_configure(struct judge *j, const char *config)
{
	return config_load(&j->config, config) || rules_load(&j->rules, &j->config) ? -1 : 0;
}

int judge_evaluate(struct judge *j, const char *results, const char *baselines)
{
	j->results = results ? results : j->config.results_dir;
	j->baselines = baselines ? baselines : j->config.baselines_dir;
	if (judge_set_memory(&j->m, &j->config) || analysis_load(&j->a, j->results) || matrix_build(&j->m, &j->a))
		return -1;
	check_describe(&j->vs, &j->a);
	if (check_run_failures(&j->vs, &j->rules, j->results))
		return -1;
	check_annotations(&j->vs, &j->a);
	check_init(&j->c, &j->rules, &j->a, &j->m, &j->vs);
	check_load_baselines(&j->c, j->baselines);
	check_evaluate(&j->c);
	if (rules_report_unmatched(&j->rules))
		return -1;
	verdict_set_finish(&j->vs);
	return 0;
}

int judge_load(struct judge *j, const char *config, const char *results, const char *baselines)
{
	return judge_configure(j, config) || judge_evaluate(j, results, baselines) ? -1 : 0;
}
