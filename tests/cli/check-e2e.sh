# End to end on the Jacobi example: a clean baseline, the serial-residual knob fails the check
# naming interval and cause, knob off passes.
. "$(dirname "$0")/lib.bash"

# The gate judges the share of Total_time lost to serial code: robust on a
# loaded 2-core machine, where times and efficiencies swing by 2x. The knob
# makes the residual serial: its Insufficient_parallelism goes from ~0 to ~50 %.
cat >"$T/scalegate.yml" <<YML
results: results
baselines: baselines
defaults:
  workdir: $SG_BUILD/examples
  warmup: 1
  repeat: 5
  env:
    OMP_WAIT_POLICY: passive
benchmarks:
  - name: jacobi
    command: ./jacobi {threads} 200 100
    threads: [1, 2]
rules:
  - name: no-new-serial-code
    benchmark: jacobi
    interval: "program/solve*"
    tolerance:
      insufficient_parallelism: 0.10
    significance: 0.05
  - name: efficiency-watch
    interval: "program/solve*"
    tolerance:
      efficiency: 0.05
    level: warn
YML
sg() { "$SCALEGATE" "$@" -c "$T/scalegate.yml"; }

expect_exit 0 sg run
mkdir -p "$T/baselines"
echo "untouched" >"$T/baselines/other.sgbase"
expect_exit 0 sg baseline update
expect_match "$out" "wrote .*/baselines/jacobi\.sgbase: 4 intervals" \
	"baseline update says what it wrote"
[ "$(cat "$T/baselines/other.sgbase")" = untouched ] && pass ||
	fail "baseline update touched another benchmark's baseline"
head -n 1 "$T/baselines/jacobi.sgbase" | grep -qx $'scalegate-baseline\t2' && pass ||
	fail "baseline: no version line"
grep -q $'^sample\tprogram/solve/residual\t-\t1\t2\tInsufficient_parallelism\t' \
	"$T/baselines/jacobi.sgbase" && pass ||
	fail "baseline: no residual samples"
expect_exit 2 sg baseline update --benchmark nosuch

# Knob on: the residual runs on one thread.
SG_KNOB_SERIAL=1 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/knob" >/dev/null 2>&1 && pass ||
	fail "the knob run failed"
expect_exit 1 sg check -r "$T/knob" --junit "$T/knob.xml" --markdown "$T/knob.md" --json \
	"$T/knob.json"
re='^FAIL jacobi program/solve/residual 1 rank × 2 threads '
re+='tolerance\.insufficient_parallelism: Insufficient_parallelism median [0-9.]+ %'
expect_match "$(checks_of "$out")" "$re" \
	"the failure names the interval, the configuration and the metric"
re='^    cause: Insufficient_parallelism \(serial code\) grew '
re+='from [0-9.]+ % to [0-9.]+ % of Total_time'
expect_match "$out" "$re" \
	"the failure names the cause"
expect_match "$out" 'exit 1 \(regression\)$' "the summary gives the exit code"
# one finding for the serial residual, whatever its enclosing intervals did: the same count in every
# report
expect_match "$out" '^scalegate check: [0-9]+ checks: 1 regression \([0-9]+ checks? failed\), ' \
	"the count line"
expect_match "$(head -n 1 "$T/knob.md")" \
	'^### .* scalegate: 1 regression \([0-9]+ checks? failed\)' "the Markdown header"
# (the efficiency-watch rule is level warn: a warning finding beside it is no regression)
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["severity"] == "regression"]
assert [x["interval"] for x in f] == ["program/solve/residual"], d["findings"]
assert d["headline"].startswith("scalegate: 1 regression (%d check"
                                % f[0]["failed"]), d["headline"]' "$T/knob.json" && pass ||
	fail "summary.json: not one finding for the residual"
grep -q '<failure type="tolerance.insufficient_parallelism"' "$T/knob.xml" && pass ||
	fail "JUnit: no failure element"
# well-formed here; the layout is validated against the public schemas in cli/junit-schemas
xmllint --noout "$T/knob.xml" && pass || fail "the JUnit report is not well-formed XML"

# Knob off: a clean rerun passes.
expect_exit 0 sg run -o "$T/clean"
expect_exit 0 sg check -r "$T/clean"
expect_no_match "$out" '^FAIL' "a clean rerun has no failure"
