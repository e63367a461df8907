/* Collects the environment fingerprint: /proc, /sys, uname and the first line of a few --version
 * outputs. */
#include "run/fingerprint.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef SG_VERSION
#define SG_VERSION "unknown"
#endif

/* The name of a key, e.g. "cpu_model". */
static const char *fingerprint_key_name(enum fingerprint_key k)
{
	static const char *const names[] = {
#define X(id, name) name,
		FINGERPRINT_KEYS(X)
#undef X
	};
	return (size_t)k < ARRAY_SIZE(names) ? names[k] : "?";
}

/* One line with tabs and control characters turned into spaces, trimmed; "-" when empty. */
static char *clean(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	while (s && (*s == ' ' || *s == '\t'))
		s++;
	for (; s && *s && *s != '\n'; s++)
		strbuf_addch(&sb, (unsigned char)*s < 32 ? ' ' : *s);
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	if (!sb.len)
		strbuf_addstr(&sb, "-");
	return strbuf_detach(&sb);
}

/* The first line a shell command prints, or "-". */
static char *first_line(const char *cmd)
{
	char *full = xstrfmt("%s 2>/dev/null </dev/null", cmd), buf[512] = "";
	FILE *p = popen(full, "r");

	free(full);
	if (!p)
		return clean(NULL);
	if (!fgets(buf, sizeof(buf), p))
		buf[0] = '\0';
	while (fgets((char[512]){ 0 }, 512, p))
		; /* drain, so the command does not die of SIGPIPE */
	pclose(p);
	return clean(buf);
}

static char *read_line(const char *path)
{
	char buf[512] = "";
	FILE *f = fopen(path, "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return clean(buf);
}

static char *cpu_model(void)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *model = NULL;

	while (f && !model && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':'))
			model = clean(strchr(line, ':') + 1);
	if (f)
		fclose(f);
	return model ? model : clean(NULL);
}

/* Number of CPUs in a list such as "0-3,8". */
static long count_list(const char *s)
{
	long n = 0;

	while (*s >= '0' && *s <= '9') {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += b - a + 1;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static char *sockets(void)
{
	DIR *d = opendir("/sys/devices/system/cpu");
	struct dirent *e;
	long seen[256], n = 0;

	while (d && (e = readdir(d))) {
		char *path, *v;
		if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' || e->d_name[3] > '9')
			continue;
		path = xstrfmt("/sys/devices/system/cpu/%s/topology/physical_package_id",
			       e->d_name);
		v = read_line(path);
		if (strcmp(v, "-")) {
			long id = strtol(v, NULL, 10), k = 0;
			while (k < n && seen[k] != id)
				k++;
			if (k == n && n < (long)ARRAY_SIZE(seen))
				seen[n++] = id;
		}
		free(v);
		free(path);
	}
	if (d)
		closedir(d);
	return n ? xstrfmt("%ld", n) : clean(NULL);
}

static char *smt(void)
{
	char *v = read_line("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"), *ret;

	ret = strcmp(v, "-") ? xstrfmt("%ld", count_list(v)) : xstrdup("-");
	free(v);
	return ret;
}

static char *omp_runtime(const char *cc)
{
	char *cmd = xstrfmt("%s -print-file-name=libgomp.so.1", cc), *file = first_line(cmd);
	char *version, *ret, resolved[PATH_MAX];
	const char *base = "libgomp";

	free(cmd);
	if (strchr(file, '/') && realpath(file, resolved))
		base = strrchr(resolved, '/') + 1;
	cmd = xstrfmt("%s -dumpfullversion", cc);
	version = first_line(cmd);
	ret = xstrfmt("%s (%s %s)", base, cc, version);
	free(cmd);
	free(version);
	free(file);
	return ret;
}

/* The launchers of the selected benchmarks that have more than one rank, distinct, joined by "; ".
 */
static char *launchers(const struct config *c, const char *only)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < c->nr_benchmarks; i++) {
		const struct bench_config *b = &c->benchmarks[i];
		int multi = 0;
		for (size_t k = 0; k < b->nr_ranks; k++)
			multi |= b->ranks[k] > 1;
		if ((only && strcmp(only, b->name)) || !multi || !b->launcher ||
		    (sb.buf && strstr(sb.buf, b->launcher)))
			continue;
		if (sb.len)
			strbuf_addstr(&sb, "; ");
		strbuf_addstr(&sb, b->launcher);
	}
	char *ret = clean(sb.buf);
	strbuf_release(&sb);
	return ret;
}

/* "JOBID partition P, N CPUs" inside a Slurm job, else "-". */
static char *slurm_job(void)
{
	const char *id = getenv("SLURM_JOB_ID"), *part = getenv("SLURM_JOB_PARTITION");
	const char *cpus = getenv("SLURM_CPUS_ON_NODE");

	if (!id || !*id)
		return clean(NULL);
	return xstrfmt("%s partition %s, %s CPUs", id, part && *part ? part : "-",
		       cpus && *cpus ? cpus : "-");
}

static char *date_now(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

void fingerprint_collect(struct fingerprint *f, const struct config *c, const char *only)
{
	struct utsname u;
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	const char *hosts = getenv("SLURM_JOB_NODELIST");
	char *cmd = xstrfmt("%s --version", cc);

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	f->value[FP_SCALEGATE_VERSION] = xstrdup(SG_VERSION);
	f->value[FP_DATE] = date_now();
	f->value[FP_HOSTNAME] = clean(u.nodename);
	f->value[FP_HOSTS] = clean(hosts ? hosts : u.nodename);
	f->value[FP_KERNEL] = clean(u.release);
	f->value[FP_CPU_MODEL] = cpu_model();
	f->value[FP_CORES] = xstrfmt("%ld", sysconf(_SC_NPROCESSORS_ONLN));
	f->value[FP_SOCKETS] = sockets();
	f->value[FP_SMT] = smt();
	f->value[FP_GOVERNOR] = read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	f->value[FP_COMPILER] = first_line(cmd);
	f->value[FP_CFLAGS] = clean(getenv("CFLAGS"));
	f->value[FP_OMP_RUNTIME] = omp_runtime(cc);
	f->value[FP_MPI] = first_line("mpirun --version");
	f->value[FP_OMP_PROC_BIND] = clean(getenv("OMP_PROC_BIND"));
	f->value[FP_OMP_PLACES] = clean(getenv("OMP_PLACES"));
	f->value[FP_LAUNCHER] = launchers(c, only);
	f->value[FP_SLURM_JOB] = slurm_job();
	free(cmd);
}

void fingerprint_release(struct fingerprint *f)
{
	for (int k = 0; k < FP_NR_KEYS; k++)
		free(f->value[k]);
	memset(f, 0, sizeof(*f));
}

void fingerprint_format(const struct fingerprint *f, struct strbuf *out)
{
	for (int k = 0; k < FP_NR_KEYS; k++)
		strbuf_addf(out, "%s\t%s\n", fingerprint_key_name(k),
			    f->value[k] ? f->value[k] : "-");
}

int fingerprint_write(const char *dir, const struct config *c, const char *only)
{
	struct fingerprint f = { 0 };
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/fingerprint.tsv", dir);
	int ret;

	fingerprint_collect(&f, c, only);
	fingerprint_format(&f, &sb);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	fingerprint_release(&f);
	free(path);
	return ret;
}
