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

/* Appends the shipped defaults of rules/default.yml. */
void rules_add_defaults(struct rules *r);

#endif
