# One number everywhere: a failing check's value, base and change read the same, with their units,
# in the console, Markdown, HTML, JSON (value + unit) and JUnit; the base speedup and the counts
# agree between the reports.
# tier: fast
. "$(dirname "$0")/lib.bash"

case=tests/data/check/default-rules
expect_exit 1 "$SCALEGATE" check -c "$case/scalegate.yml" --junit "$T/j.xml" --markdown "$T/s.md" \
	--json "$T/s.json" --html "$T/r.html"
console=$out

# Each failure as the JSON gives it, rendered by the rules of docs/reports.md ("Units"):
# metric|interval|value [lo, hi]|base|change
python3 - "$T/s.json" >"$T/expected" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))

def fmt(u, v):
    return {"s": "%.4g s" % v, "share": "%.1f %%" % (100 * v)}.get(u, "%.3g" % v)

def change(u, v):
    return {"relative": "%+.1f %%" % (100 * v), "share": "%+.1f points" % (100 * v),
            "s": "%+.3g s" % v}.get(u, "%+.3g" % v)

for v in d["verdicts"]:
    if v["status"] != "fail" or not v["kind"].startswith("tolerance."):
        continue
    assert (v["unit"] in ("s", "ratio", "share")
            and v["change_unit"] in ("s", "ratio", "share", "relative")), v
    value = fmt(v["unit"], v["value"])
    lo, hi = fmt(v["unit"], v["lo"]), fmt(v["unit"], v["hi"])
    if lo != value or hi != value:
        value += " [%s, %s]" % (lo, hi)
    print("|".join([v["metric"], v["interval"], value, fmt(v["unit"], v["baseline"]),
                    change(v["change_unit"], v["change"])]))
PY
# the three kinds of figure this case fails on: a time (relative change), a speedup, a share
# (points)
grep -q '^Execution_time|.* s|.* %$' "$T/expected" && pass ||
	fail "no time failure in seconds with a relative change"
grep -q '^Speedup|' "$T/expected" && pass || fail "no speedup failure"
grep -q '^Insufficient_parallelism|.* %|.* points$' "$T/expected" && pass ||
	fail "no share failure in percent and points"

md=$(cat "$T/s.md")
html=$(cat "$T/r.html")
xml=$(cat "$T/j.xml")
while IFS='|' read -r metric interval value base change; do
	what="$metric in $interval"
	grep -qF -- "$metric median $value (n=5) vs base $base (n=5): " <<<"$console" ||
		grep -qF -- "$metric from medians $value (n=5) vs base $base (n=5): " \
			<<<"$console" ||
		{ printf '%s\n' "$console" >&2; fail \
			"console: $what does not read '$value' vs '$base'"; }
	grep -qF -- "change $change, past the tolerance" <<<"$console" && pass ||
		fail "console: $what: no change '$change'"
	grep -qF -- "| \`$interval\` " <<<"$md" && pass || fail "Markdown: no row for $interval"
	grep -F -- "| \`$interval\` " <<<"$md" | grep -qF -- \
		"| \`$metric\` | $value | $base | $change | " ||
		{ printf '%s\n' "$md" >&2; fail \
			"Markdown: $what does not read '$value | $base | $change'"; }
	re="<code>$metric</code></td><td class=\"num\">$value</td><td "
	re+="class=\"num\">$base</td><td class=\"num\">$change</td>"
	grep -qF -- "$re" <<<"$html" && pass ||
		fail "HTML: $what does not read '$value', '$base', '$change'"
	grep -qF -- "$value (n=5) vs base $base (n=5): " <<<"$xml" && pass ||
		fail "JUnit: $what does not read '$value' vs '$base'"
	grep -qF -- "change $change, " <<<"$xml" && pass || fail "JUnit: $what: no change '$change'"
done <"$T/expected"

# The base speedup: one definition (median T(ref) / median T(p)) in the regression table and the
# scaling table, for every interval whose speedup check failed (which ones fail is the statistics'
# business: the whole program's, once a FAIL here, is a warning since the shift between sittings
# is an estimate; the check reads its base from the table all the same).
speedups=0
while IFS='|' read -r metric interval value base change; do
	[ "$metric" = Speedup ] || continue
	speedups=$((speedups + 1))
	grep -A5 "^\*\*jacobi\*\* \`$interval\`\$" "$T/s.md" | grep -E '^\| 2 \| 1x2 \|' |
		awk -F' \\| ' '{ print $6 }' | grep -qx -- "$base" && pass ||
		{ cat "$T/s.md" >&2; fail \
			"Markdown: the scaling table's base speedup of $interval is not $base"; }
	grep -qF -- "baseline speedup $base" <<<"$html" && pass ||
		fail "HTML: the plotted base speedup of $interval is not the check's $base"
done <"$T/expected"
[ "$speedups" -gt 0 ] && pass || fail "no speedup failure to compare with the scaling table"

# The counts: warnings (findings) and inconclusive checks apart, the same in every report.
read -r warn undecided < <(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(sum(f["severity"] == "warning" for f in d["findings"]),
      d["counts"]["inconclusive"])' "$T/s.json")
re="[0-9]+ regressions? \\([0-9]+ checks? failed\\), $warn warnings?( "
re+="\\([0-9]+ checks?\\))?, $undecided inconclusive, "
expect_match "$console" "$re" \
	"console: the counts"
grep -qF ">$warn warning" <<<"$html" && grep -qF ">$undecided inconclusive<" <<<"$html" && pass ||
	fail "HTML: the counts"
if [ "$undecided" -gt 0 ]; then
	head -n 1 "$T/s.md" | grep -qF "$undecided inconclusive" && pass ||
		fail "Markdown: the inconclusive count"
fi
