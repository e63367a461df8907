# OpenMP capture without source changes: serial code, barriers, critical, locks, loop ends,
# imbalance, preload.
. "$(dirname "$0")/lib.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive

run() { rm -rf "$T/out"; traced "$T/out" omp_known "$1"; out=$(tsv "$T/out"); }

# Wall-clock sizes (20 ms sleeps and spins) and CPU-bound work. A busy machine stretches and shifts
# the wall times: each is judged within its bounds widened by the run-queue delay the tracer
# measured in the interval (lib.bash: approx_load; about 0 on a quiet machine), the counts and the
# structure exactly, the work in CPU time. So the test judges on a busy machine as on a quiet one,
# in one attempt.

# 5 x 20 ms of serial code between parallel regions: time - par on the forking thread.
run serial
d=$(delay "$out" program/step)
serial=$(awk -v t="$(col "$out" program/step 0 time)" -v p="$(col "$out" program/step 0 par)" \
	'BEGIN { print t - p }')
approx_load "$serial" 0.095 0.16 "$d" "serial time of step"
approx "$(col "$out" program/step 0 omp_regions)" 5 5 "parallel regions forked from step"
approx "$(col "$out" program 0 omp_regions)" 0 0 "regions are charged to the innermost interval"

# Thread 1 comes 20 ms late to a barrier, 5 times: thread 0 waits ~100 ms.
run barrier
d=$(delay "$out" program/step)
approx_load "$(col "$out" program/step 0 omp_barrier)" 0.09 0.16 "$d" \
	"barrier wait of the early thread"
approx_load "$(col "$out" program/step 1 omp_barrier)" 0 0.02 "$d" "barrier wait of the late thread"
approx_load "$(col "$out" program/step 1 time)" 0.09 0.2 "$d" \
	"the worker's time lands in the forking thread's interval"

# The implicit barrier at the end of a worksharing loop.
run loop
approx_load "$(col "$out" program/step 0 omp_barrier)" 0.09 0.16 "$(delay "$out" program/step)" \
	"loop-end wait of the idle thread"

# Two threads, each holding the section 10 ms, 5 rounds: ~50 ms of waiting to get in.
for mode in critical lock; do
	run $mode
	total=$(awk -v a="$(col "$out" program/step 0 omp_lock)" \
		-v b="$(col "$out" program/step 1 omp_lock)" 'BEGIN { print a + b }')
	approx_load "$total" 0.045 0.12 "$(delay "$out" program/step)" "$mode wait"
done

# Time held under a critical section and a lock (omp_held): 100 ms of on-CPU spinning in all (less
# one 5 ms section when the forking thread takes it before the worker is measured: alone, nobody
# could wait), stretched by the run-queue delay on a busy machine; a section held asleep is held
# (2 threads x 5 x 10 ms).
# held_sum: both threads' omp_held in program/step.
held_sum() {
	awk -v a="$(col "$out" program/step 0 omp_held)" \
		-v b="$(col "$out" program/step 1 omp_held)" 'BEGIN { print a + b }'
}
run held
approx_load "$(held_sum)" 0.085 0.115 "$(delay "$out" program/step)" \
	"time held under a critical section and a lock"
run critical
approx_load "$(held_sum)" 0.09 0.13 "$(delay "$out" program/step)" \
	"a critical section held asleep"

# work LOOP THREAD: a thread's work in the loop as on-CPU time (cpu less cpu_wait, a spinning wait's
# share): what a busy machine does not stretch.
work() {
	awk -v c="$(col "$out" "$1" "$2" cpu)" -v w="$(col "$out" "$1" "$2" cpu_wait)" \
		'BEGIN { print c - (w == "-" ? 0 : w) }'
}

# imbalance SCHEDULE: the imbalance example on two threads, 3:1 unless the schedule balances it; its
# profile in $out, and the ratio of the two threads' work (on-CPU) in $ratio.
imbalance() {
	rm -rf "$T/out"
	SG_KNOB_SCHEDULE=$1 SCALEGATE_OUT="$T/out" "$SG_BUILD/examples/imbalance" 2 2000 \
		10 >/dev/null
	out=$(tsv "$T/out")
	ratio=$(awk -v a="$(work program/loop 0)" -v b="$(work program/loop 1)" \
		'BEGIN { print a / b }')
}

# A 3:1 imbalance on two threads under schedule(static): work 3:1 in CPU time, and the light thread
# idles the difference of their wall-clock work (within the delay measured).
imbalance static
approx "$ratio" 2.2 4.0 "work ratio (on-CPU) of the heavy to the light thread"
read -r w0 w1 idle1 < <(awk -v par0="$(col "$out" program/loop 0 par)" \
	-v idle0="$(col "$out" program/loop 0 omp_idle)" \
	-v t1="$(col "$out" program/loop 1 time)" -v idle1="$(col "$out" program/loop 1 omp_idle)" \
	'BEGIN { print par0 - idle0, t1, idle1 }')
d=$(delay "$out" program/loop)
approx_load "$idle1" "$(awk -v a="$w0" -v b="$w1" 'BEGIN { print 0.7 * (a - b) }')" \
	"$(awk -v a="$w0" -v b="$w1" 'BEGIN { print 1.3 * (a - b) }')" "$d" \
	"light thread's idle vs the work difference (0.7 to 1.3 times $w0 - $w1 s)"

# Balanced by the dynamic schedule: the ratio comes close to 1.
imbalance dynamic
approx "$ratio" 0.6 1.6 "dynamic schedule balances the work (on-CPU)"

# At p = 1 a critical section and a lock have nobody to wait for: taking them is work, not waiting
# (exact, whatever the load).
OMP_NUM_THREADS=1 run uncontended
approx "$(col "$out" program/step 0 omp_lock)" 0 0 "uncontended critical and lock at one thread"

# Preloaded into an unmodified OpenMP binary: level 0 and every parallel region.
cat >"$T/plain.c" <<'C'
#include <stdio.h>
int main(void)
{
	double s = 0;
	for (int r = 0; r < 3; r++) {
#pragma omp parallel for reduction(+ : s)
		for (int i = 0; i < 1000000; i++)
			s += i * 0.5;
	}
	printf("%g\n", s);
	return 0;
}
C
cc ${SG_SAN_FLAGS:-} -O1 -fopenmp "$T/plain.c" -o "$T/plain"
rm -rf "$T/out"
preload=$SG_BUILD/lib/libscalegate.so
case ${SG_SAN_FLAGS:-} in # a sanitizer's runtime must come first among preloads
*address*) preload="$(cc -print-file-name=libasan.so):$preload" ;;
*thread*) preload="$(cc -print-file-name=libtsan.so):$preload" ;;
esac
OMP_NUM_THREADS=2 LD_PRELOAD="$preload" SCALEGATE_OUT="$T/out" "$T/plain" >/dev/null
out=$(tsv "$T/out")
approx "$(col "$out" program 0 omp_regions)" 3 3 "parallel regions of the unmodified binary"
approx "$(col "$out" program 0 count)" 1 1 "level 0 of the unmodified binary"
[ "$(col "$out" program 1 time)" != missing ] && pass ||
	fail "the worker thread of the unmodified binary"
grep -q $'^meta\tomp\tgomp$' "$T"/out/*.sgprof && pass ||
	fail "the profile records the OpenMP capture mode"
