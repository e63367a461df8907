# Inside an allocation: 'scalegate run' in a batch job of a private Slurm, the MPI examples launched
# with 'srun --mpi=pmix -n {ranks} -c {threads} --cpu-bind=cores': every cell ok, the job's one
# profile of its ranks (tracer/MPI.md, "One profile per job"), each rank bound to its own core, the
# fingerprint naming the compute node and the job; and mpirun inside the allocation.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/slurm.bash"

ex=$SG_BUILD/examples
cat >"$T/scalegate.yml" <<EOF
launcher: $SRUN_LAUNCHER
results: results
defaults: { repeat: 2, warmup: 0, timeout: 60s, max_contention: off }
benchmarks:
  - name: halo
    command: $ex/mpi_halo 20000 20
    ranks: [1, 2]
  - name: hybrid
    # Each rank prints the CPUs it may run on before it starts.
    command: sh -c 'grep Cpus_allowed_list /proc/self/status; exec $ex/hybrid {threads} 200 20'
    ranks: [1, 2]
    threads: [1, 2]
    mpi: true
EOF
printf '#!/bin/sh\nexec "%s" run -c "%s"\n' "$SCALEGATE" "$T/scalegate.yml" >"$T/job.sh"
expect_exit 0 timeout 240 sbatch --wait --quiet -N 1 -n 2 --exclusive -o "$T/job.out" "$T/job.sh"
[ -f "$T/results/manifest.tsv" ] && pass || { cat "$T/job.out" >&2; fail \
	"no manifest from the job"; }
m=$(cat "$T/results/manifest.tsv")
[ "$(awk -F'\t' 'NR > 1 && $7 == "ok"' <<<"$m" | wc -l)" -eq 12 ] ||
	{ echo "$m" >&2; cat "$T/job.out" >&2; fail "not every run ok"; }
for d in halo/s--r2-t1/1 hybrid/s--r2-t1/2 hybrid/s--r2-t2/1; do
	n=$(ls "$T/results/$d"/*.sgprof | wc -l)
	[ "$n" -eq 1 ] && grep -q $'^meta\treduced\t2$' "$T/results/$d"/job.*.sgprof ||
		fail "$d: $n profiles, expected the job's one of 2 ranks"
done

# 2 ranks x 1 thread: each rank on a core of its own; 1 rank x 2 threads (no launcher): the job's
# CPUs.
allowed() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$@"; }
cpus=$(allowed "$T/results/hybrid/s--r2-t1/1/stdout.txt" | sort)
[ "$(wc -l <<<"$cpus")" -eq 2 ] && [ "$(sort -u <<<"$cpus" | wc -l)" -eq 2 ] && ! grep -q '[-,]' \
	<<<"$cpus" && pass ||
	fail "2 ranks x 1 thread: the ranks are not bound to distinct cores: $cpus"
cpus=$(allowed "$T/results/hybrid/s--r1-t2/1/stdout.txt")
[ "$cpus" = "$(allowed /proc/self/status)" ] && pass ||
	fail "1 rank x 2 threads: the run may use '$cpus', not every CPU"

f=$(cat "$T/results/fingerprint.tsv")
expect_match "$f" $'^hosts\tlocalhost$' "fingerprint: the job's node list"
expect_match "$f" $'^hostname\t'"$(uname -n)"'$' "fingerprint: the compute node"
expect_match "$f" $'^slurm_job\t[0-9]+ partition debug, 2 CPUs$' "fingerprint: the job"
expect_match "$f" $'^launcher\tsrun --mpi=pmix' "fingerprint: the launcher"
queue_empty && pass || fail "a job is left in the queue"

# The other documented launcher inside an allocation: mpirun reads the allocation from Slurm.
cat >"$T/mpirun.yml" <<EOF
launcher: mpirun -np {ranks} --bind-to none
results: mpirun-results
defaults: { repeat: 1, warmup: 0, timeout: 60s, max_contention: off }
benchmarks:
  - name: halo
    command: $ex/mpi_halo 20000 20
    ranks: [2]
EOF
printf '#!/bin/sh\nexec "%s" run -c "%s"\n' "$SCALEGATE" "$T/mpirun.yml" >"$T/mpirun.sh"
expect_exit 0 timeout 120 sbatch --wait --quiet -N 1 -n 2 --exclusive -o "$T/mpirun.out" \
	"$T/mpirun.sh"
n=$(ls "$T/mpirun-results/halo/s--r2-t1/1"/*.sgprof | wc -l)
[ "$n" -eq 1 ] || { cat "$T/mpirun.out" >&2; fail \
	"mpirun inside the allocation: $n profiles, expected the job's one"; }
queue_empty || fail "a job is left in the queue"
