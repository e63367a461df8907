/* The profiles a run left: how many, each readable, and each written by the benchmark's program. */
#include "run/runner-exec.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/profile.h"

/* Runs profile_read() with its messages caught, so that the reason can keep them; '*exe' gets
 * the executable that wrote it (region 0's file), or NULL; '*ranks' the ranks it holds (a job's
 * reduced profile: all of them). */
static int read_profile(const char *path, char **message, char **exe, int *ranks)
{
	struct profile p;
	char tmpl[] = "/tmp/scalegate-msg-XXXXXX";
	int fd = mkstemp(tmpl), saved = dup(2), ret;

	fflush(stderr);
	if (fd >= 0 && saved >= 0)
		dup2(fd, 2);
	profile_data_init(&p);
	ret = profile_read(&p, path);
	*ranks = !ret && p.reduced_ranks ? p.reduced_ranks : 1;
	*exe = !ret && p.nr_regions && p.regions[0].file && p.regions[0].file[0] == '/'
		       ? xstrdup(p.regions[0].file)
		       : NULL;
	profile_data_release(&p);
	fflush(stderr);
	if (fd >= 0 && saved >= 0)
		dup2(saved, 2);
	if (ret) {
		static const char prefix[] = "scalegate: error: ";
		char *m = fd >= 0 ? exec_tail(tmpl, 300) : xstrfmt("cannot read '%s'", path);
		if (!strncmp(m, prefix, sizeof(prefix) - 1))
			memmove(m, m + sizeof(prefix) - 1, strlen(m) - sizeof(prefix) + 2);
		*message = m;
	}
	if (saved >= 0)
		close(saved);
	if (fd >= 0) {
		close(fd);
		unlink(tmpl);
	}
	return ret;
}

/* Whether the profile of 'exe' comes from 'program' (any when either is NULL); else the reason. */
static int other_program(const char *name, const char *exe, const char *program, char **reason)
{
	if (!program || !exe || exec_program_matches(program, exe))
		return 0;
	*reason = xstrfmt("profile '%s' was written by '%s', not by '%s', the benchmark's program "
			  "('program:', else the one executable its command names): another "
			  "program was measured; name the right one with 'program:'",
			  name, exe, program);
	return 1;
}

int exec_check_profiles(const char *dir, int expected, const char *program, char **reason)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0, ret = 0;
	char *other = NULL; /* the first profile of another program: said when the count is right */

	*reason = NULL;
	if (!d) {
		*reason = xstrfmt("cannot open '%s': %s", dir, strerror(errno));
		return 1;
	}
	while (!ret && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *path, *message = NULL, *exe = NULL;
		int ranks = 1;
		if (len < 7 || strcmp(e->d_name + len - 7, ".sgprof"))
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		if (read_profile(path, &message, &exe, &ranks)) {
			*reason = message;
			ret = 2;
		} else if (!other) {
			other_program(e->d_name, exe, program, &other);
		}
		found += ranks;
		free(exe);
		free(path);
	}
	closedir(d);
	if (!ret && found > expected) {
		/* a process that is not the benchmark was measured too (tracer/MPI.md, "Which
		 * processes write a profile") */
		*reason = xstrfmt(
			"%d profiles written, %d expected (one per rank): a process that is not "
			"the "
			"benchmark, such as a wrapper that inherited LD_PRELOAD, was measured too",
			found, expected);
		ret = 2;
	}
	if (!ret && found == expected && other) {
		*reason = other;
		other = NULL;
		ret = 2;
	}
	free(other);
	if (!ret && found < expected) {
		*reason = found ? xstrfmt("%d profile%s written, %d expected (one per rank)", found,
					  found == 1 ? "" : "s", expected)
				: xstrdup("no profile written (is the program linked with the "
					  "tracer, or 'preload: true'?)");
		ret = 1;
	}
	return ret;
}
