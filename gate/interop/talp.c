/* Reader of TALP's JSON output (DLB 3.4 to 3.7): the resources and the regions' times, one file
 * per run, through libyaml (JSON is YAML). */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "base/yamldoc.h"
#include "interop/talp-priv.h"

static const char *const field_aliases[] = {
#define X(id, name, alias) alias,
	TALP_FIELDS(X)
#undef X
};

/* The whole program's region: "Global" since DLB 3.6, "Application" in 3.5, "MPI Execution"
 * before. */
static const char *const global_names[] = {"Global", "Application", "MPI Execution", NULL};

static int field_of(const char *key)
{
	for (int f = 0; f < TALP_NR_FIELDS; f++)
		if (!strcmp(key, talp_field_name((enum talp_field)f)) ||
		    (field_aliases[f] && !strcmp(key, field_aliases[f])))
			return f;
	return -1;
}

static void talp_file_release(struct talp_file *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->region[i].name);
	free(t->region);
	free(t->version);
	free(t->timestamp);
}

static int read_region(struct yamldoc *d, struct talp_file *t, const char *name, yaml_node_t *n)
{
	struct yamldoc_iter it;
	struct talp_region *r;
	int ret = 0;

	if (!yamldoc_is_map(n))
		return yamldoc_error(d, n, "region '%s' must be an object", name);
	ALLOC_GROW(t->region, t->nr + 1, t->alloc);
	r = &t->region[t->nr++];
	r->name = xstrdup(name);
	for (int f = 0; f < TALP_NR_FIELDS; f++)
		r->f[f] = NAN;
	yamldoc_map_iter(&it, d, n);
	while (yamldoc_map_next(&it)) {
		int f = it.key ? field_of(it.key) : -1;
		if (f >= 0 && yamldoc_get_double(d, it.value, it.key, 0, 1e30, &r->f[f]))
			ret = -1;
	}
	if (!ret && isnan(r->f[TALP_ELAPSED]))
		return yamldoc_error(d, n, "region '%s' has no 'elapsedTime'", name);
	if (!ret && isnan(r->f[TALP_USEFUL]))
		return yamldoc_error(d, n, "region '%s' has no 'usefulTime'", name);
	return ret;
}

/* The regions: "Application" since DLB 3.5, "popMetrics" in 3.4. */
static int read_regions(struct yamldoc *d, struct talp_file *t, yaml_node_t *root)
{
	yaml_node_t *n = yamldoc_map_get(d, root, "Application");
	struct yamldoc_iter it;

	if (!n)
		n = yamldoc_map_get(d, root, "popMetrics");
	if (!n || !yamldoc_is_map(n))
		return yamldoc_error(d, n ? n : root,
				     "no 'Application' (DLB 3.5 and later) or 'popMetrics' (3.4) "
				     "object of regions: not TALP's JSON output");
	t->global = -1;
	yamldoc_map_iter(&it, d, n);
	while (yamldoc_map_next(&it)) {
		if (!it.key || read_region(d, t, it.key, it.value))
			return -1;
		for (const char *const *g = global_names; *g; g++)
			if (t->global < 0 && !strcmp(it.key, *g))
				t->global = (int)t->nr - 1;
	}
	if (t->global < 0)
		return yamldoc_error(d, n, "no whole-program region ('Global', 'Application' or "
				     "'MPI Execution')");
	return 0;
}

static int read_count(struct yamldoc *d, yaml_node_t *map, const char *key, int *out)
{
	yaml_node_t *n = yamldoc_map_get(d, map, key);
	long long v;

	if (!n)
		return yamldoc_error(d, map, "'resources' has no '%s'", key);
	if (yamldoc_get_int(d, n, key, 0, 1 << 24, &v))
		return -1;
	*out = (int)v;
	return 0;
}

static char *str_or_null(struct yamldoc *d, yaml_node_t *root, const char *key)
{
	yaml_node_t *n = yamldoc_map_get(d, root, key);

	return n && yamldoc_scalar(n) ? xstrdup(yamldoc_scalar(n)) : NULL;
}

/* The configuration: resources, or the whole program's region where a file has none. */
static int read_resources(struct yamldoc *d, struct talp_file *t, yaml_node_t *root)
{
	yaml_node_t *res = yamldoc_map_get(d, root, "resources");
	const struct talp_region *g = &t->region[t->global];

	if (res)
		return read_count(d, res, "numCpus", &t->cpus) ||
		       read_count(d, res, "numMpiRanks", &t->ranks);
	if (isnan(g->f[TALP_NUM_CPUS]) || isnan(g->f[TALP_NUM_RANKS]))
		return yamldoc_error(d, root, "no 'resources' and no 'numCpus' and 'numMpiRanks' "
				     "in region '%s'", g->name);
	t->cpus = (int)g->f[TALP_NUM_CPUS];
	t->ranks = (int)g->f[TALP_NUM_RANKS];
	return 0;
}

static int read_file(struct talp_file *t, const char *path)
{
	struct yamldoc d;
	yaml_node_t *root;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	yamldoc_init(&d);
	t->path = path;
	if (yamldoc_load(&d, path))
		return -1;
	root = yamldoc_root(&d);
	t->version = str_or_null(&d, root, "dlbVersion");
	t->timestamp = str_or_null(&d, root, "timestamp");
	if (read_regions(&d, t, root) || read_resources(&d, t, root))
		goto out;
	if (t->cpus < 1)
		yamldoc_error(&d, root, "'numCpus' must be at least 1");
	else if (t->ranks > 0 && t->cpus % t->ranks)
		yamldoc_error(&d, root, "%d CPUs are not the same number per rank for %d ranks",
			      t->cpus, t->ranks);
	else
		ret = d.nr_errors ? -1 : 0;
out:
	yamldoc_release(&d);
	return ret;
}

static int import_file(struct import_set *s, const char *path, const char *benchmark,
		       const char *size)
{
	struct talp_file t;
	struct import_run *r;
	int ret;

	if (read_file(&t, path)) {
		talp_file_release(&t);
		return -1;
	}
	r = import_add_run(s, path, benchmark, size);
	r->ranks = t.ranks ? t.ranks : 1;
	r->threads = t.cpus / r->ranks;
	r->wall = t.region[t.global].f[TALP_ELAPSED] * 1e-9;
	if (!s->date && t.timestamp)
		s->date = xstrdup(t.timestamp);
	if (!s->origin)
		s->origin = xstrfmt("TALP (DLB %s)", t.version ? t.version : "?");
	ret = talp_model(r, &t);
	talp_file_release(&t);
	return ret;
}

static int is_json(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json");
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int talp_import(struct import_set *s, const char *path, const char *benchmark, const char *size)
{
	struct stat st;
	char **names;
	long n;
	int ret = 0;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return import_file(s, path, benchmark, size);
	if ((n = dir_names(path, is_json, &names)) < 0)
		return gate_error("cannot read directory '%s'", path);
	if (!n)
		ret = gate_error("'%s' holds no *.json file", path);
	qsort(names, (size_t)n, sizeof(*names), cmp_names);
	for (long i = 0; i < n; i++) {
		size_t len = strlen(path);
		char *file;

		while (len > 1 && path[len - 1] == '/')
			len--;
		file = xstrfmt("%.*s/%s", (int)len, path, names[i]);
		if (!ret && import_file(s, file, benchmark, size))
			ret = -1;
		free(file);
		free(names[i]);
	}
	free(names);
	return ret;
}
