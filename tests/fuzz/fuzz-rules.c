/* libFuzzer: rules_load_file() (rules/<name>.yml); seeds from rules/ and tests/data/rules. */
#include <fcntl.h>

#include "fuzz.h"
#include "rules/rules.h"

static void read_rules(const char *path)
{
	struct rules r;

	rules_init(&r);
	rules_load_file(&r, path);
	rules_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_as_file(data, size, read_rules);
	return 0;
}
