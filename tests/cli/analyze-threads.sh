# Intervals that threads open on their own (issue 12): every thread inside one parallel region (PRK
# Stencil's shape), a late pthread, OpenMP workers only, inner teams of nested regions. The
# lost-time identity holds in every run with no term clamped or negative, and each interval has its
# time and count.
. "$(dirname "$0")/lib.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive

# check_run DIR [PATH MIN_TIME MIN_COUNT]: the identity in every interval of the run in DIR; PATH's
# Execution_time is at least MIN_TIME seconds (a sleep: load cannot shorten it) and its Count at
# least MIN_COUNT.
check_run() {
	"$SCALEGATE" analyze --json "$1" >"$T/a.json" && pass || fail "analyze $1"
	python3 - "$T/a.json" "${2:-}" "${3:-0}" "${4:-0}" <<'PY' && pass || { cat "$T/a.json" \
		>&2; fail "run $1"; }
import json, sys
doc = json.load(open(sys.argv[1]))
want, min_time, min_count = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
seen = False
for s in doc["intervals"]:
    for c in s["configurations"]:
        ch = {k: (v["median"] if v else None) for k, v in c["characteristics"].items()}
        # the wall's Total_time holds every term, the machine's Interference too (docs/metrics.md)
        total, lost = ch["Total_time_wall"], ch["Lost_time"]
        terms = [ch[k]
                 for k in ("Insufficient_parallelism", "Communication", "Idle", "Synchronization",
                                 "Interference") if ch[k] is not None]
        where = (s["interval"], ch)
        assert c["inconsistency"] is None, ("terms were clamped", where)
        assert all(t >= 0 for t in terms), ("a negative term", where)
        assert ch["Productive_time"] >= 0, ("negative work", where)
        # JSON numbers carry 9 significant digits: sums of them agree to about 1.5e-8
        assert abs(lost - sum(terms)) <= 2e-8 * max(1, total), ("Lost != sum of the terms", where)
        assert abs(total - ch["Productive_time"] - lost) <= 2e-8 * max(1, total), where
        assert ch["Synchronization"] <= total * (1 + 1e-12), ("Synchronization > Total_time", where)
        if s["interval"] == want:
            seen = True
            assert ch["Execution_time"] >= min_time, ("Execution_time", where)
            assert ch["Count"] >= min_count, ("Count", where)
assert not want or seen, "no interval " + want
PY
}

# One parallel region around the iterations, every thread opening 'stencil' and 'update' inside it.
for r in 1 2 3; do
	OMP_NUM_THREADS=2 SCALEGATE_OUT="$T/fused$r" "$SG_BUILD/tests/tracer/fused" 20 200000 \
		>/dev/null
	check_run "$T/fused$r" program/run/stencil 0 20
done

# A pthread started after the first parallel region sleeps 17 ms in 'late'.
SCALEGATE_OUT="$T/late" "$SG_BUILD/tests/tracer/others" late
check_run "$T/late" program/late 0.017 1
# ... and its 17 ms are work of the whole program too: no processor did nothing at level 0.
python3 - "$T/a.json" <<'PY' && pass || fail "the late thread's time at level 0"
import json, sys
doc = json.load(open(sys.argv[1]))
c = next(s for s in doc["intervals"] if s["interval"] == "program")["configurations"][0]
assert c["comparative"]["work"]["min"] >= 0.0009, c["comparative"]["work"]
PY
# Only OpenMP thread 1 enters 'worker_only', for 10 ms.
SCALEGATE_OUT="$T/workers" "$SG_BUILD/tests/tracer/others" workers
check_run "$T/workers" program/run/worker_only 0.010 1
# Thread 1 of each inner team of a nested region enters 'inner_worker', for 10 ms.
SCALEGATE_OUT="$T/nested" "$SG_BUILD/tests/tracer/others" nested
check_run "$T/nested" program/run/inner_worker 0.010 1
