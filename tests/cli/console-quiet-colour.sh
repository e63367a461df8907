# The console: --quiet drops the progress (a line per run, the medians, the builds) and keeps the
# verdicts, the recap and the counts; the status words are coloured on a terminal, never with
# NO_COLOR or in a pipe.
. "$(dirname "$0")/lib.bash"

data=$SG_TOP/tests/data/check/clear-regression
cat >"$T/scalegate.yml" <<YML
results: $T/results
reports: {dir: $T/reports}
defaults:
  warmup: 0
  repeat: 2
  workdir: $T
benchmarks:
  - name: jacobi
    build: "true"
    command: $SG_BUILD/examples/jacobi {threads} 50 10
    threads: [1]
YML
expect_exit 3 "$SCALEGATE" ci -c "$T/scalegate.yml" --no-post
expect_match "$out" '^\[1/2\] jacobi 1 rank × 1 thread repeat 1/2: [0-9.]+ s, ok$' \
	"without --quiet: a line per run"
expect_match "$out" '^jacobi 1 rank × 1 thread: 2/2 ok, median' "without --quiet: the medians"
expect_match "$out" '^jacobi: build: true$' "without --quiet: the build"
expect_exit 3 "$SCALEGATE" ci -c "$T/scalegate.yml" --no-post --quiet
expect_no_match "$out" '^\[[0-9]+/[0-9]+\] |^jacobi 1 rank × 1 thread: |^jacobi: build:' \
	"--quiet: no progress"
expect_match "$out" '^ERROR jacobi - - baseline\.missing' "--quiet: the verdicts"
expect_match "$out" '^scalegate check: .* exit 3' "--quiet: the counts"
expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml" -q
[ -z "$out" ] && pass || fail "run --quiet printed: $out"

# Colour: on a terminal (script(1) gives one), the status words in the verdict lines and the recap.
esc=$'\033'
script -qec "\"$SCALEGATE\" check -c \"$data/scalegate.yml\"" /dev/null >"$T/tty.out" </dev/null \
	|| true
grep -q "^${esc}\[1;31mFAIL${esc}\[0m jacobi " "$T/tty.out" && pass ||
	fail "no red FAIL on a terminal: $(head -3 "$T/tty.out")"
grep -q "^${esc}\[1;31mFAIL${esc}\[0m  jacobi" "$T/tty.out" && pass ||
	fail "no red FAIL in the recap on a terminal"
NO_COLOR=1 script -qec "\"$SCALEGATE\" check -c \"$data/scalegate.yml\"" /dev/null \
	>"$T/nocolor.out" </dev/null || true
! grep -q "$esc\[" "$T/nocolor.out" && pass || fail "colour despite NO_COLOR"
grep -q '^FAIL jacobi ' "$T/nocolor.out" && pass || fail "NO_COLOR: no plain FAIL line"
"$SCALEGATE" check -c "$data/scalegate.yml" >"$T/pipe.out" 2>&1 || true
! grep -q "$esc\[" "$T/pipe.out" && pass || fail "colour in a pipe"
