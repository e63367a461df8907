# GCC-compiled OpenMP code run on LLVM's libomp: its GOMP_* calls reach both the tracer's wrappers
# and libomp's OMPT events. Exactly one capture counts: OMPT when it is on, the wrappers when it is
# off.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/ompt.bash"
[ -x "$SG_BUILD/ompt/gcc/omp_known" ] && pass ||
	fail "$SG_BUILD/ompt/gcc/omp_known was not built: 'make all-tests'"
[[ $(ldd "$SG_BUILD/ompt/gcc/omp_known") == *libomp.so* ]] && pass ||
	fail "ompt/gcc/omp_known does not run on libomp"
grep -q ' T GOMP_parallel$' <<<"$(nm "$SG_BUILD/ompt/gcc/omp_known")" && pass ||
	fail "ompt/gcc/omp_known does not wrap GOMP_parallel"

# Counted twice, the first region would show 6 regions and the waits would double.
checks() {
	local what=$1
	ompt_run gcc omp_known serial
	approx "$(col "$out" program/step 0 omp_regions)" 5 5 "$what: parallel regions forked"
	approx "$(awk -v t="$(col "$out" program/step 0 time)" \
		-v p="$(col "$out" program/step 0 par)" 'BEGIN { print t - p }')" \
		0.095 0.16 "$what: serial time"
	ompt_run gcc omp_known barrier
	approx "$(col "$out" program/step 0 omp_barrier)" 0.09 0.16 \
		"$what: barrier wait of the early thread"
	approx "$(col "$out" program/step 1 time)" 0.09 0.2 \
		"$what: the worker's time lands in the forking thread's interval"
	ompt_run gcc omp_known loop
	approx "$(col "$out" program/step 0 omp_barrier)" 0.09 0.16 "$what: loop-end wait"
	for mode in critical lock; do
		ompt_run gcc omp_known $mode
		approx "$(awk -v a="$(col "$out" program/step 0 omp_lock)" \
			-v b="$(col "$out" program/step 1 omp_lock)" 'BEGIN { print a + b }')" \
			0.045 0.085 "$what: $mode wait"
	done
}

# OMPT on (the default): the wrappers pass through.
OMPT_MODE=ompt checks "OMPT on"
# OMPT off: the wrappers capture, as under libgomp.
OMP_TOOL=disabled OMPT_MODE=gomp checks "OMPT off"
