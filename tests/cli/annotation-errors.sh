# Annotation mistakes (issue 12): the tracer says so once per kind with the site's file:line and
# recovers; check and ci turn them into error verdicts naming the interval and its site.
# tier: fast
. "$(dirname "$0")/lib.bash"

prog=$SG_BUILD/tests/tracer/unclosed
src=tests/tracer/unclosed.c
line_of() { grep -n -F "$1" "$SG_TOP/$src" | head -n 1 | cut -d: -f1; }
begin_inner=$(line_of 'SG_BEGIN("inner")')
end_stray=$(line_of 'SG_END("stray")')

SCALEGATE_OUT="$T/out" "$prog" >/dev/null 2>"$T/err"
[ "$(wc -l <"$T/err")" -eq 2 ] && pass || fail "not one line per kind of error: $(cat "$T/err")"
expect_match "$(cat "$T/err")" \
	"^scalegate: error: $src:$begin_inner: interval \"inner\" was left open" \
	"the open interval and its SG_BEGIN"
expect_match "$(cat "$T/err")" \
	"^scalegate: error: $src:$end_stray: SG_END\(\"stray\"\) matches no open interval" \
	"the stray SG_END and its line"
# Not measuring: nothing is checked, nothing printed.
"$prog" >/dev/null 2>"$T/err0"
[ ! -s "$T/err0" ] && pass || fail "errors printed without SCALEGATE_OUT: $(cat "$T/err0")"

# Recovery: 'inner' is closed with 'outer' each time, so 'outer' and 'after' keep their parents.
out=$(tsv "$T/out")
[ "$(col "$out" program/outer 0 count)" = 3 ] && pass ||
	fail "outer: $(col "$out" program/outer 0 count)"
[ "$(col "$out" program/outer/inner 0 count)" = 3 ] && pass || fail "inner under outer, 3 times"
[ "$(col "$out" program/after 0 count)" = 1 ] && pass || fail "after keeps its parent: $out"
p=$(one_profile "$T/out")
grep -q $'^meta\terrors_unclosed\t3$' "$p" && pass || fail "three unclosed: $(grep errors_ "$p")"
grep -q $'^meta\terrors_unmatched_end\t3$' "$p" && pass || fail "three unmatched ends"

# check: an error verdict per site, JUnit <error> naming interval and file:line, exit 3.
cat >"$T/scalegate.yml" <<YML
results: $T/results
baselines: $T/baselines
defaults:
  workdir: $SG_BUILD
  warmup: 0
  repeat: 2
benchmarks:
  - name: unclosed
    command: $prog
YML
expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml"
expect_exit 3 "$SCALEGATE" check -c "$T/scalegate.yml" --junit "$T/junit.xml"
re="^ERROR unclosed program/outer/inner .*$src:$begin_inner: "
re+="interval 'program/outer/inner' was left open"
expect_match "$out" "$re" \
	"the unclosed interval is an error verdict"
re="^ERROR unclosed program/stray .*$src:$end_stray: interval "
re+="'program/stray' is ended where it is not open"
expect_match "$out" "$re" \
	"the stray SG_END is an error verdict"
python3 - "$T/junit.xml" "$src:$begin_inner" <<'PY' && pass || fail "JUnit"
import sys, xml.etree.ElementTree as ET
errors = [e for e in ET.parse(sys.argv[1]).iter("error")]
assert any(sys.argv[2] in (e.get("message") or "")
           and "program/outer/inner" in (e.get("message") or "") for e in errors), \
    [e.attrib for e in errors]
PY
