/* Helpers the unit tests share: a scratch directory (kept with SG_KEEP=1), a profile written
 * sealed as the tracer seals it, and figures compared to 1e-6. Included after cmocka.h. */
#ifndef SG_SCRATCH_TESTING_H
#define SG_SCRATCH_TESTING_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "results/profile.h"

static inline char *make_dir(void)
{
	char *dir = xstrdup("/tmp/sg-test-XXXXXX");

	assert_non_null(mkdtemp(dir));
	return dir;
}

static inline void remove_dir(char *dir)
{
	char *cmd = xstrfmt(getenv("SG_KEEP") ? "echo kept '%s' >&2" : "rm -rf '%s'", dir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

/* 'sb', a profile's records, sealed (its 'end' record appended) and written to 'path'. */
static inline void write_sealed_profile(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	profile_seal(sb);
	fputs(sb->buf, f);
	assert_int_equal(fclose(f), 0);
}

#define near(x, y) \
	do { \
		if (fabs((x) - (y)) >= 1e-6) \
			fprintf(stderr, "got %.9g want %.9g\n", (double)(x), (double)(y)); \
		assert_true(fabs((x) - (y)) < 1e-6); \
	} while (0)

#endif
