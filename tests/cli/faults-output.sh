# A benchmark's output is capped per run (output_limit): the head and the tail kept, the cut said,
# the secrets still masked, the gate's memory bounded (512 MB of address space for 200 MB of
# output), and its disk too while the run goes on.
. "$(dirname "$0")/lib.bash"
gate_memory_bounded

secret="sgsecret-$RANDOM-$$"
cat >"$T/scalegate.yml" <<YML
secret_env: [SG_SECRET]
defaults:
  warmup: 0
  repeat: 1
benchmarks:
  - name: loud
    output_limit: 1048576
    command: echo "first line $secret"; yes 'a line of output that repeats and repeats' |
      head -c 200000000; echo; echo "last line $secret"
  - name: quiet
    command: echo "small output"
  - name: straddle
    output_limit: 65536
    command: $T/straddle.sh
YML
# straddle.sh: one line without end, the secret across both places where the output is cut (32768
# bytes from each end).
cat >"$T/straddle.sh" <<SH
#!/bin/sh
head -c 32760 /dev/zero | tr '\\0' x
printf '%s' "$secret"
head -c 100000 /dev/zero | tr '\\0' y
printf '%s' "$secret"
head -c \$((32776 - \${#secret})) /dev/zero | tr '\\0' z
SH
chmod +x "$T/straddle.sh"
# The secret is in the command itself: the benchmark's environment does not have it.
code=0
SG_SECRET=$secret bash -c 'ulimit -v "$SG_VLIMIT"; exec timeout -k 5 300 "$@"' bounded \
	"$SCALEGATE" run -c "$T/scalegate.yml" >"$T/run.out" 2>&1 || code=$?
[ "$code" -eq 3 ] && pass || { cat "$T/run.out" >&2; fail \
	"run exited $code, expected 3 (no profiles)"; }
out_file=$(ls "$T"/results/loud/*/1/stdout.txt 2>/dev/null || find "$T" -path '*loud*' -name \
	stdout.txt | head -1)
[ -f "$out_file" ] && pass || fail "no stdout.txt for loud"
size=$(stat -c %s "$out_file")
[ "$size" -le 1100000 ] && pass ||
	fail "stdout.txt is $size bytes, more than the limit of 1 MiB (and the note)"
[ "$(head -n 1 "$out_file")" = "first line ***" ] && pass ||
	fail "the head is not kept: $(head -n 1 "$out_file")"
[ "$(tail -n 1 "$out_file")" = "last line ***" ] && pass ||
	fail "the tail is not kept: $(tail -n 1 "$out_file")"
grep -q "$secret" "$out_file" && fail "the secret is not masked in the kept output"
re='^\[scalegate: [0-9]+ bytes cut here: a run keeps the first and the '
re+='last 524288 of its output \(output_limit\)\]$'
grep -Eq "$re" \
	"$out_file" && pass || fail "the cut is not said"
# Across the cuts, the secret is not left in two readable pieces: only x, the note, z are kept.
straddle=$(find "$T" -path '*straddle*' -name stdout.txt | head -1)
[ "$(grep -v '^\[scalegate: ' "$straddle" | tr -d 'xz\n*')" = "" ] && pass ||
	fail "a piece of the secret is kept across a cut: $(grep -o '.\{12\}\[scalegate.*\]..*' \
		"$straddle" | head -c 300; tr -d 'xz' <"$straddle" | head -c 300)"
quiet=$(find "$T" -path '*quiet*' -name stdout.txt | head -1)
[ "$(cat "$quiet")" = "small output" ] && pass || fail "a small output was changed: $(cat "$quiet")"

# While the run goes on: 100 MB printed, then the run waits; the middle past the limit is already
# released from the disk (a hole punched), so that a run that prints without end fills no disk.
cat >"$T/endless.yml" <<YML
results: $T/endless
defaults:
  warmup: 0
  repeat: 1
benchmarks:
  - name: endless
    output_limit: 1048576
    command: "yes 'a line of output' | head -c 100000000; echo >$T/printed;
      while [ ! -e $T/checked ]; do sleep 0.05; done"
YML
head -c 65536 /dev/zero >"$T/hole"
if ! fallocate --punch-hole --offset 0 --length 32768 "$T/hole" 2>/dev/null; then
	echo "ok (the file system of $T punches no holes: the output is cut at the end only)"
	exit 0
fi
"$SCALEGATE" run -c "$T/endless.yml" >"$T/endless.out" 2>&1 &
gate=$!
timeout 20 sh -c 'while [ ! -e "$0" ]; do sleep 0.05; done' "$T/printed" && pass ||
	fail "the run did not print"
file=$(find "$T/endless" -name stdout.txt -path '*endless*' | head -1)
[ "$(stat -c %s "$file")" -ge 100000000 ] && pass ||
	fail "the output is not all there: $(stat -c %s "$file")"
# allocated KiB under 8 MiB (the limit, a chunk and the margins), waited for within the guard
timeout 20 sh -c 'while [ "$(du -k "$0" | cut -f1)" -ge 8192 ]; do sleep 0.05; done' "$file" && \
	pass ||
	fail "the run's output holds $(du -k "$file" | cut -f1) KiB of disk while it runs"
touch "$T/checked"
wait "$gate" || true
[ "$(stat -c %s "$file")" -le 1100000 ] && pass ||
	fail "the output is not cut at the end: $(stat -c %s "$file")"
echo ok
