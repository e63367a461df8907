/* Private to the rules module: the rule list and the parser of one list of rules. */
#ifndef SG_RULES_PRIV_H
#define SG_RULES_PRIV_H

#include "rules/rules.h"
#include "base/yamldoc.h"

/* Appends an empty rule written at file:line:col ('file' owned by r->files or static). */
struct rules_rule *rules_add(struct rules *r, const char *file, int line, int col);
void rules_rule_release(struct rules_rule *rule);

/*
 * Parses the list of rules 'list' (the value of a 'rules' key) of the
 * document 'd', whose path 'file' is owned by r->files, into 'r'. Every
 * mistake is reported through 'd' (d->nr_errors counts them).
 */
void rules_parse_list(struct rules *r, struct yamldoc *d, yaml_node_t *list, const char *file);

/* One of the keys of a rule. */
int rules_is_rule_key(const char *key);

/* The state of parsing one rule (rules-parse.c). */
struct parser {
	struct rules *r;
	struct yamldoc *d;
	struct rules_rule *rule;
	/* where each bound was set, [0] min and [1] max: 'share_max' and '<metric>_max' may clash
	 */
	const yaml_node_t *bound_node[2][RULES_NR_METRICS];
	char bound_key[2][RULES_NR_METRICS][48];
};

/* The values of its keys (rules-values.c); each mistake is reported through ps->d. */
void rules_metric_range(enum rules_metric m, double *lo, double *hi); /* hi HUGE_VAL: no end */
int rules_scalar_number(const yaml_node_t *n, double *out);  /* a plain scalar: 0, or -1 */
int rules_scalar_percent(const yaml_node_t *n, double *out); /* "5%" -> 5 */
int rules_scalar_seconds(const yaml_node_t *n, double *out); /* "200ms" -> 0.2; a unit needed */
int rules_is_off(const yaml_node_t *n);                      /* 'off' */
const char *rules_range_text(char *buf, size_t size, double lo, double hi);
void rules_parse_string(struct parser *ps, const yaml_node_t *v, const char *key, char **field);
void rules_parse_ints(struct parser *ps, const yaml_node_t *v, const char *key, long long max,
		      int **out, size_t *nr);
/* '<metric>_min', '<metric>_max', and the items of 'share_max' ('label' names them). */
void rules_parse_bound(struct parser *ps, const yaml_node_t *v, const char *label,
		       enum rules_metric m, int is_max);

#endif
