# scalegate run piped into a reader (a CI log): a line per finished run arrives while the matrix
# still runs, and a long run prints "still running" lines. No wall-clock assertion: the second run
# blocks until this test has read those lines, so they cannot have come from the end of the matrix.
. "$(dirname "$0")/lib.bash"

cat >"$T/gate.sh" <<SH
# run 1 ends at once; run 2 waits for the test's 'release' file (at most 120 s: never hang CI)
if [ -e "$T/first-done" ]; then
	n=0
	while [ ! -e "$T/release" ] && [ \$n -lt 1200 ]; do sleep 0.1; n=\$((n + 1)); done
fi
touch "$T/first-done"
exec "$SG_BUILD/examples/jacobi" "\$1" 50 10
SH
cat >"$T/scalegate.yml" <<YML
defaults:
  workdir: $T
  warmup: 0
  repeat: 2
benchmarks:
  - name: blocker
    command: sh ./gate.sh {threads}
    threads: [1]
YML

mkfifo "$T/pipe"
SG_PROGRESS_SECONDS=1 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" >"$T/pipe" 2>"$T/err" &
pid=$!
exec 3<"$T/pipe"
# generous timeouts: they only bound a broken test, the order of events is what is asserted
IFS= read -r -t 120 first <&3 && pass || fail "no progress line from a piped 'scalegate run'"
kill -0 "$pid" 2>/dev/null && pass || fail "the first line came only after the run ended"
[ ! -e "$T/release" ] && pass || fail "released too early"
busy='( \(machine busy: [^)]*\))?'
expect_match "$first" "^\[1/2\] blocker 1 rank × 1 thread repeat 1/2: [0-9.]+ s, ok$busy\$" \
	"a line per finished run (a busy machine said so)"
IFS= read -r -t 120 second <&3 && pass || fail "no 'still running' line while run 2 blocks"
expect_match "$second" \
	'^\[2/2\] blocker 1 rank × 1 thread repeat 2/2: still running after [0-9]+ s$' \
	"a long run shows life"
kill -0 "$pid" 2>/dev/null && pass || fail "the run ended before it was released"
touch "$T/release"
rest=$(cat <&3)
wait "$pid" && pass || fail "scalegate run failed: $(cat "$T/err")"
expect_match "$rest" "^\[2/2\] blocker 1 rank × 1 thread repeat 2/2: [0-9.]+ s, ok$busy\$" \
	"the last run's line"

# on a terminal (script(1) gives it one): the live line on stderr, rewritten in place, and no log
# lines
script -qec "\"$SCALEGATE\" run -c \"$T/scalegate.yml\" -o \"$T/results2\"" /dev/null \
	>"$T/tty.out" </dev/null && pass ||
	fail "scalegate run on a terminal failed: $(cat "$T/tty.out")"
grep -q $'\r\033\[K\[1/2\] blocker 1 rank × 1 thread repeat 1/2' "$T/tty.out" && pass ||
	fail "no live line on a terminal"
tr '\r' '\n' <"$T/tty.out" | grep -Eq '^\[[0-9]+/[0-9]+\] .*: [0-9.]+ s, ok' && fail \
	"log lines on a terminal"
true
