# scalegate analyze on a traced example: the protocol prints, the JSON parses and the lost-time
# identity holds everywhere.
. "$(dirname "$0")/lib.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive

SG_KNOB_SCHEDULE=static SCALEGATE_OUT="$T/o" "$SG_BUILD/examples/imbalance" 2 2000 5 >/dev/null
out=$("$SCALEGATE" analyze "$T/o")
expect_match "$out" '^== imbalance  program/loop  examples/imbalance.c:[0-9]+  level 1  count 1' \
	"interval header"
expect_match "$out" '^    Execution_time +[0-9.e-]+ \[[0-9.e-]+, [0-9.e-]+\] \(n=1\)' \
	"execution time with its interval"
# No MPI library in the process: nothing to capture, so no communication (meta mpi absent), a 0.
expect_match "$out" '^        Communication +0 ' "no MPI in the process: Communication 0"
grep -q $'^meta\tmpi\tabsent$' "$T"/o/*.sgprof && pass ||
	fail "the profile says there was no MPI to capture"
expect_match "$out" '^      work +[0-9.e-]+ +rank 0 th [01]' "comparative characteristics"

"$SCALEGATE" analyze --json "$T/o" >"$T/a.json"
python3 -m json.tool "$T/a.json" >/dev/null && pass || fail "--json does not parse"
python3 - "$T/a.json" <<'PY' && pass || fail "identity"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["intervals"], "no interval"
for s in doc["intervals"]:
    for c in s["configurations"]:
        ch = c["characteristics"]
        # the wall's Total_time holds every term, the machine's Interference too (docs/metrics.md);
        # JSON numbers carry 9 significant digits, so sums of three agree to about 1.5e-8
        lost, total = ch["Lost_time"]["median"], ch["Total_time_wall"]["median"]
        terms = [ch[k]["median"]
                 for k in ("Insufficient_parallelism", "Communication", "Idle", "Synchronization",
                                           "Interference") if ch[k]]
        assert all(t >= 0 for t in terms), (s["interval"], terms)
        assert abs(lost - sum(terms)) <= 2e-8 * max(1, total), (s["interval"], lost, terms)
        assert abs(total - ch["Productive_time"]["median"] - lost) <= 2e-8 * max(1, total)
        interference = ch["Interference"]["median"] if ch["Interference"] else 0
        assert abs(ch["Total_time"]["median"] - (total - interference)) <= 2e-8 * max(1, total)
        assert ch["Communication"]["median"] == 0, "no MPI in the process"
        assert c["Karp_Flatt"] is None, "no Karp-Flatt without a second configuration"
PY

# A results directory: manifest with two configurations, one failed run left out.
for t in 1 2; do
	for r in 1 2 3; do
		SG_KNOB_SCHEDULE=static SCALEGATE_OUT="$T/res/imb-t$t-r$r" \
			"$SG_BUILD/examples/imbalance" $t 2000 3 >/dev/null
	done
done
{
	printf 'benchmark\tsize\tranks\tthreads\tp\trepeat\tstatus\texit\twall_s\tdir\treason\n'
	for t in 1 2; do for r in 1 2 3; do
		printf 'imbalance\t2000\t1\t%d\t%d\t%d\tok\t0\t0.1\timb-t%d-r%d\t\n' $t $t $r $t $r
	done; done
	printf 'imbalance\t2000\t1\t2\t2\t4\tcrash\t139\t0.1\tmissing\tsignal 11\n'
} >"$T/res/manifest.tsv"
printf 'cpu\ttest cpu\n' >"$T/res/fingerprint.tsv"
out=$("$SCALEGATE" analyze "$T/res")
expect_match "$out" 'note: 1 runs did not succeed' "failed runs are left out"
expect_match "$out" '^    +2 1x2 ' "scaling row for p = 2"
expect_match "$out" 'projection: none \(needs at least 4 distinct' "projection refused"
"$SCALEGATE" analyze --json "$T/res" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
assert doc["fingerprint"]["cpu"] == "test cpu"
for s in doc["intervals"]:
    cs = s["configurations"]
    assert [c["p"] for c in cs] == [1, 2], cs
    assert cs[0]["Karp_Flatt"] is None and cs[1]["Speedup"]["n"] == 3
' && pass || fail "results directory JSON"
expect_exit 2 "$SCALEGATE" analyze
expect_exit 2 "$SCALEGATE" analyze "$T/nonexistent"
