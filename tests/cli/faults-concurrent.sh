# Concurrent 'baseline update's take the baselines directory's lock in turn (flock), so that none
# loses the sittings another carried: an update waits while another holds the lock, then writes.
. "$(dirname "$0")/lib.bash"
gate_memory_bounded
command -v flock >/dev/null || { echo "skipped: no flock(1)"; exit 77; }

cat >"$T/scalegate.yml" <<YML
results: $T/results
baselines: $T/baselines
defaults:
  warmup: 0
  repeat: 2
benchmarks:
  - name: a
    command: $SG_BUILD/examples/jacobi 1 50 2
YML
expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml"
mkdir -p "$T/baselines"
flock "$T/baselines" sleep 4 &
holder=$!
sleep 0.5
"$SCALEGATE" baseline update -c "$T/scalegate.yml" >"$T/update.out" 2>&1 &
update=$!
sleep 1.5
kill -0 "$update" 2>/dev/null && pass || { cat "$T/update.out" >&2; fail \
	"the update did not wait for the lock"; }
[ ! -e "$T/baselines/a.sgbase" ] && pass || fail "the update wrote while another held the lock"
wait "$holder"
wait "$update" && pass || { cat "$T/update.out" >&2; fail \
	"the update failed once the lock was free"; }
[ -s "$T/baselines/a.sgbase" ] && pass || fail "the update wrote nothing"
echo ok
