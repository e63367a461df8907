# Submitted from the runner: 'scalegate ci' with a 'slurm:' section runs the bundled examples'
# matrix (scalegate.yml at the root, fewer repeats) as one batch job of a private Slurm, streams its
# progress, collects the results and writes the reports; exit 0. Then a job cancelled from outside
# is an error for the runs it did not do, with Slurm's state, and nothing is left in the queue.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/slurm.bash"

mkdir -p "$T/baselines"
{
	printf 'launcher: %s\n' "$SRUN_LAUNCHER"
	printf 'slurm:\n  partition: debug\n  time: "10"\n  exclusive: true\n  poll: 500ms\n'
	printf '  options: [--job-name=sg-ci-test]\n'
	sed -e "s#build/default/examples#$SG_BUILD/examples#" \
		-e "s#^results: .*#results: $T/results#" \
		-e "s#^baselines: .*#baselines: $T/baselines#" \
		-e "s#^  dir: build/gate/reports#  dir: $T/reports#" \
		-e "s#rules/ci.yml#$SG_TOP/rules/ci.yml#" -e "s#^  repeat: 5#  repeat: 3#" \
		-e "s#^  max_contention: .*#  max_contention: off#" "$SG_TOP/scalegate.yml"
} >"$T/scalegate.yml"
for want in "$SG_BUILD/examples/hybrid" "results: $T/results" "dir: $T/reports" "repeat: 3" \
	"max_contention: off"; do
	grep -qF "$want" "$T/scalegate.yml" && pass ||
		fail "the bundled scalegate.yml changed shape: no '$want' after rewriting"
done

# no baseline here: the test is about the job, not the judging
expect_exit 0 timeout 300 "$SCALEGATE" ci -c "$T/scalegate.yml" --no-post --allow-no-reference
expect_match "$out" '^slurm: submitted job [0-9]+ to partition debug' "the submission is told"
expect_match "$out" '^slurm: job [0-9]+ running on localhost after [0-9]+ s in the queue$' \
	"the start, with the queue time"
expect_match "$out" '^hybrid 2 ranks × 1 thread: 3/3 ok' \
	"the job's progress is streamed (2 ranks through srun)"
expect_match "$out" \
	'^slurm: job [0-9]+ COMPLETED on localhost: [0-9]+ s in the queue, [0-9]+ s running$' \
	"queue and run time apart"
for f in junit.xml summary.md summary.json report.html; do
	[ -s "$T/reports/$f" ] && pass || fail "no report $f"
done
m=$(cat "$T/results/manifest.tsv")
runs=$("$SCALEGATE" run --local --dry-run -c "$T/scalegate.yml" | grep -c ' repeat [0-9]*:')
[ "$runs" -ge 30 ] && [ "$(awk -F'\t' 'NR > 1 && $7 == "ok"' <<<"$m" | wc -l)" -eq "$runs" ] ||
	{ echo "$m" >&2; fail "not every one of the $runs measured runs is ok"; }
expect_match "$(cat "$T/results/slurm.tsv")" $'^state\tCOMPLETED$' "slurm.tsv: the state"
expect_match "$(cat "$T/results/slurm.tsv")" $'^queue_s\t[0-9]+$' "slurm.tsv: the queue time"
expect_match "$(cat "$T/results/fingerprint.tsv")" $'^slurm_job\t[0-9]+ partition debug' \
	"the job's fingerprint"
queue_empty && pass || fail "a job is left in the queue"

# Cancelled by someone else while it runs: its runs are 'job-failed' with Slurm's state; exit 3, no
# hang.
cat >"$T/slow.yml" <<EOF
results: $T/slow
slurm: { poll: 500ms, options: [--comment=scalegate-test] }
defaults: { repeat: 2, warmup: 0, timeout: 120s, max_contention: off }
benchmarks:
  - name: sleepy
    command: sleep 60
EOF
# SBATCH_JOB_NAME names the job (ci/gitlab-slurm.yml relies on it); 'options' reach sbatch.
: >"$T/slow.log"
SBATCH_JOB_NAME=sg-slow "$SCALEGATE" run -c "$T/slow.yml" >"$T/slow.log" 2>&1 &
gate=$!
for _ in $(seq 1 100); do
	grep -q 'running on' "$T/slow.log" && break
	sleep 0.2
done
job=$(squeue -h -n sg-slow -o %i)
[ -n "$job" ] && pass || { cat "$T/slow.log" >&2; squeue >&2; fail \
	"no job named by SBATCH_JOB_NAME in the queue"; }
[ "$(squeue -h -j "$job" -o %k)" = scalegate-test ] && pass ||
	fail "the 'options' of the slurm section did not reach sbatch"
scancel "$job"
code=0
wait $gate || code=$?
out=$(cat "$T/slow.log")
[ $code -eq 3 ] && pass || { echo "$out" >&2; fail "a cancelled job: exit $code, expected 3"; }
expect_match "$out" "error: slurm job $job CANCELLED" "Slurm's state is the error"
expect_match "$(cat "$T/slow/manifest.tsv")" \
	$'\tjob-failed\t-\t0\\.000000\tsleepy/s--r1-t1/2\tslurm job '"$job"' CANCELLED' \
	"the run the job did not do"
queue_empty && pass || fail "a job is left in the queue"
