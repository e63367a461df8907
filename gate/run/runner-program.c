/* Which executable a run's profiles must come from: 'program:', or the one executable its command
 * names by path (docs/configuration.md, "program"). */
#include "run/runner-exec.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* They run the program, they are not it: a path to one of them names no program. */
static const char *const runners[] = {
	"mpirun", "mpiexec", "mpiexec.hydra", "orterun", "prterun", "srun", "env", "time",
	"nice", "ionice", "taskset", "numactl", "chrt", "stdbuf", "timeout", "setsid", "nohup",
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The real path of 'word' when it is an executable ELF file (not a script, which runs another
 * program), else NULL; caller frees. */
static char *elf_executable(const char *word)
{
	char magic[4], *real;
	struct stat st;
	int fd = open(word, O_RDONLY | O_NONBLOCK | O_CLOEXEC), elf;

	if (fd < 0)
		return NULL;
	elf = !fstat(fd, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111) &&
	      read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4);
	close(fd);
	if (!elf || !(real = realpath(word, NULL)))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(runners); i++)
		if (!strcmp(base_name(real), runners[i])) {
			free(real);
			return NULL;
		}
	return real;
}

/* The next literal word of a shell line from '*at' (quotes dropped), or NULL at the end; a word
 * with an expansion ($, `, a glob) is "" (not literal). Caller frees. */
static char *next_word(const char **at)
{
	const char *s = *at;
	struct strbuf sb = STRBUF_INIT;
	int literal = 1;

	s += strspn(s, " \t\n;&|()<>");
	if (!*s)
		return NULL;
	for (char quote = 0; *s && (quote || !strchr(" \t\n;&|()<>", *s)); s++) {
		if (quote ? *s == quote : (*s == '\'' || *s == '"')) {
			quote = quote ? 0 : *s;
			continue;
		}
		if (strchr("$`*?[\\", *s) && quote != '\'')
			literal = 0;
		strbuf_addch(&sb, *s);
	}
	*at = s;
	if (!literal)
		strbuf_reset(&sb);
	return strbuf_detach(&sb);
}

char *exec_named_program(const char *line)
{
	char *word, *found = NULL;
	const char *at = line;
	int ambiguous = 0;

	while (!ambiguous && (word = next_word(&at))) {
		char *real = strchr(word, '/') && !strchr(word, '=') ? elf_executable(word) : NULL;
		if (real && found && strcmp(real, found))
			ambiguous = 1;
		if (real && !found)
			found = real;
		else
			free(real);
		free(word);
	}
	if (ambiguous || !found) {
		free(found);
		return NULL;
	}
	word = xstrdup(base_name(found));
	free(found);
	return word;
}

int exec_program_matches(const char *pattern, const char *exe)
{
	return !fnmatch(pattern, base_name(exe), 0);
}
