# The machine speed reference (docs/check.md, "Machine speed"): 'run' times scalegate's fixed loop
# before each run (manifest.tsv 'reference_s'; analyze: Reference_time), baselines keep it, and a
# stored-mode check scales the current times to the baseline's machine speed. A head measured on a
# machine that runs the loop 1.5 times as slow, whose program does 1.5 times the work, is no
# regression; a factor outside 0.5-2 (the loop 3 times as slow) or one the program's unchanged
# intervals contradict (the loop slower, the program not) is reported and not applied; three
# times the work on a machine of the baseline's speed is a regression (a change so large that a
# loaded test machine, whose loop times spread widely, still finds it at 8 repeats). The slow
# machine is made by editing the head's manifest: a real one cannot be ordered up in a test.
. "$(dirname "$0")/lib.bash"

config() { # config FILE [WORK_PCT] [SLOW_PCT]
	cat >"$T/$1" <<YML
results: results
baselines: baselines
defaults: { warmup: 1, repeat: 8, max_contention: off,
            env: { SG_KNOB_WORK_PCT: "${2:-0}", SG_KNOB_SLOW_PCT: "${3:-0}" } }
# results against their own baseline decide nothing; the factor is the subject here
undecided: pass
benchmarks:
  - name: jacobi
    command: $SG_BUILD/examples/jacobi {threads} 300 40
    threads: [1, 2]
YML
}
# slow_machine DIR FACTOR: the runs' reference_s times FACTOR
slow_machine() {
	awk -F'\t' -v OFS='\t' -v k="$2" 'NR > 1 && $13 != "-" { $13 = $13 * k } 1' \
		"$1/manifest.tsv" >"$T/m" &&
		mv "$T/m" "$1/manifest.tsv"
}
# sweep_change SUMMARY: the change of sweep's time at 1 thread in a JSON summary, in %
sweep_change() {
	python3 -c '
import json, sys
for v in json.load(open(sys.argv[1]))["verdicts"]:
    if (v["interval"] == "program/solve/sweep" and v["threads"] == 1
        and v["kind"] == "tolerance.time"):
        print("%.1f" % (100 * v["change"]))' "$1"
}
cd "$T"
config base.yml
config head.yml 200

expect_exit 0 "$SCALEGATE" run -c base.yml -o base
awk -F'\t' 'NR > 1 && !($13 > 0.0001 && $13 < 1) { exit 1 }' base/manifest.tsv && pass ||
	fail "reference_s: $(cat base/manifest.tsv)"
ref=$("$SCALEGATE" analyze --json base | python3 -c '
import json, sys
i = [i for i in json.load(sys.stdin)["intervals"] if i["interval"].endswith("sweep")][0]
print(i["configurations"][0]["characteristics"]["Reference_time"]["median"])')
want=$(awk -F'\t' 'NR > 1 && $4 == 1 { print $13 }' base/manifest.tsv | sort -g |
	awk '{ v[NR] = $1 }
		END { printf "%.9g\n",
			NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
awk -v x="$ref" -v y="$want" 'BEGIN { exit !(x - y < 1e-9 && y - x < 1e-9) }' && pass ||
	fail "analyze: Reference_time $ref at 1 thread is not the median of the manifest's ($want)"
expect_exit 0 "$SCALEGATE" baseline update -c base.yml -r base --force
[ "$(grep -c $'^sample\t.*\tReference_time\t' baselines/jacobi.sgbase)" -ge 8 ] && pass ||
	fail "the baseline keeps no Reference_time samples"

# 1. Half as much work again in every interval (what a machine 1.5 times as slow would show) with
#    the loop 1.5 times as slow: scaled by about 2/3, no regression. (Work added to the sweep alone
#    would leave the residual as it was, and the residual would rightly contradict the factor.)
config half.yml 0 50
expect_exit 0 "$SCALEGATE" run -c half.yml -o half
slow_machine half 1.5
# (what the work added, less what the loop says the machine lost: about 0, against +50 % unscaled;
# a margin of 35 points for a busy
# machine, whose loop times move between sittings)
code=0
out=$("$SCALEGATE" check -c half.yml -r half --junit half.xml --json half.json 2>&1) || code=$?
re='machine speed: scalegate&apos;s reference loop ran [0-9.]+ % slower here than '
re+='when the baseline was recorded; the times here are scaled by 0\.[5-8][0-9]* to '
re+='its speed, which adds sd [0-9.]+ % to the change'
expect_match "$(cat half.xml)" "$re" \
	"the details say how the machine's speed was taken out"
approx "$(sweep_change half.json)" -35 35 \
	"1.5 times the work on a machine 1.5 times as slow: the change of sweep at 1 thread"
[ "$code" = 0 ] || [ "$code" = 1 ] && pass || fail "check exited $code"

# 1b. Three times the work on a loop three times as slow: the factor is outside 0.5-2 and not
#     applied (it used to absorb the work), so the tripling is a regression.
expect_exit 0 "$SCALEGATE" run -c head.yml -o head
cp -r head slow
slow_machine slow 3
code=0
out=$("$SCALEGATE" check -c head.yml -r slow --junit slow.xml 2>&1) || code=$?
[ "$code" = 1 ] && pass ||
	fail "a loop three times as slow absorbed three times the work (exit $code): $out"
re='machine speed factor x0\.[2-4][0-9]* \(scalegate&apos;s reference loop ran [0-9.]+ % slower '
re+='here than when the baseline was recorded\) is outside 0\.5-2; not applied'
expect_match "$(cat slow.xml)" "$re" \
	"the details say the factor was not applied"

# 1c. The loop 1.5 times as slow, the program as it was: the unchanged intervals contradict the
#     factor, which is not applied (it would read as a 33 % speed-up, or hide a regression).
cp -r base same
slow_machine same 1.5
code=0
"$SCALEGATE" check -c base.yml -r same --junit same.xml >/dev/null 2>&1 || code=$?
[ "$code" = 0 ] && pass || fail "an unchanged program on a slower loop did not pass (exit $code)"
# Contradicted when the unchanged intervals' noise is below a third; on a machine so loaded that
# their noise covers it, the factor is applied, which the details say, and the program still passes.
re='machine speed factor x0\.[5-8][0-9]* .* contradicted by [0-9]+ of [0-9]+ '
re+='intervals; not applied|the times here are scaled by 0\.6'
expect_match "$(cat same.xml)" "$re" \
	"the details say what became of the factor"

# 2. The same head on a machine of the baseline's speed: the program's tripling is a regression.
code=0
out=$("$SCALEGATE" check -c head.yml -r head --json head.json 2>&1) || code=$?
[ "$code" = 1 ] && pass || fail "three times the work passed (exit $code): $out"
approx "$(sweep_change head.json)" 100 400 \
	"three times the work, the same machine: the change of sweep at 1 thread"
checks_of "$out" | grep -qE \
	'^FAIL jacobi program/solve/sweep 1 rank × [12] threads? tolerance\.time:' && pass ||
	fail "no time regression on sweep: $out"

# 3. A baseline without references (recorded before them, or by a batch job): times as measured.
cp -r base old
awk -F'\t' -v OFS='\t' 'NR > 1 { $13 = "-" } 1' old/manifest.tsv >m && mv m old/manifest.tsv
expect_exit 0 "$SCALEGATE" baseline update -c base.yml -r old --force
[ "$(grep -cE $'\tReference_time\t.*[0-9]' baselines/jacobi.sgbase)" = 0 ] && pass ||
	fail "'-' references were stored as numbers"
code=0
"$SCALEGATE" check -c head.yml -r slow --junit old.xml >/dev/null 2>&1 || code=$?
[ "$code" = 1 ] && pass ||
	fail "without references in the baseline, three times the work passed (exit $code)"
expect_no_match "$(cat old.xml)" 'machine speed:' "no scaling without the baseline's references"
