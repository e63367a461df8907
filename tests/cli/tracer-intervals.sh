# Nested, tagged and mismatched intervals: call paths, counts and error counters in the profile.
# tier: fast
. "$(dirname "$0")/lib.bash"

traced "$T/out" nesting 5
p=$(one_profile "$T/out")
expect_exit 0 "$SCALEGATE" profile "$p"
expect_match "$out" '^  program +.*thread 0 +count 1 ' "level 0 is the whole program"
expect_match "$out" '^  program/solve +tests/tracer/nesting.c:[0-9]+ +thread 0 +count 1 ' \
	"solve once"
expect_match "$out" '^  program/solve/step\[0\] .*count 3 ' "tag 0 on iterations 0, 2, 4"
expect_match "$out" '^  program/solve/step\[1\] .*count 2 ' "tag 1 on iterations 1, 3"
expect_match "$out" '^  program/solve/inner .*count 1 ' "inner under solve"
expect_match "$out" '^  program/inner .*count 1 ' "inner at top level is another call path"
expect_match "$out" 'errors_unmatched_end = 1' "the unmatched SG_END is counted"
expect_match "$out" 'errors_unclosed = 1' "the region left open is counted"

# The wall times nest: solve holds 5 x 1 ms steps and 2 ms inner.
solve=$(awk '$1 == "program/solve" { print $(NF-1) }' <<<"$out")
awk -v s="$solve" 'BEGIN { exit !(s >= 0.007 && s < 1.0) }' && pass ||
	fail "solve took $solve s, expected >= 7 ms"
