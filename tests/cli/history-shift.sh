# Stored mode with a history: from three recorded runs of a benchmark on, 'check' measures the shift
# between sittings from the spread of those runs' medians instead of assuming it, and says so
# (docs/check.md, "Shift between sittings"; docs/history.md).
. "$(dirname "$0")/lib.bash"

cat >"$T/scalegate.yml" <<YML
results: results
baselines: baselines
history: history.db
defaults: { warmup: 0, repeat: 3, max_contention: off }
undecided: pass  # three repeats against their own baseline decide nothing; the shift is the subject
benchmarks:
  - name: jacobi
    command: $SG_BUILD/examples/jacobi {threads} 200 20
    threads: [1, 2]
YML
cd "$T"
check_details() {
	code=0
	"$SCALEGATE" check -c scalegate.yml -r run1 --junit junit.xml >/dev/null 2>&1 || code=$?
	[ $code = 0 ] || [ $code = 1 ] && pass || fail "check exited $code"
}

for k in 1 2 3; do
	expect_exit 0 "$SCALEGATE" run -c scalegate.yml -o "run$k"
done
expect_exit 0 "$SCALEGATE" baseline update -c scalegate.yml -r run1 --force

# Two recorded runs: not enough, the shift stays assumed (the baseline has one sitting).
for k in 1 2; do
	expect_exit 0 "$SCALEGATE" history record -c scalegate.yml --commit "c$k" --branch main \
		"run$k"
done
check_details
# 3 %, and for these millisecond intervals a little more: a run's one-off costs (docs/check.md)
pat='shift between sittings allowed for: sd 3(\.0[0-9]*)? % \(assumed, an estimate worth [0-9]+ '
pat+='df: the baseline holds 1 sitting'
expect_match "$(cat junit.xml)" "$pat" \
	"two history runs: assumed"

# Three: measured from them, with 2 df (or the assumed value as its floor, said so).
expect_exit 0 "$SCALEGATE" history record -c scalegate.yml --commit c3 --branch main run3
check_details
expect_match "$(cat junit.xml)" \
	'shift between sittings allowed for: sd [0-9.]+ % \(measured from 3 history runs' \
	"three history runs: measured from them"

# Runs on machines of different speeds (every interval up to 60 % slower, the reference loop alike):
# the shift is measured from the times scaled by each run's reference, as the current times are:
# the details' spread is that of the history's medians each divided by its run's reference.
slow_run() { # slow_run K PCT: run sK with every interval PCT % slower, its loop as slow
	pat="s|max_contention: off }|max_contention: off, env: { SG_KNOB_SLOW_PCT: \"$2\" } }|"
	sed -e "s|history: history.db|history: scaled.db|" \
		-e "$pat" \
		scalegate.yml >"slow$1.yml"
	expect_exit 0 "$SCALEGATE" run -c "slow$1.yml" -o "s$1"
	awk -F'\t' -v OFS='\t' -v k="1.$2" 'NR > 1 && $13 != "-" { $13 = $13 * k } 1' \
		"s$1/manifest.tsv" >m && mv m "s$1/manifest.tsv"
	expect_exit 0 "$SCALEGATE" history record -c "slow$1.yml" --commit "s$1" --branch main "s$1"
}
k=0
for pct in 00 30 60 15 45; do
	k=$((k + 1))
	slow_run $k $pct
done
expect_exit 0 "$SCALEGATE" baseline update -c slow1.yml -r s1 --force
code=0
"$SCALEGATE" check -c slow1.yml -r s1 --junit scaled.xml --testcase-output >/dev/null 2>&1 ||
	code=$?
[ $code = 0 ] || [ $code = 1 ] || fail "check exited $code"
# sweep at 1 thread (at 2, two cores shared with the test machine's load spread it anyway): its
# spread between two runs as measured scaled, and unscaled from the history's own medians
not_scaled="the history's times were not scaled by their references"
python3 - scaled.xml scaled.db <<'PY' || fail "$not_scaled"
import math, re, sqlite3, statistics, sys
xml = open(sys.argv[1]).read()
name = r'program/solve/sweep 1 rank × 1 thread \(p=1\) tolerance\.time'
case = re.search(r'<testcase name="' + name + '".*?</testcase>', xml, re.S).group(0)
m = re.search(r"measured from 5 history runs, their times scaled by each run&apos;s machine speed "
              r"reference: ([0-9.]+) % between two", case)
if not m:
    sys.exit("no scaled history spread in: " + case[:2000])
rows = sqlite3.connect(sys.argv[2]).execute(
    "SELECT p.median, r.reference FROM points p JOIN series s ON p.series = s.id "
    "JOIN runs r ON r.id = p.run WHERE s.metric = 'time' "
    "AND s.interval = 'program/solve/sweep' AND s.configuration = '1x1'").fetchall()
spread = lambda xs: 100 * math.sqrt(2) * statistics.stdev(math.log(x) for x in xs)
unscaled = spread(t for t, r in rows)
want = spread(t / r for t, r in rows)
got = float(m.group(1))
print("sweep at 1 thread, between two runs: %g %% in the details, %.2f %% scaled from the "
      "history, %.2f %% unscaled" % (got, want, unscaled))
# The figure is the spread of the runs' medians each divided by its run's reference (the VM's
# speed modes per process make how much smaller than the unscaled one a matter of luck).
if abs(got - want) > 0.1 + 0.001 * want:
    sys.exit("the details' %g %% is not the scaled spread %.2f %%" % (got, want))
if abs(want - unscaled) > 1 and abs(got - unscaled) <= 0.1 + 0.001 * unscaled:
    sys.exit("the details' %g %% is the unscaled spread" % got)
PY
