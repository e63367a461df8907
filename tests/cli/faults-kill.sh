# The whole process tree of a run is killed at its timeout and at an interrupt: MPI ranks that
# ignore SIGTERM in process groups of their own, daemons that called setsid(); what outlived a run
# is named.
. "$(dirname "$0")/lib.bash"
gate_memory_bounded
. "$(dirname "$0")/mpi.bash"

ign="$SG_TOP/tests/faults/term-ignoring.sh"
alive() {
	local pid left=""
	for pid in $(cat "$1" 2>/dev/null); do
		# A zombie is dead: only a process that still runs counts.
		if [ -e "/proc/$pid" ] && [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" \
			!= Z ]; then
			left="$left $pid"
		fi
	done
	echo "$left"
}
cleanup_pids() { for pid in $(cat "$T"/*.pids 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; \
	done; }
trap 'cleanup_pids; rm -rf "$T"' EXIT

cat >"$T/scalegate.yml" <<YML
defaults:
  warmup: 0
  repeat: 1
benchmarks:
  - name: ranks
    command: $ign $T/ranks.pids
    ranks: [2]
    timeout: 3s
    launcher: mpirun -np {ranks} --oversubscribe
  - name: daemon
    command: $ign $T/daemon.pids setsid
  - name: daemon-hang
    command: "$ign $T/hang.pids setsid; exec $ign $T/hang.pids"
    timeout: 2s
YML

# 2 MPI ranks that ignore SIGTERM, under mpirun, 3 s timeout: after the gate returns no rank lives.
expect_exit 3 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --benchmark ranks
[ "$(wc -l <"$T/ranks.pids")" -eq 2 ] && pass ||
	fail "expected 2 ranks to start, got: $(cat "$T/ranks.pids")"
[ -z "$(alive "$T/ranks.pids")" ] && pass ||
	fail "ranks survived the timeout:$(alive "$T/ranks.pids")"
expect_match "$(cat "$T/results/manifest.tsv")" 'timeout.*every process of the run killed' \
	"timeout reason"

# A daemon (setsid, parent gone) left by a run that ends well: killed and named.
expect_exit 3 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --benchmark daemon
[ -s "$T/daemon.pids" ] && pass || fail "the daemon did not start"
[ -z "$(alive "$T/daemon.pids")" ] && pass ||
	fail "the daemon outlived the run:$(alive "$T/daemon.pids")"
expect_match "$out" \
	"daemon s--r1-t1 repeat 1: left processes running after it ended, killed: pid $(head -1 \
	"$T/daemon.pids") \(sleep\)" "the daemon is named"

# A daemon and a hung leader at the timeout: both gone.
expect_exit 3 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --benchmark daemon-hang
[ "$(wc -l <"$T/hang.pids")" -eq 2 ] && pass ||
	fail "expected 2 processes, got: $(cat "$T/hang.pids")"
[ -z "$(alive "$T/hang.pids")" ] && pass ||
	fail "processes survived the timeout:$(alive "$T/hang.pids")"

# A process that left the gate's tree (here started by a "remote" spawner outside it, as ssh would)
# but carries the run's tag: killed and reported as escaped.
mkfifo "$T/spawn"
( while read -r tag <"$T/spawn"; do
	SCALEGATE_RUN_TAG=$tag setsid sh -c 'echo $$ >>"$0"; exec sleep 300' "$T/escaped.pids" \
		</dev/null >/dev/null 2>&1 &
	sleep 0.5; echo done >"$T/spawned"
done ) &
spawner=$!
cat >>"$T/scalegate.yml" <<YML
  - name: escape
    command: echo "\$SCALEGATE_RUN_TAG" >$T/spawn; while [ ! -e $T/spawned ]; do sleep 0.1; done
YML
expect_exit 3 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --benchmark escape
kill "$spawner" 2>/dev/null || true
[ -s "$T/escaped.pids" ] && pass || fail "the escaping process did not start"
[ -z "$(alive "$T/escaped.pids")" ] && pass ||
	fail "the escaped process lives:$(alive "$T/escaped.pids")"
expect_match "$out" \
	"escape s--r1-t1 repeat 1: processes left the run's process tree .*killed: pid $(head -1 \
	"$T/escaped.pids") \(sleep\)" "the escape is reported"

# An interrupt of the gate kills the ranks too.
rm -f "$T/ranks.pids"
sed -i 's/timeout: 3s/timeout: 300s/' "$T/scalegate.yml"
"$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --benchmark ranks >"$T/int.out" 2>&1 &
gate=$!
for _ in $(seq 100); do [ "$(wc -l <"$T/ranks.pids" 2>/dev/null || echo 0)" -ge 2 ] && break; \
	sleep 0.2; done
[ "$(wc -l <"$T/ranks.pids")" -eq 2 ] && pass || fail "the ranks did not start"
kill -INT "$gate"
code=0
wait "$gate" || code=$?
[ "$code" -ne 0 ] && pass || fail "an interrupted run exited 0"
[ -z "$(alive "$T/ranks.pids")" ] && pass ||
	fail "ranks survived the interrupt:$(alive "$T/ranks.pids")"
echo "ok"
