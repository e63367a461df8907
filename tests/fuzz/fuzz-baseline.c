/* libFuzzer: baseline_read() (*.sgbase); seeds from the baselines of tests/data/check and
 * baselines/. */
#include <fcntl.h>

#include "fuzz.h"
#include "judge/baseline.h"

static void read_baseline(const char *path)
{
	struct baseline b;

	if (!baseline_read(&b, path)) {
		/* What was read is used as the check uses it. */
		for (size_t i = 0; i < b.nr_cells; i++)
			baseline_find(&b, b.cells[i].interval, b.cells[i].size, b.cells[i].ranks,
				      b.cells[i].threads);
		baseline_release(&b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_as_file(data, size, read_baseline);
	return 0;
}
