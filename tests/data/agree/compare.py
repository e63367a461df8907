#!/usr/bin/env python3
"""Compares what every report of one gate says about the same cell (tests/cli/report-agree.sh).

usage: tests/data/agree/compare.py times|shares|words DIR

DIR holds the reports of one 'scalegate check --all': console.txt, s.json,
j.xml, s.md and r.html. The JSON summary's verdicts are what the checks judged;
for every cell (interval x configuration) each other report must show the same:

- the time median (the check's, "%.4g s"): the console's and JUnit's messages,
  the JUnit testcase time, the Markdown evidence and scaling tables, the HTML
  figures table and execution-time plot; a time scaled to the stored
  baseline's machine speed says "scaled to the baseline's machine speed by xF"
  in each of them;
- the lost-time shares the checks judged (current and base) in the HTML
  "Lost time by cause" bars; no bar above 100 %, each side's stack of the
  program's terms at most 100 % of one total; the machine's share labelled as
  of Total_time_wall, the same number as the Markdown's;
- the verdict words of the headline: a cell's mark (Markdown) and an
  interval's badge (HTML) is the word of its worst verdict, an inconclusive
  check is never called a warning (JUnit, console), and the counts agree.

Prints every disagreement and exits 1 when there is one. Standard library only.
"""
import html
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

SCALED = "scaled to the baseline's machine speed by \u00d7"
RANK = ["pass", "skipped", "inconclusive", "error", "warning", "regression"]
MD_MARK = {"inconclusive": "\u2754 inconclusive", "error": "\u26a0\ufe0f error",
           "warning": "\u26a0\ufe0f warning", "regression": "\u274c regression"}
TERMS = ("Insufficient_parallelism", "Communication", "Idle", "Synchronization")
problems = []


def problem(text):
    problems.append(text)


def seconds(v):
    return "%.4g s" % v


def share(v):
    return "%.1f" % (100 * v)


def config_words(ranks, threads):
    return "%d rank%s \u00d7 %d thread%s" % (ranks, "" if ranks == 1 else "s", threads,
                                             "" if threads == 1 else "s")


def word(v):
    if v["status"] == "warn":
        return "inconclusive" if v["inconclusive"] else "warning"
    return {"fail": "regression", "pass": "pass", "error": "error",
            "skipped": "skipped"}[v["status"]]


def worst(verdicts):
    return max((word(v) for v in verdicts), key=RANK.index, default="no checks")


def testcase_name(v):
    return "%s %s (p=%d) %s" % (v["interval"], config_words(v["ranks"], v["threads"]), v["p"],
                                v["kind"])


def scaled_label(v):
    """The factor a time was scaled by to the stored baseline's machine speed, as the reports print
    it ("0.909"), or None; the message must say the same."""
    factor = "%.3f" % v["speed_factor"] if v.get("speed_factor") else None
    said = re.search(re.escape(SCALED) + r"([0-9.]+)", v["message"] or "")
    if (said.group(1) if said else None) != factor:
        problem("%s %s: speed_factor %s, the message says %r"
                % (v["interval"], v["kind"], factor, v["message"]))
    return factor


# ---- the inputs ----

def load(d):
    data = json.load(open(os.path.join(d, "s.json"), encoding="utf-8"))
    texts = {}
    for name in ("console.txt", "s.md", "r.html"):
        texts[name] = open(os.path.join(d, name), encoding="utf-8").read()
    return data, texts, ET.parse(os.path.join(d, "j.xml")).getroot()


def cells(verdicts):
    out = {}
    for v in verdicts:
        if v["interval"] and v["ranks"]:
            out.setdefault((v["interval"], v["ranks"], v["threads"]), []).append(v)
    return out


def md_scaling(md):
    """{(interval, 'RxT'): [cells]} of the Markdown scaling tables."""
    rows, interval = {}, None
    for line in md.splitlines():
        m = re.match(r"^\*\*[^*]+\*\* `([^`]+)`", line)
        if m:
            interval = m.group(1)
        elif interval and re.match(r"^\| \d+ \| \d+x\d+ \|", line):
            f = [x.strip() for x in line.split("|")[1:-1]]
            rows[(interval, f[1])] = f
    return rows


def html_sections(page):
    """{interval: (badge word, section html)}"""
    out = {}
    for chunk in page.split('<section class="interval')[1:]:
        chunk = chunk.split("</section>")[0]
        path = html.unescape(re.search(r"<code>(.*?)</code></h3>", chunk).group(1))
        badge = re.search(r'<h3><span class="badge [^"]*">([^<]*)</span>', chunk).group(1)
        out[path] = (badge, chunk)
    return out


def figure(chunk, caption):
    m = re.search(r"<figcaption>" + re.escape(caption) + r".*?</figure>", chunk, re.S)
    return m.group(0) if m else ""


def titles(fig):
    return [html.unescape(t) for t in re.findall(r"<title>([^<]*)</title>", fig)]


# ---- the comparisons ----

def time_everywhere(v, texts, junit, md_rows, sections):
    where = "%s %s" % (v["interval"], config_words(v["ranks"], v["threads"]))
    t = seconds(v["value"])
    factor = scaled_label(v)
    if not (v["message"] or "").startswith("Execution_time median %s " % t):
        problem("%s: the JSON message does not read the value %s: %s" % (where, t, v["message"]))
    if v["message"] not in texts["console.txt"]:
        problem("%s: the console does not carry the check's message" % where)
    tc = junit.get(testcase_name(v))
    if tc is None:
        problem("%s: no JUnit testcase %s" % (where, testcase_name(v)))
    elif abs(float(tc.get("time")) - v["value"]) > 1e-6 * max(1, v["value"]):
        problem("%s: JUnit time %s, the check's %s" % (where, tc.get("time"), t))
    # the table has the intervals with a finding and those of levels 0 and 1
    row = md_rows.get((v["interval"], "%dx%d" % (v["ranks"], v["threads"])))
    if row is not None:
        if not re.match(re.escape(t) + r"( |$)", row[2]):
            problem("%s: the Markdown scaling table's time is %r, the check's %s"
                    % (where, row[2], t))
        if factor and SCALED + factor not in row[2]:
            problem("%s: the Markdown scaling table's scaled time does not say so: %r"
                    % (where, row[2]))
        if seconds(v["baseline"]) != row[3]:
            problem("%s: the Markdown's base time %r, the check's %s"
                    % (where, row[3], seconds(v["baseline"])))
    _, chunk = sections.get(v["interval"], (None, ""))
    cfg = config_words(v["ranks"], v["threads"])
    m = re.search(r"<tr><td>" + re.escape(cfg) + r"</td><td>\d+</td><td>(.*?)</td>", chunk)
    cell = html.unescape(re.sub(r"<[^>]*>", "", m.group(1))) if m else None
    if cell is None or not re.match(re.escape(t) + r"( |$)", cell):
        problem("%s: the HTML figures table's time is %r, the check's %s" % (where, cell, t))
    elif factor and SCALED + factor not in cell:
        problem("%s: the HTML figures table's scaled time does not say so: %r" % (where, cell))
    marks = [x for x in titles(figure(chunk, "Execution time vs p"))
             if x.startswith("p = %d (%s): Execution_time " % (v["p"], cfg))]
    if not marks or not marks[0].startswith("p = %d (%s): Execution_time %s " % (v["p"], cfg, t)):
        problem("%s: the HTML time plot reads %r, the check's %s" % (where, marks[:1], t))
    elif factor and SCALED + factor not in marks[0]:
        problem("%s: the HTML time plot's scaled time does not say so: %r" % (where, marks[0]))


def evidence_rows(md, v):
    where = "`%s` " % v["interval"]
    for line in md.splitlines():
        if where in line and "| %s (p=" % config_words(v["ranks"], v["threads"]) in line \
                and "| `Execution_time` |" in line:
            cur = line.split(" | ")[4]
            if not cur.startswith(seconds(v["value"])):
                problem("%s: the Markdown evidence reads %r, the check's %s"
                        % (where, cur, seconds(v["value"])))
            if scaled_label(v) and SCALED not in cur:
                problem("%s: the Markdown evidence's scaled time does not say so: %r"
                        % (where, cur))


def lost_bars(path, chunk):
    """{(config, side): {term: pct}} of a section's lost-time plot; side 'cur' or 'base'; checks
    the bounds."""
    bars = {}
    pat = re.compile(r"^(.*) \(p = \d+\): (?:(base|baseline) )?(?:(\w+) ([0-9.]+) % of Total_time"
                     r"(?:[ ;]|$)|Interference: the machine took ([0-9.]+) % of Total_time_wall)")
    for t in titles(figure(chunk, "Lost time by cause"))[1:]:
        m = pat.match(t)
        if not m:
            problem("%s: a lost-time bar not on one of the two bases: %r" % (path, t))
            continue
        side = "base" if m.group(2) else "cur"
        term, pct = (m.group(3), float(m.group(4))) if m.group(3) else ("Interference",
                                                                        float(m.group(5)))
        if pct > 100:
            problem("%s: a lost-time bar over 100 %%: %r" % (path, t))
        bars.setdefault((m.group(1), side), {})[term] = pct
    for (cfg, side), terms in bars.items():
        total = sum(p for term, p in terms.items() if term in TERMS)
        if total > 100.05:
            problem("%s %s: the %s's stack adds up to %.1f %% of Total_time"
                    % (path, cfg, side, total))
    return bars


def shares_everywhere(data, texts, sections):
    charts = {path: lost_bars(path, chunk) for path, (_, chunk) in sections.items()}
    seen = 0
    for v in data["verdicts"]:
        if v["unit"] != "share" or v["metric"] not in TERMS or v["status"] == "skipped":
            continue
        bars = charts.get(v["interval"], {})
        cfg = config_words(v["ranks"], v["threads"])
        for side, want in (("cur", v["value"]), ("base", v["baseline"])):
            got = bars.get((cfg, side), {}).get(v["metric"])
            if got is None or "%.1f" % got != share(want):
                problem("%s %s: the HTML %s bar of %s reads %s %%, the check's %s %%" %
                        (v["interval"], cfg, side, v["metric"], got, share(want)))
            seen += 1
    if not seen:
        problem("no share check to compare")
    # the machine's share: of Total_time_wall in the HTML bars as in the Markdown's scaling table
    for (interval, rxt), row in md_scaling(texts["s.md"]).items():
        m = re.search(r"the machine took ([0-9.]+) % of Total_time_wall", row[2])
        ranks, threads = map(int, rxt.split("x"))
        got = charts.get(interval, {}).get((config_words(ranks, threads), "cur"), {})
        if m and "%.1f" % got.get("Interference", -1) != m.group(1):
            problem("%s %s: the machine took %s %% (Markdown), %s %% (HTML)" %
                    (interval, rxt, m.group(1), got.get("Interference")))


def words_everywhere(data, texts, junit_root, md_rows, sections):
    by_cell = cells(data["verdicts"])
    for (interval, ranks, threads), vs in by_cell.items():
        row = md_rows.get((interval, "%dx%d" % (ranks, threads)))
        want = MD_MARK.get(worst(vs), "")
        if row is not None and row[-1] != want:
            problem("%s %dx%d: the Markdown marks %r, its worst verdict is %r"
                    % (interval, ranks, threads, row[-1], want))
    for interval, (badge, _) in sections.items():
        want = worst(v for v in data["verdicts"] if v["interval"] == interval)
        if badge != want:
            problem("%s: the HTML badge says %r, its worst verdict is %r" % (interval, badge, want))
    for path, badge in re.findall(r'<li><a href="#s\d+">[^<]*<code>(.*?)</code></a>'
                                  r'(?: <span class="badge [^"]*">([^<]*)</span>)?</li>',
                                  texts["r.html"]):
        want = worst(v for v in data["verdicts"] if v["interval"] == html.unescape(path))
        if badge != (want if want in RANK[2:] else ""):
            problem("%s: the HTML list's badge says %r, its worst verdict is %r"
                    % (path, badge, want))
    out = "".join(s.text or "" for s in junit_root.iter("system-out"))
    undecided = [v for v in data["verdicts"] if v["status"] == "warn" and v["inconclusive"]]
    if not undecided:
        problem("no inconclusive check to look for")
    for v in undecided:
        name = testcase_name(v)
        if "warning: " + name in out or "inconclusive: " + name not in out:
            problem("JUnit: the inconclusive %s is not listed as inconclusive" % name)
        line = [x for x in texts["console.txt"].splitlines() if v["message"] in x]
        if not line or not line[0].startswith("INCONCLUSIVE "):
            problem("console: the inconclusive %s reads %r" % (name, line[:1]))
    c = data["counts"]
    want = "%d checks: %d failed, %d warned, %d inconclusive, %d error%s, %d skipped, %d passed" % (
        sum(c[k] for k in ("pass", "warn", "fail", "error", "skipped")), c["fail"],
        c["warn"] - c["inconclusive"],
        c["inconclusive"], c["error"], "" if c["error"] == 1 else "s", c["skipped"], c["pass"])
    if not out.startswith(want):
        problem("JUnit: the counts read %r, the JSON's %r" % (out.splitlines()[0], want))
    warnings = sum(f["severity"] == "warning" for f in data["findings"])
    for text, name in ((texts["console.txt"], "console"),
                       (texts["s.md"].splitlines()[0], "Markdown")):
        if "%d warning" % warnings not in text and warnings:
            problem("%s: not %d warnings" % (name, warnings))
        if c["inconclusive"] and "%d inconclusive" % c["inconclusive"] not in text:
            problem("%s: not %d inconclusive" % (name, c["inconclusive"]))
    if '>%d inconclusive<' % c["inconclusive"] not in texts["r.html"]:
        problem("HTML: not %d inconclusive" % c["inconclusive"])


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("times", "shares", "words"):
        sys.exit(__doc__)
    data, texts, junit_root = load(sys.argv[2])
    md_rows = md_scaling(texts["s.md"])
    sections = html_sections(texts["r.html"])
    if sys.argv[1] == "times":
        junit = {tc.get("name"): tc for tc in junit_root.iter("testcase")}
        times = [v for v in data["verdicts"] if v["kind"] == "tolerance.time"
                 and v["value"] is not None]
        if not any((v["interval"], "%dx%d" % (v["ranks"], v["threads"])) in md_rows for v in times):
            problem("no time check to compare, or none in the Markdown scaling table")
        for v in times:
            time_everywhere(v, texts, junit, md_rows, sections)
            evidence_rows(texts["s.md"], v)
    elif sys.argv[1] == "shares":
        shares_everywhere(data, texts, sections)
    else:
        words_everywhere(data, texts, junit_root, md_rows, sections)
    for p in problems:
        print("%s: %s" % (sys.argv[1], p))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
