/* --validate of 'check' and 'ci': what they would read, checked and reported in one pass; nothing
 * runs, nothing is judged. */
#ifndef SG_VALIDATE_H
#define SG_VALIDATE_H

#include "cmd/ab.h"

struct validate_options {
	const char *config;
	int post; /* the 'post:' section, when there is one ('ci --no-post' reads none) */
	/* ci's inputs too: 'reports:' (with -o), the preload libraries and workdirs, and the
	 * reference it would compare with: the base revision (ab), else the stored baselines */
	int ci;
	const char *reports_dir;     /* ci -o */
	const char *baselines;       /* --baselines, else the configuration's */
	int allow_no_reference;      /* --allow-no-reference */
	struct ab_options *ab;       /* --against, --against-dir */
};

/* Reports every mistake (file:line:col where there is one) and prints what is valid: SG_EXIT_PASS
 * or SG_EXIT_USAGE. */
int validate_inputs(struct validate_options *o);

#endif
