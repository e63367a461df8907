# A gate killed outright (SIGKILL): the run's leader dies with it (PR_SET_PDEATHSIG) and the next
# run removes the scratch directory it left; a living gate's directories are kept.
. "$(dirname "$0")/lib.bash"
gate_memory_bounded

cat >"$T/scalegate.yml" <<YML
results: $T/results
baselines: $T/baselines
defaults:
  warmup: 0
  repeat: 1
benchmarks:
  - name: long
    command: exec sleep 300
YML
"$SCALEGATE" run -c "$T/scalegate.yml" >"$T/run.out" 2>&1 &
gate=$!
leader=
for _ in $(seq 1 200); do
	leader=$(pgrep -P "$gate" sleep || true)
	[ -n "$leader" ] && break
	sleep 0.1
done
[ -n "$leader" ] && pass || { cat "$T/run.out" >&2; fail "the benchmark did not start"; }
ls -d "$T/results/.scratch/run-$gate-"* >/dev/null && pass ||
	fail "no run directory named after the gate's pid"
kill -KILL "$gate"
wait "$gate" 2>/dev/null || true
for _ in $(seq 1 100); do
	kill -0 "$leader" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$leader" 2>/dev/null; then
	kill -KILL "$leader"
	fail "the run's leader (pid $leader) outlived the gate killed by SIGKILL"
fi
# A living gate's directory (this shell's pid) is kept; the killed gate's is removed and named.
mkdir -p "$T/results/.scratch/run-$$-abcdef"
sed -i 's/exec sleep 300/true/' "$T/scalegate.yml"
expect_exit 3 "$SCALEGATE" run -c "$T/scalegate.yml"
expect_match "$out" \
	"removed '$T/results/.scratch/run-$gate-[^']*', left by a run whose gate was killed" \
	"the stale directory is removed and named"
! ls -d "$T/results/.scratch/run-$gate-"* 2>/dev/null && pass ||
	fail "the killed gate's run directory is still there"
[ -d "$T/results/.scratch/run-$$-abcdef" ] && pass ||
	fail "a living gate's run directory was removed"
echo ok
