/* The words every output uses for the same things (base/words.h). */
#include "base/words.h"

#include <stdio.h>
#include <string.h>

char *config_words(char *buf, size_t size, int ranks, int threads, const char *size_name)
{
	int n;

	if (ranks <= 0 || threads <= 0) {
		snprintf(buf, size, "-");
		return buf;
	}
	/* "\xc3\x97" is the multiplication sign: "1x2" was read both ways round */
	n = snprintf(buf, size, "%d rank%s \xc3\x97 %d thread%s", ranks, ranks == 1 ? "" : "s",
		     threads, threads == 1 ? "" : "s");
	if (size_name && strcmp(size_name, "-") && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - n, ", size %s", size_name);
	return buf;
}
