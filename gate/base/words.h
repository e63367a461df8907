/* The words every output uses for the same things: a configuration is "2 ranks × 1 thread"
 * everywhere. */
#ifndef SG_WORDS_H
#define SG_WORDS_H

#include <stddef.h>

/* "1 rank × 2 threads" (ranks 0 or threads 0: "-"); with a size other than NULL or "-",
 * ", size S" follows. Returns 'buf'. */
char *config_words(char *buf, size_t size, int ranks, int threads, const char *size_name);

#endif
