/* The generic part of a scheduler's section: the table of schedulers, the gate's own keys, unknown
 * keys, and the scheduler's own parser and checks called in turn. */
#include "config/config-batch.h"
#include "config/config-slurm.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* One row per scheduler; a new one adds its row here and its section in its own file. */
const struct config_scheduler *const config_schedulers[] = {
	&config_slurm,
	NULL,
};

static const char *const gate_keys[] = { "queue_timeout", "poll", NULL };

const struct config_scheduler *config_scheduler_find(const char *key)
{
	for (const struct config_scheduler *const *s = config_schedulers; *s; s++)
		if (!strcmp((*s)->key, key))
			return *s;
	return NULL;
}

static int is_one_of(const char *k, const char *const *keys)
{
	for (; keys && *keys; keys++)
		if (!strcmp(k, *keys))
			return 1;
	return 0;
}

/* A key of neither list: "did you mean" over both. */
static void unknown_key(struct yamldoc *d, const struct yamldoc_iter *it,
			const struct config_scheduler *sch)
{
	const char *known[64];
	size_t n = 0;

	for (const char *const *k = gate_keys; *k; k++)
		known[n++] = *k;
	for (const char *const *k = sch->own_keys; k && *k && n < 63; k++)
		known[n++] = *k;
	known[n] = NULL;
	yamldoc_unknown_key(d, it->key_node, known);
}

static void parse_key(struct yamldoc *d, const struct yamldoc_iter *it, struct batch_section *s)
{
	const char *k = it->key ? it->key : "";
	struct batch_limits *l = &s->limits;

	if (!strcmp(k, "queue_timeout")) {
		yamldoc_get_duration(d, it->value, k, &l->queue_timeout);
	} else if (!strcmp(k, "poll")) {
		if (!yamldoc_get_duration(d, it->value, k, &l->poll) && l->poll < 0.1)
			yamldoc_error(d, it->value, "'poll' must be at least 100ms");
	} else if (it->key && is_one_of(k, s->scheduler->own_keys)) {
		s->scheduler->parse_key(d, it, s);
	} else {
		unknown_key(d, it, s->scheduler);
	}
}

int config_batch_parse(struct yamldoc *d, const yaml_node_t *v, const struct config_scheduler *sch,
		       struct batch_section **out)
{
	struct batch_section *s;
	struct yamldoc_iter it;
	int errors = d->nr_errors;
	char buf[64];

	if (!yamldoc_is_map(v))
		return yamldoc_error(d, v, "'%s' must be a mapping, not %s", sch->key,
				     yamldoc_describe(v, buf, sizeof(buf)));
	s = xcalloc(1, sizeof(*s));
	s->scheduler = sch;
	s->limits.queue_timeout = BATCH_DEFAULT_QUEUE_TIMEOUT;
	s->limits.poll = BATCH_DEFAULT_POLL;
	s->own = sch->own_new();
	s->node = v;
	yamldoc_map_iter(&it, d, (yaml_node_t *)v);
	while (yamldoc_map_next(&it))
		parse_key(d, &it, s);
	if (d->nr_errors == errors && sch->validate)
		sch->validate(d, s);
	if (d->nr_errors != errors) {
		config_batch_free(s);
		return -1;
	}
	config_batch_free(*out);
	*out = s;
	return 0;
}

void config_batch_free(struct batch_section *s)
{
	if (!s)
		return;
	if (s->own)
		s->scheduler->own_free(s->own);
	free(s->limits.time);
	free(s->limits.where);
	free(s);
}
