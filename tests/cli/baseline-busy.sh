# baseline update refuses runs measured on a busy machine unless --force, naming them and their contention.
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
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 1 { $12 = "contention" } NR > 1 { $12 = ($1 == "jacobi" && $4 == 2 && $6 == 3) ? "0.9" : "-" } { print }' \
	"$T/results/manifest.tsv" >"$T/m" && mv "$T/m" "$T/results/manifest.tsv"
grep -q '	0\.9$' "$T/results/manifest.tsv" || fail "the test's manifest edit did not apply"

yml 0.25
expect_exit 3 "$SCALEGATE" baseline update -c "$T/scalegate.yml"
expect_match "$out" "benchmark 'jacobi': 1 run measured on a busy machine \(contention above max_contention 0\.25\): jacobi/s--r1-t2/3 \(0\.90 cores\)" \
	"the busy run is named with its contention"
expect_match "$out" "or --force" "the way out is said"
[ -e "$T/baselines/jacobi.sgbase" ] && fail "a baseline was written from a busy run"

expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml" --force
expect_match "$out" "warning: benchmark 'jacobi': 1 run measured on a busy machine .* recorded anyway \(--force\)" "--force warns"
[ -s "$T/baselines/jacobi.sgbase" ] || fail "--force wrote no baseline"

# Below the benchmark's max_contention, or with it off, the run is not busy.
rm -r "$T/baselines"
yml 1.0
expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml"
expect_no_match "$out" "busy" "0.9 cores under max_contention 1.0 is not busy"
yml off
expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml"
expect_no_match "$out" "busy" "max_contention off"
