/* Private to the config module: loader state, the benchmark keys, the placeholder scanner. */
#ifndef SG_CONFIG_PRIV_H
#define SG_CONFIG_PRIV_H

#include "config/config.h"

/* The keys of a benchmark, in the order the documentation lists them. */
#define CONFIG_KEYS(X) \
	X(NAME, name) \
	X(COMMAND, command) X(BUILD, build) X(THREADS, threads) X(RANKS, ranks) X(SIZES, sizes) \
		X(WEAK, weak) X(REPEAT, repeat) X(WARMUP, warmup) X(TIMEOUT, timeout) X(ENV, env) \
			X(EXPECT_EXIT, expect_exit) X(WORKDIR, workdir) X(PRELOAD, preload) \
				X(LAUNCHER, launcher) X(MPI, mpi) X(MEMORY, memory) \
					X(MAX_CONTENTION, max_contention) X(CONTENTION_RETRIES, \
									    contention_retries) \
						X(EXCLUDE, exclude) X(MAX_REPEAT, max_repeat) \
							X(ADAPTIVE_SECONDS, adaptive_seconds) \
								X(OUTPUT_LIMIT, output_limit) \
									X(PROGRAM, program)

enum config_key_id {
#define X(id, key) KEY_##id,
	CONFIG_KEYS(X)
#undef X
	NR_KEYS
};

struct config_loader {
	struct config *c;
	struct yamldoc *d;
	char *launcher;                       /* top-level 'launcher', or the built-in one */
	const yaml_node_t *defaults[NR_KEYS]; /* the values of 'defaults' that parsed */
};

/* The longest duration a configuration may set: 7 days. */
#define CONFIG_MAX_DURATION (7 * 24 * 3600.0)
/* The top-level 'adaptive:' mapping (config-adaptive.c) into l->c; 0, or -1 after reporting. */
int config_adaptive_parse(struct config_loader *l, const yaml_node_t *v);

/* Parses one key's value into 'b'; 0, or -1 after reporting. */
typedef int (*config_key_parser)(struct config_loader *l, const yaml_node_t *v,
				 struct bench_config *b);

extern const config_key_parser config_key_parsers[NR_KEYS];
extern const char *const config_key_names[NR_KEYS + 1]; /* NULL-terminated */
/* The KEY_* of 'key', or -1. */
int config_find_key(const char *key);

/* 'exclude:' (config-matrix.c): a list of {threads, ranks, size} mappings. */
int config_parse_exclude(struct config_loader *l, const yaml_node_t *v, struct bench_config *b);
/* Once the matrix is known: every entry excludes something, and something is left. */
void config_check_exclude(struct config_loader *l, const struct bench_config *b,
			  const yaml_node_t *node);

int config_parse_launcher(struct config_loader *l, const yaml_node_t *v, char **field);
void config_free_env(struct bench_config *b);
/* 'secret_env' (secret) or 'pass_env': a list of environment variable names (config-env.c). */
void config_parse_env_names(struct config_loader *l, yaml_node_t *v, const char *key, int secret);
/* Once the top level is read: the posting token and every credential by name that 'pass_env'
 * does not list are secrets (masked, and out of the gate's environment). */
void config_env_secrets(struct config_loader *l);
/* A shell variable name: a letter or '_', then letters, digits and '_'. */
int config_valid_env_name(const char *s);

/* The placeholders of a command, as indexes of config_command_placeholders. */
enum config_placeholder { PH_THREADS, PH_RANKS, PH_SIZE, PH_REPEAT };
extern const char *const config_command_placeholders[];
/* The PH_* of a placeholder name (not NUL-terminated), or -1. */
int config_placeholder_index(const char *name, size_t len);
/*
 * The next placeholder of 's' at or after index 'from': returns its name (not
 * NUL-terminated) and sets the index of its '{' and the name's length; NULL
 * when there is none.
 */
const char *config_next_placeholder(const char *s, size_t from, size_t *start, size_t *len);
/* The file position of byte 'offset' of a scalar, where it can be known. */
yaml_mark_t config_placeholder_mark(const yaml_node_t *n, size_t offset);

#endif
