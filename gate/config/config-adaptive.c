/* The top-level 'adaptive:' section: bounds on the adaptive rounds of the whole gate. */
#include "config/config-priv.h"

#include <string.h>

static const char *const adaptive_keys[] = { "max_seconds", NULL };

int config_adaptive_parse(struct config_loader *l, const yaml_node_t *v)
{
	struct yamldoc_iter it;
	char buf[64];
	double t;

	if (!yamldoc_is_map(v))
		return yamldoc_error(l->d, v, "'adaptive' must be a mapping, not %s",
				     yamldoc_describe(v, buf, sizeof(buf)));
	yamldoc_map_iter(&it, l->d, (yaml_node_t *)v);
	while (yamldoc_map_next(&it)) {
		if (!it.key || strcmp(it.key, "max_seconds")) {
			yamldoc_unknown_key(l->d, it.key_node, adaptive_keys);
			continue;
		}
		if (yamldoc_get_duration(l->d, it.value, "max_seconds", &t))
			continue;
		if (!(t <= CONFIG_MAX_DURATION))
			yamldoc_error(l->d, it.value, "'max_seconds' of '%s' is more than 7 days",
				      yamldoc_scalar(it.value));
		else
			l->c->adaptive_max_seconds = t;
	}
	return 0;
}
