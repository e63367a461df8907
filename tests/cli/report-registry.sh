# The registry of report formats: check takes an option per format (the protocol too), ci writes the
# formats that have a file and takes their names from 'reports:', summary.json lists what was
# written.
# tier: fast
. "$(dirname "$0")/lib.bash"

cat >"$T/scalegate.yml" <<YML
defaults: { workdir: $SG_BUILD/examples, warmup: 0, repeat: 2, max_contention: off }
benchmarks:
  - name: jacobi
    command: ./jacobi {threads} 100 10
    threads: [1, 2]
YML
cfg=$T/scalegate.yml
expect_exit 0 "$SCALEGATE" run -c "$cfg"

# check: one option per row, each with its help line
expect_exit 0 "$SCALEGATE" check --help
for f in junit markdown json html protocol; do
	expect_match "$out" "^  --$f FILE +write " "check --help names --$f"
done
expect_exit 0 "$SCALEGATE" check -c "$cfg" --allow-no-reference --protocol "$T/protocol.txt" \
	--json "$T/s.json"
expect_exit 0 "$SCALEGATE" analyze -c "$cfg" "$T/results"
[ "$(cat "$T/protocol.txt")" = "$out" ] && pass || {
	diff <(printf '%s\n' "$out") "$T/protocol.txt" >&2
	fail "check --protocol differs from 'scalegate analyze'"
}
python3 - "$T/s.json" "$T/protocol.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["reports"]
assert list(r) == ["junit", "markdown", "json", "html", "protocol"], r
assert r["json"] == sys.argv[1] and r["protocol"] == sys.argv[2] and r["junit"] is None, r
PY

# ci: the formats with a file by default, renamed or added through 'reports:'
printf 'reports:\n  junit: tests.xml\n  protocol: protocol.txt\n' >>"$cfg"
expect_exit 0 "$SCALEGATE" ci -c "$cfg" --no-run --no-post --allow-no-reference
rep=$T/reports
expect_match "$out" "^  junit     $rep/tests\.xml$" "junit under its configured name"
expect_match "$out" "^  protocol  $rep/protocol\.txt$" "the protocol when asked for"
for f in tests.xml summary.md summary.json report.html protocol.txt; do
	[ -s "$rep/$f" ] && pass || fail "ci did not write $f"
done
[ -e "$rep/junit.xml" ] && fail "junit.xml written besides tests.xml"
python3 - "$rep" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/summary.json"))["reports"]
assert r == {k: sys.argv[1] + "/" + v for k,
             v in [("junit", "tests.xml"), ("markdown", "summary.md"),
    ("json", "summary.json"), ("html", "report.html"), ("protocol", "protocol.txt")]}, r
PY
# without 'reports:' entries the summary has the four formats ci always writes, as before
sed -i '/^reports:/,$d' "$cfg"
expect_exit 0 "$SCALEGATE" ci -c "$cfg" --no-run --no-post --allow-no-reference
expect_no_match "$out" "protocol" "no protocol unless asked"
python3 - "$rep" <<'PY'
import json, sys
assert list(json.load(open(sys.argv[1] + "/summary.json"))["reports"]) == ["junit", "markdown",
                                                                           "json", "html"]
PY

# a misspelt or misplaced key stops ci before anything runs
printf 'reports:\n  jnuit: x.xml\n' >>"$cfg"
expect_exit 2 "$SCALEGATE" ci -c "$cfg" --no-run --no-post
expect_match "$out" "unknown key 'jnuit'.*did you mean 'junit'" "the keys come from the registry"
sed -i 's|jnuit: x.xml|junit: sub/x.xml|' "$cfg"
expect_exit 2 "$SCALEGATE" ci -c "$cfg" --no-run --no-post
expect_match "$out" "'junit' must be a file name in the reports' directory" "a path is refused"
exit 0
