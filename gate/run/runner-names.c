/* How the runner names what it runs, for every part of it: which benchmarks were asked for, a run's
 * status, a point's label, the side of an A/B run; and the terminal's live line cleared. */
#include "run/runner-priv.h"
#include "base/words.h"

#include <stdio.h>
#include <string.h>

const char *run_status_name(enum run_status s)
{
	static const char *const names[] = { "ok", "crash", "exit", "timeout", "no-profile",
					     "bad-profile", "build-failed", "job-failed" };
	return (size_t)s < ARRAY_SIZE(names) ? names[s] : "?";
}

int runner_selected(const struct runner *r, const struct bench_config *b)
{
	return !r->opt.benchmark || !strcmp(r->opt.benchmark, b->name);
}

int runner_selected_name(const struct runner *r, const char *name)
{
	return r->opt.benchmark ? !strcmp(r->opt.benchmark, name) : config_find(r->c, name) != NULL;
}

const char *runner_side(const struct runner *r)
{
	return r->top && r->top != r ? "base " : r->base ? "head " : "";
}

void runner_point_label(struct strbuf *sb, const struct bench_run *br, size_t pt)
{
	const struct config_point *p = &br->points[pt].p;

	char config[96], size[32] = "-";

	if (p->size != CONFIG_NO_SIZE)
		snprintf(size, sizeof(size), "%lld", p->size);
	strbuf_addf(sb, "%s %s", br->b->name,
		    config_words(config, sizeof(config), p->ranks, p->threads, size));
}

void runner_clear_line(struct runner *r)
{
	if (r->tty)
		fputs("\r\033[K", stderr);
}
