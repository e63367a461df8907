/* Rules: the metric table, the rule list, growth expressions and the built-in defaults
 * (rules-load.c reads the files). */
#include "rules/rules.h"
#include "rules/rules-priv.h"
#include "config/config.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *key;
	int worse;
	const char *report; /* the name the reports give it */
} metrics[] = {
#define X(id, key, worse, report, ...) { key, worse, report },
	RULES_METRICS(X)
#undef X
};

const char *rules_metric_key(enum rules_metric m)
{
	return (size_t)m < ARRAY_SIZE(metrics) ? metrics[m].key : "?";
}

int rules_metric_worse(enum rules_metric m)
{
	return (size_t)m < ARRAY_SIZE(metrics) ? metrics[m].worse : 0;
}

int rules_metric_find(const char *key)
{
	for (size_t m = 0; m < ARRAY_SIZE(metrics); m++)
		if (!strcmp(metrics[m].key, key))
			return (int)m;
	return -1;
}

const char *rules_metric_report_name(enum rules_metric m)
{
	return (size_t)m < ARRAY_SIZE(metrics) ? metrics[m].report : "?";
}

int rules_metric_find_report_name(const char *name)
{
	for (size_t m = 0; m < ARRAY_SIZE(metrics); m++)
		if (!strcasecmp(metrics[m].report, name))
			return (int)m;
	return -1;
}

int rules_metric_is_share(enum rules_metric m)
{
	return m == RULES_INSUFFICIENT_PARALLELISM || m == RULES_COMMUNICATION || m == RULES_IDLE ||
	       m == RULES_SYNCHRONIZATION || m == RULES_LOAD_IMBALANCE;
}

/*
 * Ratios within one run of the matrix and the POP ratios hardly move between
 * machines; times and the lost-time shares (network, runtime) do.
 */
int rules_metric_across_default(enum rules_metric m)
{
	return m != RULES_TIME && !rules_metric_is_share(m);
}

/* Words separated by single spaces: "p  log p" reads as "p log p". */
static void squeeze(const char *text, char *buf, size_t size)
{
	size_t n = 0;

	for (; *text && n + 1 < size; text++)
		if (*text != ' ' || (n && buf[n - 1] != ' '))
			buf[n++] = *text;
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

int rules_growth_parse(const char *text, double *k, int *log_power)
{
	static const struct { const char *name; double k; int log_power; } named[] = {
		{ "constant", 0, 0 }, { "log p", 0, 1 }, { "p", 1, 0 }, { "p log p", 1, 1 },
	};
	char buf[64], *end;
	double x;

	squeeze(text, buf, sizeof(buf));
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		if (!strcmp(buf, named[i].name)) {
			*k = named[i].k;
			*log_power = named[i].log_power;
			return 0;
		}
	}
	if (strncmp(buf, "p^", 2) || !((buf[2] >= '0' && buf[2] <= '9') || buf[2] == '.'))
		return -1;
	errno = 0;
	x = strtod(buf + 2, &end);
	if (errno || *end || !(x > 0) || x > 100)
		return -1;
	*k = x;
	*log_power = 0;
	return 0;
}

int rules_growth_cmp(double k1, int log1, double k2, int log2)
{
	if (k1 != k2)
		return k1 < k2 ? -1 : 1;
	return (log1 > log2) - (log1 < log2);
}

void rules_growth_text(double k, int log_power, char *buf, size_t size)
{
	if (k == 0 && !log_power)
		snprintf(buf, size, "constant");
	else if (k == 0)
		snprintf(buf, size, "log p");
	else if (k == 1)
		snprintf(buf, size, log_power ? "p log p" : "p");
	else
		snprintf(buf, size, log_power ? "p^%g log p" : "p^%g", k);
}

void rules_init(struct rules *r)
{
	memset(r, 0, sizeof(*r));
}

void rules_rule_release(struct rules_rule *rule)
{
	free(rule->name);
	free(rule->benchmark);
	free(rule->interval);
	free(rule->threads);
	free(rule->ranks);
	free(rule->p);
	free(rule->sizes);
	memset(rule, 0, sizeof(*rule));
}

void rules_release(struct rules *r)
{
	for (size_t i = 0; i < r->nr; i++)
		rules_rule_release(&r->rule[i]);
	free(r->rule);
	for (size_t i = 0; i < r->nr_files; i++)
		free(r->files[i]);
	free(r->files);
	rules_init(r);
}

struct rules_rule *rules_add(struct rules *r, const char *file, int line, int col)
{
	struct rules_rule *rule;

	ALLOC_GROW(r->rule, r->nr + 1, r->alloc);
	rule = &r->rule[r->nr++];
	memset(rule, 0, sizeof(*rule));
	rule->origin.file = file;
	rule->origin.line = line;
	rule->origin.col = col;
	return rule;
}
