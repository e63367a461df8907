/* The ids of a database's series by their names, held in memory while a writer holds the lock: a
 * record looks each of its points' series up here instead of in the database. */
#ifndef SG_HISTORY_SERIES_IDS_H
#define SG_HISTORY_SERIES_IDS_H

#include <stddef.h>

struct series_ids {
	struct series_id_slot *slots; /* open addressing; a power of two of them */
	size_t nr, alloc;
};

void series_ids_release(struct series_ids *m);
/* The id of the series of these names: 1 with *id, or 0 when it is not held. */
int series_ids_find(const struct series_ids *m, const char *benchmark, const char *interval,
		    const char *configuration, const char *metric, long long *id);
/* Holds 'id' as the series of these names (copied). */
void series_ids_add(struct series_ids *m, const char *benchmark, const char *interval,
		    const char *configuration, const char *metric, long long id);

#endif
