# Scaling with the problem size end to end: a weak-scaling and a sizes matrix of examples/jacobi,
# run and analyzed; then synthetic results of two textbook systems, whose isoefficiency and
# scalability verdict are known by hand.
. "$(dirname "$0")/lib.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
help=$("$SCALEGATE" analyze --help)
msg="analyze has no --efficiency, --memory, -c: gate/cmd/cmd-analyze.c lacks the options of issue 8"
grep -q -- '--efficiency' <<<"$help" && pass ||
	fail "$msg"

# {size} is the number of grid points (jacobi's N is the side, its work and memory grow like N^2):
# so size_per_processor keeps the work per thread constant, and memory is 'n'. 4 threads on 2 cores
# are oversubscribed: no assertion on the values of speedups or efficiencies.
side='$(awk '"'"'BEGIN { printf "%d", sqrt({size}) }'"'"')'
cat >"$T/scalegate.yml" <<YML
benchmarks:
  - name: jacobi-weak
    command: $SG_BUILD/examples/jacobi {threads} $side 60
    threads: [1, 2, 4]
    weak: {size_per_processor: 40000}
    repeat: 3
    warmup: 0
  - name: jacobi
    command: $SG_BUILD/examples/jacobi {threads} $side 60
    threads: [1, 2, 4]
    sizes: [10000, 40000, 160000]
    repeat: 3
    warmup: 0
    memory: n
YML
"$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/res" >/dev/null 2>&1 && pass || fail "run"
out=$("$SCALEGATE" analyze -c "$T/scalegate.yml" "$T/res")
expect_match "$out" '^    Average_parallelism +[0-9.e-]+ \[' "average parallelism beside Processors"
re='^== jacobi-weak  program/solve  weak scaling: the size '
re+='grows with p \(reference 1x1, size 40000\)'
expect_match "$out" "$re" "weak section"
expect_match "$out" \
	'^ +p RxT +size +size/p +T +Weak_efficiency +Scaled_speedup +Average_parallelism' \
	"weak table"
expect_match "$out" '^ +1 1x1 +40000 +40000 +[0-9.e-]+ +1 \[1, 1\] +1 \[1, 1\] ' \
	"weak efficiency 1 at the reference"
for p in 2 4; do
	re="^ +$p 1x$p +$((40000 * p)) +40000 +[0-9.e-]+ +[0-9.e-]+ \[[0-9.e-]+, [0-9.e-]+\] "
	re+="+[0-9.e-]+ \["
	expect_match "$out" "$re" "weak row p=$p"
done
expect_match "$out" '^    Average_parallelism_slope .*: (growing|saturating|flat|falling): ' \
	"average parallelism trend"
expect_no_match "$out" '^  scaling \(reference 1x[24]: no 1x1' \
	"no one-cell scaling tables for the weak sizes"
re='^== jacobi  program/solve  isoefficiency at 80 % efficiency \(sizes 10000, 40000, 160000\)'
expect_match "$out" "$re" "isoefficiency section"
expect_match "$out" '^ +[24] +(<= |beyond )?[0-9.e+]+ ' "isoefficiency points"
# On 2 cores the target may not be crossed at two p: then the reason is printed instead of the
# growth.
if grep -q '^    growth: ' <<<"$out"; then
	re='^    growth: n ~ .* over [0-9]+ processor counts \(fit on '
	re+='ln n: rms [0-9.e+-]+ % in n, R\^2 '
	expect_match "$out" "$re" "fit quality"
	expect_match "$out" '^    scalability function M\(f\(p\)\)/p with memory n: ' \
		"scalability function"
	re='^    to hold 80 % efficiency, n (must grow like|need not grow).*: '
	re+='(perfectly scalable|scalable up to|poorly scalable)'
	expect_match "$out" "$re" "verdict"
else
	re='^    no isoefficiency at 80 % efficiency: the target is crossed inside the '
	re+='measured sizes at [01] processor counts?, 2 are needed \(p = '
	expect_match "$out" "$re" "refusal with its reason"
fi
out=$("$SCALEGATE" analyze --efficiency 0.5 "$T/res")
expect_match "$out" '^== jacobi  program/solve  isoefficiency at 50 % efficiency' "--efficiency"
expect_match "$out" "declare the benchmark's 'memory'|no isoefficiency" "no memory model without -c"

"$SCALEGATE" analyze -c "$T/scalegate.yml" --json "$T/res" >"$T/a.json"
python3 - "$T/a.json" <<'PY' && pass || fail "JSON of the jacobi matrices"
import json, sys
doc = json.load(open(sys.argv[1]))
weak = [w for w in doc["weak_scaling"] if w["interval"] == "program/solve"]
assert len(weak) == 1 and weak[0]["benchmark"] == "jacobi-weak", doc["weak_scaling"]
w = weak[0]
assert w["reference"] == {"ranks": 1, "threads": 1, "size": 40000, "serial": True}, w["reference"]
assert [(q["p"], q["size"]) for q in w["points"]] == [(1, 40000), (2, 80000), (4, 160000)]
for q in w["points"]:
    for k in ("Weak_efficiency", "Scaled_speedup", "Average_parallelism", "Execution_time"):
        assert q[k] and q[k]["n"] == 3 and q[k]["lo"] <= q[k]["median"] <= q[k]["hi"], (k, q)
assert w["points"][0]["Weak_efficiency"]["median"] == 1
assert w["Average_parallelism_trend"] in ("growing", "saturating", "flat", "falling")
iso = [i for i in doc["isoefficiency"] if i["interval"] == "program/solve"]
assert len(iso) == 1 and iso[0]["benchmark"] == "jacobi", doc["isoefficiency"]
i = iso[0]
assert i["target_efficiency"] == 0.8 and i["sizes"] == [10000, 40000, 160000] and i["memory"] == "n"
assert [q["p"] for q in i["points"]] == [2, 4]
for q in i["points"]:
    assert q["where"] in ("inside", "below", "beyond") and q["n"] > 0
    assert [s["size"] for s in q["sizes"]] == i["sizes"]
    assert all(s["Measured_efficiency"]["n"] == 3
               and s["Total_overhead"]["n"] == 3 for s in q["sizes"])
assert (i["growth"] is None) == (i["refused"] is not None)
if i["growth"]:
    assert (i["growth"]["model"] in ("constant", "log p", "p", "p log p", "p^k")
            and i["fitted_points"] >= 2)
    assert i["scalability"] in ("perfectly_scalable", "scalable_to_memory_limit", "poorly_scalable")
assert i["explanation"]
for s in doc["intervals"]:
    assert s["weak"] == (s["benchmark"] == "jacobi-weak")
    assert "Average_parallelism_slope" in s and "Average_parallelism_trend" in s
    for c in s["configurations"]:
        assert c["Average_parallelism"]["n"] == 3, c
        assert (c["Weak_efficiency"] is not None) == s["weak"]
        assert (c["Total_overhead"] is not None) == (not s["weak"] or c["p"] == 1)
PY

# Synthetic results, 1 % noise, p = 1..32, sizes 4..1024: the reduction (T = n/p + log2 p: n >= 4 p
# log2 p, memory n: log p) and the finite-difference method (T = n^2/p + 8 n/sqrt(p), n the grid
# side: n >= 32 sqrt(p), memory n^2: constant).
python3 - "$T/syn" <<'PY'
import math, os, random, sys
out, rnd = sys.argv[1], random.Random(1)
def fnv(b):
    h = 14695981039346656037
    for c in b:
        h = ((h ^ c) * 1099511628211) & (2**64 - 1)
    return h
def profile(path, p, t):
    s = "scalegate-profile\t1\nmeta\trank\t0\nmeta\tranks\t1\nmeta\tomp\tgomp\nmeta\tmpi\tnone\n"
    s += "columns\tregion\tid\tname\tfile\tline\nregion\t0\tprogram\t/bin/syn\t0\n"
    s += "region\t1\tsolve\tsyn.c\t10\n"
    s += "columns\tnode\tid\tparent\tregion\ttag\nnode\t0\t-\t0\t-\nnode\t1\t0\t1\t-\n"
    s += "columns\tthread\tid\tomp_thread\tkind\nthread\t0\t0\tmain\n"
    s += "".join("thread\t%d\t%d\tworker\n" % (q, q) for q in range(1, p))
    s += "columns\tstat\tnode\tthread\tcount\ttime\tpar\tomp_barrier\tomp_idle\tomp_lock\n"
    s += "stat\t0\t0\t1\t%.9g\t%.9g\t0\t0\t0\nstat\t1\t0\t1\t%.9g\t%.9g\t0\t0\t0\n" % (t, t, t, t)
    s += "".join("stat\t1\t%d\t0\t%.9g\t%.9g\t0\t0\t0\n" % (q, t, t) for q in range(1, p))
    s += "columns\tmpi\tnode\tthread\tkind\tcount\ttime\twait\n"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(s + "end\t%016x\n" % fnv(s.encode()))
models = {
    "reduce": lambda n, p: n / p + math.log2(p),
    "fd": lambda n, p: n * n / p + (8 * n / math.sqrt(p) if p > 1 else 0),
}
rows = ["benchmark\tsize\tranks\tthreads\tp\trepeat\tstatus\texit\twall_s\tdir\treason"]
for name, T in models.items():
    for k in range(2, 11):
        n = 2 ** k
        for p in (1, 2, 4, 8, 16, 32):
            for r in (1, 2, 3):
                d = "%s/s%d-r1-t%d/%d" % (name, n, p, r)
                profile("%s/%s/rank00000.syn.1.sgprof" % (out, d), p,
                        T(n, p) * (1 + 0.01 * rnd.uniform(-1, 1)))
                rows.append("%s\t%d\t1\t%d\t%d\t%d\tok\t0\t0.1\t%s\t-" % (name, n, p, p, r, d))
with open(out + "/manifest.tsv", "w") as f:
    f.write("\n".join(rows) + "\n")
PY
out=$("$SCALEGATE" analyze --memory fd=n^2 --memory reduce=n "$T/syn")
sections=$(sed -n '/^== reduce  program\/solve  isoefficiency/,/^$/p' <<<"$out")
re='^    growth: n ~ (5\.[4-9]|6\.[0-2])[0-9]* p log p over 5 '
re+='processor counts \(fit on ln n: rms [0-9.]+ % in n'
expect_match "$sections" "$re" "reduction: p log p (C = 4/ln 2)"
re='^    scalability function M\(f\(p\)\)/p with memory n: log p \(scalable_to_memory_limit\)'
expect_match "$sections" "$re" "reduction: C log p"
re='^    to hold 80 % efficiency, n must grow like p log p; memory per processor '
re+='then grows like log p: scalable up to the memory limit$'
expect_match "$sections" "$re" "reduction: verdict"
sections=$(sed -n '/^== fd  program\/solve  isoefficiency/,/^$/p' <<<"$out")
re='^    growth: n ~ [0-9.]+ p\^0\.[45][0-9] over 5 processor counts \(fit on '
re+='ln n: rms [0-9.]+ % in n, R\^2 0\.9[0-9]+, k in \['
expect_match "$sections" "$re" "finite difference: sqrt(p)"
re='^    to hold 80 % efficiency, n must grow like p\^0\.[45][0-9]; memory '
re+='per processor then stays constant: perfectly scalable$'
expect_match "$sections" "$re" "finite difference: verdict"
"$SCALEGATE" analyze --json --memory fd=n^2 --memory reduce=n --efficiency 0.8 "$T/syn" |
	python3 -c '
import json, sys
doc = json.load(sys.stdin)
iso = {(i["benchmark"], i["interval"]): i for i in doc["isoefficiency"]}
r, f = iso[("reduce", "program/solve")], iso[("fd", "program/solve")]
assert r["growth"]["model"] == "p log p" and r["scalability"] == "scalable_to_memory_limit", r
assert r["Scalability_function"]["text"] == "log p" and r["memory"] == "n"
for q in r["points"]:
    assert (q["where"] == "inside"
            and abs(q["n"] / (4 * q["p"] * __import__("math").log2(q["p"])) - 1) < 0.2), q
assert (f["growth"]["model"] == "p^k" and abs(f["growth"]["k"] - 0.5) < 0.1
        and f["scalability"] == "perfectly_scalable"), f
assert len(f["candidates"]) == 5 and doc["weak_scaling"] == []
' && pass || fail "synthetic JSON"

expect_exit 2 "$SCALEGATE" analyze --efficiency 1.5 "$T/syn"
expect_match "$out" "efficiency needs a number between 0 and 1" "bad efficiency"
expect_exit 2 "$SCALEGATE" analyze --memory 'n^-1' "$T/syn"
expect_match "$out" "memory model 'n\^-1' is not understood" "bad memory model"

# The Markdown summary carries the same: weak-scaling efficiency and the isoefficiency verdicts.
"$SCALEGATE" check -c "$T/scalegate.yml" -r "$T/res" --baselines "$T/none" --allow-no-reference \
	--markdown "$T/s.md" >/dev/null
md=$(sed -n '/^#### Scaling with the problem size/,$p' "$T/s.md")
expect_match "$md" '^- `jacobi-weak` `program`: weak-scaling efficiency at p = 4: [0-9.]+' \
	"Markdown: weak scaling"
expect_match "$md" '^- `jacobi` `program/solve`: ' \
	"Markdown: the isoefficiency verdict of an interval"
