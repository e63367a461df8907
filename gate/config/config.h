/* scalegate.yml: the benchmarks, their matrices, where results go (docs/configuration.md). */
#ifndef SG_CONFIG_H
#define SG_CONFIG_H

#include "base/yamldoc.h"
#include "config/config-batch.h"

#define CONFIG_DEFAULT_LAUNCHER "mpirun -np {ranks} --bind-to none"
#define CONFIG_NO_SIZE (-1LL) /* the size of a point when the benchmark has no sizes */
#define CONFIG_MAX_CONTENTION 0.25
#define CONFIG_CONTENTION_RETRIES 0 /* reruns of a busy run: off, its Interference is removed */
#define CONFIG_MAX_REPEAT 20          /* adaptive repeats: rounds an inconclusive cell may reach */
#define CONFIG_ADAPTIVE_SECONDS \
	600.0 /* ... and the wall time the extra rounds may take, per benchmark */

struct config_env {
	char *name;
	char *value;
};

/*
 * One benchmark with 'defaults' applied. Paths are resolved against the
 * directory of the configuration file, so they are usable from the current
 * directory as they are.
 */
struct bench_config {
	char *name;
	char *command;          /* template: {threads} {ranks} {size} {repeat} */
	/* shell command run once in 'workdir' before the matrix; NULL: none */
	char *build;
	/* the basename (a glob) of the executable that must write the profiles; NULL: the one
	 * executable the command names, when it names exactly one (docs/configuration.md) */
	char *program;
	int *threads;           /* in file order, no duplicates, each >= 1 */
	size_t nr_threads;
	int *ranks;
	size_t nr_ranks;
	long long *sizes;       /* problem sizes; nr_sizes == 0: none */
	size_t nr_sizes;
	long long size_per_processor; /* > 0: weak scaling, size = this * ranks * threads */
	int repeat;             /* measured runs per point */
	int warmup;             /* unmeasured runs before them */
	double timeout;         /* seconds per run */
	long long output_limit; /* bytes of stdout and of stderr kept per run: head and tail */
	struct config_env *env; /* added to the environment of every run */
	size_t nr_env;
	int *expect_exit;       /* exit codes that count as success */
	size_t nr_expect_exit;
	char *workdir;          /* the command runs and the build runs here */
	int preload;            /* LD_PRELOAD the tracer into an unmodified binary */
	char *launcher;         /* template prefixed to the command when ranks > 1 */
	int mpi;                /* an MPI program: one profile per rank */
	char *memory;           /* memory model for isoefficiency, e.g. "n^2"; NULL: unset */
	/* cores other processes may use during a measured run; < 0: no limit */
	double max_contention;
	int contention_retries; /* more attempts of a run over max_contention */
	/* adaptive repeats: rounds an inconclusive cell may reach; <= repeat: off */
	int max_repeat;
	double adaptive_seconds; /* wall-time budget of the extra rounds */
	struct config_exclude *exclude; /* matrix cells not run ('exclude:') */
	size_t nr_exclude;
	const yaml_node_t *node; /* the benchmark's mapping, for later messages */
};

/* One entry of 'exclude:': the cells with these values are not run; 0 (threads, ranks) or
 * CONFIG_NO_SIZE (size) matches any. */
struct config_exclude {
	int threads, ranks;
	long long size;
	const yaml_node_t *node;
};

struct config {
	struct yamldoc doc;     /* stays loaded: the node pointers below point into it */
	char *dir;              /* directory of the configuration file */
	struct bench_config *benchmarks;
	size_t nr_benchmarks;
	char *results_dir;
	char *baselines_dir;
	char *history;          /* 'history': the database file or postgresql:// URL; NULL: none */
	/* Variables kept from the benchmarks and masked in every output: 'secret_env' and post's
	 * token_env. */
	char **secret_env;
	size_t nr_secret_env;
	/* 'pass_env': credentials by name (secret_name_denied) the benchmarks may see anyway. */
	char **pass_env;
	size_t nr_pass_env;
	/* Sections other modules parse with positions; NULL when absent. */
	yaml_node_t *rules;     /* a mapping or a list */
	yaml_node_t *post;
	yaml_node_t *reports;
	/* a scheduler's section ('slurm:'): the matrix runs as its batch job; NULL: run here */
	struct batch_section *batch;
	int allow_no_reference; /* no baseline and no base revision: skipped, not an error */
	/* 'undecided: pass': a benchmark whose time checks could not decide warns (exit 0) */
	int undecided_pass;
	/* 'adaptive: { max_seconds }': the wall time all the extra rounds of 'ci' may take (0:
	 * no bound) */
	double adaptive_max_seconds;
};

/*
 * Loads and checks 'path'. Reports every problem of the file as
 * "path:line:col: message" and returns -1 with 'c' empty; returns 0 when the
 * whole file is valid. Either way config_release() may be called.
 */
int config_load(struct config *c, const char *path);
/*
 * As config_load(), but a file with errors stays loaded, so that the rules
 * and the 'post:' section can be checked in the same pass: 0 valid, -1 errors
 * reported ('c' filled as far as it goes), -2 unreadable or not YAML ('c'
 * empty). config_release() afterwards in every case.
 */
int config_parse(struct config *c, const char *path);
void config_release(struct config *c);

/* The benchmark called 'name', or NULL. */
struct bench_config *config_find(struct config *c, const char *name);

/* One configuration of a benchmark's matrix. */
struct config_point {
	int threads;
	int ranks;
	long long size;         /* CONFIG_NO_SIZE when the benchmark has no sizes */
};

/*
 * The matrix is sizes x ranks x threads, sizes outermost, each in file order,
 * without the cells of 'exclude'; point i of config_matrix_size(b) is the same
 * on every call.
 */
size_t config_matrix_size(const struct bench_config *b);
/* Point i: a walk of the matrix each time (a loop over every point wants config_matrix_points). */
void config_matrix_point(const struct bench_config *b, size_t i, struct config_point *p);
/* Every point in that order, in one walk; *nr of them. Caller frees. */
struct config_point *config_matrix_points(const struct bench_config *b, size_t *nr);

/* Bounds of a benchmark's matrix checked at load (docs/running.md, "Limits"): far above a real one.
 */
#define CONFIG_MAX_CELLS 100000
#define CONFIG_OUTPUT_LIMIT (16LL << 20)
#define CONFIG_MAX_EXCLUDE 1000
/* Names become directory and file names ('<name>.sgbase.tmp.<pid>' is the longest). */
#define CONFIG_MAX_NAME 200

/*
 * A template with {threads}, {ranks}, {size} and {repeat} replaced ('{size}'
 * by nothing for CONFIG_NO_SIZE). '${...}' and '\{...}' are the shell's and
 * stay. Caller frees.
 */
char *config_expand(const char *template, int threads, int ranks, long long size, int repeat);

/*
 * The shell command line of one run: the command with its placeholders
 * replaced, preceded by the expanded launcher when ranks > 1. 'repeat' is the
 * run's number: 1..repeat for measured runs, 0 for warm-up runs. Caller frees.
 */
char *config_expand_command(const struct bench_config *b, int threads, int ranks,
			    long long size, int repeat);

/* 'path' relative to the configuration file's directory; caller frees. */
char *config_resolve(const struct config *c, const char *path);

#endif
