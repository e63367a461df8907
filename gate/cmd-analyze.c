/* scalegate analyze: characteristics per interval, configuration and across the matrix, as text or JSON. */
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "cmds.h"
#include "exitcode.h"
#include "matrix.h"
#include "protocol.h"

static const char usage_text[] =
	"usage: scalegate analyze [--json] DIR\n"
	"DIR is a results directory written by 'scalegate run' (manifest.tsv) or a\n"
	"directory of profiles from one run of a program. Prints per interval the\n"
	"main characteristics (median [95 %% interval] over repeats), the per-processor\n"
	"comparative characteristics and the scaling table (docs/metrics.md).\n"
	"  --json   the documented JSON instead of text\n";

int cmd_analyze(int argc, char **argv)
{
	struct analysis a;
	struct matrix m;
	int json = 0, code = SG_EXIT_PASS;
	const char *dir = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf(usage_text);
			return SG_EXIT_PASS;
		} else if (argv[i][0] == '-' || dir) {
			fprintf(stderr, usage_text);
			return SG_EXIT_USAGE;
		} else
			dir = argv[i];
	}
	if (!dir) {
		fprintf(stderr, usage_text);
		return SG_EXIT_USAGE;
	}
	analysis_init(&a);
	matrix_init(&m);
	if (analysis_load(&a, dir) || matrix_build(&m, &a))
		code = SG_EXIT_USAGE;
	else if (json)
		protocol_json_write(stdout, &a, &m);
	else
		protocol_write(stdout, &a, &m);
	matrix_release(&m);
	analysis_release(&a);
	return code;
}
