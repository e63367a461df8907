/* libFuzzer: config_load() (scalegate.yml) and the rules of the same file; seeds from
 * tests/data/config. */
#include <fcntl.h>

#include "fuzz.h"
#include "config/config.h"
#include "rules/rules.h"

static void read_config(const char *path)
{
	struct config c;
	struct rules r;

	rules_init(&r);
	if (!config_load(&c, path))
		rules_load(&r, &c);
	rules_release(&r);
	config_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_as_file(data, size, read_config);
	return 0;
}
