# The profile file: flat size in the iteration count, atomic write, and rejection of damaged files.
# tier: fast
. "$(dirname "$0")/lib.bash"

traced "$T/small" iterations 1000
traced "$T/large" iterations 1000000
small=$(stat -c %s "$(one_profile "$T/small")")
large=$(stat -c %s "$(one_profile "$T/large")")
# Same records; only the digits of a few numbers may differ.
[ $((large - small)) -lt 64 ] && [ $((small - large)) -lt 64 ] && pass ||
	fail "profile size depends on iterations: $small bytes at 10^3, $large at 10^6"
ls "$T/large" | grep -q '\.tmp' && fail "a temporary file was left behind"

good=$(one_profile "$T/small")
expect_exit 0 "$SCALEGATE" profile "$good"
expect_match "$out" 'program/loop/iteration .*count 1000 ' "iteration count"

head -c $(( $(stat -c %s "$good") - 30 )) "$good" >"$T/truncated.sgprof"
expect_exit 2 "$SCALEGATE" profile "$T/truncated.sgprof"
expect_match "$out" "'$T/truncated.sgprof' is truncated" "truncated file named"

sed 's/^\(stat\t[0-9]*\t0\t\)1000\t/\11001\t/' "$good" >"$T/corrupt.sgprof"
cmp -s "$good" "$T/corrupt.sgprof" && fail "the corruption did not change the file"
expect_exit 2 "$SCALEGATE" profile "$T/corrupt.sgprof"
expect_match "$out" "'$T/corrupt.sgprof' is corrupt: checksum mismatch" "corrupt file named"

sed '1s/\t[0-9]*$/\t99/' "$good" >"$T/future.sgprof" # a version after the reader's
expect_exit 2 "$SCALEGATE" profile "$T/future.sgprof"
expect_match "$out" "profile version 99 is not supported" "wrong version"

: >"$T/empty.sgprof"
expect_exit 2 "$SCALEGATE" profile "$T/empty.sgprof"
expect_match "$out" "'$T/empty.sgprof' is empty" "empty file"

# An unwritable destination: one warning, the program's own exit status, no partial file.
touch "$T/plain-file"
err=$(traced "$T/plain-file/out" iterations 10 2>&1 >/dev/null) && pass ||
	fail "an unwritable SCALEGATE_OUT changed the exit status"
[ "$(grep -c 'scalegate: warning' <<<"$err")" = 1 ] && pass ||
	fail "expected one warning, got: $err"
expect_match "$err" "cannot write the profile into '$T/plain-file/out'" \
	"the warning names the directory"

# A missing directory is created, parents included.
traced "$T/new/deeper" iterations 10
one_profile "$T/new/deeper" >/dev/null
