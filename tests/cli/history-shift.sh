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
expect_match "$(cat junit.xml)" 'shift between sittings allowed for: sd 3(\.0[0-9]*)? % \(assumed: the baseline holds 1 sitting' \
	"two history runs: assumed"

# Three: measured from them, with 2 df (or the assumed value as its floor, said so).
expect_exit 0 "$SCALEGATE" history record -c scalegate.yml --commit c3 --branch main run3
check_details
expect_match "$(cat junit.xml)" 'shift between sittings allowed for: sd [0-9.]+ % \(measured from 3 history runs' \
	"three history runs: measured from them"
