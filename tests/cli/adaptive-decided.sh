# 'adaptive: { max_seconds }' bounds the extra rounds of the whole gate (each cell gets all its
# rounds or none), and a benchmark without an undecided check gets no rounds.
. "$(dirname "$0")/lib.bash"

mkdir -p "$T/tree"
cat >"$T/tree/scalegate.yml" <<YML
results: results
baselines: baselines
defaults: { warmup: 0, repeat: 3, max_repeat: 5, adaptive_seconds: 10m, max_contention: off,
            env: { OMP_WAIT_POLICY: passive } }
benchmarks:
  - name: open
    command: $SG_BUILD/examples/jacobi {threads} 200 20
    threads: [1, 2]
  - name: decided
    command: $SG_BUILD/examples/jacobi {threads} 200 20
    threads: [1]
rules:
  # no noise lets 3 rounds decide a 0.1 % tolerance: open's time checks are undecided after the
  # first look
  - tolerance: { time: 0.1% }
  # while 'decided' has no tolerance check left to decide
  - benchmark: decided
    tolerance: { time: off }
undecided: pass  # the undecided time checks are what the rounds are for: the subject here
YML
cfg=$T/tree/scalegate.yml
res=$T/tree/results

code=0
out=$("$SCALEGATE" ci -c "$cfg" --against-dir "$T/tree" --no-post --seed 3 2>&1) || code=$?
[ $code = 0 ] || [ $code = 1 ] && pass || { printf '%s\n' "$out" >&2; fail "ci exited $code"; }
expect_match "$out" '^adaptive: 2 more rounds of open ' "the undecided benchmark gets more rounds"
expect_no_match "$out" '^adaptive: .* of decided ' "the decided benchmark gets none"
expect_no_match "$("$SCALEGATE" check -c "$cfg" --all 2>&1)" '^(INCONCLUSIVE|WARN) decided ' \
	"every check of 'decided' was decided"
[ "$(awk -F'\t' '$1 == "decided" && $6 > 3' "$res/manifest.tsv" | wc -l)" = 0 ] && pass ||
	fail "rounds of 'decided' beyond the first 3 were run"
[ "$(awk -F'\t' '$1 == "decided"' "$res/manifest.tsv" | wc -l)" = 3 ] && pass ||
	fail "decided: not 3 runs"

# A bound on the whole gate's extra rounds that no cell fits in: none get rounds, the first look is
# final.
sed -i 's/^results: results$/results: results\nadaptive: { max_seconds: 1ms }/' "$cfg"
out=$("$SCALEGATE" ci -c "$cfg" --against-dir "$T/tree" --no-post --seed 3 2>&1) || true
expect_match "$out" '^adaptive: no time left for more rounds of open .*; adaptive max_seconds\)' \
	"the gate's bound leaves the cells out, and says why"
expect_no_match "$out" '^adaptive: [0-9]+ more rounds' "no cell gets rounds"
expect_match "$out" 'whole-run false-alarm level 5 % \(Holm over' \
	"the first look is final, at the full level"

# The section is checked like every other.
sed -i 's/adaptive: { max_seconds: 1ms }/adaptive: { max_secs: 1 }/' "$cfg"
code=0
out=$("$SCALEGATE" check -c "$cfg" --validate 2>&1) || code=$?
[ $code = 2 ] && pass || fail "an unknown key in 'adaptive' exited $code, not 2"
expect_match "$out" 'scalegate.yml:2:[0-9]+: .*max_secs' "and is named with its position"
exit 0
