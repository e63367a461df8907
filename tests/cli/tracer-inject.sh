# SCALEGATE_INJECT=a:300%: every thread spins 3 times its own work in 'a' (its serial part as 'a'
# ends, its part of each parallel region as its body ends), so time grows 4 times on every thread
# and the serial share stays; sweep:300%:serial: at each end of 'sweep' the closing thread spins
# for 3 times what it spent in that instance. Other intervals are untouched, and without the
# variable nothing is injected. Asserted on ratios within one run (an injected interval beside its
# uninjected twin), which load moves alike.
. "$(dirname "$0")/lib.bash"

jacobi=$SG_BUILD/examples/jacobi
# "region spin/work": thread 0's time outside parallel regions over its time inside them, per
# region (1 thread: all of sweep's own work runs inside its parallel loop, the spin after it).
# With "-rq", the run-queue delay is left out: a preemption outside the loop cannot make a spin.
ratios() {
	awk -F'\t' -v minus="${2:-}" \
		'$1 == "region" { name[$2] = $3 } $1 == "node" { reg[$2] = name[$4] }
		$1 == "columns" && $2 == "stat" { for (i = 3; i <= NF; i++) idx[$i] = i - 1 }
		$1 == "stat" && $3 == 0 { q = minus && $idx["rq_wait"] != "-" ? $idx["rq_wait"] : 0
			printf "%s %.3f\n", reg[$2],
				($idx["time"] - $idx["par"] - q) / $idx["par"] }' \
		"$1"/*.sgprof
}
mkdir "$T/plain" "$T/inj"
SCALEGATE_OUT=$T/plain "$jacobi" 1 600 40 >/dev/null
SCALEGATE_OUT=$T/inj SCALEGATE_INJECT=sweep:300%:serial "$jacobi" 1 600 40 >/dev/null
ratio() { awk -v p="$2" '$1 == p { print $2 }' <<<"$1"; }
r=$(ratio "$(ratios "$T/inj")" sweep)
awk -v r="$r" 'BEGIN { exit !(r >= 2.95 && r < 10) }' && pass ||
	fail "sweep: spin/work $r, expected about 3"
r=$(ratio "$(ratios "$T/inj" -rq)" residual)
awk -v r="$r" 'BEGIN { exit !(r < 0.5) }' && pass || fail "residual was slowed down too: $r"
r=$(ratio "$(ratios "$T/plain" -rq)" sweep)
awk -v r="$r" 'BEGIN { exit !(r < 0.5) }' && pass || fail "without SCALEGATE_INJECT sweep spun: $r"
# A name that matches nothing, or a malformed value, injects nothing and breaks nothing.
mkdir "$T/none"
SCALEGATE_OUT=$T/none SCALEGATE_INJECT=nosuch:50%,sweep,residual:50%:serialx "$jacobi" 1 600 40 \
	>/dev/null && pass || fail "a bad spec broke the program"
for r in sweep residual; do
	v=$(ratio "$(ratios "$T/none" -rq)" $r)
	awk -v r="$v" 'BEGIN { exit !(r < 0.5) }' && pass || fail "a bad spec injected into $r: $v"
done

# The default: every thread's own work. 'a' and 'b' do the same work (a serial part, then a loop
# over 2 threads), interleaved; per thread, time(a) / time(b) is the injection's factor.
# twin PROFILE THREAD: "time(a)/time(b) serial_share(a) serial_share(b)" (serial: 1 - par/time).
twin() {
	awk -F'\t' -v th="$2" '$1 == "region" { name[$2] = $3 } $1 == "node" { reg[$2] = name[$4] }
		$1 == "columns" && $2 == "stat" { for (i = 3; i <= NF; i++) idx[$i] = i - 1 }
		$1 == "stat" && $3 == th { t[reg[$2]] = $idx["time"]; p[reg[$2]] = $idx["par"] }
		END { printf "%.3f %.3f %.3f\n", t["a"] / t["b"], 1 - p["a"] / t["a"],
			1 - p["b"] / t["b"] }' "$1"
}
check() { awk -v a="$1" -v b="$2" -v c="$3" "BEGIN { exit !($4) }" && pass || fail "$5: $1 $2 $3"; }
export OMP_PROC_BIND=false
for spec in a:300% a:300%:serial; do
	mkdir "$T/$spec"
	SCALEGATE_OUT=$T/$spec SCALEGATE_INJECT=$spec "$SG_BUILD/tests/tracer/sched" twins
done
p=$(one_profile "$T/a:300%")
# shellcheck disable=SC2046
check $(twin "$p" 0) 'a >= 2.2 && a < 8' "the forking thread's time in a grows about 4 times"
# shellcheck disable=SC2046
check $(twin "$p" 1) 'a >= 2.2 && a < 8' "the team worker's time in a grows about 4 times too"
# shellcheck disable=SC2046
check $(twin "$p" 0) 'b < c + 0.25' "the serial share does not jump (speedup stays)"
p=$(one_profile "$T/a:300%:serial")
# shellcheck disable=SC2046
check $(twin "$p" 0) 'a >= 2.2 && b > c + 0.3' ":serial: the closing thread spins after the loop"
# shellcheck disable=SC2046
check $(twin "$p" 1) 'a < 1.8' ":serial: the team worker's work is untouched"
