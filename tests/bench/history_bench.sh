#!/usr/bin/env bash
# History figures: detection quality on synthetic series, detect over 1,000 series x 500 runs, and
# record of a 50-interval x 12-configuration run plus a detect. Times are medians of 5 runs (3 for
# the record). usage: tests/bench/history_bench.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: tests/bench/history_bench.sh BUILD_DIR}
SG="$B/bin/scalegate"
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap '[ -n "${SG_KEEP:-}" ] || rm -rf "$dir"' EXIT

# median_time N CMD...: the median wall time of N runs (odd), in seconds
median_time() {
	local t=() n=$1
	shift
	for _ in $(seq "$n"); do
		local s e
		s=$(date +%s.%N)
		"$@" >/dev/null || [ $? -eq 1 ]
		e=$(date +%s.%N)
		t+=("$(echo "$e - $s" | bc)")
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((n + 1) / 2))p"
}

# fill DB RUNS SERIES MODE: RUNS runs of SERIES time series at CV 3 %; MODE 'step' puts a 10 % step
# at the middle
fill() {
	python3 - "$@" <<'PY'
import random, sqlite3, sys
db, runs, series, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
random.seed(11)
c = sqlite3.connect(db)
c.execute("BEGIN")
c.executemany("INSERT INTO runs (id, commit_id, date, recorded_at) VALUES (?, ?, '2026-01-01', "
              "'2026-01-01')",
              [(r + 1, "c%d" % (r + 1)) for r in range(runs)])
c.executemany("INSERT INTO series (id, benchmark, interval, configuration, metric) VALUES (?, 'b', "
              "?, '1x1', 'time')",
              [(s + 1, "i%d" % s) for s in range(series)])
rows = []
for s in range(series):
    for r in range(runs):
        step = 1.10 if mode == "step" and r >= runs // 2 else 1.0
        rows.append((r + 1, s + 1, step * (1 + 0.03 * random.gauss(0, 1))))
c.executemany("INSERT INTO points (run, series, median, n) VALUES (?, ?, ?, 1)", rows)
c.commit()
PY
}

new_db() {
	rm -f "$1" "$1"-wal "$1"-shm
	"$SG" history detect --history "$1" >/dev/null
}

echo "== history detect: change points at CV 3 % (targets: a 10 % step within one run in >= 95 %;"
echo "   pure noise: at most 1 false change point over 1,000 series x 100 runs)"
new_db "$dir/step.db"
fill "$dir/step.db" 60 1000 step
"$SG" history detect --history "$dir/step.db" --json --window 60 >"$dir/step.json" || true
python3 - "$dir/step.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
found = {c["interval"] for c in d["change_points"] if c["commit"] in ("c30", "c31", "c32")}
other = [c for c in d["change_points"] if c["commit"] not in ("c30", "c31", "c32")]
print("10 %% step after 30 runs, 30 after: found within one run in %d of %d series (%.1f %%); %d "
      "other change points"
      % (len(found), d["series"], 100.0 * len(found) / d["series"], len(other)))
PY
new_db "$dir/noise.db"
fill "$dir/noise.db" 100 1000 noise
"$SG" history detect --history "$dir/noise.db" --json --window 100 >"$dir/noise.json" || true
prog='import json, sys; d = json.load(open(sys.argv[1])); print("pure noise: %d change points over '
prog+='%d series x %d runs" % (len(d["change_points"]), d["series"], d["runs"]))'
python3 -c "$prog" "$dir/noise.json"

echo
msg="== change points on held-out synthetic series (issue 35's cases: 50 "
msg+="series of 100 runs a case, a step at run 51;"
echo "$msg"
msg="   found = a change point within one run of it; Otava 0.8.0's "
msg+="figures on the same kinds of data quoted beside,"
echo "$msg"
echo "   from the issue: it cannot run here)"
# cases DB SPEC...: SPEC is STEP:CV:WILD:SERIES (WILD: the share of runs doubled); series named by
# their case
cases() {
	python3 - "$@" <<'PY'
import random, sqlite3, sys
db, specs = sys.argv[1], sys.argv[2:]
random.seed(35)
c = sqlite3.connect(db)
c.execute("BEGIN")
c.executemany("INSERT INTO runs (id, commit_id, date, recorded_at) VALUES (?, ?, '2026-01-01', "
              "'2026-01-01')",
              [(r + 1, "c%d" % (r + 1)) for r in range(100)])
sid, rows = 0, []
for spec in specs:
    step, cv, wild, n = spec.split(":")
    for k in range(int(n)):
        sid += 1
        c.execute("INSERT INTO series (id, benchmark, interval, configuration, metric) VALUES (?, "
                  "'b', ?, '1x1', 'time')",
                  (sid, "%s#%d" % (spec, k)))
        for r in range(100):
            v = (1 + float(cv) * random.gauss(0, 1)) * (1 + float(step) if r >= 50 else 1)
            v *= 2 if random.random() < float(wild) else 1
            rows.append((r + 1, sid, v))
c.executemany("INSERT INTO points (run, series, median, n) VALUES (?, ?, ?, 1)", rows)
c.commit()
PY
}
steps=()
for w in 0 0.02; do for s in 0.05 0.10 0.20; do for cv in 0.01 0.03 0.05; do \
	steps+=("$s:$cv:$w:50"); done; done; done
new_db "$dir/cases.db"
cases "$dir/cases.db" "${steps[@]}"
"$SG" history detect --history "$dir/cases.db" --json --window 100 >"$dir/cases.json" || true
new_db "$dir/null.db"
cases "$dir/null.db" 0:0.03:0:1000
"$SG" history detect --history "$dir/null.db" --json --window 100 >"$dir/null.json" || true
new_db "$dir/nullw.db"
cases "$dir/nullw.db" 0:0.03:0.02:1000
"$SG" history detect --history "$dir/nullw.db" --json --window 100 >"$dir/nullw.json" || true
python3 - "$dir/cases.json" "$dir/null.json" "$dir/nullw.json" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
found, extra = collections.Counter(), collections.Counter()
for c in d["change_points"]:
    case = c["interval"].split("#")[0]
    if c["kind"] != "suspect" and int(c["commit"][1:]) in (50, 51, 52):
        found[c["interval"]] = 1
    elif c["kind"] != "suspect":
        extra[case] += 1
per = collections.Counter(i.split("#")[0] for i in found)
otava = {"0.05": "228/450 over CV 1-5 %", "0.10": "334/450", "0.20": "423/450"}
print("%-8s %-6s %-10s %s" % ("step", "CV", "wild runs", "found of 50 (extra change points)"))
for w in ("0", "0.02"):
    for s in ("0.05", "0.10", "0.20"):
        for cv in ("0.01", "0.03", "0.05"):
            case = "%s:%s:%s:50" % (s, cv, w)
            print("+%-7s %-6s %-10s %d (%d)"
                  % ("%g %%" % (float(s) * 100), "%g %%" % (float(cv) * 100),
                                                 "2 % x2" if w != "0" else "none", per[case],
                                                 extra[case]))
for name, path in (("clean noise, CV 3 %", sys.argv[2]),
                   ("noise with 2 % of the runs doubled", sys.argv[3])):
    n = json.load(open(path))
    steps = sum(c["kind"] != "suspect" for c in n["change_points"])
    print("%s: %d change points over %d series x %d runs (%d suspects on the newest run)"
          % (name, steps, n["series"], n["runs"], len(n["change_points"]) - steps))
print("Otava 0.8.0 (issue 35): +5 % 228/450, +10 % 334/450, +20 % 423/450 over CV 1/3/5 % (both "
      "kinds of noise); "
      "false change points 83-108 per 1,000 x 100 clean, 421 with outliers")
PY
# one slow night: exit 0 (a suspect); the next run at its level confirms it: exit 1; the night
# after: exit 0
new_db "$dir/night.db"
cases "$dir/night.db" 0:0.03:0:100
sqlite3 "$dir/night.db" "UPDATE points SET median = median * 1.5 WHERE series = 1 AND run = 100"
code=0; "$SG" history detect --history "$dir/night.db" >/dev/null || code=$?
sqlite3 "$dir/night.db" \
	"INSERT INTO runs (id, commit_id, date, recorded_at)
	VALUES (101, 'c101', '2026-01-01', '2026-01-01');
	INSERT INTO points (run, series, median, n)
	SELECT 101, series, CASE WHEN series = 1 THEN 1.5 ELSE 1.0 END, 1
	FROM points WHERE run = 100"
code2=0; "$SG" history detect --history "$dir/night.db" >/dev/null || code2=$?
sqlite3 "$dir/night.db" \
	"INSERT INTO runs (id, commit_id, date, recorded_at)
	VALUES (102, 'c102', '2026-01-01', '2026-01-01');
	INSERT INTO points (run, series, median, n)
	SELECT 102, series, median, 1 FROM points WHERE run = 101"
code3=0; "$SG" history detect --history "$dir/night.db" >/dev/null || code3=$?
msg="one slow newest run: exit $code (0: a suspect); the next run at its "
msg+="level: exit $code2 (1); the night after: exit $code3 (0)"
echo "$msg"

echo
echo "== history detect over 1,000 series x 500 runs (target: < 5 s)"
new_db "$dir/big.db"
fill "$dir/big.db" 500 1000 noise
echo "median of 5: $(median_time 5 "$SG" history detect --history "$dir/big.db") s"

echo
msg="== history record of a 50-interval x 12-configuration run (3 repeats) "
msg+="into 100 runs, plus a detect (target: < 0.5 s)"
echo "$msg"
python3 - "$dir/res" <<'PY'
import os, sys
root = sys.argv[1]
def fnv(b):
    h = 14695981039346656037
    for c in b:
        h = ((h ^ c) * 1099511628211) & (2**64 - 1)
    return h
rows = ["benchmark\tsize\tranks\tthreads\tp\trepeat\tstatus\texit\twall_s\tdir\treason"]
for cfg in range(12):
    threads = 1 + cfg
    for rep in range(1, 4):
        d = "c%d-r%d" % (cfg, rep)
        os.makedirs(os.path.join(root, d))
        rows.append("synth\t-\t1\t%d\t%d\t%d\tok\t0\t1\t%s\t-" % (threads, threads, rep, d))
        L = ["scalegate-profile\t1", "meta\trank\t-", "meta\tranks\t-", "meta\tomp\tgomp",
             "meta\tmpi\tnone",
             "columns\tregion\tid\tname\tfile\tline", "region\t0\tprogram\tsynth\t0"]
        L += ["region\t%d\tr%d\tsynth.c\t%d" % (i, i, i) for i in range(1, 50)]
        L += ["columns\tnode\tid\tparent\tregion\ttag", "node\t0\t-\t0\t-"]
        L += ["node\t%d\t%d\t%d\t-" % (i, (i - 1) // 3, i) for i in range(1, 50)]
        L += ["columns\tthread\tid\tomp_thread\tkind"] + ["thread\t%d\t%d\t%s"
                                                          % (t, t, "main" if t == 0 else "worker")
                                                        for t in range(threads)]
        L += ["columns\tstat\tnode\tthread\tcount\ttime\tmin\tmax\tsumsq\tpar\tomp_barrier"
              "\tomp_idle\tomp_lock\tomp_regions"]
        for i in range(50):
            t = (1.0 + 0.01 * rep) / threads * (50 - i) / 50
            L.append("stat\t%d\t0\t1\t%.6f\t-\t-\t-\t%.6f\t%.6f\t0\t0\t1"
                     % (i, t, t * 0.9, t * 0.05))
            L += ["stat\t%d\t%d\t0\t%.6f\t-\t-\t-\t%.6f\t%.6f\t0\t0\t0"
                  % (i, w, t * 0.9, t * 0.9, t * 0.05)
                  for w in range(1, threads)]
        body = "".join(l + "\n" for l in L)
        open(os.path.join(root, d, "p.sgprof"),
             "w").write(body + "end\t%016x\n" % fnv(body.encode()))
open(os.path.join(root, "manifest.tsv"), "w").write("\n".join(rows) + "\n")
PY
new_db "$dir/rec.db"
"$SG" history record --history "$dir/rec.db" --commit first "$dir/res" | sed 's/ into .*//'
python3 - "$dir/rec.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("BEGIN")
for r in range(2, 101):
    c.execute("INSERT INTO runs (id, commit_id, date, recorded_at) VALUES (?, ?, '2026-01-01', "
              "'2026-01-01')", (r, "c%d" % r))
    c.execute("INSERT INTO points (run, series, median, lo, hi, n) SELECT ?, series, median, lo, "
              "hi, n FROM points WHERE run = 1", (r,))
c.commit()
PY
record_detect() {
	"$SG" history record --history "$dir/rec.db" --commit next "$dir/res" && "$SG" history \
		detect --history "$dir/rec.db"
}
# record = analysis (scalegate analyze's matrix, without the Karp-Flatt slope's interval) + the
# database's part
echo "analyze of the results alone, median of 3: $(median_time 3 "$SG" analyze "$dir/res") s"
echo "record, median of 3: $(median_time 3 "$SG" history record --history "$dir/rec.db" --commit \
	next "$dir/res") s"
echo "record + detect over $(sqlite3 "$dir/rec.db" \
	'SELECT count(*) FROM series') series x ~100 runs, median of 3: $(median_time 3 \
	record_detect) s"
echo "detect alone, median of 5: $(median_time 5 "$SG" history detect --history "$dir/rec.db") s"

echo
msg="== history import of 1,000 intervals x configurations (500 "
msg+="intervals at 1 and 2 threads, 3 repeats; 9 metrics:"
echo "$msg"
echo "   9,000 series) x 500 runs, one transaction (target: < 10 s)"
python3 "$top/tests/data/history/many.py" "$dir/many" 501 --intervals 500
# median_of FILE: the median of the numbers in FILE, one a line
median_of() { sort -n "$1" | sed -n "$((($(wc -l <"$1") + 1) / 2))p"; }
# the first 500 runs are imported, the 501st appended
all=("$dir"/many/c*)
newest=${all[500]}
unset 'all[500]'
# import_all: one import; adds how long it held the write lock (from its first run's line, written
# within the transaction, to its end: an upper bound of the lock's share) to $dir/lock.txt
import_all() {
	local first=""
	rm -f "$dir/imp.db" "$dir/imp.db-wal" "$dir/imp.db-shm"
	while read -r _; do
		[ -n "$first" ] || first=$(date +%s.%N)
	done < <("$SG" history import --history "$dir/imp.db" "${all[@]}")
	echo "$(date +%s.%N) - $first" | bc >>"$dir/lock.txt"
}
rows() { sqlite3 "$dir/imp.db" "SELECT count(*) FROM $1"; }
: >"$dir/lock.txt"
echo "median of 3: $(median_time 3 import_all) s ($(rows series) series, $(rows runs) runs," \
	"$(rows points) points, $(rows samples) samples; $(du -m "$dir/imp.db" | cut -f1) MB)"
echo "of which the write lock was held (every directory analysed before it is taken), median of" \
	"3: $(median_of "$dir/lock.txt") s"
echo "detect over them, median of 3: $(median_time 3 "$SG" history detect --history \
	"$dir/imp.db") s"
echo
echo "== appending one run to them (history record of the 501st) and detecting (target: < 0.5 s)"
: >"$dir/rec.txt"
: >"$dir/det.txt"
for _ in 1 2 3; do
	cp "$dir/imp.db" "$dir/app.db"
	s=$(date +%s.%N)
	"$SG" history record --history "$dir/app.db" --commit c0501 "$newest" >/dev/null
	m=$(date +%s.%N)
	"$SG" history detect --history "$dir/app.db" >/dev/null || [ $? -eq 1 ]
	e=$(date +%s.%N)
	echo "$m - $s" | bc >>"$dir/rec.txt"
	echo "$e - $m" | bc >>"$dir/det.txt"
done
echo "record, median of 3: $(median_of "$dir/rec.txt") s; detect after it, median of 3:" \
	"$(median_of "$dir/det.txt") s"
rm -f "$dir/app.db" "$dir/app.db-wal" "$dir/app.db-shm"
rm -rf "$dir/many"

echo
msg="== trend pages of 5,004 series (2 benchmarks x 139 intervals x "
msg+="2 configurations x 9 metrics) x 100 runs"
echo "$msg"
msg="   (target: no page over 5 MB, each opened in Chromium in < 3 "
msg+="s; issue 35: one page of 97.9 MB, 87 s)"
echo "$msg"
python3 "$top/tests/data/history/many.py" "$dir/pages" 100 --benchmarks 2 --intervals 139 \
	--step bench00:40:50:1.15 --step bench01:5:80:1.3 --step bench00:100:30:0.85
"$SG" history import --history "$dir/pages.db" "$dir"/pages/c* >/dev/null
echo "history report, median of 3: $(median_time 3 "$SG" history report --history "$dir/pages.db" \
	--html "$dir/site") s"
echo "$(sqlite3 "$dir/pages.db" 'SELECT count(*) FROM series') series; the pages, in bytes:"
(cd "$dir/site" && wc -c ./*.html | sort -n | sed 's|\./||')
largest_bytes=$(cd "$dir/site" && wc -c ./*.html | grep -v ' total$' | sort -n | tail -1 | awk \
	'{ print $1 }')
echo "largest page: $largest_bytes bytes ($([ "$largest_bytes" -le 5000000 ] && echo "within" || \
	echo "OVER") the 5 MB target)"
if command -v chromium >/dev/null; then
	largest=$(cd "$dir/site" && ls -S ./*.html | head -1)
	open_page() {
		DBUS_SESSION_BUS_ADDRESS=disabled: timeout 120 chromium --headless --no-sandbox \
			--disable-gpu \
			--no-first-run --disable-background-networking --disable-component-update \
			--disable-sync \
			--user-data-dir="$(mktemp -d "$dir/profile.XXXXXX")" \
			--window-size=1280,1600 \
			--screenshot="$dir/shot.png" "file://$dir/site/$1" 2>/dev/null
	}
	echo "Chromium, headless, a screenshot of the largest page ($largest)," \
		"median of 3: $(median_time 3 open_page "$largest") s"
	echo "the same for index.html: $(median_time 3 open_page index.html) s"
fi
rm -rf "$dir/pages" "$dir/site"
