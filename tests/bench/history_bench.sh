#!/usr/bin/env bash
# History figures: detection quality on synthetic series, detect over 1,000 series x 500 runs, and record of a
# 50-interval x 12-configuration run plus a detect. Times are medians of 5 runs (3 for the record).
# usage: tests/bench/history_bench.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: tests/bench/history_bench.sh BUILD_DIR}
SG="$B/bin/scalegate"
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

# fill DB RUNS SERIES MODE: RUNS runs of SERIES time series at CV 3 %; MODE 'step' puts a 10 % step at the middle
fill() {
	python3 - "$@" <<'PY'
import random, sqlite3, sys
db, runs, series, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
random.seed(11)
c = sqlite3.connect(db)
c.execute("BEGIN")
c.executemany("INSERT INTO runs (id, commit_id, date, recorded_at) VALUES (?, ?, '2026-01-01', '2026-01-01')",
              [(r + 1, "c%d" % (r + 1)) for r in range(runs)])
c.executemany("INSERT INTO series (id, benchmark, interval, configuration, metric) VALUES (?, 'b', ?, '1x1', 'time')",
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
print("10 %% step after 30 runs, 30 after: found within one run in %d of %d series (%.1f %%); %d other change points"
      % (len(found), d["series"], 100.0 * len(found) / d["series"], len(other)))
PY
new_db "$dir/noise.db"
fill "$dir/noise.db" 100 1000 noise
"$SG" history detect --history "$dir/noise.db" --json --window 100 >"$dir/noise.json" || true
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print("pure noise: %d change points over %d series x %d runs" % (len(d["change_points"]), d["series"], d["runs"]))' "$dir/noise.json"

echo
echo "== history detect over 1,000 series x 500 runs (target: < 5 s)"
new_db "$dir/big.db"
fill "$dir/big.db" 500 1000 noise
echo "median of 5: $(median_time 5 "$SG" history detect --history "$dir/big.db") s"

echo
echo "== history record of a 50-interval x 12-configuration run (3 repeats) into 100 runs, plus a detect (target: < 0.5 s)"
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
        L = ["scalegate-profile\t1", "meta\trank\t-", "meta\tranks\t-", "meta\tomp\tgomp", "meta\tmpi\tnone",
             "columns\tregion\tid\tname\tfile\tline", "region\t0\tprogram\tsynth\t0"]
        L += ["region\t%d\tr%d\tsynth.c\t%d" % (i, i, i) for i in range(1, 50)]
        L += ["columns\tnode\tid\tparent\tregion\ttag", "node\t0\t-\t0\t-"]
        L += ["node\t%d\t%d\t%d\t-" % (i, (i - 1) // 3, i) for i in range(1, 50)]
        L += ["columns\tthread\tid\tomp_thread\tkind"] + ["thread\t%d\t%d\t%s" % (t, t, "main" if t == 0 else "worker")
                                                        for t in range(threads)]
        L += ["columns\tstat\tnode\tthread\tcount\ttime\tmin\tmax\tsumsq\tpar\tomp_barrier\tomp_idle\tomp_lock\tomp_regions"]
        for i in range(50):
            t = (1.0 + 0.01 * rep) / threads * (50 - i) / 50
            L.append("stat\t%d\t0\t1\t%.6f\t-\t-\t-\t%.6f\t%.6f\t0\t0\t1" % (i, t, t * 0.9, t * 0.05))
            L += ["stat\t%d\t%d\t0\t%.6f\t-\t-\t-\t%.6f\t%.6f\t0\t0\t0" % (i, w, t * 0.9, t * 0.9, t * 0.05)
                  for w in range(1, threads)]
        body = "".join(l + "\n" for l in L)
        open(os.path.join(root, d, "p.sgprof"), "w").write(body + "end\t%016x\n" % fnv(body.encode()))
open(os.path.join(root, "manifest.tsv"), "w").write("\n".join(rows) + "\n")
PY
new_db "$dir/rec.db"
"$SG" history record --history "$dir/rec.db" --commit first "$dir/res" | sed 's/ into .*//'
python3 - "$dir/rec.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("BEGIN")
for r in range(2, 101):
    c.execute("INSERT INTO runs (id, commit_id, date, recorded_at) VALUES (?, ?, '2026-01-01', '2026-01-01')", (r, "c%d" % r))
    c.execute("INSERT INTO points (run, series, median, lo, hi, n) SELECT ?, series, median, lo, hi, n FROM points WHERE run = 1", (r,))
c.commit()
PY
record_detect() {
	"$SG" history record --history "$dir/rec.db" --commit next "$dir/res" && "$SG" history detect --history "$dir/rec.db"
}
# record = analysis (scalegate analyze's matrix, without the Karp-Flatt slope's interval) + the database's part
echo "analyze of the results alone, median of 3: $(median_time 3 "$SG" analyze "$dir/res") s"
echo "record, median of 3: $(median_time 3 "$SG" history record --history "$dir/rec.db" --commit next "$dir/res") s"
echo "record + detect over $(sqlite3 "$dir/rec.db" 'SELECT count(*) FROM series') series x ~100 runs, median of 3: $(median_time 3 record_detect) s"
echo "detect alone, median of 5: $(median_time 5 "$SG" history detect --history "$dir/rec.db") s"
