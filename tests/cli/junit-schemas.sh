# The JUnit reports of every data case (tests/data/check) against the public schemas in
# $SG_JUNIT_XSD (tests/run.sh: ../shared/junit-xsd beside the repository): the default layout
# against all three; the opt-in testcase output (--testcase-output: <system-out> per testcase, file
# and line attributes) against junit10.xsd with exactly those two attributes added, and without them
# against junit10.xsd and jenkins-junit4.xsd. Without the schemas or xmllint: skipped (exit 77),
# with the reason.
# tier: fast
. "$(dirname "$0")/lib.bash"

[ -n "${SG_JUNIT_XSD:-}" ] || { echo \
	"SKIP: no JUnit schemas: set SG_JUNIT_XSD or put shared/junit-xsd beside the repository"; \
	exit 77; }
command -v xmllint >/dev/null || { echo "SKIP: xmllint not found (libxml2-utils)"; exit 77; }
for xsd in windyroad junit10 jenkins-junit4; do
	[ -f "$SG_JUNIT_XSD/$xsd.xsd" ] && pass ||
		fail "SG_JUNIT_XSD='$SG_JUNIT_XSD' has no $xsd.xsd"
done

valid() { # FILE SCHEMA-PATH
	xmllint --noout --schema "$2" "$1" 2>"$T/xsd.err" && pass || { cat "$T/xsd.err" >&2; fail \
		"$1 invalid against $2"; }
}

# junit10.xsd plus the two attributes CI annotators read on a testcase (GitLab, mikepenz, dorny)
script='s|\(<xs:attribute name="group" type="xs:string"/>\)|\1<xs:attribute name="file" '
script+='type="xs:string"/><xs:attribute name="line" type="xs:nonNegativeInteger"/>|'
sed "$script" \
	"$SG_JUNIT_XSD/junit10.xsd" >"$T/junit10-file-line.xsd"
cmp -s "$SG_JUNIT_XSD/junit10.xsd" "$T/junit10-file-line.xsd" && fail "could not extend junit10.xsd"

cases=0 lines=0
for dir in tests/data/check/*/; do
	name=$(basename "$dir")
	[ -f "$dir/scalegate.yml" ] || continue
	code=0
	"$SCALEGATE" check -c "$dir/scalegate.yml" --junit "$T/$name.xml" >/dev/null 2>&1 || code=$?
	[ "$code" -eq 2 ] && continue
	cases=$((cases + 1))
	for xsd in windyroad junit10 jenkins-junit4; do
		valid "$T/$name.xml" "$SG_JUNIT_XSD/$xsd.xsd"
	done
	"$SCALEGATE" check -c "$dir/scalegate.yml" --testcase-output --junit "$T/$name-out.xml" \
		>/dev/null 2>&1 || true
	valid "$T/$name-out.xml" "$T/junit10-file-line.xsd"
	sed -E 's/ file="[^"]*" line="[0-9]+"//' "$T/$name-out.xml" >"$T/$name-plain.xml"
	valid "$T/$name-plain.xml" "$SG_JUNIT_XSD/junit10.xsd"
	valid "$T/$name-plain.xml" "$SG_JUNIT_XSD/jenkins-junit4.xsd"
	n=$(grep -c '<testcase [^>]* file="[^"]*" line="[0-9]*"' "$T/$name-out.xml" || true)
	lines=$((lines + n))
done
[ "$cases" -ge 12 ] && pass || fail "only $cases cases validated"
[ "$lines" -gt 0 ] && pass ||
	fail "no testcase carries file and line attributes in the testcase-output layout"
# the attributes are where the interval is: jacobi.c's residual, as the profiles record it
grep -q 'classname="jacobi.program.solve.residual" time="[0-9.]*" file="jacobi.c" line="36"' \
	"$T/clear-regression-out.xml" && pass ||
	fail "the residual's testcase does not point at jacobi.c:36"
# warnings show per testcase in that layout (GitLab shows nothing else)
grep -q '<system-out>warning: ' "$T"/*-out.xml && pass ||
	fail "no warning in a testcase's <system-out>"
echo "$cases cases valid against the three schemas"
