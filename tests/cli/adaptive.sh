# Adaptive repeats: ci gives the inconclusive cells more interleaved rounds, records them like any
# runs, judges in two looks at 5 % and 95 % of the level, and 'check' on the same results gives the
# same verdicts; the A/B progress counter counts the base's runs.
. "$(dirname "$0")/lib.bash"

mkdir -p "$T/tree"
cat >"$T/tree/scalegate.yml" <<YML
results: results
baselines: baselines
# OMP_WAIT_POLICY passive: idle threads sleep, no spinning rival for the CPUs
defaults: { warmup: 0, repeat: 3, max_repeat: 5, adaptive_seconds: 10m, max_contention: off,
            env: { OMP_WAIT_POLICY: passive } }
benchmarks:
  - name: jacobi
    command: $SG_BUILD/examples/jacobi {threads} 200 20
    threads: [1, 2]
rules:
  # a tolerance no noise lets 3 rounds decide: the time checks are inconclusive after the first look
  - tolerance: { time: 0.1% }
undecided: pass  # ... and after the second: accepted, the rounds are the subject here
YML
cfg=$T/tree/scalegate.yml

code=0
out=$("$SCALEGATE" ci -c "$cfg" --against-dir "$T/tree" --no-post --seed 7 2>&1) || code=$?
[ $code = 0 ] || [ $code = 1 ] && pass || { printf '%s\n' "$out" >&2; fail "ci exited $code"; }
re='^adaptive: 2 more rounds of jacobi 1 rank × [12] threads? '
re+='\(inconclusive: [a-z_.,]*tolerance\.time'
expect_match "$out" "$re" \
	"the extra rounds are announced with their cause"
re='whole-run false-alarm level 5 % \(two looks at 0.25 % and 4.75 %, Holm over [0-9]+ tests in '
re+='[0-9]+ cells?, each cell.s time check first; adaptive: [12] cells?, [24] more rounds\)'
expect_match "$out" "$re" \
	"the summary states the two looks"
expect_no_match "$out" '\[[0-9]+/0\]' "the progress counter has a total"
expect_match "$out" '\[12/12\] (base|head) jacobi' \
	"the first rounds count both sides: 2 configurations × 3 rounds × 2 sides"
res=$T/tree/results
[ -s "$res/adaptive.tsv" ] && pass || fail "no adaptive.tsv"
expect_match "$(cat "$res/adaptive.tsv")" $'^jacobi\t-\t1\t[12]\t3\t5\t' \
	"the record names the cells, first and total rounds"
expect_match "$(cut -f1,6 "$res/manifest.tsv")" '^jacobi	5$' \
	"the head's extra rounds are in the manifest"
expect_match "$(cut -f1,6 "$res/base/manifest.tsv")" '^jacobi	5$' \
	"the base's extra rounds are in its manifest"
expect_match "$(cat "$res/ab.tsv")" $'^jacobi\ts--r1-t[12]\t5\t(base,head|head,base)$' \
	"and in ab.tsv, in the recorded order"
[ "$(grep -c '^seed' "$res/ab.tsv")" = 1 ] && pass || fail "ab.tsv got a second header"
runs=$(awk -F'\t' '$1 == "jacobi" { print $4 }' "$res/complete.tsv")
[ "$runs" = "$(grep -c '^jacobi	' "$res/manifest.tsv")" ] && pass ||
	fail "complete.tsv counts $runs runs, the manifest has others"

# check on the same results: the same verdicts and the same summary as ci.
verdicts() { printf '%s\n' "$1" | grep -E \
	'^(PASS|WARN|INCONCLUSIVE|FAIL|ERROR|SKIP) |^scalegate check: '; }
ci_out=$out
code2=0
out=$("$SCALEGATE" check -c "$cfg" 2>&1) || code2=$?
[ $code2 = $code ] && pass || fail "check exited $code2, ci $code"
[ "$(verdicts "$out")" = "$(verdicts "$ci_out")" ] && pass || {
	diff <(verdicts "$ci_out") <(verdicts "$out") >&2
	fail "check on ci's results gives other verdicts"
}

# Speedup is formed round by round from T(ref) and T(p): an undecided speedup at 2 threads gives the
# reference configuration (1 thread) its rounds too, so that the second look pairs 5 rounds, not 3.
sed -i 's/tolerance: { time: 0.1% }/tolerance: { speedup: 0.1% }/' "$cfg"
out=$("$SCALEGATE" ci -c "$cfg" --against-dir "$T/tree" --no-post 2>&1) || true
re='^adaptive: 2 more rounds of jacobi 1 rank × 2 threads \(inconclusive: tolerance\.speedup\)'
expect_match "$out" "$re" \
	"the undecided speedup extends its configuration"
expect_match "$out" \
	'^adaptive: 2 more rounds of jacobi 1 rank × 1 thread \(inconclusive: reference\)' \
	"and the reference configuration"
expect_match "$("$SCALEGATE" check -c "$cfg" --all 2>&1)" \
	'program 1 rank × 2 threads tolerance\.speedup: .*\(n=5\).*\(one-sided paired t on logs' \
	"the second look tests 5 paired rounds by t-test, in the whole run's family"

# No time for more rounds: the first look was the last one, judged again at the full level (not at
# its 5 % share of it), and no record is left for 'check'.
sed -i 's/adaptive_seconds: 10m/adaptive_seconds: 0.001/' "$cfg"
out=$("$SCALEGATE" ci -c "$cfg" --against-dir "$T/tree" --no-post 2>&1) || true
expect_match "$out" '^adaptive: no time left for more rounds of jacobi' "the budget allows none"
expect_match "$out" 'whole-run false-alarm level 5 % \(Holm over' \
	"the first look is final, at the full level"
[ -e "$res/adaptive.tsv" ] && fail "an adaptive.tsv with no cells was left"
sed -i 's/adaptive_seconds: 0.001/adaptive_seconds: 10m/' "$cfg"

# max_repeat: 0 turns adaptation off: one look at the full level, no record.
sed -i 's/max_repeat: 5/max_repeat: 0/' "$cfg"
out=$("$SCALEGATE" ci -c "$cfg" --against-dir "$T/tree" --no-post 2>&1) || true
expect_no_match "$out" '^adaptive:' "no extra rounds"
expect_match "$out" 'whole-run false-alarm level 5 % \(Holm over' "one look"
[ -e "$res/adaptive.tsv" ] && fail "a stale adaptive.tsv was left"
exit 0
