# Helpers for the Slurm tests (sourced after lib.bash): a private single-node cluster on loopback,
# started by tests/slurm/cluster.sh under $T and stopped when the test ends, whatever happens.
# slurm-wlm and munge are test dependencies (ci/install-deps.sh): in CI (CI set) a missing one fails
# the test; elsewhere the test is skipped with the reason.

if ! why=$("$SG_TOP/tests/slurm/cluster.sh" check); then
	[ -n "${CI:-}" ] && fail "cannot start a Slurm cluster here: $why"
	echo "skipped: cannot start a Slurm cluster here: $why"
	exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SLURM_DIR=$T/slurm
trap '"$SG_TOP/tests/slurm/cluster.sh" stop "$SLURM_DIR" >/dev/null 2>&1 || true
	[ -n "${SG_KEEP:-}" ] && echo "kept $T" >&2 || rm -rf "$T"' EXIT
# The clients of the test (and the gate) find the cluster through SLURM_CONF.
eval "$("$SG_TOP/tests/slurm/cluster.sh" start "$SLURM_DIR")"
export SLURM_CONF
# Nothing of the gate's own Slurm job (when the tests themselves run in one) leaks into the private
# cluster.
unset SLURM_JOB_ID SLURM_JOBID SLURM_JOB_NODELIST SLURM_NODELIST SLURM_CPUS_ON_NODE \
	SLURM_JOB_PARTITION

# queue_empty: no job of the private cluster is pending or running.
queue_empty() {
	[ -z "$(squeue -h -o %i)" ]
}

# The srun launcher of the documented inside-an-allocation mode, with --overcommit because the test
# node has 2 CPUs and the hybrid example runs 2 ranks x 2 threads.
SRUN_LAUNCHER='srun --mpi=pmix -n {ranks} -c {threads} --overcommit --cpu-bind=cores'
