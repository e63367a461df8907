/* The environment fingerprint of a results directory: the machine, its software and its thread
 * binding. */
#ifndef SG_FINGERPRINT_H
#define SG_FINGERPRINT_H

#include "config/config.h"
#include "base/util.h"

/* The keys, in the order fingerprint.tsv lists them. */
#define FINGERPRINT_KEYS(X) \
	X(SCALEGATE_VERSION, "scalegate_version") X(DATE, "date") X(HOSTNAME, "hostname") \
	X(HOSTS, "hosts") X(KERNEL, "kernel") X(CPU_MODEL, "cpu_model") X(CORES, "cores") \
	X(SOCKETS, "sockets") X(SMT, "smt") X(GOVERNOR, "governor") X(COMPILER, "compiler") \
	X(CFLAGS, "cflags") X(OMP_RUNTIME, "omp_runtime") X(MPI, "mpi") \
	X(OMP_PROC_BIND, "OMP_PROC_BIND") X(OMP_PLACES, "OMP_PLACES") X(LAUNCHER, "launcher") \
	X(SLURM_JOB, "slurm_job")

enum fingerprint_key {
#define X(id, name) FP_##id,
	FINGERPRINT_KEYS(X)
#undef X
	FP_NR_KEYS
};

struct fingerprint {
	char *value[FP_NR_KEYS]; /* never NULL after fingerprint_collect(); "-" when unknown */
};

/*
 * Collects the fingerprint of this machine for the benchmarks of 'c' ('only':
 * just that one, NULL: all). Never fails: what cannot be read is "-".
 */
void fingerprint_collect(struct fingerprint *f, const struct config *c, const char *only);
void fingerprint_release(struct fingerprint *f);
/* "key\tvalue\n" lines in key order. */
void fingerprint_format(const struct fingerprint *f, struct strbuf *out);
/* Collects and writes DIR/fingerprint.tsv atomically; 0 or gate_error(). */
int fingerprint_write(const char *dir, const struct config *c, const char *only);

#endif
