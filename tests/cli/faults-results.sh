# Interrupted or partial results are refused by check, ci --no-run and baseline update, naming what
# is missing; --partial judges what is there. complete.tsv is written last by 'run' and removed when
# it starts.
# tier: fast
. "$(dirname "$0")/lib.bash"
gate_memory_bounded

cat >"$T/scalegate.yml" <<YML
results: $T/results
baselines: $T/baselines
defaults:
  warmup: 0
  repeat: 3
  env:
    JACOBI: $SG_BUILD/examples/jacobi
benchmarks:
  - name: a
    command: \$JACOBI 1 50 2
  - name: b
    command: sleep \${SG_SLEEP:-0}; \$JACOBI 1 50 2
rules:
  - tolerance: { time: 50% }
# microsecond intervals: against a stored baseline a run's one-off costs keep them undecided
# (docs/check.md, "Short intervals"); this test is about complete results, not decisions
undecided: pass
YML
sg() { "$SCALEGATE" "$@" -c "$T/scalegate.yml"; }

# A whole run: complete.tsv names both, with their matrices.
expect_exit 0 sg run
[ "$(cat "$T/results/complete.tsv")" = "$(printf \
	'benchmark\tconfigurations\trepeat\truns\na\t1\t3\t3\nb\t1\t3\t3')" ] && pass ||
	fail "complete.tsv: $(cat "$T/results/complete.tsv")"
expect_exit 0 sg baseline update
expect_exit 0 sg check

# 'run --benchmark a' keeps b's record; a removed b is named.
expect_exit 0 sg run --benchmark a
grep -q '^b	' "$T/results/complete.tsv" && pass || fail "run --benchmark a lost b's record"
sed -i '/^b\t/d' "$T/results/complete.tsv"
expect_exit 2 sg check
expect_match "$out" "benchmark 'b' is missing from the results '$T/results'" \
	"a missing benchmark is named"
expect_exit 2 sg ci --no-run --no-post -o "$T/reports"
expect_match "$out" "benchmark 'b' is missing" "ci refuses it too"
expect_exit 0 sg check --partial
expect_match "$out" "warning: benchmark 'b' is missing .*judged anyway: --partial" "--partial warns"

# A manifest short of runs (one repeat of b lost): refused by check and by baseline update.
expect_exit 0 sg run
sed -i '0,/^b\t/{/^b\t/d}' "$T/results/manifest.tsv"
cp "$T/baselines/b.sgbase" "$T/b.before"
expect_exit 3 sg check
expect_match "$out" "benchmark 'b': '$T/results/manifest.tsv' holds 2 of its 3 runs" \
	"a short manifest is named"
expect_exit 3 sg baseline update
cmp -s "$T/b.before" "$T/baselines/b.sgbase" && pass ||
	fail "baseline update recorded incomplete results"

# A matrix that changed since the run.
expect_exit 0 sg run
sed -i 's/repeat: 3/repeat: 4/' "$T/scalegate.yml"
expect_exit 2 sg check
re="benchmark 'a' in '$T/results' ran 1 configurations x 3 repeats; the configuration asks 1 x 4"
expect_match "$out" "$re" "a changed matrix"
sed -i 's/repeat: 4/repeat: 3/' "$T/scalegate.yml"

# SIGINT during 'run': the results are incomplete, check and baseline update refuse them, naming the
# file.
rm -rf "$T/results/b"
SG_SLEEP=30 "$SCALEGATE" run -c "$T/scalegate.yml" >"$T/int.out" 2>&1 &
gate=$!
for _ in $(seq 150); do [ -d "$T/results/b/s--r1-t1/1" ] && break; sleep 0.2; done
[ -d "$T/results/b/s--r1-t1/1" ] && pass || fail "b did not start"
[ ! -e "$T/results/complete.tsv" ] && pass || fail "complete.tsv is there while the run goes on"
kill -INT "$gate"
code=0
wait "$gate" || code=$?
[ "$code" -eq 130 ] && pass || { cat "$T/int.out" >&2; fail \
	"an interrupted run exited $code, expected 130 (128 + SIGINT)"; }
expect_match "$(cat "$T/int.out")" "interrupted by SIGINT" "the interrupt is told"
[ -s "$T/results/manifest.tsv" ] && pass || fail "the finished runs were lost"
expect_exit 3 sg check
expect_match "$out" "the results '$T/results' are incomplete: no complete.tsv" \
	"check names the missing record"
expect_exit 3 sg baseline update
expect_match "$out" "no complete.tsv" "baseline update refuses too"
expect_exit 3 sg ci --no-run --no-post -o "$T/reports"
echo ok
