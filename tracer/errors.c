/* Annotation mistakes (an SG_END that matches nothing, an interval left open, one not recorded):
 * one stderr line per kind, once, with the site's file and line; every site kept for the profile.
 * Never on the hot path. */
#include "internal.h"

#include <stdio.h>

static struct sg_error_site sites[SG_MAX_ERROR_SITES];
static int nr_sites;
static int reported[SG_NR_ERRORS];

static const char *const kind_names[SG_NR_ERRORS] = {
	[SG_ERR_UNMATCHED_END] = "unmatched_end",
	[SG_ERR_UNCLOSED] = "unclosed",
	[SG_ERR_DROPPED] = "dropped",
};

static void report(enum sg_error kind, const struct sg_region_info *r, int line)
{
	const char *file = r ? r->file : "?", *name = r ? r->name : "?";

	switch (kind) {
	case SG_ERR_UNMATCHED_END:
		fprintf(stderr,
			"scalegate: error: %s:%d: SG_END(\"%s\") matches no open interval; "
			"ignored\n",
			file, line, name);
		break;
	case SG_ERR_UNCLOSED:
		fprintf(stderr,
			"scalegate: error: %s:%d: interval \"%s\" was left open (a return, goto, "
			"longjmp or "
			"exception skipped its SG_END); closed where the interval around it ends\n",
			file, line, name);
		break;
	default:
		fprintf(stderr,
			"scalegate: error: %s:%d: interval \"%s\" not recorded: more than %d "
			"intervals open "
			"at once, or the call-path table is full\n",
			file, line, name, SG_MAX_DEPTH);
	}
}

void sg_annotation_error(enum sg_error kind, uint32_t node, uint32_t region, int line)
{
	struct sg_error_site *e = NULL;
	const struct sg_region_info *r;

	pthread_mutex_lock(&sg_lock);
	r = region < sg_region_count() ? sg_region_at(region) : NULL;
	if (line <= 0 && r)
		line = r->line;
	for (int i = 0; i < nr_sites && !e; i++)
		if (sites[i].kind == kind && sites[i].node == node && sites[i].region == region &&
		    sites[i].line == line)
			e = &sites[i];
	if (!e && nr_sites < SG_MAX_ERROR_SITES) {
		e = &sites[nr_sites++];
		*e = (struct sg_error_site){ kind, node, region, line, 0 };
	}
	if (e)
		e->count++;
	if (!reported[kind]++)
		report(kind, r, line);
	pthread_mutex_unlock(&sg_lock);
}

int sg_error_site_count(void)
{
	return nr_sites;
}

const struct sg_error_site *sg_error_site_at(int i)
{
	return &sites[i];
}

const char *sg_error_name(enum sg_error kind)
{
	return kind_names[kind];
}
