# Submitted from the runner, when it goes wrong: an interrupted gate (SIGINT, SIGTERM) cancels its
# job and leaves nothing in the queue; a refused submission (bad partition) is a clear error with
# Slurm's reason for every run, exit 3, and no job; a 'slurm:' section with mistakes is a
# configuration error.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/slurm.bash"

cat >"$T/slow.yml" <<EOF
results: $T/results
slurm: { poll: 500ms, options: [--job-name=sg-slow] }
defaults: { repeat: 3, warmup: 0, timeout: 120s, max_contention: off }
benchmarks:
  - name: sleepy
    command: sleep 60
EOF

# --dry-run: the sbatch line and the job's script, then the runs; nothing submitted.
expect_exit 0 "$SCALEGATE" run --dry-run -c "$T/slow.yml"
re="^# submitted as one Slurm batch job: sbatch --parsable --job-name=scalegate --export=ALL "
re+="--output=$T/results/.slurm/job.out --nodes=1 --exclusive --job-name=sg-slow "
re+="$T/results/.slurm/job.sh\$"
expect_match "$out" "$re" \
	"dry run: the sbatch line"
expect_match "$out" "^#   exec '.*/scalegate' run --local -c '$T/slow.yml' -o '$T/results'\$" \
	"dry run: the job runs the gate"
expect_match "$out" "^sleepy s--r1-t1 repeat 3: " "dry run: the runs"
queue_empty && pass || fail "a dry run submitted a job"

# interrupt SIGNAL: the gate gets SIGNAL while its job runs; it cancels the job and exits 128 +
# SIGNAL.
interrupt() {
	local sig=$1 gate code=0
	: >"$T/gate.log"
	"$SCALEGATE" run -c "$T/slow.yml" >"$T/gate.log" 2>&1 &
	gate=$!
	for _ in $(seq 1 150); do
		grep -q 'running on' "$T/gate.log" && break
		sleep 0.2
	done
	grep -q 'running on' "$T/gate.log" && pass || { kill $gate; cat "$T/gate.log" >&2; fail \
		"$sig: the job did not start"; }
	kill -"$sig" $gate
	wait $gate || code=$?
	out=$(cat "$T/gate.log")
	want=$((128 + $(kill -l "$sig")))
	[ $code -eq $want ] && pass || { echo "$out" >&2; fail "$sig: exit $code, expected $want"; }
	expect_match "$out" "error: the gate was interrupted by SIG$sig; job [0-9]+ cancelled" \
		"$sig: said"
	queue_empty && pass || { squeue >&2; fail "$sig: a job is left in the queue"; }
	[ "$(grep -c $'\tjob-failed\t' "$T/results/manifest.tsv")" -ge 2 ] && pass ||
		fail "$sig: the runs the job did not do are not 'job-failed'"
	[ ! -e "$T/results/complete.tsv" ] && pass ||
		fail "$sig: an interrupted gate's results claim to be complete"
}
interrupt INT
interrupt TERM

# A job that fails: held in the queue (its pending reason is told), its configuration broken
# meanwhile, then released: the job's own error is streamed, and every run is 'job-failed' with
# Slurm's state.
mkdir "$T/held"
sed -e 's/options: \[--job-name=sg-slow\]/options: [--job-name=sg-held, --hold]/' \
	-e 's/sleep 60/true/' \
	-e "s#results: .*#results: $T/held/results#" "$T/slow.yml" >"$T/held/scalegate.yml"
: >"$T/held.log"
"$SCALEGATE" run -c "$T/held/scalegate.yml" >"$T/held.log" 2>&1 &
gate=$!
for _ in $(seq 1 100); do
	grep -q 'pending (JobHeldUser)' "$T/held.log" && break
	sleep 0.2
done
grep -q 'pending (JobHeldUser)' "$T/held.log" && pass || { kill $gate; cat "$T/held.log" >&2; fail \
	"the pending reason is not told"; }
echo 'benchmarks: oops' >>"$T/held/scalegate.yml"
scontrol release "$(squeue -h -n sg-held -o %i)"
code=0
wait $gate || code=$?
out=$(cat "$T/held.log")
[ $code -eq 3 ] && pass || { echo "$out" >&2; fail "a failed job: exit $code, expected 3"; }
expect_match "$out" "duplicate key 'benchmarks'" "the job's own error is streamed"
re="error: slurm job [0-9]+ FAILED NonZeroExitCode, exit code "
re+="2:0; see $T/held/results/.slurm/job.out"
expect_match "$out" "$re" \
	"Slurm's state and the job's exit code"
[ "$(grep -c $'\tjob-failed\t.*FAILED NonZeroExitCode' "$T/held/results/manifest.tsv")" -eq 3 ] && \
	pass ||
	fail "the runs of the failed job are not 'job-failed'"
queue_empty && pass || fail "a failed job is left in the queue"

# A bad partition: sbatch refuses; Slurm's own message; no job.
sed 's/slurm: { poll: 500ms/slurm: { partition: nosuch, poll: 500ms/' "$T/slow.yml" >"$T/bad.yml"
expect_exit 3 timeout 60 "$SCALEGATE" run -c "$T/bad.yml"
expect_match "$out" "error: sbatch refused the job: .*Invalid partition name specified" \
	"the refusal, in Slurm's words"
expect_match "$(cat "$T/results/manifest.tsv")" \
	$'\tjob-failed\t.*\tsbatch refused the job: .*Invalid partition' \
	"the runs carry the reason"
[ "$(grep -c $'\tjob-failed\t' "$T/results/manifest.tsv")" -eq 3 ] && pass ||
	fail "not every run of the refused job is failed"
grep -q $'^sleepy\t' "$T/results/complete.tsv" && pass ||
	fail "every run of the refused job is recorded: complete.tsv says so"
queue_empty && pass || fail "a refused job is in the queue"

# A job that cannot start (here: not before tomorrow) is cancelled at queue_timeout, with its
# pending reason.
re='s/options: \[--job-name=sg-slow\]/options: '
re+='[--job-name=sg-slow, --begin=now+1day], queue_timeout: 2s/'
sed "$re" "$T/slow.yml" >"$T/later.yml"
expect_exit 3 timeout 60 "$SCALEGATE" run -c "$T/later.yml"
re="error: job [0-9]+ still pending after [0-9]+ s in the queue "
re+="\\(BeginTime\\); cancelled \\(queue_timeout\\)"
expect_match "$out" "$re" \
	"the queue timeout, with Slurm's reason"
queue_empty && pass || fail "the job pending past queue_timeout is left in the queue"

# The bad partition through 'scalegate ci': exit 3 (a benchmark failed to run), the reports still
# written.
expect_exit 3 timeout 60 "$SCALEGATE" ci -c "$T/bad.yml" -o "$T/reports" --no-post
[ -s "$T/reports/junit.xml" ] && pass || fail "ci: no JUnit report after a refused job"

# Mistakes in the section: exit 2, each at its line and column, nothing submitted.
mkdir "$T/wrong"
cat >"$T/wrong/wrong.yml" <<EOF
slurm:
  partition: [debug]
  time: 1:xx
  nodes: 0
  exclusive: maybe
  options: [--qos=high, qos]
  poll: 10ms
  acount: me
benchmarks:
  - name: sleepy
    command: sleep 1
EOF
expect_exit 2 "$SCALEGATE" run -c "$T/wrong/wrong.yml"
expect_match "$out" "wrong.yml:2:14: 'partition' must be a string" "partition"
expect_match "$out" "wrong.yml:3:9: 'time' must be a Slurm time limit" "time"
expect_match "$out" "wrong.yml:4:10: .*'nodes'" "nodes"
expect_match "$out" "wrong.yml:5:14: .*'exclusive'" "exclusive"
expect_match "$out" \
	"wrong.yml:6:12: each of 'options' must be an sbatch option starting with '-', not 'qos'" \
	"options"
expect_match "$out" "wrong.yml:7:9: 'poll' must be at least 100ms" "poll"
expect_match "$out" "wrong.yml:8:3: unknown key 'acount'; did you mean 'account'\\?" "unknown key"
[ ! -e "$T/wrong/results" ] && queue_empty && pass || fail "a bad configuration submitted something"
