# baseline update refuses runs measured on a busy machine whose profiles lack the run-queue delay
# unless --force, naming them and their contention; with the delay it records them, the machine's
# share removed.
. "$(dirname "$0")/lib.bash"

cp -r "$SG_TOP/tests/data/check/clear-regression/results" "$T/results"
yml() {
	cat >"$T/scalegate.yml" <<YML
results: results
baselines: baselines
defaults: { max_contention: $1 }
benchmarks:
  - name: jacobi
    command: ./jacobi {threads} 300
    threads: [1, 2]
YML
}
# One run of jacobi 1 rank × 2 threads had 0.9 cores taken by others beyond those it left free.
prog='BEGIN { OFS = "\t" } NR == 1 { $12 = "contention" } NR > 1 { $12 = ($1 == '
prog+='"jacobi" && $4 == 2 && $6 == 3) ? "0.9" : "-" } { print }'
awk -F'\t' "$prog" \
	"$T/results/manifest.tsv" >"$T/m" && mv "$T/m" "$T/results/manifest.tsv"
grep -q '	0\.9$' "$T/results/manifest.tsv" && pass ||
	fail "the test's manifest edit did not apply"

yml 0.25
expect_exit 3 "$SCALEGATE" baseline update -c "$T/scalegate.yml"
re="benchmark 'jacobi': 1 run measured on a busy machine \(contention above "
re+="max_contention 0\.25\) without the run-queue delay \(rq_wait\) to remove "
re+="its share: jacobi/s--r1-t2/3 \(0\.90 cores\)"
expect_match "$out" "$re" \
	"the busy run is named with its contention, and why it cannot be corrected"
expect_match "$out" "or --force" "the way out is said"
[ -e "$T/baselines/jacobi.sgbase" ] && fail "a baseline was written from a busy run"

expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml" --force
re="warning: benchmark 'jacobi': 1 run measured on a busy machine .* recorded anyway \(--force\)"
expect_match "$out" "$re" "--force warns"
[ -s "$T/baselines/jacobi.sgbase" ] && pass || fail "--force wrote no baseline"

# Below the benchmark's max_contention, or with it off, the run is not busy.
rm -r "$T/baselines"
yml 1.0
expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml"
expect_no_match "$out" "busy" "0.9 cores under max_contention 1.0 is not busy"
yml off
expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml"
expect_no_match "$out" "busy" "max_contention off"

# The busy run's profiles with the run-queue delay (tracer/PROFILE.md: meta sched, cpus; column
# rq_wait): its Interference is removed, so it is recorded without --force (issue 22).
rm -r "$T/baselines"
for f in "$T"/results/jacobi/s--r1-t2/3/*.sgprof; do
	python3 - "$f" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split("\n")[:-2]  # without the end record
out = [lines[0], "meta\tsched\tschedstat", "meta\tcpus\t2"]
for l in lines[1:]:
    if l.startswith("columns\tstat\t"):
        l += "\trq_wait"
    elif l.startswith("stat\t"):
        l += "\t0"
    out.append(l)
body = "\n".join(out) + "\n"
h = 14695981039346656037
for b in body.encode():
    h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
open(path, "w").write(body + "end\t%016x\n" % h)
PY
done
yml 0.25
expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml"
expect_no_match "$out" "busy" "a busy run with its run-queue delay is recorded, corrected"
[ -s "$T/baselines/jacobi.sgbase" ] && pass || fail "no baseline from a corrected busy run"
"$SCALEGATE" analyze --json "$T/results" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
seen = [c["characteristics"]["Interference"] for s in doc["intervals"] for c in s["configurations"]
        if s["benchmark"] == "jacobi" and c["threads"] == 2]
assert seen and all(i is not None for i in seen), seen
' && pass || fail "Interference of the corrected runs in analyze --json"
