# Secrets: post.token_env and secret_env are kept from the benchmarks, and a value a benchmark
# prints anyway (read from a file here) is masked in every file and every line of 'scalegate ci',
# and in the names, the link targets and the files at any depth of what a run leaves in
# $SCALEGATE_OUT.
. "$(dirname "$0")/lib.bash"
gate_memory_bounded

token="sgtok-$RANDOM-$$-secret"
other="sgother-$RANDOM-$$-value"
printf '%s\n' "$token" >"$T/token.file"
cat >"$T/scalegate.yml" <<YML
secret_env: [SG_OTHER_SECRET]
post:
  url: http://127.0.0.1:9/hook
  token_env: SG_TEST_TOKEN
defaults:
  warmup: 0
  repeat: 2
  env:
    JACOBI: $SG_BUILD/examples/jacobi
benchmarks:
  - name: printer
    command: echo "token=[\$SG_TEST_TOKEN] other=[\$SG_OTHER_SECRET]"; env;
      tr '\\0' '\\n' </proc/\$PPID/environ >$T/gate.env; \$JACOBI 200 2
  - name: leaker
    command: echo "stdout \$(cat $T/token.file)";
      echo "leaked \$(cat $T/token.file) and \$(cat $T/token.file)" >&2; exit 9
  - name: scatter
    command: $T/scatter.sh
YML
# scatter.sh: the token as a directory's and a file's name, 12 directories deep, as a link's target.
cat >"$T/scatter.sh" <<SH
#!/bin/sh
t=\$(cat $T/token.file)
d=\$SCALEGATE_OUT/deep/1/2/3/4/5/6/7/8/9/10/11
mkdir -p "\$d" "\$SCALEGATE_OUT/dir-\$t/sub"
echo "deep \$t" >"\$d/file.txt"
echo named >"\$SCALEGATE_OUT/file-\$t.txt"
echo named >"\$SCALEGATE_OUT/dir-\$t/sub/\$t"
echo other >"\$SCALEGATE_OUT/***"
echo top >"\$SCALEGATE_OUT/\$t"
ln -s "/tmp/\$t/x" "\$SCALEGATE_OUT/link"
ln -s "/tmp/\$t/y" "\$d/link-\$t"
SH
chmod +x "$T/scatter.sh"

code=0
SG_TEST_TOKEN=$token SG_OTHER_SECRET=$other "$SCALEGATE" ci -c "$T/scalegate.yml" -o "$T/reports" \
	--no-post \
	>"$T/console.out" 2>"$T/console.err" || code=$?
[ "$code" -eq 3 ] && pass || { cat "$T/console.err" >&2; fail \
	"ci exited $code, expected 3 (leaker fails)"; }

# The benchmark saw neither variable.
out=$(cat "$T/results/printer/s--r1-t1/1/stdout.txt")
expect_match "$out" '^token=\[\] other=\[\]$' "the variables are removed"
expect_no_match "$out" '^(SG_TEST_TOKEN|SG_OTHER_SECRET)=' "env lists no secret"
expect_match "$out" '^SCALEGATE_OUT=' "env ran"
# The gate's own environment block (the run's parent's) shows the masks, not the values' lengths.
expect_match "$(cat "$T/gate.env")" '^SG_TEST_TOKEN=\*\*\*$' "the token in the gate's environment"
expect_match "$(cat "$T/gate.env")" '^SG_OTHER_SECRET=\*\*\*$' \
	"secret_env in the gate's environment"
# What leaked through a file is masked, and the failure is still told.
expect_match "$(cat "$T/results/leaker/s--r1-t1/1/stderr.txt")" '^leaked \*\*\* and \*\*\*$' \
	"stderr.txt masked"
expect_match "$(cat "$T/console.err")" 'leaker .*exit code 9.*leaked \*\*\* and \*\*\*' \
	"the console tells the failure, masked"
expect_match "$(cat "$T/reports/junit.xml")" 'leaked \*\*\* and \*\*\*' \
	"the JUnit report tells it, masked"
for v in "$token" "$other"; do
	if grep -rlF -- "$v" "$T/results" "$T/reports" "$T/console.out" "$T/console.err"; then
		fail "a secret value is in the files above"
	fi
	if find "$T/results" -printf '%p -> %l\n' | grep -F -- "$v"; then
		fail "a secret value is in the names or link targets above"
	fi
done
# What scatter.sh left is all there, masked.
s=$T/results/scatter/s--r1-t1/1
expect_match "$(cat "$s/deep/1/2/3/4/5/6/7/8/9/10/11/file.txt")" '^deep \*\*\*$' "a file 12 deep"
[ "$(readlink "$s/link")" = "/tmp/***/x" ] && pass ||
	fail "the link's target: $(readlink "$s/link")"
[ "$(readlink "$s/deep/1/2/3/4/5/6/7/8/9/10/11/link-***")" = "/tmp/***/y" ] && pass ||
	fail "a deep link"
[ "$(cat "$s/file-***.txt")" = named ] && pass || fail "a file named after the token"
[ "$(cat "$s/dir-***/sub/***")" = named ] && pass ||
	fail "a directory and a file named after the token"
[ "$(cat "$s/***")" = other ] && [ "$(cat "$s/***.1")" = top ] && pass ||
	fail "a masked name already taken"
ls "$T/reports/junit.xml" "$T/reports/summary.md" "$T/reports/summary.json" \
	"$T/reports/report.html" >/dev/null

# A secret_env entry that is not a variable name is refused with its position.
printf 'secret_env: [GOOD, "no way"]\nbenchmarks:\n  - name: a\n    command: "true"\n' >"$T/bad.yml"
expect_exit 2 "$SCALEGATE" run -c "$T/bad.yml" --dry-run
expect_match "$out" 'bad.yml:1:20: .secret_env. names must be environment variable names' \
	"bad secret_env"
echo ok
