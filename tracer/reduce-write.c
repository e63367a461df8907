/* Writes the job's one profile (tracer/PROFILE.md, "Reduced profiles"): the merged interval tree
 * and each interval's reduced record, on rank 0. */
#include "reduce-paths.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const field_names[] = {
#define X(id, name, op) name,
	SG_REDUCED_COLUMNS(X)
#undef X
};

static const char *const quantity_names[] = {
#define X(id, name) name,
	SG_REDUCED_QUANTITIES(X)
#undef X
};

static const char *const cmp_names[] = {
#define X(id, name, kind) name,
	SG_REDUCED_CMP_COLUMNS(X)
#undef X
};

/* A rank or thread is written as an integer. */
#define KIND_IS_INDEX 1
#define KIND_IS_VALUE 0
static const int cmp_is_index[] = {
#define X(id, name, kind) KIND_IS_##kind,
	SG_REDUCED_CMP_COLUMNS(X)
#undef X
};

/* Regions: one per distinct (name, file, line) of the table, in order of first use; returns each
 * record's region in 'region'. */
static void write_regions(struct buf *b, const struct sg_paths *t, int *region)
{
	int nr = 0;

	sg_buf_printf(b, "columns\tregion\tid\tname\tfile\tline\n");
	for (size_t i = 0; i < t->n; i++) {
		region[i] = -1;
		for (size_t j = 0; j < i && region[i] < 0; j++)
			if (!strcmp(t->name[j], t->name[i]) && !strcmp(t->file[j], t->file[i]) &&
			    t->line[j] == t->line[i])
				region[i] = region[j];
		if (region[i] >= 0)
			continue;
		region[i] = nr++;
		sg_buf_printf(b, "region\t%d\t", region[i]);
		sg_buf_escaped(b, t->name[i]);
		sg_buf_printf(b, "\t");
		sg_buf_escaped(b, t->file[i]);
		sg_buf_printf(b, "\t%d\n", t->line[i]);
	}
}

static void write_nodes(struct buf *b, const struct sg_paths *t, const int *region)
{
	sg_buf_printf(b, "columns\tnode\tid\tparent\tregion\ttag\n");
	for (size_t i = 0; i < t->n; i++) {
		if (t->parent[i] < 0)
			sg_buf_printf(b, "node\t%zu\t-\t%d\t", i, region[i]);
		else
			sg_buf_printf(b, "node\t%zu\t%d\t%d\t", i, t->parent[i], region[i]);
		if (t->has_tag[i])
			sg_buf_printf(b, "%ld\n", t->tag[i]);
		else
			sg_buf_printf(b, "-\n");
	}
}

static void write_records(struct buf *b, const struct sg_red *red, size_t n)
{
	sg_buf_printf(b, "columns\treduced\tnode");
	for (int f = 0; f < SG_RED_NR_FIELDS; f++)
		sg_buf_printf(b, "\t%s", field_names[f]);
	sg_buf_printf(b, "\n");
	for (size_t i = 0; i < n; i++) {
		sg_buf_printf(b, "reduced\t%zu", i);
		/* '-': not captured on some rank (held: a rank without OpenMP) */
		for (int f = 0; f < SG_RED_NR_FIELDS; f++)
			if (isnan(red[i].v[f]))
				sg_buf_printf(b, "\t-");
			else
				sg_buf_printf(b, "\t%.17g", red[i].v[f]);
		sg_buf_printf(b, "\n");
	}
	sg_buf_printf(b, "columns\treduced_cmp\tnode\tquantity");
	for (int c = 0; c < SG_CMP_NR; c++)
		sg_buf_printf(b, "\t%s", cmp_names[c]);
	sg_buf_printf(b, "\n");
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < SG_RED_NR_QUANTITIES; k++) {
			const double *c = &red[i].v[SG_RED_NR_FIELDS + k * SG_CMP_NR];
			sg_buf_printf(b, "reduced_cmp\t%zu\t%s", i, quantity_names[k]);
			for (int f = 0; f < SG_CMP_NR; f++)
				sg_buf_printf(b, cmp_is_index[f] ? "\t%.0f" : "\t%.17g", c[f]);
			sg_buf_printf(b, "\n");
		}
}

int sg_reduce_write(const char *dir, const struct sg_paths *t, const struct sg_red *red,
		    const struct sg_job_meta *job)
{
	struct buf b = { 0 };
	char host[64] = "host", name[128];
	int *region = malloc((t->n + 1) * sizeof(int)), ret;

	if (!region)
		return -1;
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	snprintf(name, sizeof(name), "job.%s.%d", host, (int)getpid());
	sg_buf_printf(&b, "scalegate-profile\t%d\n", SG_PROFILE_VERSION);
	sg_write_meta(&b, job);
	write_regions(&b, t, region);
	write_nodes(&b, t, region);
	write_records(&b, red, t->n);
	ret = sg_write_sealed(dir, name, &b);
	free(b.p);
	free(region);
	return ret;
}
