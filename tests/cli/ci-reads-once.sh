# One 'scalegate ci' with adaptive rounds reads its results once: manifest.tsv is opened at most
# twice (the runner's extension, the judge), each profile at most twice (the runner's validation,
# the judge), the poster takes the summary from memory; and the verdict is what 'check' finds on the
# same files.
. "$(dirname "$0")/lib.bash"

command -v strace >/dev/null || { echo "skip: strace is not installed"; exit 77; }
strace -f -qq -e trace=openat -o /dev/null true 2>/dev/null || { echo \
	"skip: strace cannot trace here"; exit 77; }

mkdir -p "$T/tree"
cat >"$T/tree/scalegate.yml" <<YML
results: results
baselines: baselines
defaults: { warmup: 0, repeat: 3, max_repeat: 5, adaptive_seconds: 10m, max_contention: off }
benchmarks:
  - name: jacobi
    command: $SG_BUILD/examples/jacobi {threads} 200 20
    threads: [1, 2]
rules:
  # no noise lets 3 rounds decide this tolerance: the first look leaves the time checks inconclusive
  - tolerance: { time: 0.1% }
undecided: pass  # the inconclusive time checks above are what earns the rounds
post:
  format: json
  url: http://127.0.0.1:9/scalegate     # nothing listens: the post fails and only warns
  retries: 0
YML
cfg=$T/tree/scalegate.yml

code=0
strace -f -qq -e trace=openat -o "$T/trace" "$SCALEGATE" ci -c "$cfg" --against-dir "$T/tree" \
	--seed 7 \
	>"$T/out" 2>&1 || code=$?
out=$(cat "$T/out")
[ $code = 0 ] || [ $code = 1 ] && pass || { printf '%s\n' "$out" >&2; fail "ci exited $code"; }
expect_match "$out" '^adaptive: 2 more rounds of jacobi' "the first look leaves cells to extend"
expect_match "$out" 'adaptive: [12] cells?, [24] more rounds' "and the second look judges them"
expect_match "$out" 'summary was not posted' "the post was tried"

res=$T/tree/results
# openat calls that succeeded, by path (a trace line: PID openat(AT_FDCWD, "PATH", FLAGS) = FD)
opened() { grep -v ' = -1 ' "$T/trace" | grep -cF "\"$1\"" || true; }
for m in "$res/manifest.tsv" "$res/base/manifest.tsv"; do
	n=$(opened "$m")
	[ "$n" -le 2 ] && pass || fail "$m opened $n times (at most 2: the runner, the judge)"
done
profiles=$(find "$res" -name '*.sgprof' | sort)
[ "$(wc -l <<<"$profiles")" = 20 ] && pass ||
	fail "expected 20 profiles (2 cells x 5 rounds x 2 sides): $profiles"
for p in $profiles; do
	n=$(opened "$p")
	[ "$n" -ge 1 ] && [ "$n" -le 2 ] && pass ||
		fail "$p opened $n times (at most 2: the runner's validation, the judge)"
done
n=$(opened "$res/fingerprint.tsv")
[ "$n" = 1 ] && pass || fail "fingerprint.tsv opened $n times"
n=$(opened "$T/tree/reports/summary.json")
[ "$n" = 0 ] && pass ||
	fail "summary.json was opened $n times: the poster reads the summary in memory"
[ -s "$T/tree/reports/summary.json" ] && pass || fail "no summary.json"

# The verdicts and the exit code are those of 'check' reading every file afresh.
verdicts() { printf '%s\n' "$1" | grep -E \
	'^(PASS|WARN|INCONCLUSIVE|FAIL|ERROR|SKIP) |^scalegate check: '; }
code2=0
out2=$("$SCALEGATE" check -c "$cfg" --json "$T/check.json" 2>&1) || code2=$?
[ $code2 = $code ] && pass || fail "check exited $code2, ci $code"
[ "$(verdicts "$out2")" = "$(verdicts "$out")" ] && pass || {
	diff <(verdicts "$out") <(verdicts "$out2") >&2
	fail "check on ci's results gives other verdicts"
}
strip() { grep -v '"timestamp"\|"reports"' "$1"; }
diff <(strip "$T/tree/reports/summary.json") <(strip "$T/check.json") >&2 && pass ||
	fail "ci's summary differs from check's on the same results"
exit 0
