# History: a creeping regression. After 20 flat runs, ten commits each make the benchmark 2 % slower
# (each would pass a 5 % gate): recorded night by night, 'history detect' flags a regression on some
# night, the change point lies in the creep, and the drift line of 'ci' says main is slower (issue
# 25's target).
. "$(dirname "$0")/lib.bash"
gen="$SG_TOP/tests/data/history/generate.py"
db="$T/h.db"

steps=()
for n in $(seq 21 30); do steps+=("sweep:$n:0.02" "residual:$n:0.02"); done
python3 "$gen" "$T/runs" 1 30 "${steps[@]}"
expect_exit 0 "$SCALEGATE" history import --history "$db" --branch main "$T"/runs/c0* \
	"$T"/runs/c1* "$T/runs/c20"
expect_exit 0 "$SCALEGATE" history detect --history "$db"
expect_match "$out" "^history: 20 runs, [0-9]+ series; 0 change points" "the flat stretch"

# Each night records one commit and runs detect (window: the newest run).
flagged=
for n in $(seq 21 30); do
	expect_exit 0 "$SCALEGATE" history record --history "$db" --branch main --commit "c$n" \
		--date "2026-11-$n" "$T/runs/c$n"
	code=0
	"$SCALEGATE" history detect --history "$db" >"$T/night-$n.log" 2>&1 || code=$?
	[ "$code" -le 1 ] && pass || { cat "$T/night-$n.log"; fail \
		"detect on night c$n exited $code"; }
	[ "$code" -eq 0 ] || flagged="$flagged c$n"
done
[ -n "$flagged" ] && pass || { cat "$T/night-30.log"; fail \
	"no night's detect flagged the creeping regression"; }
echo "detect exited 1 on the nights of:$flagged"

# After the ten commits: regression change points on the whole program's time, inside the creep.
expect_exit 1 "$SCALEGATE" history detect --history "$db" --json --window 10
printf '%s\n' "$out" >"$T/detect.json"
python3 - "$T/detect.json" <<'PY' && pass || fail "the change points of the creep"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["runs"] == 30, d["runs"]
program = [c for c in d["change_points"] if c["interval"] == "program" and c["metric"] == "time"]
assert {c["configuration"] for c in program} == {"1x1", "1x2"}, d["change_points"]
for c in program:
    assert c["regression"] is True and c["after"] > c["before"] * 1.05, c
    assert 21 <= int(c["commit"][1:]) <= 30, c
assert not any(int(c["commit"][1:]) <= 20
               for c in d["change_points"]), "a change point in the flat stretch"
PY

# The drift line of 'ci': main is slower than before the creep, with the change points named.
cp -r "$SG_TOP/tests/data/check/within-tolerance" "$T/proj"
# the synthetic history's steps widen the shift between sittings: the time checks decide nothing,
# which is not the subject here
printf 'history: %s\nundecided: pass\n' "$db" >>"$T/proj/scalegate.yml"
(cd "$T/proj" && "$SCALEGATE" ci --no-run --no-post) >"$T/ci.log" 2>&1 && pass || { cat \
	"$T/ci.log"; fail "ci"; }
re="^history: jacobi \(1x2\) is [0-9.]+ % slower than 29 runs ago \(medians of 5 runs, 95 % "
re+="interval [-+][0-9.]+ to [-+][0-9.]+ %\); regressions at c(2[1-9]|30) \(program"
line=$(grep -E "$re" "$T/ci.log") && pass || {
	cat "$T/ci.log"
	fail "the drift line does not say main is slower, with the change point"
}
pct=$(sed -E 's/.* is ([0-9.]+) % slower.*/\1/' <<<"$line")
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 15 else 1)" "$pct" && pass ||
	fail "the drift ($pct %) is not the creep's (1.02^10: +22 % on the kernels)"
echo "ok: $line"
