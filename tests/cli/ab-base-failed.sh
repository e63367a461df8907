# Nothing judged is never green in A/B: base runs that failed are errors (exit 3), whether every
# base run failed ('ci --against' without a build of the base) or those of one configuration only.
. "$(dirname "$0")/lib.bash"

repo=$T/repo
knob_repo "$repo"

# No 'build:' key: the base tree has no ./run.sh, every base run fails (exit 127); the head, built
# here, carries the serial residual. Was: "no checks", verdict pass, exit 0.
sed -i '/^    build:/d' scalegate.yml
sh build.sh
expect_exit 3 "$SCALEGATE" ci -c scalegate.yml --against HEAD~1 --no-post --seed 3
re='ERROR jacobi program 1 rank × [12] threads? run\.base: the base '
re+='revision: 5 of 5 runs failed; repeat [0-9]+: '
expect_match "$out" "$re" \
	"each configuration's failed base runs are an error"
expect_match "$out" \
	'base\.missing: could not decide: the base revision has no results for .jacobi.' \
	"the benchmark had nothing to compare with"
expect_no_match "$out" 'no checks' "not 'no checks'"
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
assert s["verdict"] != "pass", s["verdict"]
assert ("could not decide" in s["headline"]
        or "run failed" in s["headline"]), s["headline"]' out/summary.json && pass ||
	fail "summary.json: the verdict or the headline says pass"
grep -q '<error ' out/junit.xml 2>/dev/null || grep -rq '<error ' out/*.xml && pass ||
	fail "JUnit: no <error> for the base runs"

# The base fails at 2 threads only (--against-dir, a tree already built): that configuration is an
# error, the other one is judged.
echo SG_KNOB_SERIAL=0 >knob.conf
sh build.sh
mkdir "$T/base"
printf '#!/bin/sh\n[ "$1" = 2 ] && exit 7\nexec "$JACOBI" "$@"\n' >"$T/base/run.sh"
chmod +x "$T/base/run.sh"
expect_exit 0 "$SCALEGATE" run -c scalegate.yml --against-dir "$T/base" --seed 3
expect_exit 3 "$SCALEGATE" check -c scalegate.yml
re='ERROR jacobi program 1 rank × 2 threads run\.base: the base '
re+='revision: 5 of 5 runs failed; repeat [0-9]+: .*exit'
expect_match "$out" "$re" \
	"the configuration the base could not run is an error"
expect_no_match "$out" 'run\.base: .* 1 rank × 1 thread' "the configuration the base ran is not"
expect_match "$out" 'exit 3 ' "exit 3 in the summary line"
