/* A YAML file loaded whole (libyaml's document API), with errors as 'file:line:col: message'. */
#ifndef SG_YAMLDOC_H
#define SG_YAMLDOC_H

#include <stddef.h>
#include <yaml.h>

/*
 * Every error goes through yamldoc_error(), which counts it, so a loader can
 * report all the problems of a file and decide at the end: nr_errors != 0
 * means "nothing runs".
 */
struct yamldoc {
	char *path;
	yaml_document_t doc;
	int loaded;    /* 'doc' holds a document that yamldoc_release() deletes */
	int nr_errors; /* errors reported so far */
};

/* No real configuration or rule file nests deeper (docs/running.md, "Limits"). */
#define YAMLDOC_MAX_DEPTH 64
#define YAMLDOC_MAX_NODES 1000000

#define YAMLDOC_INIT { NULL, { 0 }, 0, 0 }

void yamldoc_init(struct yamldoc *d);

/*
 * Loads 'path'. Reports syntax errors with libyaml's position, an empty file,
 * a root that is not a mapping and a second document, and returns -1 (with
 * 'd' released). Duplicate keys in any mapping are reported and counted but
 * the document stays usable (the iterator skips the repeated pairs) so that
 * the caller can report the rest; returns 0 then.
 */
int yamldoc_load(struct yamldoc *d, const char *path);
/* The same for a text in memory, named 'path' in messages and positions. */
int yamldoc_load_text(struct yamldoc *d, const char *path, const char *buf, size_t len);
void yamldoc_release(struct yamldoc *d);

/* The root mapping; NULL when nothing is loaded. */
yaml_node_t *yamldoc_root(struct yamldoc *d);

/* Reports "path:line:col: message" at the node's start via gate_error(); returns -1. */
int yamldoc_error(struct yamldoc *d, const yaml_node_t *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same at an explicit position (e.g. inside a scalar). */
int yamldoc_error_at(struct yamldoc *d, yaml_mark_t mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Node kinds; 'null' is a plain '~', 'null' or nothing at all. */
int yamldoc_is_map(const yaml_node_t *n);
int yamldoc_is_list(const yaml_node_t *n);
int yamldoc_is_null(const yaml_node_t *n);
/* The text of a scalar (points into the document), or NULL for other kinds. */
const char *yamldoc_scalar(const yaml_node_t *n);
/* For messages: "a mapping", "a list", "null" or the quoted, shortened value. */
const char *yamldoc_describe(const yaml_node_t *n, char *buf, size_t size);

/*
 * Walks a mapping's pairs in file order, or a list's items:
 *
 *	struct yamldoc_iter it;
 *	yamldoc_map_iter(&it, d, map);
 *	while (yamldoc_map_next(&it))
 *		use(it.key, it.key_node, it.value);
 *
 * 'key' is NULL when the key is not a scalar; pairs whose key repeats an
 * earlier one are skipped (yamldoc_load() reported them).
 */
struct yamldoc_iter {
	struct yamldoc *d;
	yaml_node_t *node; /* the mapping or list walked */
	size_t next;       /* index of the next pair or item */
	const char *key;
	yaml_node_t *key_node;
	yaml_node_t *value;
	size_t index;      /* 0-based index of the current pair or item */
};

void yamldoc_map_iter(struct yamldoc_iter *it, struct yamldoc *d, yaml_node_t *map);
int yamldoc_map_next(struct yamldoc_iter *it);
void yamldoc_list_iter(struct yamldoc_iter *it, struct yamldoc *d, yaml_node_t *list);
int yamldoc_list_next(struct yamldoc_iter *it);
/* The pairs of a mapping or the items of a list; 0 for anything else (which the iterators walk as
 * empty). */
size_t yamldoc_size(const yaml_node_t *n);

/* The value of 'key' in a mapping, or NULL. */
yaml_node_t *yamldoc_map_get(struct yamldoc *d, yaml_node_t *map, const char *key);

/*
 * "Did you mean" (yamldoc-hint.c). Reports "unknown key 'KEY'" at the key node,
 * with "; did you mean 'X'?" when one of the NULL-terminated 'known' keys is
 * near (yamldoc_closest). Pass only the keys allowed where the key stands.
 * Returns -1.
 */
int yamldoc_unknown_key(struct yamldoc *d, const yaml_node_t *key_node,
			const char *const *known);
/*
 * The known word nearest to 'key', or NULL: the same but for case, else one it
 * begins ("time" -> "timeout"; the shortest of several), else one edit away,
 * else one that has it as a word ("contention" -> "max_contention") or is a
 * word of it, else two edits away.
 */
const char *yamldoc_closest(const char *key, const char *const *known);
/* "a, b or c" of the NULL-terminated 'words', into 'buf'; returns 'buf'. */
const char *yamldoc_choices(char *buf, size_t size, const char *const *words);
/* Reports "'KEY' must be a, b or c, not 'VALUE'" at 'n', with "; did you mean 'X'?" when one of
 * 'words' is near. Returns -1. */
int yamldoc_bad_choice(struct yamldoc *d, const yaml_node_t *n, const char *key,
		       const char *value, const char *const *words);
/* The index in 'words' of the string 'n', or -1 after reporting (not a string, or none of them). */
int yamldoc_get_choice(struct yamldoc *d, const yaml_node_t *n, const char *key,
		       const char *const *words);

/* A finite number written like one at the start of 's' (no hex floats, no 'inf', no 'nan'); 'end'
 * is set after it. 0, or -1 when 's' does not start with one. */
int yamldoc_number_prefix(const char *s, double *out, char **end);

/*
 * Typed accessors. 'name' is the key the value belongs to, for the message.
 * Each returns 0, or reports at the offending node and returns -1. Strings
 * point into the document; arrays are malloc'd (caller frees the array only).
 */
const char *yamldoc_get_str(struct yamldoc *d, const yaml_node_t *n, const char *name);
int yamldoc_get_int(struct yamldoc *d, const yaml_node_t *n, const char *name,
		    long long min, long long max, long long *out);
int yamldoc_get_double(struct yamldoc *d, const yaml_node_t *n, const char *name,
		       double min, double max, double *out);
int yamldoc_get_bool(struct yamldoc *d, const yaml_node_t *n, const char *name, int *out);
/* '30', '30s', '2m', '1h', '500ms', '1.5s' -> seconds; must be > 0. */
int yamldoc_get_duration(struct yamldoc *d, const yaml_node_t *n, const char *name,
			 double *seconds);

/* Flags for yamldoc_get_int_list(). */
#define YAMLDOC_SCALAR_OK 1 /* a single integer stands for a list of one */
#define YAMLDOC_UNIQUE    2 /* a value listed twice is an error */

/* A non-empty list of integers in [min, max]. */
int yamldoc_get_int_list(struct yamldoc *d, const yaml_node_t *n, const char *name,
			 long long min, long long max, unsigned flags,
			 long long **out, size_t *nr);
/* A non-empty list of strings. */
int yamldoc_get_str_list(struct yamldoc *d, const yaml_node_t *n, const char *name,
			 const char ***out, size_t *nr);

struct yamldoc_strpair {
	const char *key;
	const char *value;
	const yaml_node_t *key_node;
};

/* A mapping (possibly empty) of scalar keys to scalar values, in file order. */
int yamldoc_get_str_map(struct yamldoc *d, const yaml_node_t *n, const char *name,
			struct yamldoc_strpair **out, size_t *nr);

#endif
