# History: a benchmark whose sweep steps +15 % at one commit among 24 recorded runs; 'history
# detect' reports that change (within one run) and nothing on the unchanged interval, exits 1 only
# while it is recent; a step in the newest run is found the night it arrives; the trend pages show
# the change point in headless Chromium; 'ci' prints the drift.
. "$(dirname "$0")/lib.bash"
gen="$SG_TOP/tests/data/history/generate.py"
db="$T/h.db"

python3 "$gen" "$T/runs" 1 24 sweep:13:0.15
expect_exit 0 "$SCALEGATE" history import --history "$db" --branch main "$T"/runs/c*
expect_match "$out" "recorded run 24 of commit c24" "import"

expect_exit 0 "$SCALEGATE" history detect --history "$db" --json
printf '%s\n' "$out" >"$T/detect.json"
python3 - "$T/detect.json" <<'PY' && pass || fail \
	"the change points of a +15 % step in the sweep at c13"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["runs"] == 24 and d["series"] > 0, d
keys = {"benchmark", "interval", "configuration", "metric", "previous_commit", "commit", "before",
        "after", "change",
        "p", "min_change", "regression", "kind", "tolerated"}
cps = d["change_points"]
assert cps, "no change point"
for c in cps:
    assert set(c) == keys, c
    assert c["benchmark"] == "jacobi" and c["metric"] == "time" and c["regression"] is True, c
    assert c["commit"] in ("c12", "c13", "c14"), c
    assert int(c["previous_commit"][1:]) + 1 == int(c["commit"][1:]), c
    assert "residual" not in c["interval"], ("a change point on the unchanged interval", c)
    assert 0 < c["p"] < 0.01 and c["after"] > c["before"], c
sweep = [c for c in cps if c["interval"] == "program/solve/sweep"]
assert sorted(c["configuration"] for c in sweep) == ["1x1", "1x2"], cps
assert all(0.12 < c["change"] < 0.18 for c in sweep), sweep
PY
# Points are read by a table scan, not sorted by series: stored newest run first, the same change
# points.
cp "$db" "$T/reversed.db"
sqlite3 "$T/reversed.db" \
	"BEGIN; CREATE TEMP TABLE p AS SELECT * FROM points;
	DELETE FROM samples; DELETE FROM points;
	INSERT INTO points SELECT * FROM p ORDER BY run DESC, series DESC; COMMIT;"
expect_exit 0 "$SCALEGATE" history detect --history "$T/reversed.db" --json
[ "$out" = "$(cat "$T/detect.json")" ] && pass ||
	fail "points stored out of run order change what detect finds"
expect_exit 0 "$SCALEGATE" history detect --history "$db"
expect_match "$out" "^history: 24 runs, [0-9]+ series; 6 change points" "text output"
re="REGRESSION +jacobi program/solve/sweep 1x1 time: \+1[0-9]\.[0-9] % .* at c13 \(after c12\)"
expect_match "$out" "$re" "text line"
# the change is 12 runs old: a window of 12 holds it, the default (the last run) does not
expect_exit 1 "$SCALEGATE" history detect --history "$db" --window 12
expect_exit 2 "$SCALEGATE" history detect --history "$db" --window 0
expect_exit 2 "$SCALEGATE" history detect --history "$db" --window 2.5
expect_match "$out" "--window must be a whole number of runs" "a fraction of a run"
expect_exit 0 "$SCALEGATE" history detect --history "$db" --branch other --json
expect_match "$out" '"series": 0, "runs": 0' "another branch has no runs"

# The newest run: the residual 40 % slower, recorded by 'history record' with its names given: a
# suspect tonight (one noisy night pages nobody), confirmed by the next run at the same level.
python3 "$gen" "$T/runs" 25 25 sweep:1:0.15 residual:25:0.40
expect_exit 0 "$SCALEGATE" history record --history "$db" --commit c25 --branch main --parent c24 \
	--date 2026-11-25T22:00:00Z --job-url https://ci.example/job/25 "$T/runs/c25"
expect_exit 0 "$SCALEGATE" history detect --history "$db" --json
re='"interval": "program/solve/residual", "configuration": "1x1", "metric": '
re+='"time", "previous_commit": "c24", "commit": "c25"'
expect_match "$out" "$re" \
	"the newest run's step"
expect_match "$out" '"commit": "c25", [^}]*"kind": "suspect"' "one run alone is a suspect"
expect_exit 0 "$SCALEGATE" history detect --history "$db"
re="suspect +jacobi program/solve/residual 1x1 time: .* at c25 \(after "
re+="c24\), .*the next run at this level confirms it"
expect_match "$out" "$re" \
	"the suspect's line"
[ "$(sqlite3 "$db" "SELECT parent || ' ' || date || ' ' || job_url
	FROM runs WHERE commit_id = 'c25'")" = \
	"c24 2026-11-25T22:00:00Z https://ci.example/job/25" ] && pass || fail "the run's names"
# every repeat's sample is kept beside the median
[ "$(sqlite3 "$db" \
	"SELECT count(*) FROM samples s JOIN series x ON x.id = s.series
	WHERE x.metric = 'time' AND s.run = 25 AND x.interval = 'program'
	AND x.configuration = '1x1'")" = 5 ] && pass ||
	fail "five repeats of program 1x1"

# Names from the CI's environment: GitHub's, then GitLab's.
python3 "$gen" "$T/runs" 26 26 sweep:1:0.15 residual:25:0.40
GITHUB_SHA=feedbeef GITHUB_REF_NAME=main GITHUB_SERVER_URL=https://github.com \
	GITHUB_REPOSITORY=o/r GITHUB_RUN_ID=7 \
	expect_exit 0 "$SCALEGATE" history record --history "$db" "$T/runs/c26"
[ "$(sqlite3 "$db" "SELECT branch || ' ' || job_url FROM runs WHERE commit_id = 'feedbeef'")" = \
	"main https://github.com/o/r/actions/runs/7" ] && pass || fail "GitHub's names"
expect_exit 1 "$SCALEGATE" history detect --history "$db"
re="REGRESSION +jacobi program/solve/residual 1x1 time: "
re+="\+[34][0-9]\.[0-9] % .* at c25 \(after c24\)"
expect_match "$out" "$re" \
	"confirmed by the next run, named where it began"
(cd "$T" && env -u GITHUB_SHA CI_COMMIT_SHA=c0ffee CI_COMMIT_BRANCH=main CI_JOB_URL=https://gl/j/1 \
	"$SCALEGATE" history record --history "$db" "$T/runs/c26" >/dev/null) && pass ||
		fail "GitLab's names"
[ "$(sqlite3 "$db" "SELECT branch || ' ' || job_url FROM runs WHERE commit_id = 'c0ffee'")" = \
	"main https://gl/j/1" ] && pass ||
	fail "GitLab's names"
(cd "$T" && env -u GITHUB_SHA -u CI_COMMIT_SHA -u GIT_COMMIT "$SCALEGATE" history record \
	--history "$db" "$T/runs/c26") >"$T/nocommit.log" 2>&1 && fail "a record without any commit"
grep -q "no commit" "$T/nocommit.log" && pass || fail "the message without a commit"

# Trend pages: one per benchmark, the change points marked and linked, rendered by headless
# Chromium.
expect_exit 0 "$SCALEGATE" history report --history "$db" --html "$T/site" --commit-url \
	'https://github.com/o/r/commit/{commit}'
[ -s "$T/site/index.html" ] && [ -s "$T/site/bench-jacobi.html" ] && pass || fail "the trend pages"
grep -q 'href="bench-jacobi.html"' "$T/site/index.html" && pass ||
	fail "the index links the benchmark's page"
grep -q '<a href="https://github.com/o/r/commit/c13"><line class="change"' \
	"$T/site/bench-jacobi.html" && pass ||
	fail "the change point at c13 marked and linked"
grep -q 'change point at c25: 1x1 time +' "$T/site/bench-jacobi.html" && pass ||
	fail "the newest change point"
if grep -q '<script\|src=' "$T/site/bench-jacobi.html"; then fail \
	"the page is not self-contained"; fi
command -v chromium >/dev/null && pass ||
	fail "chromium is not installed (ci/install-deps.sh installs it)"
# headless ARGS...: headless Chromium with a profile of its own, nothing fetched
headless() {
	DBUS_SESSION_BUS_ADDRESS=disabled: timeout 120 chromium --headless --no-sandbox \
		--disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync \
		--user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" "$@"
}
headless --window-size=1280,1600 --screenshot="$T/shot.png" "file://$T/site/bench-jacobi.html" \
	>"$T/chromium.log" 2>&1 ||
	{ cat "$T/chromium.log" >&2; fail "chromium"; }
[ -s "$T/shot.png" ] && pass || fail "no screenshot"
python3 "$SG_TOP/tests/data/html/check.py" png "$T/shot.png" && pass ||
	fail "the screenshot of the trend page"
headless --dump-dom "file://$T/site/bench-jacobi.html" >"$T/dom.html" 2>"$T/chromium.log" && pass ||
	fail "chromium --dump-dom"
grep -q 'class="change"' "$T/dom.html" && pass || fail "the rendered page holds no change point"
# the POP factors over time, recorded as series of their own
grep -q '<div class="pop">.*POP factors, 1x2' "$T/dom.html" && pass ||
	fail "the rendered page has no POP factors"
grep -q 'Load_balance' "$T/dom.html" && grep -q 'Parallel_efficiency' "$T/dom.html" && pass ||
	fail "the POP lines"
# the scaling curves of the newest run and of the run before the last regression, side by side
grep -q '<figure class="scaling"><figcaption>Speedup over processors' "$T/dom.html" &&
	grep -q '<figure class="scaling"><figcaption>Efficiency over processors' "$T/dom.html" && \
		pass ||
	fail "the rendered page has no scaling curves"
grep -q 'c24 (before the last regression)' "$T/dom.html" && pass ||
	fail "the run before the regression at c25"
[ "$(grep -o '<polyline class="scaling"' "$T/dom.html" | wc -l)" -ge 4 ] && pass ||
	fail "two curves per scaling plot"
pop="SELECT count(DISTINCT metric) FROM series
	WHERE metric IN ('Load_balance', 'Communication_efficiency', 'Parallel_efficiency')"
[ "$(sqlite3 "$db" "$pop")" = 3 ] && pass ||
	fail "the POP factors are not recorded"

# --compare: the scaling curves of chosen commits (a unique prefix will do) side by side, in every
# interval.
expect_exit 0 "$SCALEGATE" history report --history "$db" --html "$T/cmp" --compare c05,c13,feedbee
grep -q 'The scaling curves compare <code>c05</code>, <code>c13</code>, <code>feedbeef</code>' \
	"$T/cmp/bench-jacobi.html" && pass ||
	fail "the page does not say which commits it compares"
headless --window-size=1280,1600 --screenshot="$T/cmp.png" "file://$T/cmp/bench-jacobi.html" \
	>"$T/chromium.log" 2>&1 ||
	{ cat "$T/chromium.log" >&2; fail "chromium on the compared commits"; }
python3 "$SG_TOP/tests/data/html/check.py" png "$T/cmp.png" && pass ||
	fail "the screenshot of the compared commits"
headless --dump-dom "file://$T/cmp/bench-jacobi.html" >"$T/cmp-dom.html" 2>"$T/chromium.log" && \
	pass ||
	fail "chromium --dump-dom"
python3 - "$T/cmp-dom.html" <<'PY' && pass || fail \
	"the rendered scaling curves of c05, c13 and feedbeef"
import re, sys
dom = open(sys.argv[1]).read()
figures = re.findall(r'<figure class="scaling">(.*?)</figure>', dom, re.S)
assert (len(figures) >= 4
        and len(figures) % 2 == 0), len(figures)  # speedup and efficiency per interval
for f in figures:
    assert len(re.findall(r'<polyline class="scaling"[^>]*points="[0-9]',
                          f)) == 3, f  # three curves, each drawn
    legend = re.sub(r"<[^>]+>", "", f[f.index('class="legend"'):])
    assert re.search(r"c05 \(\S+\).*c13 \(\S+\).*feedbeef \(\S+\)",
                     legend), legend  # commit (its date)
assert "before the last regression" not in dom
PY
expect_exit 2 "$SCALEGATE" history report --history "$db" --html "$T/cmp" --compare c05,nosuch
expect_match "$out" "no recorded run of commit 'nosuch'" "an unknown commit"
expect_exit 2 "$SCALEGATE" history report --history "$db" --html "$T/cmp" --compare c0
expect_match "$out" "'c0' starts more than one commit" "an ambiguous prefix"
expect_exit 2 "$SCALEGATE" history report --history "$db" --html "$T/cmp" --compare \
	c01,c02,c03,c04,c05,c06,c07
expect_match "$out" "at most 6 commits" "too many commits"

# 'history:' in scalegate.yml, and 'ci --record' with the drift line.
cp -r "$SG_TOP/tests/data/check/within-tolerance" "$T/proj"
printf 'history: h.db\nundecided: pass\n' >>"$T/proj/scalegate.yml" \
	# the history's steps widen the shift
cp "$db" "$T/proj/h.db"
(cd "$T/proj" && GITHUB_SHA=c27 "$SCALEGATE" ci --no-run --no-post --record) >"$T/ci.log" 2>&1 && \
	pass || { cat "$T/ci.log"; fail "ci --record"; }
grep -q "history: recorded run 28 of commit c27" "$T/ci.log" && pass || { cat "$T/ci.log"; fail \
	"ci --record recorded nothing"; }
re="^history: jacobi \(1x[12]\) is [0-9.]+ % (slower|faster) than 27 runs ago \(medians of 5 "
re+="runs, 95 % interval [-+][0-9.]+ to [-+][0-9.]+ %\); regressions at .*c13 .*"
grep -Eq "$re" "$T/ci.log" &&
	grep -Eq "^history: jacobi .*regressions at .*c25 \(program/solve/residual 1x[12] time \+" \
		"$T/ci.log" ||
	{ cat "$T/ci.log"; fail "the drift line"; }
printf 'history: ftp://x/y\n' >>"$T/proj/scalegate.yml"
expect_exit 2 "$SCALEGATE" history detect -c "$T/proj/scalegate.yml"
echo "ok: history detect, record, report and ci --record"
