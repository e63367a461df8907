# The in-job reduction (tracer/MPI.md, "One profile per job"): 'scalegate run' of MPI codes at 16
# ranks leaves one profile per run, and every figure of 'analyze --json' equals the per-rank path's
# on the same runs (SCALEGATE_PER_RANK=both writes the ranks' own profiles beside it). The codes:
# the halo example, a hybrid one (threads), and one whose ranks open different intervals and nest
# them differently.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
case "${SG_SAN_FLAGS:-} $(basename "$SG_BUILD")" in
*address* | *thread*) echo "skipped: sanitizer build (Open MPI's leaks)"; exit 77 ;;
esac

cat >"$T/scalegate.yml" <<YML
launcher: mpirun --oversubscribe -np {ranks} --bind-to none
defaults:
  workdir: $SG_BUILD
  warmup: 0
  repeat: 2
  timeout: 300s
  env:
    SCALEGATE_PER_RANK: both
benchmarks:
  - name: halo
    command: ./examples/mpi_halo 40000 20
    ranks: [16]
  - name: trees
    command: ./tests/mpi/trees 10
    ranks: [16]
  - name: hybrid
    command: ./examples/hybrid {threads} 400 10
    ranks: [4]
    threads: [2]
YML
expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/reduced"

# One profile per run, the job's; the ranks' own ones only in per-rank/. The per-rank results: the
# same runs with the ranks' own profiles in place of the job's.
cp -r "$T/reduced" "$T/per-rank"
runs=0
while read -r dir; do
	n=$(find "$dir" -maxdepth 1 -name '*.sgprof' | wc -l)
	[ "$n" -eq 1 ] && [ -f "$(echo "$dir"/job.*.sgprof)" ] ||
		fail "$dir: $n profiles, expected the job's one"
	ranks=$(awk -F'\t' '$1 == "meta" && $2 == "reduced" { print $3 }' "$dir"/job.*.sgprof)
	[ "$(find "$dir/per-rank" -name 'rank*.sgprof' | wc -l)" -eq "$ranks" ] ||
		fail "$dir: not $ranks ranks' own profiles"
	pr=${dir/"$T/reduced"/"$T/per-rank"}
	rm "$pr"/job.*.sgprof
	mv "$pr"/per-rank/*.sgprof "$pr"/
	rmdir "$pr/per-rank"
	runs=$((runs + 1))
done < <(find "$T/reduced" -name per-rank -type d -printf '%h\n')
[ "$runs" -eq 6 ] || fail "expected 6 runs with both kinds of profiles, found $runs"

"$SCALEGATE" analyze --json "$T/reduced" >"$T/reduced.json" ||
	fail "analyze of the reduced profiles"
"$SCALEGATE" analyze --json "$T/per-rank" >"$T/per-rank.json" ||
	fail "analyze of the per-rank profiles"

# Every value of the two documents, intervals keyed by benchmark/size/path and configurations by
# ranks/threads (their order may differ); numbers equal to 1e-6 relative or 1e-9 absolute (the
# profiles hold 9 significant digits; the job's sums add in another order).
cat >"$T/same.py" <<'PY'
import json, math, sys

def flat(x, path, out):
    if isinstance(x, dict):
        for k, v in x.items():
            flat(v, path + (k,), out)
    elif isinstance(x, list):
        for i, e in enumerate(x):
            key = str(i)
            for ks in (("benchmark", "size", "interval"), ("ranks", "threads")):
                if isinstance(e, dict) and all(k in e for k in ks):
                    key = "/".join(str(e[k]) for k in ks)
                    break
            flat(e, path + (key,), out)
    else:
        out[path] = x

a, b = {}, {}
flat(json.load(open(sys.argv[1])), (), a)
flat(json.load(open(sys.argv[2])), (), b)
bad = []
for k in sorted(set(a) | set(b), key=str):
    if k == ("dir",):
        continue
    x, y = a.get(k, "<missing>"), b.get(k, "<missing>")
    if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
        if math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-9):
            continue
    elif x == y:
        continue
    bad.append("%s: %r, per rank %r" % ("/".join(k), x, y))
numbers = sum(isinstance(v, (int, float)) and not isinstance(v, bool) for v in a.values())
ranks = sum(k[-1] in ("rank", "thread") for k in a)
print("%d values (%d numbers, %d ranks and threads of extremes), %d differ"
      % (len(a), numbers, ranks, len(bad)))
print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)
PY
out=$(python3 "$T/same.py" "$T/reduced.json" "$T/per-rank.json") ||
	{ echo "$out" >&2; fail "the reduced profiles' figures differ"; }
echo "$out"
# the comparison covers the intervals of every code, the extremes' ranks among them
n=$(sed -n 's/^\([0-9]*\) values (\([0-9]*\) numbers, \([0-9]*\) ranks.*/\2 \3/p' <<<"$out")
[ "${n% *}" -gt 2000 ] && [ "${n#* }" -gt 400 ] || fail "too few values compared: $out"
for path in program/solve/shared program/shared program/solve/even_only 'program/solve/part\[2\]' \
	program/solve/threads program/solve/bcast_some; do
	grep -q "\"interval\": \"$path\"" "$T/reduced.json" ||
		fail "trees: no interval $path in the reduced analysis"
done
# ... and would see a difference: one figure 1 % off
sed 's/"median": \([1-9][0-9.]*\),/"median": 1.01e0,/' "$T/per-rank.json" >"$T/off.json"
! python3 "$T/same.py" "$T/reduced.json" "$T/off.json" >/dev/null ||
	fail "the comparison misses a changed figure"
