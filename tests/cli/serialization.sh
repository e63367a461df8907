# Work done holding a lock (Serialized_work, tracer/omp-locks.c) is seen on a busy machine: an
# assembly loop of the usual shape (tests/tracer/rowupdate.c: each thread adds its row into one
# shared vector) whose add goes under '#pragma omp critical', one omp_lock_t or eight block locks
# instead of a private copy. Beside two CPU hogs that come and go the threads seldom run at once, so
# they seldom contend and the waiting the quiet machine shows disappears (issue 33); the held work
# does not. The gate fails the change naming serialization, in A/B mode and against a stored
# baseline, and an unchanged critical section does not fail on it.
. "$(dirname "$0")/lib.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
RU=$SG_BUILD/tests/tracer/rowupdate

# Two CPU hogs that come and go (3 s on, 1 s off), for the whole test.
hogs=()
for _ in 1 2; do
	(while :; do timeout 3 sh -c 'while :; do :; done'; sleep 1; done) &
	hogs+=($!)
done
stop_hogs() {
	local h
	for h in "${hogs[@]}"; do
		pkill -P "$h" 2>/dev/null || true
		kill "$h" 2>/dev/null || true
	done
	[ -n "${SG_KEEP:-}" ] && echo "kept $T" >&2 || rm -rf "$T"
}
trap stop_hogs EXIT

# The share of Total_time 'analyze --json' gives Serialized_work at 1 and 2 threads, by knob.
share_of() {
	local d=$T/share-$1
	mkdir -p "$d"
	cat >"$d/scalegate.yml" <<YML
results: results
defaults: {warmup: 0, repeat: 3}
benchmarks:
  - name: rowupdate
    command: env $1 $RU {threads} 600 20
    threads: [1, 2]
YML
	(cd "$d" && "$SCALEGATE" run -c scalegate.yml >/dev/null 2>&1) || fail "run with $1"
	"$SCALEGATE" analyze --json "$d/results" | python3 -c '
import json, sys
for iv in json.load(sys.stdin)["intervals"]:
    if not iv["interval"].endswith("/assemble"):
        continue
    for c in iv["configurations"]:
        f = c["characteristics"]
        s, t = f["Serialized_work"]["median"], f["Total_time"]["median"]
        print(c["threads"], "null" if s is None else "%.4f" % (s / t))'
}
for k in SG_KNOB_NONE=1 SG_KNOB_CRITICAL=1 SG_KNOB_LOCK=1 SG_KNOB_LOCKS=8; do
	out=$(share_of $k)
	one=$(awk '$1 == 1 { print $2 }' <<<"$out")
	two=$(awk '$1 == 2 { print $2 }' <<<"$out")
	[ "$one" = 0.0000 ] && pass || fail "$k at 1 thread: Serialized_work share $one, expected 0"
	echo "note: $k: Serialized_work at 2 threads is $two of Total_time" >&2
	if [ $k = SG_KNOB_NONE=1 ]; then
		awk -v s="$two" 'BEGIN { exit !(s < 0.005) }' && pass ||
			fail "$k at 2 threads: Serialized_work share $two, expected below 0.5 %"
	else
		awk -v s="$two" 'BEGIN { exit !(s > 0.03) }' && pass ||
			fail "$k at 2 threads: Serialized_work share $two, expected over 3 %"
	fi
done

# The gate: base and head trees whose run.sh reads the knob (the "revision"), the shipped rules.
knob_trees
for side in base head; do
	cat >"$T/$side/scalegate.yml" <<YML
results: results
baselines: baselines
defaults:
  warmup: 0
  repeat: 5
  max_contention: 0.5
  contention_retries: 0
  max_repeat: 10
  adaptive_seconds: 30s
benchmarks:
  - name: rowupdate
    command: ./run.sh $RU {threads} 600 20
    threads: [1, 2]
YML
done
# gate MODE BASE-KNOB HEAD-KNOB: 'ci' in A/B mode against the base tree, or against a baseline
# the base's knob recorded just before; sets out and code.
gate() {
	echo "$2" >"$T/base/knob.env"
	echo "$3" >"$T/head/knob.env"
	rm -rf "$T/head/results" "$T/head/baselines"
	code=0
	cd "$T/head"
	if [ "$1" = ab ]; then
		out=$("$SCALEGATE" ci --against-dir "$T/base" --no-post 2>&1) || code=$?
	else
		echo "$2" >knob.env
		expect_exit 0 "$SCALEGATE" run
		expect_exit 0 "$SCALEGATE" baseline update --force
		echo "$3" >knob.env
		out=$("$SCALEGATE" ci --no-post 2>&1) || code=$?
	fi
	cd - >/dev/null
}
fail_line='^FAIL rowupdate program/program/assemble 1 rank × 2 threads tolerance\.serialization'
for mode in ab stored; do
	for k in SG_KNOB_CRITICAL=1 SG_KNOB_LOCKS=8; do
		gate $mode SG_KNOB_NONE=1 $k
		[ $code = 1 ] && pass || { printf '%s\n' "$out" >&2; fail "$mode, $k: exit $code"; }
		expect_match "$(checks_of "$out")" "$fail_line" "$mode, $k: the serialization"
		expect_match "$out" 'cause: .*Serialized_work \(work done holding a lock' \
			"$mode, $k: its cause"
	done
	# Unchanged: the critical section on both sides does not fail on its held work.
	gate $mode SG_KNOB_CRITICAL=1 SG_KNOB_CRITICAL=1
	expect_no_match "$(checks_of "$out")" '^FAIL .*serialization' \
		"$mode: an unchanged critical section"
done
