# One finding per cause: a critical section in the sweep fails time, speedup and synchronization
# there and in both enclosing intervals at 2 threads; console, recap, Markdown, summary.json and
# HTML say "1 regression (9 checks failed)" once, in the sweep, with its cause; JUnit keeps a
# testcase per check; the inconclusive checks take one line.
# tier: fast
. "$(dirname "$0")/lib.bash"

# The synthetic Jacobi model of tests/data/check (generate.py, case critical-section): the default
# rules, every thread at 2 threads waits 30 % of the sweep's work for a lock; at 1 thread nothing
# changes.
cp -r "$SG_TOP/tests/data/check/critical-section" "$T/case"
sg() { "$SCALEGATE" "$@" -c "$T/case/scalegate.yml"; }

expect_exit 1 sg check --markdown "$T/s.md" --json "$T/s.json" --html "$T/s.html" --junit "$T/s.xml"
# the console: one finding, in the sweep at 2 threads, the cause once, the nine checks as its
# evidence
[ "$(grep -c '^FAIL [^ ]' <<<"$out")" = 1 ] && pass ||
	fail "not one FAIL line: $(grep '^FAIL [^ ]' <<<"$out")"
re='^FAIL jacobi program/solve/sweep 1 rank × 2 threads: 9 checks failed \(6 of them in the '
re+='enclosing program, program/solve, whose change this one explains\)$'
expect_match "$out" "$re" \
	"the finding: the innermost interval, its configuration, its checks"
[ "$(grep -c '^    cause: ' <<<"$out")" = 1 ] && pass || fail "the cause is not said once"
re='^    cause: Synchronization \(OpenMP barriers, locks and idle '
re+='threads\) grew from [0-9.]+ % to [0-9.]+ % of Total_time'
expect_match "$out" "$re" \
	"the cause names the waiting"
for kind in time speedup synchronization; do
	expect_match "$out" "^    tolerance\\.$kind: " "the sweep's $kind check as evidence"
	expect_match "$out" "^    program/solve tolerance\\.$kind: " \
		"program/solve's $kind check folded in"
	expect_match "$out" "^    program tolerance\\.$kind: " "program's $kind check folded in"
done
expect_no_match "$out" '1 rank × 1 thread: ' "nothing at 1 thread"
# the inconclusive checks: one line, listed with --all
re='^INCONCLUSIVE 6 checks inconclusive \(4 intervals, 2 configurations\): .*; --all lists them$'
expect_match "$out" "$re" \
	"the inconclusive checks in one line"
[ "$(grep -c '^INCONCLUSIVE' <<<"$out")" = 1 ] && pass || fail "more than one inconclusive line"
# the recap: the finding once, its checks by name
recap=$(sed -n '/^recap: /,$p' <<<"$out")
expect_match "$recap" \
	'^recap: 1 regression \(9 checks failed\), 0 errors \(6 inconclusive above\):$' \
	"the recap's count"
[ "$(grep -c '^FAIL ' <<<"$recap")" = 1 ] && pass || fail "the recap repeats the finding"
expect_match "$recap" '^      1 rank × 2 threads: Synchronization .* grew' \
	"the recap gives configuration and cause"
re='^      failed: Execution_time, Speedup, Synchronization; with the enclosing program: '
re+='Execution_time, Speedup, Synchronization; with the enclosing program/solve: '
expect_match "$recap" "$re" \
	"the recap names the checks"
re='^scalegate check: 36 checks: 1 regression \(9 checks failed\), 0 warnings, 6 '
re+='inconclusive, 0 errors, 0 skipped, 21 passed; .* exit 1 \(regression\)$'
expect_match "$out" "$re" \
	"the count line"

# Markdown: the header, one row for the finding, the nine checks collapsed as its evidence
md=$(cat "$T/s.md")
expect_match "$md" \
	'^### ❌ scalegate: 1 regression \(9 checks failed\), 6 inconclusive in 36 checks$' \
	"Markdown: the header"
expect_match "$md" '^#### 1 regression \(9 checks failed\)$' "Markdown: the regressions' heading"
row='^| jacobi | `program/solve/sweep` at jacobi.c:19 | 1 rank × 2 threads (p=2) | Synchronization'
[ "$(grep -c "$row" "$T/s.md")" = 1 ] && pass ||
	fail "Markdown: not one row for the finding"
expect_match "$md" '^<details><summary>The evidence: 9 checks failed</summary>$' \
	"Markdown: the evidence"

# summary.json: one finding with the nine checks by their JUnit names, at its file:line
python3 - "$T/s.json" <<'PY' && pass || fail "summary.json: the findings"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["headline"].startswith("scalegate: 1 regression (9 checks failed), 6 inconclusive in 36 "
                                "checks"), d["headline"]
(f,) = d["findings"]
assert (f["severity"], f["benchmark"], f["interval"]) == ("regression", "jacobi",
                                                          "program/solve/sweep"), f
assert f["configuration"] == {"size": "-", "ranks": 1, "threads": 2, "p": 2}, f
assert f["cause"].startswith("Synchronization (OpenMP barriers, locks and idle threads) grew"), f
assert (f["failed"], f["warned"], len(f["checks"])) == (9, 0, 9), f
assert f["folded"] == ["program", "program/solve"], f
# where to look: the sweep's SG_BEGIN, and the benchmark's command (the annotations and the
# pull-request comment)
assert (f["file"], f["line"], f["command"]) == ("jacobi.c", 19, "./jacobi {threads} 300"), f
assert ("program/solve/sweep 1 rank \u00d7 2 threads (p=2) tolerance.synchronization"
        in f["checks"]), f["checks"]
assert "program 1 rank \u00d7 2 threads (p=2) tolerance.time" in f["checks"], f["checks"]
assert d["counts"]["fail"] == 9, d["counts"]
PY

# HTML: the title, the badge, one row for the finding
html=$(cat "$T/s.html")
expect_match "$html" \
	'<h1>scalegate: 1 regression \(9 checks failed\), 6 inconclusive in 36 checks</h1>' \
	"HTML: the title"
expect_match "$html" '<span class="badge fail">1 regression \(9 checks failed\)</span>' \
	"HTML: the badge"
expect_match "$html" '<h2 id="fail">1 regression \(9 checks failed\)</h2>' \
	"HTML: the regressions' heading"
[ "$(sed -n '/<table class="findings">/,/<\/table>/p' "$T/s.html" | grep -c \
	'^<tr><td>jacobi</td>')" = 1 ] && pass ||
	fail "HTML: not one row for the finding"

# JUnit: still one testcase per check
[ "$(grep -c '<failure ' "$T/s.xml")" = 9 ] && pass || fail "JUnit: not one failure per check"

# --all lists every inconclusive check, in check and in ci
expect_exit 1 sg check --all
[ "$(grep -c '^INCONCLUSIVE jacobi ' <<<"$out")" = 6 ] && pass ||
	fail "check --all: not the 6 inconclusive checks"
expect_no_match "$out" 'lists them' "check --all: no summary line"
expect_exit 1 sg ci --no-run --no-post -o "$T/ci"
[ "$(grep -c '^INCONCLUSIVE' <<<"$out")" = 1 ] && pass || fail "ci: more than one inconclusive line"
expect_match "$out" '^scalegate check: 36 checks: 1 regression \(9 checks failed\)' \
	"ci: the count line"
expect_exit 1 sg ci --no-run --no-post -o "$T/ci" --all
[ "$(grep -c '^INCONCLUSIVE jacobi ' <<<"$out")" = 6 ] && pass ||
	fail "ci --all: not the 6 inconclusive checks"
[ "$(grep -c '^PASS jacobi ' <<<"$out")" = 21 ] && pass || fail "ci --all: not the 21 passes"

# The post: the headline of the summary; without one, the findings counted as check counts them.
python3 - "$T/s.json" "$T/nohead.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
del d["headline"]
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 0 "$SCALEGATE" post --dry-run --format github --repository o/r --sha \
	0123456789abcdef0123456789abcdef01234567 "$T/s.json"
expect_match "$out" '"description": "scalegate: 1 regression \(9 checks failed\)' \
	"post: the headline"
expect_exit 0 "$SCALEGATE" post --dry-run --format github --repository o/r --sha \
	0123456789abcdef0123456789abcdef01234567 "$T/nohead.json"
expect_match "$out" '"description": "scalegate: regression: 1 regression \(9 checks failed\)"' \
	"post: the findings without a headline"
exit 0
