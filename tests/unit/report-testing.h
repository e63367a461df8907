/* Helpers the report tests share: a verdict set with one of each outcome (the scratch directory:
 * scratch-testing.h). Included after cmocka.h. */
#ifndef SG_REPORT_TESTING_H
#define SG_REPORT_TESTING_H

#include <stdlib.h>

#include "report/report.h"
#include "base/util.h"
#include "scratch-testing.h"

#define NASTY "<&>\"' |"

/* A pass, a regression with a cause, a warning, a skipped check and a fingerprint
 * error in 'jacobi'; only passes in 'stream'. */
static inline void build_set(struct verdict_set *s)
{
	struct verdict *v;

	verdict_set_init(s);
	s->timestamp = xstrdup("2026-11-22T10:22:36");
	s->hostname = xstrdup("ci-runner-7");
	s->nr_fingerprint = 3;
	s->fingerprint = xcalloc(6, sizeof(char *));
	s->fingerprint[0] = xstrdup("cpu_model");
	s->fingerprint[1] = xstrdup("Intel(R) Xeon(R) <Gold> & \"6230\"");
	s->fingerprint[2] = xstrdup("cores");
	s->fingerprint[3] = xstrdup("40");
	s->fingerprint[4] = xstrdup("compiler");
	s->fingerprint[5] = xstrdup("gcc 12.2.0");

	v = verdict_add(s, VERDICT_PASS, "jacobi", "program/solve", "-", 1, 1, "tolerance.time");
	v->metric = xstrdup("Execution_time");
	v->n = v->n_base = 5;
	v->value = 2.5, v->lo = 2.4, v->hi = 2.6, v->baseline = 2.45, v->change = 0.02,
	v->p_value = 0.3;
	v->unit = UNIT_SECONDS, v->change_unit = UNIT_RELATIVE;
	v->seconds = 2.5;
	verdict_set_message(v, "Execution_time 2.5 s within 5 %% of the baseline 2.45 s");
	v->rule_origin = xstrdup("default rules");

	v = verdict_add(s, VERDICT_FAIL, "jacobi", "program/solve", "-", 1, 4,
			"tolerance.efficiency");
	v->metric = xstrdup("Measured_efficiency");
	v->n = v->n_base = 5;
	v->value = 0.61, v->lo = 0.58, v->hi = 0.64, v->baseline = 0.83, v->change = -0.22,
	v->p_value = 0.004;
	v->seconds = 1.0245;
	verdict_set_message(v, "Measured_efficiency fell 0.83 -> 0.61 (-0.22, p = 0.004) " NASTY);
	verdict_set_cause(v, "Karp_Flatt rises 0.04 -> 0.11 with p: Synchronization grew from 3 %% "
			     "to 14 %% " NASTY);
	verdict_set_details(v,
			    "samples: 0.60 0.61 0.61 0.62 0.64\nbaseline: 0.82 0.83 " NASTY "\n");
	v->rule_origin = xstrdup("rules/ci.yml:12:5");

	v = verdict_add(s, VERDICT_WARN, "jacobi", "program/solve/inner", "-", 1, 2,
			"tolerance.time");
	v->metric = xstrdup("Execution_time");
	v->n = v->n_base = 5;
	v->value = 1.3, v->lo = 1.1, v->hi = 1.5, v->baseline = 1.2, v->change = 0.083,
	v->p_value = 0.21;
	v->unit = UNIT_SECONDS, v->change_unit = UNIT_RELATIVE;
	v->seconds = 1.3;
	/* a control character and a byte that is not UTF-8 must not break the XML or the JSON */
	verdict_set_message(
		v, "Execution_time +8.3 %% past 5 %% but not significant \x01\xff caf\xc3\xa9"
		   "\xc2\x85\xef\xbb\xbf\xf0\x9f\x98\x80");

	v = verdict_add(s, VERDICT_SKIPPED, "jacobi", "program/init", "-", 2, 2, "tolerance.time");
	v->metric = xstrdup("Execution_time");
	v->n = 2;
	v->unit = UNIT_SECONDS, v->change_unit = UNIT_RELATIVE;
	verdict_set_message(v, "too few samples: 2 < 3 (min_samples)");

	v = verdict_add(s, VERDICT_ERROR, "jacobi", "program/solve", "-", 2, 4, "fingerprint");
	verdict_set_message(v, "baseline recorded on another machine: cpu_model differs");
	verdict_set_details(v, "baseline: AMD EPYC 7763\ncurrent: Intel(R) Xeon(R) Gold 6230");

	v = verdict_add(s, VERDICT_PASS, "stream", "program", "large", 1, 2, "efficiency_min");
	v->metric = xstrdup("Measured_efficiency");
	v->value = 0.9, v->baseline = 0.7;
	v->seconds = 0.5e-7; /* never written in exponent notation */
	v = verdict_add(s, VERDICT_PASS, "stream", "program", "large", 1, 4, "efficiency_min");
	v->metric = xstrdup("Measured_efficiency");
	v->value = 0.8, v->baseline = 0.7;
	v->seconds = 1234567.25;
	verdict_set_finish(s);
}

static inline char *read_text(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_read_file(&sb, path), 0);
	return strbuf_detach(&sb);
}

#endif
