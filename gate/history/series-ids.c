/* The ids of a database's series by their names, in memory: an open-addressing hash table, each
 * key the four names joined by a unit separator (which no name holds: they come from profile
 * lines), hashed and compared name by name without joining them for a look-up. */
#include "history/series-ids.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define SEPARATOR '\037'

struct series_id_slot {
	char *key; /* NULL: empty */
	unsigned long long hash;
	long long id;
};

/* The names of one series. */
struct names {
	const char *part[4];
};

static void series_ids_init(struct series_ids *m)
{
	memset(m, 0, sizeof(*m));
}

void series_ids_release(struct series_ids *m)
{
	for (size_t i = 0; i < m->alloc; i++)
		free(m->slots[i].key);
	free(m->slots);
	series_ids_init(m);
}

/* FNV-1a of the names joined by the separator. */
static unsigned long long hash_of(const struct names *n)
{
	unsigned long long h = 14695981039346656037ull;

	for (int k = 0; k < 4; k++) {
		if (k)
			h = (h ^ (unsigned char)SEPARATOR) * 1099511628211ull;
		for (const char *s = n->part[k]; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
	}
	return h;
}

/* Whether the joined 'key' holds exactly these names. */
static int same(const char *key, const struct names *n)
{
	for (int k = 0; k < 4; k++) {
		size_t len = strlen(n->part[k]);
		if (strncmp(key, n->part[k], len) || key[len] != (k < 3 ? SEPARATOR : '\0'))
			return 0;
		key += len + 1;
	}
	return 1;
}

/* The slot of these names: their own, or the empty one where they would go. */
static struct series_id_slot *slot_of(const struct series_ids *m, const struct names *n,
				      unsigned long long hash)
{
	size_t mask = m->alloc - 1, i = (size_t)hash & mask;

	while (m->slots[i].key && (m->slots[i].hash != hash || !same(m->slots[i].key, n)))
		i = (i + 1) & mask;
	return &m->slots[i];
}

int series_ids_find(const struct series_ids *m, const char *benchmark, const char *interval,
		    const char *configuration, const char *metric, long long *id)
{
	struct names n = { { benchmark, interval, configuration, metric } };
	const struct series_id_slot *s;

	if (!m->nr)
		return 0;
	s = slot_of(m, &n, hash_of(&n));
	if (!s->key)
		return 0;
	*id = s->id;
	return 1;
}

/* Twice the slots, the keys moved over: at most half of them are ever taken. */
static void grow(struct series_ids *m)
{
	struct series_ids old = *m;

	m->alloc = old.alloc ? 2 * old.alloc : 1024;
	m->slots = xcalloc(m->alloc, sizeof(*m->slots));
	for (size_t i = 0; i < old.alloc; i++) {
		size_t k = (size_t)old.slots[i].hash & (m->alloc - 1);
		if (!old.slots[i].key)
			continue;
		while (m->slots[k].key)
			k = (k + 1) & (m->alloc - 1);
		m->slots[k] = old.slots[i];
	}
	free(old.slots);
}

void series_ids_add(struct series_ids *m, const char *benchmark, const char *interval,
		    const char *configuration, const char *metric, long long id)
{
	struct names n = { { benchmark, interval, configuration, metric } };
	struct series_id_slot *s;
	unsigned long long hash = hash_of(&n);

	if (2 * (m->nr + 1) > m->alloc)
		grow(m);
	s = slot_of(m, &n, hash);
	if (!s->key) {
		s->key = xstrfmt("%s%c%s%c%s%c%s", benchmark, SEPARATOR, interval, SEPARATOR,
				 configuration, SEPARATOR, metric);
		s->hash = hash;
		m->nr++;
	}
	s->id = id;
}
