/* libFuzzer: profile_read() (*.sgprof, tracer/PROFILE.md); seeds from the profiles of
 * tests/data/check. */
#include <fcntl.h>

#include "fuzz.h"
#include "results/profile.h"

static void read_profile(const char *path)
{
	struct profile p;

	profile_data_init(&p);
	profile_read(&p, path);
	profile_data_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_as_file(data, size, read_profile);
	return 0;
}
