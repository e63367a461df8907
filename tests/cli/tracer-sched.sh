# On-CPU time (cpu) and run-queue delay (rq_wait) per thread and interval (tracer/PROFILE.md):
# present, within the interval's time, cpu far below time while asleep, rq_wait up when a CPU hog
# shares the program's CPU, '-' when schedstat cannot be read; old readers still read the profile.
# Relations only, never times: load moves cpu and rq_wait between each other, never their sum past
# the wall time.
. "$(dirname "$0")/lib.bash"

# stat FILE REGION THREAD COLUMN: a stat column of the node of REGION (one node per region here).
stat() {
	awk -F'\t' -v region="$2" -v thread="$3" -v name="$4" '
		$1 == "region" && $3 == region { r = $2 }
		$1 == "node" && $4 == r { node = $2 }
		$1 == "columns" && $2 == "stat" { for (i = 3; i <= NF; i++) idx[$i] = i - 1 }
		$1 == "stat" && $2 == node && $3 == thread { v = $idx[name] }
		END { print v == "" ? "missing" : v }' "$1"
}
meta() { awk -F'\t' -v k="$2" '$1 == "meta" && $2 == k { print $3 }' "$1"; }
# holds A OP B WHAT: a relation between decimals (awk syntax, e.g. 'a + b <= c * 1.02 + 0.002').
holds() {
	awk -v a="$1" -v b="$2" -v c="$3" "BEGIN { exit !($4) }" && pass ||
		fail "$5 (a=$1 b=$2 c=$3: $4)"
}

traced "$T/basic" sched basic
p=$(one_profile "$T/basic")
[ "$(meta "$p" sched)" = schedstat ] && pass || fail "meta sched: $(meta "$p" sched)"
holds "$(meta "$p" cpus)" "$(nproc)" 0 'a >= 1 && a <= b' "meta cpus is the affinity mask's size"
holds "$(meta "$p" threads_max)" 0 0 'a == 2' "meta threads_max: the main thread and one worker"
# The columns by name, wherever they stand (a reader maps them by name: tracer/PROFILE.md).
awk -F'\t' '$1 == "columns" && $2 == "stat" { for (i = 3; i <= NF; i++) named[$i] = 1 }
	END { n = split("cpu rq_wait rq_sync cpu_wait mpi_sync mpi_rq mpi_cpu", want, " ")
		for (i = 1; i <= n; i++) if (!(want[i] in named)) { print "no " want[i]; bad = 1 }
		exit bad }' "$p" && pass ||
	fail "no cpu, rq_wait, rq_sync, cpu_wait, mpi_sync, mpi_rq and mpi_cpu columns"
# Without MPI, nobody to wait for: the ranks' columns say not captured.
awk -F'\t' '$1 == "columns" && $2 == "stat" { for (i = 3; i <= NF; i++) idx[$i] = i - 1 }
	$1 == "stat" &&
	($idx["mpi_sync"] != "-" || $idx["mpi_rq"] != "-" || $idx["mpi_cpu"] != "-") {
		print "bad: " $0; bad = 1 }
	END { exit bad }' "$p" && pass ||
		fail "mpi_sync, mpi_rq or mpi_cpu captured in a program without MPI"
# Every stat record: cpu + rq_wait <= time (+ clock slack), both >= 0.
awk -F'\t' '$1 == "columns" && $2 == "stat" { for (i = 3; i <= NF; i++) idx[$i] = i - 1 }
	$1 == "stat" { t = $idx["time"]; c = $idx["cpu"]; q = $idx["rq_wait"]
		if (c < 0 || q < 0 || c + q > t * 1.02 + 0.002) { print "bad: " $0; bad = 1 } }
	END { exit bad }' "$p" && pass || fail "cpu + rq_wait past time"
for r in spin sleep loop tiny team; do
	for c in time cpu rq_wait; do
		holds "$(stat "$p" $r 0 $c)" 0 0 'a != "missing" && a >= 0' "$r: $c"
	done
done
# Spinning: on a CPU or waiting for one the whole time.
# three REGION THREAD: its cpu, rq_wait and time
three() {
	echo "$(stat "$p" "$1" "$2" cpu) $(stat "$p" "$1" "$2" rq_wait) $(stat "$p" "$1" "$2" time)"
}
# shellcheck disable=SC2046
holds $(three spin 0) 'a + b >= c * 0.8' "a spinning interval is on a CPU or runnable"
# Asleep: hardly on a CPU, and no delay (the thread left its CPU: its time off it is not stolen).
# shellcheck disable=SC2046
holds $(three sleep 0) 'a < c * 0.2 && b < c * 0.2' \
	"a sleeping interval is neither on a CPU nor delayed"
# 20000 entries of 2 us, far below the 250 us between snapshots, still get their part.
# shellcheck disable=SC2046
holds $(three tiny 0) 'a + b >= c * 0.8' "short entries get their share of the clocks"
holds "$(stat "$p" tiny 0 cpu)" "$(stat "$p" loop 0 cpu)" 0 'a <= b * 1.0001' "loop includes tiny"
# The team worker's part follows its time: inside the body only.
# shellcheck disable=SC2046
holds $(three team 1) 'a + b >= c * 0.8 && a > 0' "the team worker's body is on a CPU or runnable"

# Threads bound to places (OMP_PROC_BIND): libgomp binds the main thread to the first place before
# the tracer starts; cpus is what the team's threads may run on, the places of its two threads.
OMP_PROC_BIND=close OMP_PLACES=cores traced "$T/bound" sched basic
holds "$(meta "$(one_profile "$T/bound")" cpus)" "$(nproc)" 0 'a >= (b < 2 ? b : 2) && a <= b' \
	"meta cpus of threads bound to places: both threads' places"

# A CPU hog on the program's only CPU: the spinning interval's run-queue delay goes up to half.
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
taskset -c 0 env SCALEGATE_OUT="$T/hog" "$SG_BUILD/tests/tracer/sched" basic
kill "$hog"
p=$(one_profile "$T/hog")
holds "$(meta "$p" cpus)" 0 0 'a == 1' "meta cpus under taskset -c 0"
# shellcheck disable=SC2046
holds $(three spin 0) 'b >= c * 0.2' "a hog on the same CPU: rq_wait"
# shellcheck disable=SC2046
holds $(three spin 0) 'a + b >= c * 0.8 && a + b <= c * 1.02 + 0.002' "with a hog: within time"

# schedstat unreadable: rq_wait is '-', not 0; cpu is still measured.
SCALEGATE_SCHEDSTAT=/nonexistent traced "$T/none" sched basic
p=$(one_profile "$T/none")
[ "$(meta "$p" sched)" = none ] && pass || fail "meta sched without schedstat: $(meta "$p" sched)"
rq=$(stat "$p" spin 0 rq_wait)
[ "$rq" = - ] && pass || fail "rq_wait without schedstat: $rq"
holds "$(stat "$p" spin 0 cpu)" 0 0 'a > 0' "cpu without schedstat"

# Time taken from a thread that never left its CPU (the hypervisor's steal, interrupts) is a delay:
# a schedstat that never changes says the sleeping thread stayed on its CPU all along.
echo "1000 2000 3" >"$T/frozen-schedstat"
SCALEGATE_SCHEDSTAT="$T/frozen-schedstat" traced "$T/frozen" sched basic
p=$(one_profile "$T/frozen")
# shellcheck disable=SC2046
holds $(three sleep 0) 'a < c * 0.2 && b >= c * 0.8 && b <= c * 1.02 + 0.002' \
	"time off the CPU of a thread that never left it counts as delay"

# A worker asleep in its pool when the profile is written was not running: its last span (read by
# the writing thread) holds no time taken from it, though it was not put on a CPU again (the frozen
# schedstat says so of every thread, every time).
OMP_WAIT_POLICY=passive SCALEGATE_SCHEDSTAT="$T/frozen-schedstat" traced "$T/idle" sched idle
p=$(one_profile "$T/idle")
# shellcheck disable=SC2046
holds $(three brief 1) 'b <= c * 0.5' "an idle worker's last short body is not delayed by its sleep"

# The gate reads the new profile (columns it does not know are skipped).
expect_exit 0 "$SCALEGATE" profile "$(one_profile "$T/basic")"
expect_match "$out" '^  program/spin ' "scalegate profile lists the intervals"
expect_exit 0 "$SCALEGATE" profile --tsv "$T/basic"/*.sgprof "$T/none"/*.sgprof

# Team phases (rq_sync, cpu_wait): PRK Stencil's shape (barriers inside one parallel region) with
# two CPU hogs beside its two threads, spinning waits (libgomp's default) and passive ones.
# Relations only: cpu_wait is part of the waiting and of cpu; a thread's time on the program's
# critical path (its presence less its delay and rq_sync, summed over the region's intervals) is
# never negative nor more than its presence; and the hogs shift phases: rq_sync is not all zero.
for policy in active passive; do
	for h in 1 2; do timeout 120 sh -c 'while :; do :; done' & eval "hog$h=\$!"; done
	OMP_WAIT_POLICY=$policy OMP_NUM_THREADS=2 OMP_PROC_BIND=false \
		traced "$T/fused-$policy" fused 40 200000 >/dev/null
	kill "$hog1" "$hog2"
	p=$(one_profile "$T/fused-$policy")
	awk -F'\t' '$1 == "columns" && $2 == "stat" { for (i = 3; i <= NF; i++) idx[$i] = i - 1 }
		$1 == "region" { name[$2] = $3 }
		$1 == "node" { region[$2] = $4 }
		$1 == "stat" { n = $2; th = $3; w = $idx["omp_barrier"] + $idx["omp_idle"]
			cw = $idx["cpu_wait"]; s = $idx["rq_sync"]
			if (cw < 0 || cw > w * 1.02 + 0.002 || cw > $idx["cpu"] * 1.02 + 0.002) {
				print "cpu_wait outside the waiting: " $0; bad = 1 }
			if (name[region[n]] == "run") {
				a[th] = $idx["time"] + $idx["omp_idle"]; q[th] = $idx["rq_wait"] }
			if (name[region[n]] != "program") { sync[th] += s; any += (s != 0) } }
		END { for (th in a) { prog = a[th] - q[th] - sync[th]
				if (prog < -0.002 || prog > a[th] + 0.002) {
					where = ": on the critical path "
					print "thread " th where prog " of " a[th]; bad = 1 } }
			if (!any) { print "rq_sync is 0 everywhere under two hogs"; bad = 1 }
			exit bad }' "$p" && pass || fail "team phases under two hogs, $policy waits"
done
