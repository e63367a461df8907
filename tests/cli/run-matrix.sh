# scalegate run: the smallest configuration, interleaving, the results layout, the fingerprint,
# --benchmark, --dry-run.
. "$(dirname "$0")/lib.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive

cat >"$T/scalegate.yml" <<YML
benchmarks:
  - name: jacobi
    command: ./examples/jacobi {threads} 200 10
    workdir: $SG_BUILD
    threads: [1, 2, 4]
    ranks: [1]
    repeat: 2
  - name: imbalance
    command: ./examples/imbalance {threads} 200 2
    workdir: $SG_BUILD
    threads: [1, 2]
    warmup: 0
    repeat: 1
YML

# --dry-run prints every run and creates nothing.
expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --dry-run
[ ! -e "$T/results" ] && pass || fail "--dry-run created the results directory"
[ "$(grep -c 'repeat [0-9]:' <<<"$out")" -eq 8 ] && pass ||
	fail "--dry-run: expected 8 measured runs in the plan"
[ "$(grep -c 'warmup 1:' <<<"$out")" -eq 3 ] && pass || fail "--dry-run: expected 3 warm-up runs"
re="^jacobi s--r1-t2 repeat 1: OMP_NUM_THREADS=2 SCALEGATE_OUT=$T/results/jacobi/s--r1-t2/1 "
re+="SCALEGATE_WORKDIR=$SG_BUILD /bin/sh -c '$SG_BUILD/./examples/jacobi 2 200 10'\$"
expect_match "$out" "$re" "dry-run line"

expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results"
expect_match "$out" '^jacobi 1 rank × 2 threads: 2/2 ok, median [0-9.]+ s$' \
	"one line per configuration"
m="$T/results/manifest.tsv"
[ -f "$m" ] && [ ! -e "$m.partial" ] && pass || fail "manifest.tsv is missing or still partial"
header=$'benchmark\tsize\tranks\tthreads\tp\trepeat\tstatus\texit\twall_s\tdir\treason'
header+=$'\tcontention\treference_s'
[ "$(head -1 "$m")" = "$header" ] && pass ||
	fail "manifest header: $(head -1 "$m")"
[ "$(grep -c $'^jacobi\t' "$m")" -eq 6 ] && pass || fail "expected 6 jacobi runs"
[ "$(grep -c $'^imbalance\t' "$m")" -eq 2 ] && pass || fail "expected 2 imbalance runs"
[ "$(awk -F'\t' 'NR > 1 && $7 != "ok"' "$m" | wc -l)" -eq 0 ] && pass ||
	fail "a run is not ok: $(cat "$m")"
# Round-robin: repeat 1 of every configuration, then repeat 2.
order=$(awk -F'\t' '$1 == "jacobi" { printf "%s:%s ", $4, $6 }' "$m")
[ "$order" = "1:1 2:1 4:1 1:2 2:2 4:2 " ] && pass || fail "runs are not interleaved: $order"
prog='NR > 1 && !($1 != "" && $2 == "-" && $5 == $3 * $4 && $8 == '
prog+='"0" && $9 > 0 && $11 == "-") { exit 1 }'
awk -F'\t' "$prog" "$m" && pass ||
	fail "manifest columns: $(cat "$m")"
# the machine speed reference timed before each run: seconds of on-CPU time, a few ms
awk -F'\t' 'NR > 1 && !($13 > 0.0001 && $13 < 1) { exit 1 }' "$m" && pass ||
	fail "reference_s: $(cat "$m")"
while IFS=$'\t' read -r _ _ _ _ _ _ _ _ _ dir _; do
	[ "$dir" = dir ] && continue
	one_profile "$T/results/$dir" >/dev/null
	[ -f "$T/results/$dir/stdout.txt" ] && [ -f "$T/results/$dir/stderr.txt" ] && pass ||
		fail "$dir: no captured output"
	"$SCALEGATE" profile "$T/results/$dir"/*.sgprof >/dev/null && pass ||
		fail "$dir: bad profile"
done <"$m"
[ -d "$T/results/jacobi/s--r1-t4/2" ] && pass || fail "results layout: jacobi/s--r1-t4/2"
[ ! -e "$T/results/.scratch" ] && pass || fail "the scratch directory is left behind"

f="$T/results/fingerprint.tsv"
keys=$(cut -f1 "$f" | tr '\n' ' ')
re="scalegate_version date hostname hosts kernel cpu_model cores sockets smt governor compiler "
re+="cflags omp_runtime mpi OMP_PROC_BIND OMP_PLACES launcher slurm_job "
[ "$keys" = "$re" ] && pass ||
	fail "fingerprint keys: $keys"
expect_match "$(cat "$f")" $'^cores\t[0-9]+$' "fingerprint cores"
expect_match "$(cat "$f")" $'^OMP_PROC_BIND\tfalse$' "fingerprint OMP_PROC_BIND"
expect_match "$(cat "$f")" $'^kernel\t'"$(uname -r)"'$' "fingerprint kernel"

# --benchmark re-runs one benchmark and keeps the others' lines.
touch "$T/results/jacobi/stale"
expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --benchmark jacobi
[ ! -e "$T/results/jacobi/stale" ] && pass || fail "the benchmark's old results were not replaced"
[ "$(grep -c $'^jacobi\t' "$m")" -eq 6 ] && pass || fail "--benchmark: expected 6 jacobi runs"
[ "$(grep -c $'^imbalance\t' "$m")" -eq 2 ] && pass ||
	fail "--benchmark: the other benchmark's lines are lost"
[ -d "$T/results/imbalance/s--r1-t2/1" ] && pass ||
	fail "--benchmark: the other benchmark's runs are lost"
expect_exit 2 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --benchmark nosuch
expect_match "$out" "no benchmark 'nosuch'" "unknown benchmark"

# Relative results directory of the configuration: next to the file; sizes name the directory.
cat >"$T/sized.yml" <<YML
benchmarks:
  - name: sized
    command: ./examples/jacobi {threads} {size} 5
    workdir: $SG_BUILD
    sizes: [100, 150]
    repeat: 1
    warmup: 0
YML
(cd / && expect_exit 0 "$SCALEGATE" run -c "$T/sized.yml")
[ -d "$T/results/sized/s150-r1-t1/1" ] && pass || fail "sizes: results/sized/s150-r1-t1/1 missing"
expect_match "$(cat "$T/results/manifest.tsv")" $'^sized\t150\t1\t1\t1\t1\tok\t' \
	"manifest size column"

# 'exclude': cells of the matrix that are not run (an oversubscribed corner); mistakes as
# file:line:col.
cat >"$T/exclude.yml" <<YML
benchmarks:
  - name: ex
    command: ./examples/jacobi {threads} {size} 5
    workdir: $SG_BUILD
    sizes: [100, 150]
    threads: [1, 2]
    repeat: 1
    warmup: 0
    exclude: [{threads: 2, size: 150}]
YML
expect_exit 0 "$SCALEGATE" run -c "$T/exclude.yml" -o "$T/ex"
[ "$(tail -n +2 "$T/ex/manifest.tsv" | wc -l)" -eq 3 ] && pass ||
	fail "exclude: expected 3 runs: $(cat "$T/ex/manifest.tsv")"
[ ! -e "$T/ex/ex/s150-r1-t2" ] && pass || fail "exclude: the excluded cell ran"
[ -d "$T/ex/ex/s150-r1-t1/1" ] && [ -d "$T/ex/ex/s100-r1-t2/1" ] && pass ||
	fail "exclude: a cell that should run is missing"
sed -i 's/exclude: .*/exclude: [{threads: 4}, {thread: 1}, 2, {size: 150}, {size: 100}]/' \
	"$T/exclude.yml"
expect_exit 2 "$SCALEGATE" run -c "$T/exclude.yml" -o "$T/ex"
expect_match "$out" "exclude\.yml:9:30: unknown key 'thread'; did you mean 'threads'\?" \
	"exclude: unknown key"
expect_match "$out" "exclude\.yml:9:42: an 'exclude' entry must be a mapping" \
	"exclude: not a mapping"
expect_match "$out" "exclude\.yml:9:15: this 'exclude' entry matches no cell of the matrix" \
	"exclude: matches nothing"
expect_match "$out" "exclude\.yml:9:14: 'exclude' removes every cell of the matrix" \
	"exclude: nothing left"
