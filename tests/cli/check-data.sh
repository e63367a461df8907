# scalegate check over tests/data/check/<case>/: scalegate.yml, results/ and baselines/ in;
# 'expected' out. 'expected': the exit code on the first line, then check's stdout, then its stderr,
# exactly. SG_UPDATE_EXPECTED=1 rewrites the expected files: review the diff before committing.
# tier: fast
. "$(dirname "$0")/lib.bash"

cases=0
for dir in tests/data/check/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ -f "$dir/scalegate.yml" ] || continue
	cases=$((cases + 1))
	code=0
	"$SCALEGATE" check -c "$dir/scalegate.yml" --junit "$T/$name.xml" --json "$T/$name.json" \
		--markdown "$T/$name.md" >"$T/out" 2>"$T/err" || code=$?
	{ echo "$code"; cat "$T/out" "$T/err"; } >"$T/actual"
	if [ -n "${SG_UPDATE_EXPECTED:-}" ]; then
		cp "$T/actual" "$dir/expected"
	fi
	[ -f "$dir/expected" ] && pass ||
		fail "$name: no expected file (run with SG_UPDATE_EXPECTED=1 and review it)"
	diff -u "$dir/expected" "$T/actual" >&2 && pass ||
		fail "$name: output differs from $dir/expected"
	# The reports exist exactly when check got as far as verdicts (not for configuration
	# errors).
	if [ "$code" -ne 2 ]; then
		[ -s "$T/$name.xml" ] && [ -s "$T/$name.json" ] && [ -s "$T/$name.md" ] && pass ||
			fail "$name: a report was not written"
		# the exit code and the reports agree: an <error> or a <failure> is never exit 0
		# (docs/check.md)
		if grep -Eq '<(error|failure) ' "$T/$name.xml"; then
			msg="$name: the JUnit report has errors or failures but the exit code is 0"
			[ "$code" -ne 0 ] && pass ||
				fail "$msg"
		else
			msg="$name: exit $code without an <error> or <failure> in the JUnit report"
			[ "$code" -eq 0 ] && pass ||
				fail "$msg"
		fi
		# well-formed here; valid against the public schemas in cli/junit-schemas (skipped
		# without them)
		xmllint --noout "$T/$name.xml" && pass ||
			fail "$name: the JUnit report is not well-formed XML"
	else
		[ ! -e "$T/$name.xml" ] && pass ||
			fail "$name: a report was written despite the configuration error"
	fi
done
[ "$cases" -ge 12 ] && pass || fail "only $cases cases found in tests/data/check"
# On a busy machine with the run-queue delay (busy-*): the machine's share is named in every report.
for f in "$T/busy-regression.xml" "$T/busy-regression.md"; do
	re='the machine took 3[67]\.[0-9] % of Total.\{0,1\}_time.\{0,1\}_wall from this interval'
	grep -q "$re" "$f" && pass ||
		fail "$f: no Interference named"
done
grep -q '(wall [0-9.]* s: the machine took [0-9.]* % of Total.\{0,1\}_time.\{0,1\}_wall)' \
	"$T/busy-regression.md" && pass ||
	fail "the Markdown time column shows no wall time beside the program's"

# The verdicts are the same on every run: fixed seeds, sorted output.
"$SCALEGATE" check -c tests/data/check/clear-regression/scalegate.yml >"$T/a" || true
"$SCALEGATE" check -c tests/data/check/clear-regression/scalegate.yml >"$T/b" || true
cmp -s "$T/a" "$T/b" && pass || fail "two checks of the same results differ"

# --validate loads the configuration and the rules only.
expect_exit 0 "$SCALEGATE" check --validate -c tests/data/check/clear-regression/scalegate.yml
expect_match "$out" 'valid, 1 rule' "--validate names what it loaded"
expect_exit 2 "$SCALEGATE" check --validate -c tests/data/check/malformed-rules/scalegate.yml
expect_match "$out" 'malformed-rules/scalegate.yml:[0-9]+:[0-9]+: ' \
	"--validate reports file:line:col"
expect_exit 2 "$SCALEGATE" check --no-such-option
expect_exit 2 "$SCALEGATE" check -c "$T/missing.yml"
echo "$cases cases"
# Loads apart beyond the allowance (loads-apart-*): 'cannot judge', named in the headline.
for f in "$T/loads-apart-slowdown.md" "$T/loads-apart-aa.md"; do
	grep -q 'could not decide for 1 benchmark, it cannot be judged against its baseline' "$f" &&
		pass || fail "$f: the headline does not say the baseline cannot be judged"
done
grep -q 'baseline.loads' "$T/loads-apart-aa.xml" && pass ||
	fail "loads-apart-aa: no baseline.loads error in the JUnit report"
