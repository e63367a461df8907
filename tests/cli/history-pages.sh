# The trend site at scale, at a small scale: with a page budget of 300 kB
# (SCALEGATE_TREND_PAGE_BYTES), a history of 2 benchmarks x 13 intervals x 2 configurations (468
# series) over 30 runs is split onto pages of their own, none over the budget; the index lists every
# benchmark x interval x configuration with its state and links it to the section that draws it; a
# step counts once however many metrics it moved and however many intervals around it show it;
# change marks on every level; commit subjects on the pages; share axes from 0; no script, nothing
# fetched. (tests/bench/history_bench.sh checks the 5 MB pages of 5,004 series.)
. "$(dirname "$0")/lib.bash"
command -v sqlite3 >/dev/null && pass || fail "the sqlite3 shell is not installed (Debian: sqlite3)"
cd "$T" # no scalegate.yml: the default rules
# program/r1/r4 (interval 4) of bench00 28 % slower from run 16 on (its ancestors by the same
# seconds: changes of their own); bench01's program/r2/r7 (interval 7) 25 % faster from run 21 on,
# its program/r3/r10 10 % slower from run 11 on (too little for program/r3 and program to change
# beyond their noise)
python3 "$SG_TOP/tests/data/history/many.py" "$T/runs" 30 --benchmarks 2 --intervals 13 \
	--step bench00:4:16:1.28 --step bench01:7:21:0.75 --step bench01:10:11:1.10
expect_exit 0 "$SCALEGATE" history import --history "$T/h.db" "$T"/runs/c*
sqlite3 "$T/h.db" "UPDATE runs SET subject = 'Subject of ' || commit_id"
[ "$(sqlite3 "$T/h.db" 'SELECT count(*) FROM series')" = 468 ] && pass || fail "468 series"

budget=300000
SCALEGATE_TREND_PAGE_BYTES=$budget expect_exit 0 "$SCALEGATE" history report --history "$T/h.db" \
	--html "$T/site"
expect_exit 1 "$SCALEGATE" history detect --history "$T/h.db" --json --window 30
printf '%s\n' "$out" >"$T/detect.json"
sqlite3 -separator ' ' "$T/h.db" "SELECT DISTINCT benchmark, interval, configuration FROM series" \
	>"$T/cells"
python3 - "$T/site" "$budget" "$T/cells" "$T/detect.json" <<'PY' && pass || fail "the trend site"
import glob, html, json, os, re, sys
site, budget, cells = sys.argv[1], int(sys.argv[2]), sys.argv[3]
detect = json.load(open(sys.argv[4]))
pages = {os.path.basename(p): open(p).read() for p in glob.glob(os.path.join(site, "*.html"))}
# no page over the budget; the benchmarks split onto parts, their page an overview linking them
for name, text in pages.items():
    assert len(text.encode()) <= budget, (name, len(text.encode()))
    assert ("<script" not in text and "src=" not in text
            and "http" not in text.replace("http://www.w3.org/2000/svg", "")), name
for b in ("bench00", "bench01"):
    parts = sorted(n for n in pages if n.startswith("bench-%s." % b) and n != "bench-%s.html" % b)
    assert len(parts) >= 2, (b, sorted(pages))
    for p in parts:
        assert 'href="bench-%s.%s"' % (b, p.split(".", 1)[1]) in pages["bench-%s.html" % b], (b, p)
    assert "<section" not in pages["bench-%s.html" % b], "the overview holds no plots"
# the index: every benchmark x interval x configuration, linked to the section that draws it
index = pages["index.html"]
rows = re.findall(r'<tr class="cell st-(\w+)"><td><a href="([^"#]+)#(i'
                  r'\d+)">([^<]+)</a></td><td>([^<]+)</td>', index)
listed = {(h, cfg) for _, _, _, h, cfg in rows}
for line in open(cells):
    bench, interval, cfg = line.split()
    assert (interval, cfg) in listed, (bench, interval, cfg)
assert len(rows) == sum(1 for _ in open(cells)), (len(rows), "rows")
for state, page, anchor, interval, cfg in rows:
    m = re.search(r'<section id="%s"><h2>([^<]+)</h2>' % anchor, pages[page])
    assert m and m.group(1) == interval, (page, anchor, interval)
# states: the step's cell a regression, the faster cell an improvement, the rest quiet
state = {(page.split(".")[0], interval, cfg): s for s, page, _, interval, cfg in rows}
assert state[("bench-bench00", "program/r1/r4", "1x1")] == "regression", state
assert state[("bench-bench01", "program/r2/r7", "1x2")] == "improvement", state
assert state[("bench-bench00", "program/r2", "1x1")] == "quiet", state
# one finding per cause: the step moved several metrics of program/r1/r4 and shows in program/r1 and
# program too,
# yet counts once per configuration
cps = [c for c in detect["change_points"] if c["benchmark"] == "bench00" and c["kind"] != "suspect"
       and c["regression"]]
assert len(cps) > 2, cps
summary = re.search(r'<tr><td><a href="bench-bench00.html">.*?</tr>', index).group(0)
cols = re.findall(r'<td class="num">([^<]*)</td>', summary)
assert re.fullmatch(r"2 \(c001[56]\)",
                    cols[1]), cols  # regressions: 1x1 and 1x2, at the step's commit
assert re.search(r"in program/r1/r4\)", index), "an ancestor's finding names the interval within"
summary = re.search(r'<tr><td><a href="bench-bench01.html">.*?</tr>', index).group(0)
cols = re.findall(r'<td class="num">([^<]*)</td>', summary)
assert re.fullmatch(r"2 \(c001[12]\)", cols[1]) and re.fullmatch(r"2 \(c002[12]\)", cols[3]), cols
# change marks on every level: the ancestors of a step mark it, their own change or, thin and
# dotted, the deepest
# interval's within them
def section(bench, interval):
    page = [p for _, p, _, i, _ in rows if i == interval and p.startswith("bench-" + bench)][0]
    return re.search(r'<section id="i\d+"><h2>%s</h2>.*?</section>' % interval, pages[page],
                     re.S).group(0)
for interval in ("program", "program/r1", "program/r1/r4"):
    assert re.search(r'<line class="change"[^>]*><title>change point at c001[56]: ',
                     section("bench00", interval)), interval
for interval in ("program", "program/r3"):
    assert re.search(r'<line class="change inner"[^>]*><title>change point at c001[12] in '
                     r'program/r3/r10: ',
                     section("bench01", interval)), interval
assert re.search(r'<line class="change inner"[^>]*><title>change point at c002[12] in '
                 r'program/r2/r7: ',
                 section("bench01", "program")), "the deepest interval named"
# commit subjects: the runs' page, the change table, the marks
assert ("<td>Subject of c0016</td>" in pages["runs.html"]
        or "<td>Subject of c0015</td>" in pages["runs.html"])
assert re.search(r'c001[56]</a></code> <span class="subject">Subject of c001[56]</span>',
                 pages["bench-bench00.html"])
# the shares' axes from 0: no negative tick, 0 the lowest
for name, text in pages.items():
    for fig in re.findall(r"<figcaption>Lost-time shares.*?</svg>", text, re.S):
        ticks = [float(t) for t in re.findall(r'text-anchor="end">([-0-9.e+]+)</text>', fig)]
        assert ticks and min(ticks) == 0, (name, ticks)
# the filter: a radio button per state and the CSS that hides the other rows; no script
assert re.search(r'<input type="radio" name="show" id="show-regression"><label '
                 r'for="show-regression">regression \(\d+\)', index)
assert "#show-regression:checked~table.cells tr.cell:not(.st-regression)" in index
PY

# The default budget (5 MB): each benchmark's intervals on its own page, as a small history had.
expect_exit 0 "$SCALEGATE" history report --history "$T/h.db" --html "$T/one"
[ "$(ls "$T/one")" = "$(printf 'bench-bench00.html\nbench-bench01.html\nindex.html\nruns.html')" ] \
	&& pass ||
	fail "pages of a small history: $(ls "$T/one" | tr '\n' ' ')"
grep -q '<section id="i[0-9]*"><h2>program/r1/r4</h2>' "$T/one/bench-bench00.html" && pass ||
	fail "the sections on the benchmark's page"
echo "ok: trend pages split within the budget, the index links every cell, findings counted once"
