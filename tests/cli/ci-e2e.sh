# scalegate ci end to end: run, check, the four reports, post; the knob makes it exit 1 naming the
# cause, a failed post warns and keeps both the verdict and the reports.
. "$(dirname "$0")/lib.bash"

cat >"$T/scalegate.yml" <<YML
results: results
baselines: baselines
reports:
  dir: out
rules:
  - name: serial-code
    interval: "program/solve*"
    tolerance: {insufficient_parallelism: 0.10}
    significance: 0.01
defaults:
  workdir: $SG_BUILD/examples
  warmup: 0
  repeat: 5
  env: {OMP_WAIT_POLICY: passive}
benchmarks:
  - name: jacobi
    command: ./jacobi {threads} 300 60
    threads: [1, 2]
post:
  format: json
  url: http://127.0.0.1:9/scalegate     # nothing listens: the post fails
  retries: 0
  connect_timeout: 2
YML
ci() { "$SCALEGATE" ci -c "$T/scalegate.yml" "$@"; }
reports_exist() {
	for f in junit.xml summary.md summary.json report.html; do
		[ -s "$T/out/$f" ] && pass || fail "$1: no $f"
		expect_match "$out" "^  [a-z]+ +$T/out/$f\$" "$1: the path of $f is printed"
	done
}

# No baseline yet and no --against: nothing compared is never green (exit 3); every report written,
# the failed post only warns. Opted in (a first nightly run): a pass.
expect_exit 3 ci
reports_exist "first run"
expect_match "$out" '^ERROR jacobi - - baseline\.missing: no reference to compare with' \
	"the missing reference is an error"
expect_exit 0 ci --no-run --allow-no-reference
expect_match "$out" '^SKIP jacobi - - baseline\.missing' "the missing baseline is said"
expect_match "$out" 'warning: the summary was not posted; the gate.s verdict stands' \
	"a failed post warns"

expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml"

# The knob: the residual runs serially; exit 1 with interval, metric and cause.
rm -rf "$T/out"
SG_KNOB_SERIAL=1 expect_exit 1 ci
re='^FAIL jacobi program/solve/residual 1 rank × 2 threads tolerance\.insufficient_parallelism'
expect_match "$(checks_of "$out")" "$re" "the regression"
expect_match "$out" 'cause: Insufficient_parallelism \(serial code\) grew' "its cause"
# the recap ends the log, after the reports' paths: the failure, where in the source, which rule
recap=$(sed -n '/^reports:$/,$p' <<<"$out" | sed -n '/^recap: /,$p')
expect_match "$recap" '^recap: 1 regression \([0-9]+ checks? failed\), 0 errors' \
	"the recap follows the reports"
line=$(grep -n 'SG_BEGIN("residual")' "$SG_TOP/examples/jacobi.c" | cut -d: -f1)
expect_match "$recap" "^FAIL  jacobi program/solve/residual at examples/jacobi\.c:$line\$" \
	"the recap gives the interval's file:line"
expect_match "$recap" '^      1 rank × 2 threads: Insufficient_parallelism ' \
	"the recap gives configuration and metric"
expect_match "$recap" "^      rule: rule 'serial-code' \($T/scalegate.yml:[0-9]+:[0-9]+\)\$" \
	"the recap gives the rule"
reports_exist "knob run"
grep -q 'program/solve/residual` at examples/jacobi\.c:[0-9]' "$T/out/summary.md" && pass ||
	fail "the Markdown summary names the interval and its file:line"
grep -q '"verdict": "regression"' "$T/out/summary.json" && pass ||
	fail "the JSON summary says regression"
grep -q '<failure type="tolerance.insufficient_parallelism"' "$T/out/junit.xml" && pass ||
	fail "JUnit failure"

# Knob off: a pass again; with --require-post the failed post is what fails.
expect_exit 0 ci --no-post
# --config like every other command
expect_exit 0 "$SCALEGATE" ci --config "$T/scalegate.yml" --no-run --no-post
expect_exit 0 "$SCALEGATE" ci --config="$T/scalegate.yml" --no-run --no-post
expect_no_match "$out" 'not posted' "--no-post does not post"
expect_exit 4 ci --no-run --require-post
reports_exist "required post"

# A configuration error stops everything before a run: exit 2, no results.
printf 'benchmarks:\n  - name: x\n    command: true\n    threds: [1]\n' >"$T/bad.yml"
expect_exit 2 "$SCALEGATE" ci -c "$T/bad.yml"
expect_match "$out" "bad.yml:4:5: unknown key 'threds'" "the error names file, line and column"

# A typo in 'rules:', in a rule file it names, or in 'post:' stops 'ci' before any benchmark starts.
typo_case() {
	local what=$1 where=$2
	rm -f "$T/started"
	expect_exit 2 "$SCALEGATE" ci -c "$T/typo.yml"
	expect_match "$out" "$where" "$what: the error names file, line and column"
	[ ! -e "$T/started" ] && pass ||
		fail "$what: a benchmark ran before the configuration was found wrong"
	[ ! -e "$T/typo-results" ] && pass || fail "$what: results were written"
}
typo_bench="results: typo-results
benchmarks:
  - name: x
    command: touch $T/started
    threads: [1]"
printf '%s\nrules:\n  - name: r\n    tolerence: {time: 0.1}\n' "$typo_bench" >"$T/typo.yml"
typo_case "rules typo" "typo.yml:8:5: unknown key 'tolerence'"
printf 'rules:\n  - name: r\n    efficiency_mn: 0.5\n' >"$T/extra-rules.yml"
printf '%s\nrules:\n  files: [extra-rules.yml]\n' "$typo_bench" >"$T/typo.yml"
typo_case "typo in a named rule file" "extra-rules.yml:3:5: unknown key 'efficiency_mn'"
printf '%s\npost:\n  format: json\n  ulr: http://127.0.0.1:9/x\n' "$typo_bench" >"$T/typo.yml"
typo_case "post typo" "typo.yml:8:3: unknown key 'ulr'"
