# Hostile inputs: FIFOs, devices, deep nesting, huge counts and absurd values in every file the gate
# reads end with a message naming the file, the documented exit code and the reports, never a hang
# or an exhausted machine: each command runs with 512 MB of address space (ulimit -v) and a generous
# timeout.
# tier: fast
. "$(dirname "$0")/lib.bash"

# bounded CODE CMD...: expect_exit under 'ulimit -v 512 MB' and a 120 s timeout (a hang or an
# out-of-memory death fails the test).
bounded() {
	local want=$1
	shift
	expect_exit "$want" bash -c 'ulimit -v "$SG_VLIMIT"; exec timeout -k 5 120 "$@"' bounded \
		"$@"
}

# reseal FILE: the end record recomputed after an edit (FNV-1a 64 of everything before it).
reseal() {
	python3 - "$1" <<'PY'
import sys
p = sys.argv[1]
t = open(p, "rb").read()
body = t[:t.rindex(b"end\t")] if b"\nend\t" in t else t
h = 14695981039346656037
for b in body:
    h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
open(p, "wb").write(body + b"end\t%016x\n" % h)
PY
}

# ---- configuration and rules ----
bounded 2 "$SCALEGATE" check -c /dev/zero
expect_match "$out" "'/dev/zero' is not a regular file \(a character device\)" "-c /dev/zero"
mkfifo "$T/fifo.yml"
bounded 2 "$SCALEGATE" check -c "$T/fifo.yml"
expect_match "$out" "fifo.yml' is not a regular file \(a FIFO\)" "a FIFO as configuration"
ln -s /dev/zero "$T/zero.yml"
bounded 2 "$SCALEGATE" check --validate -c "$T/zero.yml"
expect_match "$out" "zero.yml' is not a regular file" "a link to /dev/zero as configuration"
# 200,000 nested '[' in the rules: stopped at depth 64 with the position (it ran for minutes).
python3 -c "print('rules:\n  - tolerance: ' + '[' * 200000 + ']' * 200000)" >"$T/deep.yml"
bounded 2 "$SCALEGATE" check --validate -c "$T/deep.yml"
expect_match "$out" "deep.yml:2:[0-9]+: nested deeper than 64 levels" \
	"deep nesting is stopped with file:line:col"
# Block nesting too.
python3 -c "print('benchmarks:\n' + ''.join(' ' * i + '- \n' for i in range(1, 100)))" \
	>"$T/deep-block.yml"
bounded 2 "$SCALEGATE" check --validate -c "$T/deep-block.yml"
expect_match "$out" "deep-block.yml:[0-9]+:[0-9]+: nested deeper than 64 levels" \
	"deep block nesting"
# A million and one nodes in 2 MB.
python3 -c "import sys; sys.stdout.write('benchmarks: [' + 'a,' * 1000000 + 'a]\n')" >"$T/wide.yml"
bounded 2 "$SCALEGATE" check --validate -c "$T/wide.yml"
expect_match "$out" "wide.yml:1:[0-9]+: more than 1000000 YAML nodes in one file" "a node bound"
# A billion laughs: 10^10 nodes through nested aliases in 600 bytes; an alias counts as the nodes it
# repeats, and the one past the bound is named.
bounded 2 "$SCALEGATE" check --validate -c "$SG_TOP/tests/fuzz/seeds/config-alias-laughs.yml"
expect_match "$out" \
	"config-alias-laughs.yml:6:45: aliases repeat more than 1000000 YAML nodes in one file" \
	"aliases count against the node bound"
bounded 2 "$SCALEGATE" check --validate -c "$SG_TOP/tests/fuzz/seeds/rules-alias-laughs.yml"
expect_no_match "$out" "aliases repeat" "a few aliases are no bomb"
fmt='benchmarks:\n  - name: a\n    command: ./p\n    threads: &t [1, 2]\n  '
fmt+='- name: b\n    command: ./q\n    threads: *t\n'
printf "$fmt" >"$T/alias.yml"
bounded 0 "$SCALEGATE" check --validate -c "$T/alias.yml"
# 17 MB: over the size bound of a YAML file.
head -c 17000000 /dev/zero | tr '\0' '#' >"$T/huge.yml"
bounded 2 "$SCALEGATE" check --validate -c "$T/huge.yml"
expect_match "$out" "huge.yml' is 17000000 bytes, more than the 16 MiB" "a size bound"

# A matrix of 2.7 * 10^10 cells (counted one by one, then out of memory and SIGABRT): refused at
# load.
python3 -c "
l = ', '.join(str(i) for i in range(1, 3001))
print('benchmarks:\n  - name: big\n    command: ./p\n'
      '    threads: [%s]\n    ranks: [%s]\n    sizes: [%s]' % (l, l, l))
" >"$T/matrix.yml"
bounded 2 "$SCALEGATE" check --validate -c "$T/matrix.yml"
re="matrix.yml:2:5: the matrix of benchmark 'big' has 27000000000 cells "
re+="\(sizes x ranks x threads\), more than 100000"
expect_match "$out" "$re" \
	"a huge matrix is refused with file:line:col"
# 40,000 cells with an exclusion: indexed (point by point it was quadratic, 6 s).
python3 -c "
l = ', '.join(str(i) for i in range(1, 201))
print('benchmarks:\n  - name: wide\n    command: ./p\n    threads: [%s]\n    ranks: [%s]\n'
      '    mpi: true\n    exclude:\n      - { threads: 1, ranks: 1 }' % (l, l))
" >"$T/cells.yml"
bounded 0 "$SCALEGATE" check --validate -c "$T/cells.yml"
# A 300-character name: refused at load (it failed later with ENAMETOOLONG, leaving results/
# behind).
printf 'benchmarks:\n  - name: %s\n    command: ./p\n' "$(printf 'n%.0s' {1..300})" >"$T/long.yml"
bounded 2 "$SCALEGATE" check --validate -c "$T/long.yml"
expect_match "$out" \
	"long.yml:2:11: benchmark name 'nnnn.*\.\.\.' is 300 characters long, more than 200" \
	"a long name"

# Out of memory (a valid configuration of 80,000 benchmarks in 150 MB): exit 3 with a message, no
# SIGABRT.
awk 'BEGIN { print "benchmarks:"; for (i = 0; i < 80000; i++)
	printf "  - name: b%06d\n    command: ./p %d\n    threads: [1, 2]\n", i, i }' >"$T/many.yml"
if [ "$SG_VLIMIT" != unlimited ]; then # a sanitizer's shadow memory alone is past any such bound
	expect_exit 3 bash -c 'ulimit -v 150000; exec "$@"' oom "$SCALEGATE" check --validate -c \
		"$T/many.yml"
	expect_match "$out" "^scalegate: fatal: out of memory.*: exit 3" "out of memory is exit 3"
fi

# ---- results and baselines at check time: errors with the reports, the other benchmarks judged
# ----
fresh() {
	rm -rf "$T/c"
	cp -r "$SG_TOP/tests/data/check/within-tolerance" "$T/c"
	prof=$(ls "$T/c/results/jacobi/s--r1-t2/1/"*.sgprof)
	base="$T/c/baselines/jacobi.sgbase"
}
check_error() { # check_error REGEX WHAT: exit 3, the message, and a JUnit <error> with it
	bounded 3 "$SCALEGATE" check -c "$T/c/scalegate.yml" --junit "$T/c/junit.xml"
	expect_match "$out" "$1" "$2"
	grep -q '<error' "$T/c/junit.xml" && pass || fail "$2: no <error> in the JUnit report"
}
fresh
rm "$prof" && ln -s /dev/zero "$prof"
re="ERROR jacobi program 1 rank × 2 threads profile: repeat 1 "
re+="cannot be read.*sgprof' is not a regular file"
check_error "$re" \
	"a profile linked to /dev/zero"
expect_match "$out" "[0-9]+ passed" "the other runs are still judged"
fresh
rm "$prof" && mkfifo "$prof"
check_error "sgprof' is not a regular file \(a FIFO\)" "a FIFO as a profile"
fresh
sed -i 's/^end\t.*/end\t0000000000000000/' "$prof"
re="ERROR jacobi .*repeat 1 cannot be read.*synthetic.1.sgprof' is corrupt: checksum mismatch"
check_error "$re" \
	"a damaged profile is an error verdict, not exit 2 without reports"
# 1e308 overflowed Total_time to infinity and the checks skipped below min_samples: now an error.
fresh
sed -i '0,/^stat\t0\t0\t1\t/s/^\(stat\t0\t0\t1\t\)[^\t]*/\11e308/' "$prof"; reseal "$prof"
re="synthetic.1.sgprof:[0-9]+: corrupt profile: stat column 'time' is '1e308': "
re+="must be a finite number, not negative, at most 1e15"
check_error "$re" \
	"an absurd profile value"
# No statistics at all (a tracer built from objects of different versions wrote such files): the
# configuration is an error, never a pass on no data.
fresh
sed -i '/^stat\t/d' "$prof"; reseal "$prof"
re="ERROR jacobi .*synthetic.1.sgprof' holds no measurements: no statistics of the level-0 interval"
check_error "$re" \
	"a profile with no statistics"
# 200,000 nested nodes (20,000 took 4 s and 1.2 GB): deeper than the tracer's 128 is refused at the
# line.
fresh
python3 - "$prof" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
i = max(k for k, l in enumerate(lines) if l.startswith("node\t"))
n = int(lines[i].split("\t")[1])
extra = ["node\t%d\t%d\t1\t-" % (n + 1 + k, n + k) for k in range(200000)]
lines[i + 1:i + 1] = extra
open(p, "w").write("\n".join(lines))
PY
reseal "$prof"
check_error "synthetic.1.sgprof:[0-9]+: corrupt profile: node nested deeper than 128 levels" \
	"a deep profile"
# A rank without a rank count: the message compares the file with no other.
fresh
sed -i 's/^meta\trank\t-$/meta\trank\t1/' "$prof"; reseal "$prof"
check_error "synthetic.1.sgprof': rank 1 of -: a rank without a rank count" "a rank without a count"
expect_no_match "$out" "but '.*synthetic.1.sgprof' is rank" "a file is not compared with itself"
# The baseline as a FIFO and as a link to /dev/zero.
fresh
rm "$base" && mkfifo "$base"
check_error "ERROR jacobi .*cannot read the baseline" "a FIFO as baseline"
expect_match "$out" "jacobi.sgbase' is not a regular file \(a FIFO\)" "the FIFO is named"
fresh
rm "$base" && ln -s /dev/zero "$base"
check_error "jacobi.sgbase' is not a regular file \(a character device\)" \
	"a baseline linked to /dev/zero"
# A results table linked to /dev/zero: incomplete results, naming it.
fresh
rm "$T/c/results/manifest.tsv" && ln -s /dev/zero "$T/c/results/manifest.tsv"
bounded 3 "$SCALEGATE" check -c "$T/c/scalegate.yml"
expect_match "$out" "manifest.tsv' is not a regular file" "a results table linked to /dev/zero"
# 40,000 more sample lines in the baseline (9 s, quadratic, before they were hashed): read at once.
fresh
prog='BEGIN { for (i = 0; i < 40000; i++) printf "sample\tprogram/x%d\t-'
prog+='\t7\t1\tExecution_time\t1\t1\t1\t1\t1\n", i }'
awk "$prog" \
	>"$T/extra"
sed -i "/^columns\t/r $T/extra" "$base"; reseal "$base"
bounded 0 "$SCALEGATE" check -c "$T/c/scalegate.yml"

# ---- run time: a benchmark's FIFO or device among its profiles never blocks the gate ----
cat >"$T/run.yml" <<YML
results: $T/results
baselines: $T/baselines
defaults:
  warmup: 0
  repeat: 1
  timeout: 600
benchmarks:
  - name: fifo
    command: mkfifo "\$SCALEGATE_OUT/x.sgprof"
  - name: zero
    command: ln -s /dev/zero "\$SCALEGATE_OUT/x.sgprof"
YML
bounded 3 "$SCALEGATE" run -c "$T/run.yml"
expect_match "$out" "x.sgprof' is not a regular file \(a FIFO\)" \
	"a FIFO profile fails its run at once"
expect_match "$out" "x.sgprof' is not a regular file \(a character device\)" \
	"a /dev/zero profile fails its run"
echo ok
