# scalegate baseline update: writes only what it is asked to, refuses failed runs, and a results
# directory passes against its own baseline.
. "$(dirname "$0")/lib.bash"

data=$SG_TOP/tests/data/check
cat >"$T/scalegate.yml" <<YML
results: $data/clear-regression/results
baselines: $T/baselines
benchmarks:
  - name: jacobi
    command: ./jacobi {threads} 300
    threads: [1, 2]
  - name: other
    command: ./other
rules:
  - tolerance: { time: 5%, efficiency: 0.02, synchronization: 0.01 }
YML

mkdir -p "$T/baselines"
echo "keep me" >"$T/baselines/other.sgbase"
expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml" --benchmark jacobi
re="^wrote $T/baselines/jacobi\.sgbase: 4 intervals, 8 interval x configuration cells, 1 sitting$"
expect_match "$out" "$re" "says what it wrote"
[ "$(cat "$T/baselines/other.sgbase")" = "keep me" ] && pass ||
	fail "--benchmark jacobi touched other.sgbase"
ls "$T/baselines" | grep -v '\.sgbase$' && fail "a temporary file was left behind"

# 'other' never ran: the results are refused, naming it; --partial judges what is there.
expect_exit 2 "$SCALEGATE" check -c "$T/scalegate.yml" --all
expect_match "$out" \
	"benchmark 'other' is missing from the results '$data/clear-regression/results'" \
	"a missing benchmark is named"
# The stored samples are the results' own: nothing fails, but every time check is undecided (below),
# and nothing judged is never green: exit 3, "could not decide".
expect_exit 3 "$SCALEGATE" check -c "$T/scalegate.yml" --all --partial
expect_no_match "$out" '^(FAIL|WARN|SKIP) ' "the results against their own baseline"
expect_match "$out" \
	'^ERROR jacobi - - undecided: could not decide: all [0-9]+ time checks were inconclusive' \
	"an undecided benchmark is an error"
# A stored baseline carries the shift between sittings (3 %): 5 % is beyond what 5 repeats can
# decide.
re='^INCONCLUSIVE jacobi program/solve/residual 1 rank × 2 threads tolerance\.time: .* '
re+='geometric-mean change \+0\.0 %, within the tolerance of 5\.0 % but inconclusive'
expect_match "$out" "$re" \
	"the comparison found its samples, and says it cannot decide"
re='residual 1 rank × 2 threads tolerance\.time: .* the shift between sittings alone is larger'
expect_match "$out" "$re" \
	"more repeats cannot beat the shift between sittings: it says so"

# Written twice from the same results: the same bytes.
cp "$T/baselines/jacobi.sgbase" "$T/first"
expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml" --benchmark jacobi
cmp -s "$T/first" "$T/baselines/jacobi.sgbase" && pass ||
	fail "the baseline is not written the same way twice"

# Every configured benchmark: 'other' has no results (exit 2) and nothing is written; with --partial
# jacobi is still written.
rm "$T/baselines/jacobi.sgbase"
expect_exit 2 "$SCALEGATE" baseline update -c "$T/scalegate.yml"
expect_match "$out" "benchmark 'other' is missing from the results" \
	"a benchmark without results is an error"
[ ! -f "$T/baselines/jacobi.sgbase" ] && pass ||
	fail "a baseline was written from incomplete results"
expect_exit 2 "$SCALEGATE" baseline update -c "$T/scalegate.yml" --partial
expect_match "$out" "no results for benchmark 'other'" "a benchmark without results is an error"
[ -f "$T/baselines/jacobi.sgbase" ] && pass ||
	fail "jacobi was not written because 'other' had no results"

# A benchmark with a failed run gets no baseline (exit 3).
expect_exit 3 "$SCALEGATE" baseline update -c "$T/scalegate.yml" -r "$data/run-failure/results" \
	--baselines "$T/fromfailed" --benchmark jacobi
expect_match "$out" "benchmark 'jacobi' has failed runs" "failed runs are refused"
[ ! -e "$T/fromfailed/jacobi.sgbase" ] && pass || fail "a baseline was written from failed runs"

expect_exit 2 "$SCALEGATE" baseline update -c "$T/scalegate.yml" --benchmark nosuch
expect_exit 2 "$SCALEGATE" baseline -c "$T/scalegate.yml"
expect_exit 2 "$SCALEGATE" baseline remove -c "$T/scalegate.yml"

# A corrupt baseline is an error verdict, not a crash, and it fails the gate (exit 3); absolute
# rules still apply.
fmt='scalegate-baseline\t1\nbenchmark\tjacobi\nsample\tprogram\t-\t1\t1\tExecution_time\tnope\n'
printf "$fmt" \
	>"$T/baselines/jacobi.sgbase"
expect_exit 3 "$SCALEGATE" check -c "$T/scalegate.yml" --partial
expect_match "$out" "jacobi\.sgbase:1: baseline version 1 has no end record" \
	"the reader names file and line"
expect_match "$out" "^ERROR jacobi - - baseline: cannot read the baseline" \
	"an unreadable baseline is an error verdict"

# A profile with a time that is not a finite, non-negative number is refused with its file and
# record, and no baseline is written from it (issue 12).
cp -r "$data/clear-regression/results" "$T/nan-results"
victim=$(ls "$T"/nan-results/jacobi/s--r1-t1/1/*.sgprof | head -n 1)
python3 - "$victim" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split("\n")
body = [l for l in lines if l and not l.startswith("end\t")]
for i, l in enumerate(body):
    f = l.split("\t")
    if f[0] == "stat":
        f[4] = "nan"
        body[i] = "\t".join(f)
        break
text = "\n".join(body) + "\n"
h = 14695981039346656037
for b in text.encode():
    h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
open(path, "w").write(text + "end\t%016x\n" % h)
PY
sed "s|^results: .*|results: $T/nan-results|; s|^baselines: .*|baselines: $T/nan-baselines|" \
	"$T/scalegate.yml" >"$T/nan.yml"
got=0
out=$("$SCALEGATE" baseline update -c "$T/nan.yml" --benchmark jacobi 2>&1) || got=$?
[ "$got" -ne 0 ] && pass || fail "baseline update accepted a profile with a NaN time"
expect_match "$out" "$victim:[0-9]+: corrupt profile: stat column 'time' is 'nan'" \
	"the profile and its record are named"
[ ! -e "$T/nan-baselines/jacobi.sgbase" ] && pass || fail "a baseline was written from a NaN time"
