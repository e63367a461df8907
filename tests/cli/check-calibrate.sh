# scalegate calibrate: N runs of the matrix against each other, or N results directories; text and
# JSON.
. "$(dirname "$0")/lib.bash"

cat >"$T/scalegate.yml" <<YML
defaults:
  workdir: $SG_BUILD/examples
  warmup: 0
  repeat: 3
  env:
    OMP_WAIT_POLICY: passive
benchmarks:
  - name: jacobi
    command: ./jacobi {threads} 120 40
    threads: [1, 2]
rules:
  - name: time
    tolerance: { time: 20% }
  - name: strict
    interval: program
    tolerance: { efficiency: 0.05 }
    significance: 0.01
YML

expect_exit 0 "$SCALEGATE" calibrate -c "$T/scalegate.yml" -n 3 -o "$T/cal" --json "$T/cal.json"
for k in 1 2 3; do
	[ -f "$T/cal/$k/manifest.tsv" ] && pass || fail "run $k was not written to $T/cal/$k"
done
expect_match "$out" '^scalegate calibrate: 3 result sets, 6 comparisons' "counts the comparisons"
re='^  [a-z]+: shift between the sets as sittings: (sd [0-9.e+-]+ % in '
re+='time, [0-9.e+-]+ % in speedup \(3 sets|needs 3 sets)'
expect_match "$out" "$re" \
	"the shift between the sets is measured, or what it needs is said"
expect_match "$out" '^tolerance\.time  Execution_time  .*scalegate\.yml:[0-9]+:[0-9]+\)?$' \
	"a row per rule and check"
expect_match "$out" '^    false positives: [0-9]+ of 48 checks fail \([0-9.]+ %\)' \
	"false positives over 8 cells x 6 comparisons"
expect_match "$out" '^    smallest change caught in every comparison: \+[0-9.]+ %' \
	"the detectable change"
grep -q '"scalegate_calibrate":1' "$T/cal.json" && pass || fail "JSON: no version key"
grep -q '"kind":"tolerance.time"' "$T/cal.json" && pass || fail "JSON: no tolerance.time row"

# Existing results directories instead of -n.
expect_exit 0 "$SCALEGATE" calibrate -c "$T/scalegate.yml" "$T/cal/1" "$T/cal/2"
expect_match "$out" '^scalegate calibrate: 2 result sets, 2 comparisons' \
	"results directories as arguments"
# The sets as sittings: two cannot measure the shift between sittings, and it says what it needs.
re='^  [a-z]+: shift between the sets as sittings: needs 3 sets with distinct dates \([12] here\)$'
expect_match "$out" "$re" \
	"the shift between sittings needs three sets"

expect_exit 2 "$SCALEGATE" calibrate -c "$T/scalegate.yml" "$T/cal/1"
expect_exit 2 "$SCALEGATE" calibrate -c "$T/scalegate.yml" -n 1
expect_exit 2 "$SCALEGATE" calibrate -c "$T/scalegate.yml" -n 3 "$T/cal/1"
expect_exit 2 "$SCALEGATE" calibrate -c "$T/scalegate.yml" "$T/cal/1" "$T/nosuch"
