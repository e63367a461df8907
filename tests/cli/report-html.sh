# The HTML report: written by 'report --html' and 'check --html', self-contained, deterministic,
# escaped; rendered in Debian's headless Chromium with no console error, every plot with data, and a
# screenshot that is not blank.
. "$(dirname "$0")/lib.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
check_py="$SG_TOP/tests/data/html/check.py"

msg="chromium is not installed: the HTML report is checked in Debian's "
msg+="headless Chromium (ci/install-deps.sh installs it)"
command -v chromium >/dev/null && pass ||
	fail "$msg"

# chromium_run PAGE OUT-PREFIX ARGS...: headless, offline, a fresh profile; console messages go to
# OUT-PREFIX.log.
chromium_run() {
	local page=$1 prefix=$2
	shift 2
	DBUS_SESSION_BUS_ADDRESS=disabled: timeout 120 chromium --headless --no-sandbox \
		--disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync \
		--user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" --enable-logging=stderr --v=0 \
		"$@" \
		"file://$page" 2>"$prefix.log"
}

# console_errors LOG: the page's console messages and uncaught exceptions (the report has no script:
# any is an error).
console_errors() {
	grep -E 'CONSOLE|Uncaught' "$1" || true
}

# render PAGE PLOTS: screenshot, DOM and console of PAGE; PLOTS plots, each with data; a picture
# that is not blank.
render() {
	local page=$1 plots=$2 name errors
	name=$(basename "$page" .html)
	# one load of the page for both (a Chromium start is seconds of the test's time)
	chromium_run "$page" "$T/$name" --screenshot="$T/$name.png" --window-size=1280,2000 \
		--dump-dom >"$T/$name.dom" ||
		{ cat "$T/$name.log" >&2; fail \
			"chromium could not take a screenshot and dump the DOM of $page"; }
	errors=$(console_errors "$T/$name.log")
	[ -z "$errors" ] && pass || { printf '%s\n' "$errors" >&2; fail \
		"console errors while rendering $page"; }
	[ -s "$T/$name.png" ] && pass || fail "no screenshot of $page"
	python3 "$check_py" dom "$T/$name.dom" "$plots" && pass || fail "the rendered DOM of $page"
	python3 "$check_py" png "$T/$name.png" && pass || fail "the screenshot of $page"
	if [ -n "${SG_HTML_SHOT:-}" ]; then
		mkdir -p "$SG_HTML_SHOT" && cp "$T/$name.png" "$page" "$SG_HTML_SHOT/"
	fi
}

# The console check itself catches an error (else a quiet log would prove nothing).
printf '<!DOCTYPE html><html><body><p>x</p><script>undefined_function();</script></body></html>\n' \
	>"$T/bad.html"
chromium_run "$T/bad.html" "$T/bad" --screenshot="$T/bad.png" --window-size=1280,2000 --dump-dom \
	>/dev/null && pass ||
	fail "chromium does not run"
console_errors "$T/bad.log" | grep -q 'Uncaught ReferenceError' || {
	cat "$T/bad.log" >&2
	fail "chromium's log does not show a page's uncaught error:" \
		"the console check would be blind"
}

# Usage.
expect_exit 2 "$SCALEGATE" report
expect_match "$out" "nothing to write: give --html FILE" "report without --html"
expect_exit 0 "$SCALEGATE" report --help
expect_match "$out" '^usage: scalegate report --html FILE' "report --help"
expect_exit 0 "$SCALEGATE" check --help
expect_match "$out" '--html FILE +write the HTML report' "check --help names --html"

# ---- synthetic results: strong scaling with a regression, weak scaling, isoefficiency over 5 sizes
# ----
python3 "$SG_TOP/tests/data/html/generate.py" "$T/syn"
syn() { "$SCALEGATE" "$@" -c "$T/syn/scalegate.yml"; }
expect_exit 0 syn baseline update -r "$T/syn/results-base"
expect_exit 0 syn report --html "$T/syn/report.html"
expect_match "$out" "^wrote $T/syn/report.html: regression$" \
	"report says what it wrote and the outcome"
expect_exit 1 syn check --html "$T/syn/check.html" --json "$T/syn/summary.json"
re='^FAIL solver program/solve/residual 1 rank × 2 threads tolerance\.insufficient_parallelism'
expect_match "$(checks_of "$out")" "$re" "check fails the residual"
prog='import json, sys; d = json.load(open(sys.argv[1])); assert '
prog+='d["reports"]["html"] == sys.argv[2], d["reports"]'
python3 -c "$prog" \
	"$T/syn/summary.json" "$T/syn/check.html" && pass ||
		fail "the JSON summary does not name the HTML report"
cmp -s "$T/syn/report.html" "$T/syn/check.html" && pass ||
	fail "'report --html' and 'check --html' differ on the same input"
expect_exit 0 syn report --html "$T/syn/again.html"
cmp -s "$T/syn/report.html" "$T/syn/again.html" && pass ||
	fail "the HTML report is not deterministic"
# What the data could not decide is listed apart, collapsed, and does not fill the Warnings table
# (nor push the plots off the first screen).
re="<summary>Inconclusive: the noise allows only larger changes to be detected ([0-9]*)</summary>"
grep -q "$re" "$T/syn/report.html" && pass ||
	fail "the inconclusive checks are not listed in their own section"
awk "/<h2 id=\"warn\">/,/<\/table>/" "$T/syn/report.html" | grep -q "inconclusive:" &&
	fail "an inconclusive check sits in the Warnings table"
expect_exit 1 syn check --markdown "$T/syn/summary.md"
re="^<details><summary>Inconclusive: the noise allows only larger "
re+="changes to be detected ([0-9]*)</summary>"
grep -q "$re" \
	"$T/syn/summary.md" && pass ||
		fail "the Markdown summary does not list the inconclusive checks apart"

static=$(python3 "$check_py" static "$T/syn/report.html") && pass ||
	fail "the report is not self-contained"
# Regressions' intervals first, then the warning's, then the rest by level; 'block' (level 3, no
# verdict) left out.
expect_match "$static" '^section s0 st-fail regression solver program/solve$' \
	"first section: a regression"
expect_match "$static" '^section s1 st-fail regression solver program/solve/residual$' \
	"second section: a regression"
expect_match "$static" '^section s2 st-warn warning heat-weak program/step$' "then the warning"
expect_match "$static" "^section s8 st-none no checks solver program/setup<b x=\"1\">&'q'\$" \
	"the HTML in a name is text"
expect_match "$static" '^section s10 st-pass pass solver program/solve/sweep$' "level 2 last"
expect_no_match "$static" 'sweep/block' "level 3 without a verdict is not plotted"
[ "$(grep -c '^section ' <<<"$static")" -eq 11 ] && pass || fail "expected 11 sections: $static"
# Plots: 5 per strong-scaling interval (execution time, speedup, efficiency, Karp-Flatt, lost time)
# x 5, weak efficiency and lost time x 2, the 5 + isoefficiency x 2 of 'reduce', and 5 x 2 of
# 'contended': 51.
expect_match "$static" '^plots 51$' "51 plots"
html=$(cat "$T/syn/report.html")
re='1 interval not plotted \(1 deeper than level 2 without a warning or '
re+='regression\): solver <code>program/solve/sweep/block</code>'
expect_match "$html" "$re" "what was left out"
expect_match "$html" 'setup&lt;b x=&quot;1&quot;&gt;&amp;&apos;q&apos;' "the interval name escaped"
expect_match "$html" '<figcaption>Isoefficiency n\(p\) at 80 % efficiency</figcaption>' \
	"isoefficiency plot"
expect_match "$html" 'fitted growth: n ~ p log p' "the fitted growth of the reduction"
re='to hold 80 % efficiency, n must grow like p log p; memory per processor then grows like log p'
expect_match "$html" "$re" "the isoefficiency verdict"
expect_match "$html" '<figcaption>Weak-scaling efficiency vs p</figcaption>' "weak-scaling plot"
expect_match "$html" '<a href="#s1"><code>program/solve/residual</code></a>' \
	"a regression links to its plots"
expect_match "$html" \
	'Insufficient_parallelism \(serial code\) grew from 0\.0 % to 50\.0 % of Total_time' \
	"the cause"
expect_match "$html" '<title>p = 2 \(1 rank × 2 threads\): speedup 1 \[' "hover text on a mark"
# the header names the results directory once ("results results" read twice)
expect_match "$html" '&middot;|from <code>results/</code>' "the header's results directory"
expect_no_match "$html" 'results <code>results' "the word 'results' twice in the header"
# contended: no speedup at p = 2 (e > 2), reached as 1 rank × 2 threads and as 2 ranks × 1 thread
expect_match "$html" 'key k-line" style="--c:[^"]*"></span>1 rank × threads<' \
	"a series per rank count (1 rank)"
expect_match "$html" 'key k-line" style="--c:[^"]*"></span>2 ranks × threads<' \
	"a series per rank count (2 ranks)"
expect_match "$html" \
	'<title>p = 2 \(2 ranks × 1 thread\): Karp–Flatt e 2\.58 .*\(no speedup: e ≥ 1\)' \
	"2 ranks × 1 thread has its own mark, and e >= 1 reads 'no speedup'"
expect_match "$html" '<text class="offscale"[^>]*>3\.96</text>' \
	"a Karp-Flatt e past the axis is labelled with its value"
expect_match "$html" '<text class="offscale"[^>]*>baseline 2\.97</text>' "so is the baseline's"
expect_match "$html" 'beyond the axis \(0 to 2\), drawn at its edge' \
	"the off-scale marker is explained"
re='<title>p = 2 \(1 rank × 2 threads\): baseline speedup 0\.5[0-9]* \[[0-9.]+, [0-9.]+\], n = 5'
expect_match "$html" "$re" \
	"the baseline has its interval"
# The execution time is plotted, in seconds; the baseline in a colour of its own (no series has it).
expect_match "$html" '<figcaption>Execution time vs p</figcaption>' "an execution-time plot"
re='<title>p = 2 \(1 rank × 2 threads\): Execution_time [0-9.]+ s \[[0-9.]+ s, [0-9.]+ s\], n = 5'
expect_match "$html" "$re" \
	"the execution time's marks in seconds"
expect_match "$html" \
	'stroke="#222222"[^>]*><title>p = 2 \(1 rank × 2 threads\): baseline speedup ' \
	"the baseline's marks in their own colour"
expect_no_match "$html" 'stroke="#0072B2"[^>]*><title>[^<]*: baseline ' \
	"no baseline mark in the current results' colour"
expect_match "$html" 'no speedup \(e ≥ 1: more processors were no faster than one\)' \
	"the trend in words"
render "$T/syn/report.html" 51

# ---- end to end on the Jacobi example: run, baseline, the serial-residual knob, check and report
# ----
cat >"$T/scalegate.yml" <<YML
results: results
baselines: baselines
defaults:
  workdir: $SG_BUILD/examples
  warmup: 0
  repeat: 3
benchmarks:
  - name: jacobi
    command: ./jacobi {threads} 200 60
    threads: [1, 2]
rules:
  - name: no-new-serial-code
    benchmark: jacobi
    interval: "program/solve*"
    tolerance:
      insufficient_parallelism: 0.10
    significance: 0.05
YML
sg() { "$SCALEGATE" "$@" -c "$T/scalegate.yml"; }
expect_exit 0 sg run
expect_exit 0 sg baseline update
SG_KNOB_SERIAL=1 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/knob" >/dev/null 2>&1 && pass ||
	fail "the knob run failed"
expect_exit 1 sg check -r "$T/knob" --html "$T/jacobi.html"
re='^FAIL jacobi program/solve/residual 1 rank × 2 threads tolerance\.insufficient_parallelism'
expect_match "$(checks_of "$out")" "$re" "the knob is a regression"
expect_exit 0 sg report -r "$T/knob" --html "$T/jacobi-report.html"
cmp -s "$T/jacobi.html" "$T/jacobi-report.html" && pass ||
	fail "check --html and report --html differ on the Jacobi results"
static=$(python3 "$check_py" static "$T/jacobi.html") && pass ||
	fail "the Jacobi report is not self-contained"
expect_match "$static" '^section s[01] st-fail regression jacobi program/solve/residual$' \
	"the regression's interval first"
# program, program/solve, program/solve/sweep, program/solve/residual: 5 plots each.
expect_match "$static" '^plots 20$' "20 plots for the Jacobi example"
render "$T/jacobi.html" 20
# an OpenMP-only program: no legend entry for what it cannot have
expect_no_match "$(cat "$T/jacobi.html")" '</span>Communication' "no Communication key without MPI"
expect_no_match "$(cat "$T/jacobi.html")" '</span>Idle<' \
	"no Idle key (ranks that finished early) with one rank"

# ---- a crashed run: the Errors section is open, the page renders ----
sed_script='/tests/data/run/fake.sh crash\n    repeat: 2\nrules:|'
sed 's|^rules:$|  - name: crash\n    command: sh '"$SG_TOP""$sed_script" \
	"$T/scalegate.yml" >"$T/crashed.yml"
grep -q 'name: crash' "$T/crashed.yml" && pass || fail "no crash benchmark in crashed.yml"
expect_exit 3 "$SCALEGATE" run -c "$T/crashed.yml" -o "$T/crashed"
expect_exit 3 "$SCALEGATE" check -c "$T/crashed.yml" -r "$T/crashed" --html "$T/crashed.html"
expect_match "$(cat "$T/crashed.html")" '<details open><summary>Errors \(1\)</summary>' \
	"the Errors section is open"
expect_match "$(cat "$T/crashed.html")" 'crash: killed by SIGSEGV' "the crash is in it"
render "$T/crashed.html" 20
