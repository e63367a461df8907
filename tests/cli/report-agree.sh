# One basis for every figure (docs/reports.md): every report of one A/B gate and of one stored gate
# (console, Markdown, JUnit, JSON, HTML) shows for the same cell the time median and the lost-time
# shares the checks judged, and a time scaled to the baseline's machine speed says so wherever it
# appears (times); no lost-time bar is above 100 %, each side's bars are of one total (shares); no
# report calls an inconclusive check a warning, and the counts agree (words).
# tests/data/agree/compare.py has the comparisons.
# tier: fast
. "$(dirname "$0")/lib.bash"

python3 "$SG_TOP/tests/data/agree/generate.py" "$SCALEGATE" "$T" && pass ||
	fail "cannot write the inputs"
disagree=()
for mode in ab stored; do
	cd "$T/$mode"
	# a regression (the residual on one thread), a warning and inconclusive checks, on a busy
	# machine
	expect_exit 1 "$SCALEGATE" check --all --junit j.xml --json s.json --markdown s.md --html \
		r.html
	printf '%s\n' "$out" >console.txt
	for aspect in times shares words; do
		python3 "$SG_TOP/tests/data/agree/compare.py" "$aspect" . >&2 || \
			disagree+=("$mode:$aspect")
	done
done
[ ${#disagree[@]} -eq 0 ] && pass || fail "the reports disagree (above): ${disagree[*]}"
# the stored gate scaled the times (the head's machine ran the reference loop 10 % slower) and said
# so
expect_match "$(cat "$T/stored/console.txt")" \
	"\\(n=5, scaled to the baseline's machine speed by ×0\\.909\\) vs base " \
	"the stored gate scaled the head's times"
expect_no_match "$(cat "$T/ab/s.md")" "scaled to the baseline's machine speed" \
	"an A/B gate scales nothing"
# the base lost more of its processors' time to the machine than its program's Total_time: its
# Interference is a share of Total_time_wall beside the program's bars, never a bar over 100 %
grep -q "base Interference: the machine took 58\\.8 % of Total_time_wall" "$T/ab/r.html" && pass ||
	fail "the base's Interference is not shown as its share of Total_time_wall"
