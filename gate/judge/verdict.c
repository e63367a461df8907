/* Verdicts: what 'scalegate check' concluded per interval x configuration x rule, and why. */
#include "judge/verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "judge/findings.h"
#include "results/manifest.h"

static const char *status_names[] = { "pass", "warn", "fail", "error", "skipped" };

void verdict_set_init(struct verdict_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void verdict_release(struct verdict *v)
{
	free(v->benchmark);
	free(v->interval);
	free(v->size);
	free(v->kind);
	free(v->metric);
	free(v->message);
	free(v->cause);
	free(v->details);
	free(v->rule_origin);
	free(v->file);
}

void verdict_set_release(struct verdict_set *s)
{
	for (size_t i = 0; i < s->nr; i++)
		verdict_release(&s->v[i]);
	for (size_t i = 0; i < s->nr_fingerprint * 2; i++)
		free(s->fingerprint[i]);
	free(s->fingerprint);
	free(s->v);
	free(s->timestamp);
	free(s->hostname);
	if (s->findings)
		findings_release(s->findings);
	free(s->findings);
	for (size_t i = 0; i < s->nr_programs; i++) {
		free(s->programs[i].benchmark);
		free(s->programs[i].command);
		free(s->programs[i].file);
	}
	free(s->programs);
	verdict_set_init(s);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct verdict *verdict_add(struct verdict_set *s, enum verdict_status status,
			    const char *benchmark, const char *interval, const char *size,
			    int ranks, int threads, const char *kind)
{
	struct verdict *v;

	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	v = &s->v[s->nr++];
	memset(v, 0, sizeof(*v));
	v->status = status;
	v->benchmark = dup_or_null(benchmark);
	v->interval = dup_or_null(interval);
	v->size = xstrdup(size ? size : "-");
	v->ranks = ranks;
	v->threads = threads;
	v->p = ranks * threads;
	v->kind = dup_or_null(kind);
	v->value = v->lo = v->hi = v->baseline = v->change = v->p_value = v->p_adjusted = v->mdc =
		v->base_seconds = v->loads_here = v->loads_base = NAN;
	return v;
}

#define SETTER(field) \
	void verdict_set_##field(struct verdict *v, const char *fmt, ...) \
	{ \
		struct strbuf sb = STRBUF_INIT; \
		va_list ap; \
		va_start(ap, fmt); \
		strbuf_vaddf(&sb, fmt, ap); \
		va_end(ap); \
		free(v->field); \
		v->field = strbuf_detach(&sb); \
	}

SETTER(message)
SETTER(cause)
SETTER(details)

const struct verdict_program *verdict_program(const struct verdict_set *s, const char *benchmark)
{
	for (size_t i = 0; benchmark && i < s->nr_programs; i++)
		if (!strcmp(s->programs[i].benchmark, benchmark))
			return &s->programs[i];
	return NULL;
}

void verdict_set_program(struct verdict_set *s, const char *benchmark, const char *command,
			 const char *file)
{
	struct verdict_program *p = (struct verdict_program *)verdict_program(s, benchmark);

	if (!p) {
		ALLOC_GROW(s->programs, s->nr_programs + 1, s->alloc_programs);
		p = &s->programs[s->nr_programs++];
		p->benchmark = xstrdup(benchmark);
	} else {
		free(p->command);
		free(p->file);
	}
	p->command = dup_or_null(command);
	p->file = dup_or_null(file);
}

void verdict_set_finish(struct verdict_set *s)
{
	memset(s->count, 0, sizeof(s->count));
	for (size_t i = 0; i < s->nr; i++)
		s->count[s->v[i].status]++;
	if (s->findings)
		findings_release(s->findings);
	else
		s->findings = xmalloc(sizeof(*s->findings));
	findings_build(s->findings, s);
	/*
	 * An error (a failed run, an unreadable baseline, one of another
	 * machine) does not hide a regression, but it is never a pass: a JUnit
	 * <error> and exit 0 never go together (docs/check.md, "Exit codes").
	 */
	if (s->count[VERDICT_FAIL])
		s->exit_code = SG_EXIT_REGRESSION;
	else if (s->count[VERDICT_ERROR])
		s->exit_code = SG_EXIT_RUN_FAILED;
	else
		s->exit_code = SG_EXIT_PASS;
	if (s->interrupted) /* whatever was judged: an interrupted gate never passes */
		s->exit_code = SG_EXIT_SIGNAL + s->interrupted;
}

const char *verdict_status_name(enum verdict_status st)
{
	return status_names[st];
}

/* ---- order ---- */

static const struct verdict *sort_base;

static int str_cmp(const char *x, const char *y)
{
	return strcmp(x ? x : "", y ? y : "");
}

static int verdict_cmp(const void *pa, const void *pb)
{
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct verdict *x = &sort_base[ia], *y = &sort_base[ib];
	int c = str_cmp(x->benchmark, y->benchmark);

	if (!c)
		c = str_cmp(x->interval, y->interval);
	if (!c)
		c = manifest_size_cmp(x->size, y->size);
	if (!c)
		c = (x->p > y->p) - (x->p < y->p);
	if (!c)
		c = (x->ranks > y->ranks) - (x->ranks < y->ranks);
	return c ? c : (ia > ib) - (ia < ib);
}

void verdict_set_sort(struct verdict_set *vs, size_t first)
{
	size_t n = vs->nr - first, *idx;
	struct verdict *copy;

	if (n < 2)
		return;
	idx = xmalloc(n * sizeof(*idx));
	copy = xmalloc(n * sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_base = vs->v + first;
	qsort(idx, n, sizeof(*idx), verdict_cmp);
	for (size_t i = 0; i < n; i++)
		copy[i] = vs->v[first + idx[i]];
	memcpy(vs->v + first, copy, n * sizeof(*copy));
	free(copy);
	free(idx);
}

const char *verdict_bound(const struct verdict *v)
{
	const char *k = v->kind, *u = k ? strrchr(k, '_') : NULL;

	if (!k || !strncmp(k, "tolerance.", 10))
		return NULL;
	if (!strncmp(k, "share_max.", 10))
		return "max";
	return !u ? NULL : !strcmp(u, "_min") ? "min" : !strcmp(u, "_max") ? "max" : NULL;
}
