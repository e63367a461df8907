# OpenMP capture through OMPT (LLVM libomp, clang -fopenmp): the known sizes of omp-capture.sh,
# with the tracer linked statically, linked as a shared library, and preloaded into a plain binary.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/ompt.bash"

# Wall-clock sizes (20 ms sleeps and spins) and CPU-bound work. A busy machine stretches and shifts
# the wall times: each is judged within its bounds widened by the run-queue delay the tracer
# measured in the interval (lib.bash: approx_load; about 0 on a quiet machine), the counts and the
# structure exactly, the work in CPU time. So the test judges on a busy machine as on a quiet one,
# in one attempt.

# work LOOP THREAD: a thread's work in the loop as on-CPU time (cpu less cpu_wait, a spinning wait's
# share): what a busy machine does not stretch.
work() {
	awk -v c="$(col "$out" "$1" "$2" cpu)" -v w="$(col "$out" "$1" "$2" cpu_wait)" \
		'BEGIN { print c - (w == "-" ? 0 : w) }'
}

# imbalance VARIANT PATH WHAT: a 3:1 static imbalance gives work 3:1 in CPU time, and the light
# thread idles about the difference of their wall-clock work (at the join); the dynamic schedule
# balances it.
imbalance() {
	local v=$1 loop=$2 what=$3 d lo hi
	SG_KNOB_SCHEDULE=static ompt_run "$v" imbalance 2 2000 10
	approx "$(awk -v a="$(work "$loop" 0)" -v b="$(work "$loop" 1)" 'BEGIN { print a / b }')" \
		2.2 4.0 \
		"$what work ratio (on-CPU) of the heavy to the light thread"
	read -r w0 w1 idle1 < <(awk -v par0="$(col "$out" "$loop" 0 par)" \
		-v idle0="$(col "$out" "$loop" 0 omp_idle)" \
		-v t1="$(col "$out" "$loop" 1 time)" -v idle1="$(col "$out" "$loop" 1 omp_idle)" \
		'BEGIN { print par0 - idle0, t1, idle1 }')
	d=$(delay "$out" "$loop")
	lo=$(awk -v a="$w0" -v b="$w1" 'BEGIN { print 0.7 * (a - b) }')
	hi=$(awk -v a="$w0" -v b="$w1" 'BEGIN { print 1.3 * (a - b) }')
	approx_load "$idle1" "$lo" "$hi" "$d" \
		"$what light thread's idle vs the work difference ($w0 - $w1 s)"

	SG_KNOB_SCHEDULE=dynamic ompt_run "$v" imbalance 2 2000 10
	approx "$(awk -v a="$(work "$loop" 0)" -v b="$(work "$loop" 1)" 'BEGIN { print a / b }')" \
		0.6 1.6 \
		"$what dynamic schedule balances the work (on-CPU)"
}

# timings VARIANT STEP, check VARIANT STEP LOOP: runs the programs of build/ompt/VARIANT; STEP and
# LOOP are the intervals they charge (program/step and program/loop when annotated, program when
# plain and preloaded).
timings() {
	local v=$1 step=$2 what="$1:" d

	ompt_run "$v" omp_known serial
	d=$(delay "$out" "$step")
	[ "$v" != plain ] || approx "$(col "$out" program 0 count)" 1 1 \
		"plain: level 0 of the preloaded binary"
	approx_load "$(awk -v t="$(col "$out" "$step" 0 time)" -v p="$(col "$out" "$step" 0 par)" \
		'BEGIN { print t - p }')" \
		0.095 0.16 "$d" "$what serial time"
	approx "$(col "$out" "$step" 0 omp_regions)" 5 5 "$what parallel regions forked"
	[ "$step" = program ] || approx "$(col "$out" program 0 omp_regions)" 0 0 \
		"$what regions charged to the innermost interval"
	approx "$(col "$out" "$step" 1 omp_thread)" 1 1 "$what the worker's OpenMP thread number"

	ompt_run "$v" omp_known barrier
	d=$(delay "$out" "$step")
	approx_load "$(col "$out" "$step" 0 omp_barrier)" 0.09 0.16 "$d" \
		"$what barrier wait of the early thread"
	approx_load "$(col "$out" "$step" 1 omp_barrier)" 0 0.02 "$d" \
		"$what barrier wait of the late thread"
	approx_load "$(col "$out" "$step" 1 time)" 0.09 0.2 "$d" \
		"$what the worker's time lands in the forking thread's interval"
	approx_load "$(col "$out" "$step" 1 omp_idle)" 0 0.03 "$d" \
		"$what the late thread does not idle"

	ompt_run "$v" omp_known loop
	d=$(delay "$out" "$step")
	approx_load "$(col "$out" "$step" 0 omp_barrier)" 0.09 0.16 "$d" \
		"$what loop-end wait of the idle thread"
	approx_load "$(col "$out" "$step" 0 omp_idle)" 0 0.03 "$d" \
		"$what the loop-end wait is not end-of-region idle"

	ompt_run "$v" omp_known held
	approx_load "$(awk -v a="$(col "$out" "$step" 0 omp_held)" \
		-v b="$(col "$out" "$step" 1 omp_held)" 'BEGIN { print a + b }')" 0.085 0.115 \
		"$(delay "$out" "$step")" "$what time held under a critical section and a lock"

	for mode in critical lock; do
		ompt_run "$v" omp_known $mode
		approx_load "$(awk -v a="$(col "$out" "$step" 0 omp_lock)" \
			-v b="$(col "$out" "$step" 1 omp_lock)" 'BEGIN { print a + b }')" \
			0.045 0.12 "$(delay "$out" "$step")" "$what $mode wait"
	done
}

check() {
	timings "$1" "$2"
	# At p = 1 nobody waits for a critical section or a lock: exact, whatever the load.
	OMP_NUM_THREADS=1 ompt_run "$1" omp_known uncontended
	approx "$(col "$out" "$2" 0 omp_lock)" 0 0 "$1: uncontended critical and lock at one thread"
	imbalance "$1" "$3" "$1:"
}

check static program/step program/loop
check shared program/step program/loop
check plain program program

# OMPT turned off: nothing captures clang-compiled code, and the profile says so (absent, not zero).
OMP_TOOL=disabled OMPT_MODE=none ompt_run static omp_known barrier
[ "$(col "$out" program/step 0 omp_barrier)" = - ] && pass ||
	fail "OMP_TOOL=disabled: omp_barrier should be absent"

# Not measuring: the tracer declines OMPT, and writes nothing.
"$SG_BUILD/ompt/static/omp_known" barrier
LD_PRELOAD=$ompt_preload "$SG_BUILD/ompt/plain/omp_known" barrier
