# Nothing judged is never green: a benchmark with no baseline and no base revision is an error
# verdict (baseline.missing, exit 3, a summary header that is not a check mark) unless the user opts
# in with --allow-no-reference or 'allow_no_reference: true' (a first nightly run): then a skip,
# exit 0.
. "$(dirname "$0")/lib.bash"

data=$SG_TOP/tests/data/check/no-reference
cat >"$T/scalegate.yml" <<YML
results: $data/results
baselines: $T/baselines
reports: {dir: $T/reports}
benchmarks:
  - name: jacobi
    command: ./jacobi {threads} 300
    threads: [1, 2]
    repeat: 5
YML

expect_exit 3 "$SCALEGATE" ci -c "$T/scalegate.yml" --no-run --no-post
re="^ERROR jacobi - - baseline\.missing: no reference to compare "
re+="with: .*scalegate ci --against origin/main"
expect_match "$out" "$re" \
	"ci: no reference is an error naming the fixes"
re='^### ❔ scalegate: could not be judged: no baseline and no base revision for 1 benchmark'
head -1 "$T/reports/summary.md" | grep -q "$re" && pass ||
	fail "summary.md: the header does not say 'could not be judged': $(head -1 \
		"$T/reports/summary.md")"
grep -q '<error ' "$T/reports/junit.xml" && pass ||
	fail "junit.xml: no <error> for the benchmark without a reference"
grep -q '"exit_code": *3' "$T/reports/summary.json" && pass ||
	fail "summary.json: the exit code is not 3"

# Opted in on the command line, or in the configuration: a skip, and the gate passes.
expect_exit 0 "$SCALEGATE" ci -c "$T/scalegate.yml" --no-run --no-post --allow-no-reference
expect_match "$out" \
	"^SKIP jacobi - - baseline\.missing: no baseline .*\(allowed: allow_no_reference\)" \
	"--allow-no-reference"
expect_exit 0 "$SCALEGATE" check -c "$T/scalegate.yml" --allow-no-reference
echo "allow_no_reference: true" >>"$T/scalegate.yml"
expect_exit 0 "$SCALEGATE" check -c "$T/scalegate.yml"
expect_match "$out" "^SKIP jacobi - - baseline\.missing" "allow_no_reference: true"
sed -i 's/^allow_no_reference: true$/allow_no_reference: maybe/' "$T/scalegate.yml"
expect_exit 2 "$SCALEGATE" check -c "$T/scalegate.yml"
expect_match "$out" "allow_no_reference" "a value that is not a boolean is named"
