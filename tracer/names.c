/* Regions by name for callers without a static handle (Fortran, Caliper): a per-thread cache, a
 * locked registry behind it. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define NAME_CACHE 512 /* per-thread entries (16 KiB, for threads that use names); a power of two */
#define NAME_PROBE 4   /* slots tried before one is replaced */
/* The handle while not measuring: no lookup, and sg_begin would reject it if it ever measured. */
#define REGION_OFF ((sg_region_t)INT32_MAX)

struct name_entry {
	uint64_t hash;
	char *name; /* a copy, owned by the entry */
	size_t len;
	sg_region_t region;
};

/* The registry: one region per name, whatever the file of the first caller; 'slots' is an
 * open-addressing index of it (entry + 1, 0 = empty), kept at most half full. */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static struct name_entry *names;
static size_t nr_names, alloc_names;
static uint32_t *slots;
static size_t nr_slots;

static __thread struct name_entry *cache __attribute__((tls_model("initial-exec")));
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h | 1; /* 0 marks an empty slot */
}

static int entry_is(const struct name_entry *e, uint64_t h, const char *name, size_t len)
{
	return e->hash == h && e->len == len && !memcmp(e->name, name, len);
}

static void cache_free(void *arg)
{
	struct name_entry *c = arg;

	for (int i = 0; i < NAME_CACHE; i++)
		free(c[i].name);
	free(c);
	cache = NULL;
}

static void make_key(void)
{
	pthread_key_create(&cache_key, cache_free);
}

sg_region_t sg_region_cached(const char *name, size_t len)
{
	struct name_entry *c = cache;
	uint64_t h;

	if (SG_UNLIKELY(!sg_on))
		return REGION_OFF;
	if (SG_UNLIKELY(!c))
		return 0;
	h = name_hash(name, len);
	for (uint32_t i = 0; i < NAME_PROBE; i++) {
		struct name_entry *e = &c[(h + i) & (NAME_CACHE - 1)];
		if (entry_is(e, h, name, len))
			return e->region;
	}
	return 0;
}

static int slots_grow(void)
{
	size_t n = nr_slots ? nr_slots * 2 : 64;
	uint32_t *p = calloc(n, sizeof(*p));

	if (!p)
		return -1;
	for (size_t i = 0; i < nr_names; i++) {
		size_t j = names[i].hash & (n - 1);
		while (p[j])
			j = (j + 1) & (n - 1);
		p[j] = (uint32_t)i + 1;
	}
	free(slots);
	slots = p;
	nr_slots = n;
	return 0;
}

/* The region of 'name' from the registry, registered when new; 0 when out of memory. */
static sg_region_t registry_get(uint64_t h, const char *name, size_t len, const char *file,
				int line)
{
	sg_region_t r = 0;
	size_t j;
	char *copy;

	pthread_mutex_lock(&names_lock);
	if ((nr_names + 1) * 2 > nr_slots && slots_grow())
		goto out;
	for (j = h & (nr_slots - 1); slots[j]; j = (j + 1) & (nr_slots - 1))
		if (entry_is(&names[slots[j] - 1], h, name, len)) {
			r = names[slots[j] - 1].region;
			goto out;
		}
	if (nr_names == alloc_names) {
		size_t n = alloc_names ? alloc_names * 2 : 32;
		struct name_entry *p = realloc(names, n * sizeof(*p));
		if (!p)
			goto out;
		names = p;
		alloc_names = n;
	}
	if (!(copy = strndup(name, len)))
		goto out;
	r = sg_region(copy, file, line);
	if (!r) {
		free(copy);
		goto out;
	}
	names[nr_names] = (struct name_entry){ h, copy, len, r };
	slots[j] = (uint32_t)++nr_names;
out:
	pthread_mutex_unlock(&names_lock);
	return r;
}

/* Keeps (name, region) in this thread's cache; a full probe window loses its first slot. */
static void cache_put(uint64_t h, const char *name, size_t len, sg_region_t r)
{
	struct name_entry *e = NULL;
	char *copy;

	if (!cache) {
		pthread_once(&cache_once, make_key);
		if (!(cache = calloc(NAME_CACHE, sizeof(*cache))))
			return;
		pthread_setspecific(cache_key, cache);
	}
	for (uint32_t i = 0; i < NAME_PROBE && !e; i++)
		if (!cache[(h + i) & (NAME_CACHE - 1)].hash)
			e = &cache[(h + i) & (NAME_CACHE - 1)];
	if (!e)
		e = &cache[h & (NAME_CACHE - 1)];
	if (!(copy = malloc(len ? len : 1)))
		return;
	memcpy(copy, name, len);
	free(e->name);
	*e = (struct name_entry){ h, copy, len, r };
}

sg_region_t sg_region_named(const char *name, size_t len, const char *file, int line)
{
	sg_region_t r = sg_region_cached(name, len);
	uint64_t h;

	if (SG_LIKELY(r))
		return r;
	h = name_hash(name, len);
	r = registry_get(h, name, len, file, line);
	if (r)
		cache_put(h, name, len, r);
	return r;
}
