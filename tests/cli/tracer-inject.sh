# SCALEGATE_INJECT=sweep:300%: at each end of 'sweep' the thread spins for 3 times what it spent in that instance;
# other intervals are untouched, and without the variable nothing is injected. Asserted on ratios within one run,
# which load can only push up (the spin waits for the clock), never down.
. "$(dirname "$0")/lib.bash"

jacobi=$SG_BUILD/examples/jacobi
# "path spin/work": the time outside parallel regions over the time inside them, per interval (1 thread: all of
# sweep's own work runs inside its parallel loop, the spin after it).
ratios() {
	"$SCALEGATE" profile --tsv "$1"/*.sgprof |
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			    { printf "%s %.3f\n", $h["path"], ($h["time"] - $h["par"]) / $h["par"] }'
}
mkdir "$T/plain" "$T/inj"
SCALEGATE_OUT=$T/plain "$jacobi" 1 300 40 >/dev/null
SCALEGATE_OUT=$T/inj SCALEGATE_INJECT=sweep:300% "$jacobi" 1 300 40 >/dev/null
plain=$(ratios "$T/plain")
inj=$(ratios "$T/inj")
ratio() { awk -v p="$2" '$1 == p { print $2 }' <<<"$1"; }
awk -v r="$(ratio "$inj" program/solve/sweep)" 'BEGIN { exit !(r >= 2.95 && r < 10) }' ||
	fail "sweep: spin/work $(ratio "$inj" program/solve/sweep), expected about 3"
awk -v r="$(ratio "$inj" program/solve/residual)" 'BEGIN { exit !(r < 0.5) }' ||
	fail "residual was slowed down too: $(ratio "$inj" program/solve/residual)"
awk -v r="$(ratio "$plain" program/solve/sweep)" 'BEGIN { exit !(r < 0.5) }' ||
	fail "without SCALEGATE_INJECT sweep spun: $(ratio "$plain" program/solve/sweep)"
# A name that matches nothing, or a malformed value, injects nothing and breaks nothing.
mkdir "$T/none"
SCALEGATE_OUT=$T/none SCALEGATE_INJECT=nosuch:50%,sweep "$jacobi" 1 300 10 >/dev/null || fail "a bad spec broke the program"
awk -v r="$(ratio "$(ratios "$T/none")" program/solve/sweep)" 'BEGIN { exit !(r < 0.5) }' || fail "a bad spec injected"
