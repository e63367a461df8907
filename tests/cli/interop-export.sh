# scalegate export extrap|hatchet and import caliper: the exports pass schema checks written from
# the formats' documentation (Extra-P's docs/file-formats.md, "JSON Lines format"; Hatchet's Caliper
# reader), carry the figures analyze computes, and a Hatchet export imported back as Caliper gives
# the same times. tier: fast
. "$(dirname "$0")/lib.bash"
R=$SG_TOP/tests/data/check/clear-regression/results # jacobi, 1 and 2 threads, 5 repeats
cd "$T"

# Caliper's hatchet-region-profile shape, with mpi.rank rows: regions become intervals, per rank.
re="$SG_TOP/tests/data/interop/caliper/region-profile-mpi.json"
out=$("$SCALEGATE" import caliper "$re" -o cal 2>&1) ||
	{ echo "$out" >&2; fail "import caliper"; }
expect_match "$(cut -f1-4 cal/manifest.tsv)" $'^caliper\t-\t2\t1$' "2 ranks from mpi.rank"
a=$("$SCALEGATE" analyze cal)
expect_match "$a" '^== caliper  main/solve/halo ' "the region tree as call paths"
fig() { # ANALYZE-TEXT INTERVAL FIGURE: the median
	awk -v i="$2" -v f="$3" \
		'$1 == "==" { cur = $3 } cur == i && $1 == f { print $2; exit }' <<<"$1"
}
[ "$(fig "$a" main Execution_time)" = 1 ] ||
	fail "main: inclusive time from the exclusive rows (0.05+0.8+0.1+0.05)"
[ "$(fig "$a" main/solve Execution_time)" = 0.94 ] || fail "solve: the slower rank's 0.7+0.24"
[ "$(fig "$a" main/io Idle)" = 0.05 ] || fail "io: rank 1 never entered it, an idle rank"
echo '{"data": [], "columns": ["x"], "column_metadata": [], "nodes": []}' >nopath.json
expect_exit 2 "$SCALEGATE" import caliper nopath.json -o r-np
expect_match "$out" "nopath.json:1:[0-9]+: no 'path' column" \
	"a file without regions names what it lacks"

# Extra-P JSON Lines, checked against its documented shape, and its values against analyze --json.
out=$("$SCALEGATE" export extrap "$R" -o x.jsonl) || { echo "$out" >&2; fail "export extrap"; }
"$SCALEGATE" analyze --json "$R" >a.json
python3 - x.jsonl a.json <<'PY' || fail "Extra-P export"
import json, sys, statistics
lines = open(sys.argv[1]).read().splitlines()
keys = None
by = {}
for n, l in enumerate(lines, 1):
    o = json.loads(l)
    assert isinstance(o, dict) and set(o) <= {"params", "value", "callpath", "metric"}, n
    p = o["params"]
    assert isinstance(p, dict) and p and all(isinstance(v, (int, float)) for v in p.values()), n
    keys = keys or set(p)
    assert set(p) == keys, f"line {n}: every line the same parameters"
    v = o["value"]
    assert isinstance(v, list) and v and all(isinstance(x, (int, float)) for x in v), n
    assert isinstance(o["callpath"], str) and isinstance(o["metric"], str), n
    by[(o["callpath"], o["metric"], p["p"])] = v
assert keys == {"p"}, keys  # threads vary, ranks do not: one parameter p
a = json.load(open(sys.argv[2]))
checked = 0
for it in a["intervals"]:
    cp = it["interval"].replace("/", "->")
    for c in it["configurations"]:
        for f, ch in c["characteristics"].items():
            if ch and ch.get("n"):
                v = by[(cp, f, c["p"])]
                assert len(v) == ch["n"], (cp, f)
                assert (abs(statistics.median(v) - ch["median"])
                        <= 1e-6 * max(1, abs(ch["median"]))), (cp, f)
                checked += 1
assert checked == len(lines), (checked, len(lines))
print(f"extrap: {len(lines)} lines, every one analyze's figure")
PY

# Hatchet json-split, checked as Hatchet's Caliper reader reads it.
hatchet_check() { # FILE NODES
	python3 - "$1" "$2" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
for k in ("data", "columns", "column_metadata", "nodes"):
    assert isinstance(o[k], list), k
cols, meta = o["columns"], o["column_metadata"]
assert len(cols) == len(meta) and all(isinstance(m["is_value"], bool) for m in meta)
for c in ("path", "mpi.rank", "time", "time (inc)"):
    assert c in cols, c
assert (meta[cols.index("path")]["is_value"] is False
        and meta[cols.index("mpi.rank")]["is_value"] is True)
nodes = o["nodes"]
assert len(nodes) == int(sys.argv[2]), "one node per interval"
for i, n in enumerate(nodes):
    assert isinstance(n["label"], str) and n["column"] == "path"
    assert "parent" not in n or 0 <= n["parent"] < i, "a parent precedes its children"
assert sum("parent" not in n for n in nodes) == 1
path, inc, exc = cols.index("path"), cols.index("time (inc)"), cols.index("time")
for row in o["data"]:
    assert len(row) == len(cols) and 0 <= row[path] < len(nodes)
    assert 0 <= row[exc] <= row[inc] + 1e-12
PY
}
"$SCALEGATE" export hatchet "$R" --threads 1 --repeat 2 -o h1.json || fail "export hatchet"
hatchet_check h1.json 4 || fail "Hatchet export of 1 thread"
expect_exit 2 "$SCALEGATE" export hatchet "$R" --threads 3 -o h3.json
expect_match "$out" "holds no successful run" "a run that is not there"

# Round trip: export -> import -> the same times; and a second export is the first.
"$SCALEGATE" import caliper h1.json -o back -b jacobi >/dev/null ||
	fail "import of the Hatchet export"
b=$("$SCALEGATE" analyze back)
python3 - x.jsonl <<PY || fail "round trip: the times of repeat 2 at 1 thread"
import json
want = {}
for l in open("x.jsonl"):
    o = json.loads(l)
    if o["metric"] == "Execution_time" and o["params"]["p"] == 1:
        want[o["callpath"].replace("->", "/")] = o["value"][1]
got = {}
cur = None
for l in """$b""".splitlines():
    f = l.split()
    if f and f[0] == "==": cur = f[2]
    elif f and f[0] == "Execution_time": got[cur] = float(f[1])
assert got.keys() == want.keys(), (got, want)
for k in want:
    assert abs(got[k] - want[k]) <= 1e-6 * want[k], (k, got[k], want[k])
print("round trip:", got)
PY
"$SCALEGATE" export hatchet back -o h2.json >/dev/null || fail "export of the re-imported run"
prog='import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); '
prog+='sys.exit(a["data"]!=b["data"] or a["nodes"]!=b["nodes"])'
python3 -c "$prog" \
	h1.json h2.json || fail "export -> import -> export changes the data"
"$SCALEGATE" export hatchet "$R" --threads 2 --repeat 5 -o t2.json && hatchet_check t2.json 4 ||
	fail "2 threads"
expect_exit 2 "$SCALEGATE" export extrpa "$R" -o y
expect_match "$out" "did you mean 'extrap'" "a mistyped format"
echo "interop-export: ok"
