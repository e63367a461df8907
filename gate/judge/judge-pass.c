/* One look at the results: loaded, compared with the base revision (A/B) or the stored baselines,
 * and judged. */
#include "judge/judge.h"


#include "base/util.h"

int judge_set_memory(struct matrix *m, const struct config *c)
{
	for (size_t i = 0; i < c->nr_benchmarks; i++)
		if (c->benchmarks[i].memory &&
		    matrix_set_memory(m, c->benchmarks[i].name, c->benchmarks[i].memory))
			return -1;
	return 0;
}

/* Compares 'a' with the base (A/B) or the baselines and judges it into 'vs' through 'c'; 0 or -1.
 */
int judge_pass(struct judge *j, struct judge_look *look)
{
	struct results *ab;

	look->a->keep_going = 1; /* a damaged run is an error verdict; the rest is still judged */
	if (judge_set_memory(look->m, &j->config) || analysis_load_results(look->a, &j->res) ||
	    matrix_build(look->m, look->a))
		return -1;
	if (look->final) {
		check_describe(look->vs, look->a);
		check_damaged(look->vs, look->a);
		check_run_failures_of(look->vs, &j->rules,
				      j->res.has_manifest ? &j->res.manifest : NULL);
		check_annotations(look->vs, look->a);
	}
	check_init(look->c, &j->rules, look->a, look->m, look->vs);
	for (size_t i = 0; i < look->c->nr_bench; i++) {
		const struct bench_config *b = config_find(&j->config, look->c->bench[i].name);
		if (b)
			look->c->bench[i].max_contention = b->max_contention;
	}
	look->c->allow_no_reference = j->allow_no_reference || j->config.allow_no_reference;
	look->c->alpha_scale = look->scale;
	look->c->second = look->second;
	ab = results_base(&j->res);
	if (ab) {
		struct analysis base;
		analysis_init(&base);
		base.keep = look->a->keep;
		base.keep_arg = look->a->keep_arg;
		if (analysis_load_results(&base, ab)) {
			analysis_release(&base);
			return -1;
		}
		/* the base revision, run round by round with the head; its failed runs are
		 * errors as the head's are (nothing compared is never green) */
		if (look->final && ab->has_manifest)
			check_base_run_failures(look->vs, &ab->manifest);
		check_use_baselines(look->c, &base);
		look->c->ab = 1;
		analysis_release(&base);
	} else {
		look->c->quiet = !look->final;
		check_load_baselines(look->c, j->baselines);
		check_history_shift(look->c, j->config.history);
	}
	check_evaluate(look->c);
	return 0;
}
