# Smaller faults: temporary files of a killed 'baseline update', invalid UTF-8 from a benchmark, the
# last line when a report cannot be written, a file given as a directory, a 6 MB configuration
# loaded in linear time.
# tier: fast
. "$(dirname "$0")/lib.bash"
gate_memory_bounded

cat >"$T/scalegate.yml" <<YML
results: $T/results
baselines: $T/baselines
defaults:
  warmup: 0
  repeat: 2
benchmarks:
  - name: a
    command: $SG_BUILD/examples/jacobi 1 50 2
  - name: bytes
    command: printf 'bad \\377\\376 bytes \\303 and ok \\303\\251\\n' >&2; exit 4
YML
sg() { "$SCALEGATE" "$@" -c "$T/scalegate.yml"; }

# Invalid UTF-8 on a benchmark's stderr: escaped in the manifest, the console and every report.
code=0
sg ci -o "$T/reports" --no-post >"$T/ci.out" 2>&1 || code=$?
[ "$code" -eq 3 ] && pass || { cat "$T/ci.out" >&2; fail "ci exited $code, expected 3"; }
expect_match "$(cat "$T/results/manifest.tsv")" 'stderr: bad \\xff\\xfe bytes \\xc3 and ok é' \
	"the manifest escapes the bytes"
expect_match "$(cat "$T/ci.out")" 'stderr: bad \\xff\\xfe bytes \\xc3 and ok é' \
	"the console escapes them"
for f in "$T/results/manifest.tsv" "$T/ci.out" "$T/reports"/*; do
	iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 && pass || fail "$f is not valid UTF-8"
done

# A report that cannot be written: the last line states the real exit code. Three repeats against
# their own baseline decide nothing (inconclusive), which 'undecided: pass' accepts: the verdict
# alone would exit 0.
sed -i '/name: bytes/,$d; s/repeat: 2/repeat: 3/' "$T/scalegate.yml"
printf 'undecided: pass\n' >>"$T/scalegate.yml"
rm -rf "$T/results"
expect_exit 0 sg run
expect_exit 0 sg baseline update
touch "$T/file"
expect_exit 2 sg check --junit "$T/file/junit.xml"
[ "$(tail -n 1 <<<"$out")" = \
	"scalegate: exit 2 (usage or configuration error), not 0: see the errors above" ] && pass ||
	fail "last line: $(tail -n 1 <<<"$out")"

# A (sparse, 2 GiB) file where a directory is expected: said so, not "cannot open directory".
truncate -s 2G "$T/big.file"
expect_exit 2 "$SCALEGATE" analyze "$T/big.file"
expect_match "$out" "^scalegate: error: '$T/big.file' is not a directory$" "a file as the directory"
rm -f "$T/big.file"

# Temporary files of a killed 'baseline update': removed by the next one; a living writer's are
# kept.
dead=$(sh -c 'echo $$')
echo partial >"$T/baselines/a.sgbase.tmp.$dead"
echo writing >"$T/baselines/a.sgbase.tmp.$$"
expect_exit 0 sg baseline update
expect_match "$out" \
	"removed '$T/baselines/a.sgbase.tmp.$dead', left by a 'baseline update' that was killed" \
	"the cleanup is told"
[ ! -e "$T/baselines/a.sgbase.tmp.$dead" ] && pass ||
	fail "the dead writer's temporary file is still there"
[ -e "$T/baselines/a.sgbase.tmp.$$" ] && pass || fail "a living writer's temporary file was removed"

# 6 MB, 80,000 benchmarks (880,000 YAML nodes, below the limit of a million): loaded in linear time
# (the quadratic loader took minutes; 60 s is generous).
awk 'BEGIN { print "benchmarks:"; for (i = 0; i < 80000; i++)
	printf "  - name: b%06d\n    command: ./p %d --some-flag\n    threads: [1, 2]\n",
		i, i }' >"$T/big.yml"
[ "$(stat -c %s "$T/big.yml")" -gt 5000000 ] && pass ||
	fail "big.yml is only $(stat -c %s "$T/big.yml") bytes"
timeout 60 "$SCALEGATE" check --validate -c "$T/big.yml" >"$T/big.out" 2>&1 ||
	{ cat "$T/big.out" >&2; fail "a 6 MB configuration did not load within 60 s"; }
expect_match "$(cat "$T/big.out")" 'big.yml: valid' "the big configuration is valid"
# A duplicate at the end is still found.
printf '  - name: b000007\n    command: ./p\n' >>"$T/big.yml"
expect_exit 2 timeout 60 "$SCALEGATE" check --validate -c "$T/big.yml"
expect_match "$out" "big.yml:[0-9]+:11: duplicate benchmark name 'b000007' \(first at 23:11\)" \
	"the duplicate is named"
echo ok
