/* The command line and the environment of one run: placeholders, the program path, the launcher,
 * LD_PRELOAD. */
#include "run/runner-priv.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "run/runner-exec.h"

int runner_uses_launcher(const struct bench_config *b, const struct config_point *p)
{
	return p->ranks > 1 && b->launcher && *b->launcher;
}

/*
 * The shell line of one run: the command with its program path resolved;
 * with a launcher, "LAUNCHER env NAME=VALUE... COMMAND", so that the run's
 * variables reach every rank, on any host, and LD_PRELOAD reaches the ranks
 * but not the launcher.
 */
char *runner_command_line(const struct bench_run *br, const struct config_point *p, int repeat,
			  char **env)
{
	const struct bench_config *b = br->b;
	char *cmd = config_expand(b->command, p->threads, p->ranks, p->size, repeat);
	char *resolved = exec_resolve_command(cmd, br->workdir), *launcher;
	struct strbuf sb = STRBUF_INIT;

	free(cmd);
	if (!runner_uses_launcher(b, p))
		return resolved;
	launcher = config_expand(b->launcher, p->threads, p->ranks, p->size, repeat);
	strbuf_addf(&sb, "%s env", launcher);
	for (char **e = env; *e; e++) {
		size_t n = strcspn(*e, "=");
		strbuf_addf(&sb, " %.*s=", (int)n, *e);
		sh_add_quoted(&sb, *e + n + 1);
	}
	strbuf_addf(&sb, " %s", resolved);
	free(launcher);
	free(resolved);
	return strbuf_detach(&sb);
}

/* NAME=VALUE additions of one run, NULL-terminated; free with runner_free_env(). */
char **runner_run_env(const struct bench_run *br, const struct config_point *p, const char *out)
{
	const struct bench_config *b = br->b;
	char **env = xcalloc(b->nr_env + 5, sizeof(*env));
	size_t n = 0;

	for (size_t i = 0; i < b->nr_env; i++)
		env[n++] = xstrfmt("%s=%s", b->env[i].name, b->env[i].value);
	env[n++] = xstrfmt("OMP_NUM_THREADS=%d", p->threads);
	env[n++] = xstrfmt("SCALEGATE_OUT=%s", out);
	env[n++] = xstrfmt("SCALEGATE_WORKDIR=%s", br->workdir);
	if (br->preload) {
		const char *old = getenv("LD_PRELOAD");
		env[n++] = old && *old ? xstrfmt("LD_PRELOAD=%s:%s", br->preload, old)
				       : xstrfmt("LD_PRELOAD=%s", br->preload);
	}
	return env;
}

/* Without LD_PRELOAD, which goes to the ranks only (runner_command_line()). */
void runner_drop_preload(char **env)
{
	size_t n = 0;

	while (env[n])
		n++;
	if (n && !strncmp(env[n - 1], "LD_PRELOAD=", 11)) {
		free(env[n - 1]);
		env[n - 1] = NULL;
	}
}

void runner_free_env(char **env)
{
	for (char **e = env; *e; e++)
		free(*e);
	free(env);
}
