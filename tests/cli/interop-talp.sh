# scalegate import talp: DLB's TALP JSON (3.4, 3.5, 3.7 shapes in tests/data/interop/talp) becomes a
# results directory that analyze computes TALP's efficiencies from, and a nightly series of TALP
# files gates through baseline and check like native results.
# tier: fast
. "$(dirname "$0")/lib.bash"
D=$SG_TOP/tests/data/interop/talp
out=$("$SCALEGATE" import talp "$D" -o "$T/all" 2>&1) ||
	{ echo "$out" >&2; fail "import of the samples"; }
expect_match "$out" '^'"$T"'/all: 3 runs imported' "one run per file"
expect_match "$out" "dlb35-genex.json: TALP classified only 3 % .* region 'diagnose_em_fields'" \
	"DLB 3.5a's genex leaves CPU time unclassified: said once"
m=$(cut -f1-5,10 "$T/all/manifest.tsv")
expect_match "$m" $'^talp\t-\t1\t4\t4\ttalp/s--r1-t4/1$' \
	"DLB 3.4, OpenMP only: 1 process x 4 threads"
expect_match "$m" $'^talp\t-\t2\t112\t224\ttalp/s--r2-t112/1$' "DLB 3.5 genex: 2 ranks x 112 CPUs"
expect_match "$m" $'^talp\t-\t4\t1\t4\ttalp/s--r4-t1/1$' "DLB 3.7: 4 ranks"
[ "$(ls "$T/all/talp/s--r4-t1/1" | wc -l)" = 4 ] || fail "one profile per rank"
"$SCALEGATE" profile "$T"/all/talp/*/1/*.sgprof >/dev/null ||
	fail "the profiles are sealed and valid"

# Every region: scalegate's efficiencies from the imported times against TALP's own (2 decimals).
# Where TALP classified all of elapsed x CPUs (3.4, 3.7 samples) they agree within 0.01; in genex
# scalegate's equals TALP's times the classified share (docs/interop.md, "Efficiencies").
"$SCALEGATE" analyze --json "$T/all" >"$T/a.json" || fail "analyze"
python3 - "$T/a.json" "$D" <<'PY' || fail "efficiencies differ from TALP's"
import json, sys, os
a = json.load(open(sys.argv[1]))
files = {(4, 1): "dlb37-mpi.json", (1, 4): "dlb34-omp.json", (2, 112): "dlb35-genex.json"}
globals_ = ("Global", "Application", "MPI Execution")
bad = checked = 0
for it in a["intervals"]:
    for c in it["configurations"]:
        doc = json.load(open(os.path.join(sys.argv[2], files[(c["ranks"], c["threads"])])))
        regions = doc.get("Application") or doc["popMetrics"]
        name = it["interval"].split("/", 1)[1] if "/" in it["interval"] else \
            next(g for g in globals_ if g in regions)
        g, ch = regions[name], c["characteristics"]
        cpus = doc["resources"]["numCpus"]
        active = sum(g[k] for k in ("usefulTime", "mpiTime", "ompLoadImbalanceTime",
                                    "ompSchedulingTime", "ompSerializationTime"))
        share = active / (g["elapsedTime"] * cpus)
        pairs = [("Parallel_efficiency", g["parallelEfficiency"] * share),
                 ("Efficiency", g["parallelEfficiency"] * share)]
        if c["threads"] == 1:
            pairs += [("Load_balance", g["mpiLoadBalance"]),
                      ("Communication_efficiency", g["mpiCommunicationEfficiency"])]
        for key, talp in pairs:
            ours = ch[key]["median"]
            checked += 1
            # TALP prints 2 decimals: 0.005 of rounding, scaled by the share where it applies
            if abs(ours - talp) > 0.01:
                bad += 1
                print(f"{c['ranks']}x{c['threads']} {it['interval']} {key}: {ours:.4f} vs TALP "
                      f"{talp:.4f}")
print(f"{checked} efficiencies compared, {bad} differ")
sys.exit(bad > 0 or checked < 20)
PY

# A nightly series: 5 TALP files a night (the 3.7 sample, +-1 % noise), 'solve' 30 % slower in the
# last one.
series() { # DIR FACTOR
	mkdir -p "$1"
	for i in 1 2 3 4 5; do
		python3 - "$D/dlb37-mpi.json" "$2" "$i" >"$1/night$i.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = float(sys.argv[2]) * (1 + (int(sys.argv[3]) - 3) * 0.005)
solve, glob = d["Application"]["solve"], d["Application"]["Global"]
for k in ("elapsedTime", "usefulTime", "mpiTime", "minMpiNormdProc"):
    glob[k] = round(glob[k] + (f - 1) * solve[k])
    solve[k] = round(solve[k] * f)
print(json.dumps(d, indent=1))
PY
	done
}
cd "$T"
series base 1.0
series same 1.0
series slow 1.3
cat >scalegate.yml <<'YML'
results: results
baselines: baselines
benchmarks:
  - name: nightly
    command: "true"
    ranks: [4]
YML
for s in base same slow; do
	"$SCALEGATE" import talp "$s" -o "r-$s" -b nightly >/dev/null || fail "import of night $s"
done
"$SCALEGATE" baseline update -r r-base >/dev/null || fail "a baseline from imported TALP results"
expect_exit 0 "$SCALEGATE" check -r r-same
expect_match "$out" 'exit 0 \(pass\)' "an unchanged TALP series passes"
expect_exit 1 "$SCALEGATE" check -r r-slow
expect_match "$out" '^FAIL  nightly program/solve ' "solve 30 % slower is a regression"
expect_match "$out" 'failed: Execution_time' "through its time"
out=$("$SCALEGATE" history record --history h.db --commit abc1 r-base 2>&1) ||
	{ echo "$out" >&2; fail "history record"; }
expect_match "$out" 'recorded run 1 of commit abc1' "imported results go into the history"
"$SCALEGATE" report --html r.html -r r-slow >/dev/null 2>&1
grep -q 'program/solve' r.html || fail "the HTML report of imported results names their regions"

# Input errors: exit 2, naming the file and what is wrong.
printf '{"dlbVersion": "3.7.0", "Application": {"Global": {"elapsedTime": 5,}}' >broken.json
expect_exit 2 "$SCALEGATE" import talp broken.json -o r-broken
expect_match "$out" '^scalegate: error: broken.json:[0-9]+:[0-9]+: ' \
	"a JSON syntax error with its position"
echo '{"dlbVersion": "3.7.0", "regions": {}}' >other.json
expect_exit 2 "$SCALEGATE" import talp other.json -o r-other
expect_match "$out" \
	"other.json:1:1: no 'Application' .* or 'popMetrics' .*: not TALP's JSON output" "not TALP"
msg='{"resources": {"numCpus": 4, "numMpiRanks": 2}, "Application": {"Global": {"usefulTime": 1}}}'
echo "$msg" >noel.json
expect_exit 2 "$SCALEGATE" import talp noel.json -o r-noel
expect_match "$out" "noel.json:1:[0-9]+: region 'Global' has no 'elapsedTime'" "a missing time"
expect_exit 2 "$SCALEGATE" import talp base -o r-base
expect_match "$out" "'r-base' already holds results" "never over results"
expect_exit 2 "$SCALEGATE" import talp base
expect_match "$out" "give -o RESULTS" "no output"
expect_exit 2 "$SCALEGATE" import tlap base -o x
expect_match "$out" "did you mean 'talp'" "a mistyped format"
echo "interop-talp: ok"
