/* scalegate profile: check profile files and print what they hold, per interval and thread. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "exitcode.h"
#include "profile.h"

static const char usage_text[] =
	"usage: scalegate profile FILE...\n"
	"Reads profiles written by the tracer (one per process), rejects truncated,\n"
	"corrupt or wrong-version files, and prints per interval and thread the\n"
	"count and the wall time.\n";

static void print_profile(const struct profile *p)
{
	printf("%s: %s, pid %s, rank %s, clock %s, %zu intervals, %zu threads\n", p->path,
	       profile_meta(p, "host") ? profile_meta(p, "host") : "?",
	       profile_meta(p, "pid") ? profile_meta(p, "pid") : "?",
	       profile_meta(p, "rank") ? profile_meta(p, "rank") : "-",
	       profile_meta(p, "clock") ? profile_meta(p, "clock") : "?",
	       p->nr_nodes, p->nr_threads);
	for (size_t i = 0; i < p->nr_stats; i++) {
		const struct profile_stat *s = &p->stats[i];
		const struct profile_node *n = &p->nodes[s->node];
		const struct profile_region *r = &p->regions[n->region];
		printf("  %-40s %s:%d  thread %d  count %.0f  time %.6f s\n", n->path, r->file, r->line,
		       s->thread, isnan(s->v[PROFILE_COUNT]) ? 0 : s->v[PROFILE_COUNT], s->v[PROFILE_TIME]);
	}
	for (const char **k = (const char *[]){ "errors_unmatched_end", "errors_unclosed", "errors_dropped", NULL }; *k; k++)
		if (profile_meta_num(p, *k, 0) > 0)
			printf("  warning: %s = %s\n", *k, profile_meta(p, *k));
}

int cmd_profile(int argc, char **argv)
{
	int status = SG_EXIT_PASS;

	if (argc < 2) {
		fputs(usage_text, stderr);
		return SG_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return SG_EXIT_PASS;
	}
	for (int i = 1; i < argc; i++) {
		struct profile p;
		if (profile_read(&p, argv[i])) {
			status = SG_EXIT_USAGE;
			continue;
		}
		print_profile(&p);
		profile_release(&p);
	}
	return status;
}
