/* scalegate profile: check profile files and print what they hold, per interval and thread. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "base/exitcode.h"
#include "results/profile.h"
#include "base/util.h"
#include "cmd/options.h"

static const struct command_usage usage = {
	"profile",
	"usage: scalegate profile [--tsv] FILE...\n"
	"Reads profiles written by the tracer (one per process), rejects truncated,\n"
	"corrupt or wrong-version files, and prints per interval and thread the\n"
	"count and the wall time.\n",
	NULL
};

static void print_value(double v)
{
	if (isnan(v))
		printf("\t-");
	else
		printf("\t%.9g", v);
}

static void print_tsv(const struct profile *p)
{
	printf("file\tpath\tthread\tomp_thread");
	for (int c = 0; c < PROFILE_NR_COLUMNS; c++)
		printf("\t%s", profile_column_name(c));
	printf("\n");
	for (size_t i = 0; i < p->nr_stats; i++) {
		const struct profile_stat *s = &p->stats[i];
		printf("%s\t%s\t%d\t%d", p->path, p->nodes[s->node].path, s->thread,
		       p->threads[s->thread].omp_thread);
		for (int c = 0; c < PROFILE_NR_COLUMNS; c++)
			print_value(s->v[c]);
		printf("\n");
	}
	for (size_t i = 0; i < p->nr_mpi; i++) {
		const struct profile_mpi *m = &p->mpi[i];
		printf("%s\t%s\t%d\tmpi:%s", p->path, p->nodes[m->node].path, m->thread, m->kind);
		for (int c = 0; c < PROFILE_MPI_NR_COLUMNS; c++)
			print_value(m->v[c]);
		printf("\n");
	}
}

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
		printf("  %-40s %s:%d  thread %d  count %.0f  time %.6f s\n", n->path, r->file,
		       r->line, s->thread, isnan(s->v[PROFILE_COUNT]) ? 0 : s->v[PROFILE_COUNT],
		       s->v[PROFILE_TIME]);
	}
	for (const char **k = (const char *[]){"errors_unmatched_end", "errors_unclosed",
					       "errors_dropped", NULL};
	     *k; k++)
		if (profile_meta_num(p, *k, 0) > 0)
			printf("  warning: %s = %s\n", *k, profile_meta(p, *k));
}

int cmd_profile(int argc, char **argv)
{
	int status = SG_EXIT_PASS, tsv = 0;
	const struct option opts[] = {
		OPT_FLAG(NULL, "--tsv", &tsv,
			 "one tab-separated line per interval, thread (and MPI kind) with\n"
			 "every column; '-' where the value was not captured"),
		OPT_END()
	};
	int n = options_parse(argc, argv, opts, &usage);

	if (n == OPTIONS_HELP)
		return SG_EXIT_PASS;
	if (n == 0)
		gate_error(
			"which profiles? give at least one FILE (see 'scalegate profile --help')");
	if (n <= 0)
		return SG_EXIT_USAGE;
	for (int i = 0; i < n; i++) {
		struct profile p;
		if (profile_read(&p, argv[i])) {
			status = SG_EXIT_USAGE;
			continue;
		}
		if (tsv)
			print_tsv(&p);
		else
			print_profile(&p);
		profile_data_release(&p);
	}
	return status;
}
