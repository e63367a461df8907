# Without SCALEGATE_OUT the tracer writes nothing; with SCALEGATE_DISABLE the macros vanish.
# tier: fast
. "$(dirname "$0")/lib.bash"

mkdir "$T/cwd"
(cd "$T/cwd" && env -u SCALEGATE_OUT "$SG_BUILD/tests/tracer/nesting" 3) 2>"$T/err"
[ -z "$(ls -A "$T/cwd")" ] && pass || fail "files written without SCALEGATE_OUT: $(ls -A "$T/cwd")"
[ ! -s "$T/err" ] && pass || fail "output without SCALEGATE_OUT: $(cat "$T/err")"

(cd "$T/cwd" && SCALEGATE_OUT= "$SG_BUILD/tests/tracer/nesting" 3)
[ -z "$(ls -A "$T/cwd")" ] && pass || fail "files written with an empty SCALEGATE_OUT"

# Compiled out: arguments evaluated exactly once each (3 x 5 calls), nothing written.
out=$(SCALEGATE_OUT="$T/off" "$SG_BUILD/tests/tracer/disabled") && pass ||
	fail "disabled build: $out"
[ "$out" = 15 ] && pass || fail "disabled macros evaluated their arguments $out times, expected 15"
[ ! -e "$T/off" ] && pass || fail "a SCALEGATE_DISABLE build wrote a profile"
