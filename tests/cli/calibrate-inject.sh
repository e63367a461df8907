# scalegate calibrate --inject: whole gate runs per set, A/A and injected, in A/B and stored mode,
# counted with Wilson intervals; each gate run's results stay for inspection. A 300 % slowdown of
# the solve interval of a program is caught in every run: that much load cannot hide.
. "$(dirname "$0")/lib.bash"

mkdir -p "$T/tree"
cat >"$T/tree/scalegate.yml" <<YML
results: results
baselines: baselines
defaults: { warmup: 0, repeat: 5, max_repeat: 10, adaptive_seconds: 60s, max_contention: off }
benchmarks:
  - name: jacobi
    command: $SG_BUILD/examples/jacobi {threads} 600 60
    threads: [1]
YML
cfg=$T/tree/scalegate.yml

expect_exit 2 "$SCALEGATE" calibrate -c "$cfg" --inject solve:10
expect_match "$out" "--inject needs -n SETS" "sets are required"
expect_exit 2 "$SCALEGATE" calibrate -c "$cfg" --inject solve:abc -n 1
expect_match "$out" "'abc' is not a percentage" "a bad percentage is named"

expect_exit 0 "$SCALEGATE" calibrate -c "$cfg" --inject solve:300 -n 2 -o "$T/cal"


expect_match "$out" '^== calibrate --inject solve:300: 2 independent sets per mode' \
	"the header says what was run"
expect_match "$out" \
	'^A/B     A/A gate runs that fail: [012] of 2 \([0-9]+ %, 95 % \[[0-9]+, [0-9]+\]\)' \
	"A/B false alarms, counted"
expect_match "$out" '^A/B     solve \+300 % caught: 2 of 2 \(100 %, 95 % \[34, 100\]\)' \
	"A/B power, with its Wilson interval"
expect_match "$out" '^stored  A/A gate runs that fail: [012] of 2' "stored false alarms"
expect_match "$out" '^stored  solve \+300 % caught: 2 of 2' "stored power"
for d in ab/1-aa ab/2-300 stored/1-aa stored/2-300 stored/baseline-run; do
	[ -s "$T/cal/$d/complete.tsv" ] && pass || fail "no complete results in $T/cal/$d"
done
[ -s "$T/cal/stored/baselines/jacobi.sgbase" ] && pass || fail "no stored baseline"
[ -s "$T/cal/ab/1-300/ab.tsv" ] && pass || fail "the A/B runs were not A/B"
