/* The tracer's global tables: regions (name, file, line) and call-path nodes (parent, region, tag).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

pthread_mutex_t sg_lock = PTHREAD_MUTEX_INITIALIZER;

static struct sg_region_info *regions;
static uint32_t nr_regions, alloc_regions;
static struct sg_node_info *nodes;
static uint32_t nr_nodes, alloc_nodes;

/* Open-addressing hash of node keys -> node id + 1 (0 = empty slot). */
static uint32_t *node_hash;
static uint32_t node_hash_size;

#define SG_MAX_NODES ((uint32_t)SG_CHUNK * SG_MAX_CHUNKS)

static uint64_t node_key_hash(uint32_t parent, uint32_t region, long tag)
{
	uint64_t h = 14695981039346656037ull;

	h = (h ^ parent) * 1099511628211ull;
	h = (h ^ region) * 1099511628211ull;
	h = (h ^ (uint64_t)tag) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int grow(void **p, uint32_t *alloc, uint32_t need, size_t size)
{
	uint32_t n = *alloc ? *alloc : 64;
	void *q;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, (size_t)n * size);
	if (!q)
		return -1;
	*p = q;
	*alloc = n;
	return 0;
}

static int node_hash_rebuild(uint32_t size)
{
	uint32_t *h = calloc(size, sizeof(*h));

	if (!h)
		return -1;
	for (uint32_t id = 0; id < nr_nodes; id++) {
		struct sg_node_info *n = &nodes[id];
		uint32_t i = (uint32_t)node_key_hash(n->parent, n->region, n->tag) & (size - 1);
		while (h[i])
			i = (i + 1) & (size - 1);
		h[i] = id + 1;
	}
	free(node_hash);
	node_hash = h;
	node_hash_size = size;
	return 0;
}

static int64_t node_find_or_add(uint32_t parent, uint32_t region, long tag)
{
	uint32_t i;

	if ((nr_nodes + 1) * 2 > node_hash_size &&
	    node_hash_rebuild(node_hash_size ? node_hash_size * 2 : 256))
		return -1;
	i = (uint32_t)node_key_hash(parent, region, tag) & (node_hash_size - 1);
	for (; node_hash[i]; i = (i + 1) & (node_hash_size - 1)) {
		struct sg_node_info *n = &nodes[node_hash[i] - 1];
		if (n->parent == parent && n->region == region && n->tag == tag)
			return node_hash[i] - 1;
	}
	if (nr_nodes >= SG_MAX_NODES ||
	    grow((void **)&nodes, &alloc_nodes, nr_nodes + 1, sizeof(*nodes)))
		return -1;
	nodes[nr_nodes] = (struct sg_node_info){ parent, region, tag };
	node_hash[i] = nr_nodes + 1;
	return nr_nodes++;
}

int64_t sg_node_get(uint32_t parent, uint32_t region, long tag)
{
	int64_t id;

	pthread_mutex_lock(&sg_lock);
	id = node_find_or_add(parent, region, tag);
	pthread_mutex_unlock(&sg_lock);
	return id;
}

static uint32_t region_add(const char *name, const char *file, int line)
{
	struct sg_region_info *r;

	if (grow((void **)&regions, &alloc_regions, nr_regions + 1, sizeof(*regions)))
		return 0;
	r = &regions[nr_regions];
	r->name = strdup(name ? name : "?");
	r->file = strdup(file ? file : "?");
	r->line = line;
	if (!r->name || !r->file) {
		free(r->name);
		free(r->file);
		return 0;
	}
	return nr_regions++;
}

/* Region 0 and node 0 are the whole program: the level-0 interval. */
void sg_regions_init(const char *program)
{
	pthread_mutex_lock(&sg_lock);
	if (!nr_regions) {
		region_add("program", program, 0);
		node_find_or_add(UINT32_MAX, 0, SG_NO_TAG);
	}
	pthread_mutex_unlock(&sg_lock);
}

sg_region_t sg_region(const char *name, const char *file, int line)
{
	uint32_t id = 0;

	if (!name)
		name = "?";
	if (!file)
		file = "?";
	pthread_mutex_lock(&sg_lock);
	/* Registration happens once per site; a scan keeps this simple. */
	for (uint32_t i = 1; i < nr_regions; i++) {
		if (!strcmp(regions[i].name, name) && !strcmp(regions[i].file, file)) {
			id = i;
			break;
		}
	}
	if (!id) {
		if (!nr_regions)
			region_add("program", "?", 0);
		id = region_add(name, file, line);
		sg_inject_register(id, name);
	} else if (!regions[id].line) {
		regions[id].line = line; /* SG_END was seen before SG_BEGIN */
	}
	pthread_mutex_unlock(&sg_lock);
	return (sg_region_t)id;
}

uint32_t sg_region_count(void)
{
	return nr_regions;
}

const struct sg_region_info *sg_region_at(uint32_t id)
{
	return &regions[id];
}

uint32_t sg_node_count(void)
{
	return nr_nodes;
}

const struct sg_node_info *sg_node_at(uint32_t id)
{
	return &nodes[id];
}
