# scalegate run on a busy machine: contention measured per run; with contention_retries (off by
# default) contended runs run again, the least contended kept.
# The machine may be loaded by others (a shared 2-core CI runner): nothing here depends on how long
# anything takes. The hogs stop when the benchmark says so (not after a time), and what is asserted
# is what the load cannot move: two hogs on the cores make a run busy; the attempt kept is the least
# busy one.
. "$(dirname "$0")/lib.bash"

# Two CPU hogs, one per core, bounded (120 s) in case the test dies; killed on exit whatever
# happens. Their pids go to hogs.pids, for the benchmark's wrapper to stop them after the first
# attempt.
hogs=()
hog() {
	local i
	for i in 1 2; do
		timeout 120 sh -c 'while :; do :; done' &
		hogs+=($!)
	done
	echo "${hogs[*]}" >"$T/hogs.pids"
}
stop_hogs() {
	local p
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	hogs=()
}
trap 'stop_hogs; [ -n "${SG_KEEP:-}" ] && echo "kept $T" >&2 || rm -rf "$T"' EXIT

[ -r /proc/stat ] || { echo "SKIP: no /proc/stat: contention is unknown here"; exit 77; }

# The benchmark, wrapped: with 'stop-after-first' present, the end of the first attempt stops the
# hogs, so that attempt ran under them and every later one did not, however slow the machine is.
cat >"$T/wrap.sh" <<SH
"$SG_BUILD/examples/imbalance" "\$@"
rc=\$?
if [ -e "$T/stop-after-first" ] && [ ! -e "$T/hogs-stopped" ]; then
	touch "$T/hogs-stopped"
	kill \$(cat "$T/hogs.pids") 2>/dev/null
fi
exit \$rc
SH

# About half a second of CPU-bound work on two threads. The limit is above what a shared
# CI machine's background shows and far below the hogs' whole core.
config() {
	cat >"$T/scalegate.yml" <<YML
defaults:
  workdir: $SG_BUILD
  warmup: 0
  repeat: 2
  timeout: 20s
  env:
    OMP_PROC_BIND: "false"
benchmarks:
  - name: imbalance
    command: sh $T/wrap.sh {threads} 2000 50
    threads: [2]
$1
YML
}
m="$T/results/manifest.tsv"
cont() { awk -F'\t' -v r="$1" 'NR > 1 && $6 == r { print $12 }' "$m"; }
above() { awk -v v="$1" -v lo="$2" 'BEGIN { exit !(v != "-" && v != "" && v > lo) }'; }
below() { awk -v v="$1" -v hi="$2" 'BEGIN { exit !(v != "-" && v != "" && v < hi) }'; }

# 1. Repeat 1's first attempt runs under the hogs, which it stops: it is run again, and the attempt
#    kept is the least busy one. (The machine's background is not asserted on: if others load it,
#    the retries may be busy too; the kept attempt is still the least busy of them.)
config "    max_contention: 0.6
    contention_retries: 2"
touch "$T/stop-after-first"
hog
expect_exit 0 timeout 300 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results"
stop_hogs
rm -f "$T/stop-after-first" "$T/hogs-stopped"
[ "$(head -1 "$m" | awk -F'\t' '{ print $12 }')" = contention ] && pass ||
	fail "no contention column: $(head -1 "$m")"
re='^imbalance 1 rank × 2 threads repeat 1: machine busy \([0-9.]+ cores '
re+='used by other processes\), run again \(1/2\)$'
expect_match "$out" "$re" \
	"the contended run is run again"
script='s/^imbalance 1 rank × 2 threads repeat 1: machine busy \(([0-9.]+) cores.*\(1\/2\)$/\1/p'
busy=$(sed -nE "$script" <<<"$out")
above "$busy" 0.6 && pass || fail "contention under two hogs: $busy cores"
# the least busy attempt is kept: never the one under the hogs when a quieter one exists
awk -v k="$(cont 1)" -v b="$busy" 'BEGIN { exit !(k != "-" && k <= b) }' && pass ||
	fail "the kept attempt of repeat 1 ($(cont \
		1) cores) is busier than the first ($busy) ($out)"
[ "$(tail -n +2 "$m" | wc -l)" -eq 2 ] && pass ||
	fail "one manifest line per measured run: $(cat "$m")"
for r in 1 2; do
	one_profile "$T/results/imbalance/s--r1-t2/$r" >/dev/null
	grep -q '^imbalance: threads=2' "$T/results/imbalance/s--r1-t2/$r/stdout.txt" && pass ||
		fail "repeat $r: stdout"
done
[ ! -e "$T/results/.scratch" ] && pass ||
	fail "the scratch directory (attempts set aside) is left behind"
# The analyzer reads the column (and ignores it otherwise).
"$SCALEGATE" analyze "$T/results" >/dev/null && pass ||
	fail "analyze cannot read a manifest with contention"

# 2. 'off': nothing is run again, but the contention is still recorded.
config "    max_contention: off"
hog
expect_exit 0 timeout 300 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results"
stop_hogs
expect_no_match "$out" 'machine busy' "max_contention: off"
above "$(cont 1)" 0.6 && pass ||
	fail "max_contention: off: repeat 1 ran under the hogs, yet $(cont 1)"

# 3. Hogs longer than every attempt: the least contended attempt is kept, with a warning at the end.
config "    max_contention: 0.6
    contention_retries: 1
    repeat: 1"
hog
expect_exit 0 timeout 300 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results"
stop_hogs
expect_match "$out" 'repeat 1: machine busy .*run again \(1/1\)$' "one retry"
re='^imbalance 1 rank × 2 threads repeat 1: machine still busy after 1 more '
re+='attempt; keeping the least busy one \([0-9.]+ cores\)$'
expect_match "$out" "$re" \
	"every attempt contended"
expect_match "$out" 'warning: 1 run was measured on a busy machine' "the warning at the end"
above "$(cont 1)" 0.6 && pass || fail "the kept attempt shows its contention: $(cont 1)"
awk -F'\t' 'NR > 1 && $7 != "ok" { exit 1 }' "$m" && pass ||
	fail "a contended run stays ok: $(cat "$m")"

# 4. Against a stored baseline, on a busy machine: a quiet baseline, then every run under the hogs
# (no    retries: the default); the default rules. Busy or not, nothing here fails. With the
# run-queue delay in    the profiles the machine's share is removed (Interference) and judged as
# such; without it the change    cannot be told from the load and is undecided.
config "    max_contention: 0.6
    repeat: 3"
expect_exit 0 timeout 300 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/quiet"
expect_exit 0 "$SCALEGATE" baseline update -c "$T/scalegate.yml" -r "$T/quiet" --baselines \
	"$T/baselines" --force
hog
expect_exit 0 timeout 300 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results"
stop_hogs
expect_no_match "$out" 'run again' "contention_retries is off by default"
for r in 1 2 3; do above "$(cont $r)" 0.6 && pass ||
	fail "repeat $r ran under the hogs, yet $(cont $r) cores"; done
# The machine's share is removed, the waiting at barriers and joins for a preempted thread included
# (rq_sync): against the quiet baseline no check fails, and the judged time moved by less than 10 %
# where the hogs double the wall time (before rq_sync, clean-clone CI runs saw +14 % and the
# Synchronization share +5 points).
code=0
out=$("$SCALEGATE" check -c "$T/scalegate.yml" -r "$T/results" --baselines "$T/baselines" --all \
	2>&1) || code=$?
if grep -q $'^meta\tsched\tschedstat$' "$T"/results/imbalance/s--r1-t2/1/*.sgprof; then
	# undecided (exit 3: three repeats under two hogs may decide nothing) is no failure; a FAIL
	# is
	pass_or_undecided $code "$out" "under two hogs against a quiet baseline"
	awk '/ imbalance program 1 rank × 2 threads tolerance\.time: / {
		match($0, /change [-+][0-9.]+ %/)
		v = substr($0, RSTART + 7, RLENGTH - 9) + 0; seen = 1
		if (v >= 10 || v <= -10) { print "a judged time change of " v " %"; exit 1 } }
		END { exit !seen }' <<<"$out" && pass ||
			fail "the corrected time carries the hogs' load: $out"
else
	[ $code = 0 ] || [ $code = 1 ] && pass || { printf '%s\n' "$out" >&2; fail \
		"check exited $code"; }
fi
if grep -q $'^meta\tsched\tschedstat$' "$T"/results/imbalance/s--r1-t2/1/*.sgprof; then
	expect_no_match "$out" 'but inconclusive: most runs were measured on a busy machine' \
		"the machine's share is removed, not waited out"
else
	# shown in full (the load may hide a regression), not folded into the count of undecided
	# checks
	re='^INCONCLUSIVE imbalance program 1 rank × 2 threads tolerance\.time: '
	re+='.*past the tolerance of 5\.0 %, but inconclusive: most runs were '
	re+='measured on a busy machine .*no run-queue delay'
	what="the time under two hogs is past the tolerance, and said to be undecided because of "
	what+="the load"
	expect_match "$out" "$re" "$what"
fi
