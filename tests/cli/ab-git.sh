# scalegate ci --against REV in a git repository with a build: base and head built in their own
# trees, run interleaved round by round (seed recorded), compared pair by pair; the regression fails
# with its cause, A/A passes.
. "$(dirname "$0")/lib.bash"

repo=$T/repo
knob_repo "$repo"

# The head against its parent, with the shipped defaults: exit 1, the interval, the metric, the
# cause.
expect_exit 1 "$SCALEGATE" ci -c scalegate.yml --against HEAD~1 --no-post --seed 7
expect_match "$out" 'checking out HEAD~1 into .*/results/\.base-tree' "the base is checked out"
re='^FAIL jacobi program/solve/residual 1 rank × 2 threads '
re+='tolerance\.insufficient_parallelism: .* vs base .* paired t'
expect_match "$(checks_of "$out")" "$re" \
	"the regression, paired by round"
expect_match "$out" 'cause: Insufficient_parallelism \(serial code\) grew' "its cause"
expect_no_match "$out" "stale program" "both builds wrote their program: no warning"
# The progress says which side ran, and each side's median per configuration.
for side in base head; do
	re="^\[[0-9]+/[0-9]+\] $side jacobi 1 rank × 2 threads repeat [1-5]/5: [0-9.]+ s, ok$"
	expect_match "$out" "$re" "$side's progress lines"
	expect_match "$out" \
		"^$side jacobi 1 rank × 2 threads: [0-9]+/[0-9]+ ok, median [0-9.]+ s$" \
		"$side's median"
done
re='whole-run false-alarm level 1 % \((two looks at 0\.05 % and 0\.95 %, )?Holm over [0-9]+ tests'
expect_match "$out" "$re" "the summary states the level"
[ -f results/base/manifest.tsv ] && pass || fail "the base's runs are not in results/base"
# The reports put base and head side by side, and call the base a base.
grep -q '^| Benchmark | Interval | Config | Metric | Current \[lo, hi\] | Base / bound |' \
	out/summary.md && pass ||
	fail "summary.md: the regression table does not name the base"
grep -q '^| p | R×T | T median \[lo, hi\] | T base | Speedup | Speedup base |' out/summary.md && \
	pass ||
	fail "summary.md: the scaling table has no base columns"
re='^\| 2 \| 1x2 \| [0-9.e-]+ s (\[[^]]*\] )?(\(wall [^)]*\) )?\| '
re+='[0-9.e-]+ s \| [0-9.]+ (\[[^]]*\] )?\| [0-9.]+ \|'
grep -Eq "$re" out/summary.md && pass ||
	fail "summary.md: no 1x2 row with the base's time and speedup"
# One base speedup: the check's (summary.json) is the scaling table's, median T(ref) / median T(p)
# of the base.
base=$(python3 -c 'import json, sys
for v in json.load(open(sys.argv[1]))["verdicts"]:
    if (v["kind"] == "tolerance.speedup" and v["interval"] == "program/solve/residual"
        and v["threads"] == 2):
        print("%.3g" % v["baseline"])' out/summary.json)
[ -n "$base" ] && pass ||
	fail "summary.json: no speedup check of program/solve/residual at 2 threads"
grep -A5 '^\*\*jacobi\*\* `program/solve/residual`$' out/summary.md | grep -E '^\| 2 \| 1x2 \|' |
	awk -F' \\| ' '{ print $6 }' | grep -qx -- "$base" && pass ||
	fail "summary.md: the scaling table's base speedup is not the check's $base"
grep -q 'dashed: the base revision, run in the same job' out/report.html && pass ||
	fail "report.html: the base is called a stored baseline"
grep -q '>base (median, 95 % interval)<' out/report.html && pass ||
	fail "report.html: the plots' key does not say base"
! grep -q 'baseline (median\|the baseline dashed\|the baseline pale\|: baseline ' out/report.html \
	&& pass ||
	fail "report.html: an A/B plot calls the base a baseline"
grep -q $'^seed\t7$' results/ab.tsv && pass || fail "the seed is not recorded in ab.tsv"
# ABBA: within each pair of rounds of a configuration, one runs the base first and the other the
# head.
awk -F'\t' \
	'NR > 5 { o[$2, $3] = $4 } END { for (k in o) { split(k, a, SUBSEP);
	if (a[2] % 2 && (a[1] SUBSEP a[2] + 1) in o && o[k] == o[a[1], a[2] + 1]) exit 1 } }' \
	results/ab.tsv && pass ||
		fail "a pair of rounds ran in the same order"
[ ! -e results/.base-tree ] && pass || fail "the scratch worktree was left behind"
[ "$(git worktree list | wc -l)" = 1 ] && pass || fail "git still lists the scratch worktree"

# A/A: the head against itself never fails; on a busy machine its time checks may all stay
# inconclusive, which is 'could not decide' (exit 3), never a pass on no judgement.
code=0
out=$("$SCALEGATE" ci -c scalegate.yml --against HEAD --no-post 2>&1) || code=$?
pass_or_undecided $code "$out" "A/A"

# --against-dir: a tree already built.
git worktree add -q --detach "$T/base" HEAD~1
(cd "$T/base" && sh build.sh)
expect_exit 0 "$SCALEGATE" run -c scalegate.yml --against-dir "$T/base"
expect_exit 1 "$SCALEGATE" check -c scalegate.yml
re='^FAIL jacobi program/solve/residual 1 rank × 2 threads tolerance\.insufficient_parallelism'
expect_match "$(checks_of "$out")" "$re" "--against-dir"

# A plain run afterwards forgets the base: no baseline, nothing to compare.
expect_exit 0 "$SCALEGATE" run -c scalegate.yml
[ ! -e results/base ] && [ ! -e results/ab.tsv ] && pass ||
	fail "a plain run kept the old base runs"

# Usage errors.
expect_exit 2 "$SCALEGATE" ci -c scalegate.yml --against HEAD --against-dir "$T/base"
expect_exit 2 "$SCALEGATE" run -c scalegate.yml --inject solve
expect_match "$out" "expected INTERVAL:PERCENT" "--inject names its format"
# Git problems are usage errors that name the fix.
expect_exit 2 "$SCALEGATE" run -c scalegate.yml --against no-such-rev
re="--against no-such-rev: no such revision in .*; fetch it "
re+="first, e.g. git fetch origin no-such-rev"
expect_match "$out" "$re" \
	"a bad revision is named, with the fix"
expect_exit 2 "$SCALEGATE" ci -c scalegate.yml --against no-such-rev --no-post
expect_match "$out" "no such revision" "ci: a bad revision is a usage error"
mkdir "$T/plain"
cp scalegate.yml "$T/plain/"
expect_exit 2 "$SCALEGATE" ci -c "$T/plain/scalegate.yml" --against HEAD --no-post
expect_match "$out" "is not in a git repository; run the gate in a clone .*--against-dir DIR" \
	"not a git repository"

# An interrupted gate exits 128 + the signal, and removes its scratch worktree.
"$SCALEGATE" ci -c scalegate.yml --against HEAD~1 --no-post >"$T/int.out" 2>&1 &
gate=$!
for _ in $(seq 300); do grep -q 'repeat 2/' "$T/int.out" && break; sleep 0.1; done
kill -TERM $gate
code=0
wait $gate || code=$?
[ $code -eq 143 ] && pass || { cat "$T/int.out" >&2; fail \
	"an interrupted ci exited $code, expected 143 (128 + SIGTERM)"; }
expect_match "$(cat "$T/int.out")" "interrupted by SIGTERM" "the interrupt is told"
[ ! -e results/.base-tree ] && pass ||
	fail "the scratch worktree was left behind by the interrupted gate"

# A head build that does nothing (its output is there, made from the old source) while the base's,
# in a fresh checkout, builds: the gate warns that the head may run a stale program, with the fix.
sed -i 's/^    build: sh build.sh$/    build: "[ -e run.sh ] || sh build.sh"/' scalegate.yml
printf '#!/bin/sh\nexport SG_KNOB_SERIAL=0\nexec "$JACOBI" "$@"\n' >run.sh
chmod +x run.sh
touch -d '1 hour ago' run.sh
expect_exit 0 "$SCALEGATE" run -c scalegate.yml --against HEAD~1
re="warning: benchmark 'jacobi': the head's build wrote no file in '.*' while the base's, in a "
re+="fresh checkout, did: the head may run a stale program .*'build: make clean all'"
expect_match "$out" "$re" \
	"a head build that did nothing is told, with the fix"
