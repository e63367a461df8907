# The cases of the gate-defaults-*.sh tests (sourced): the shipped defaults fail on what a scaling
# gate exists for, in A/B mode (--against-dir) and against a stored baseline, naming the cause: +60
# ms of serial code in a ~0.2 s interval at p = 2, the 'omp parallel for' removed, a critical
# section around the hot loop, rank 1 doing 30 % more work; and A/A passes in both modes. One test
# per case and mode (gate-defaults-MODE-CASE.sh runs case_CASE MODE; A/B's A/A one per benchmark,
# gate-defaults-ab-aa-BENCH.sh), so that no single test holds a tenth of the suite's time.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

knob_trees
cfg=$T/head/scalegate.yml
# config BENCH...: the head's configuration with these benchmarks. A case runs only the benchmark it
# changes: the other one would only repeat the A/A case below, which runs both (and half the runs
# keep the test's time down).
config() {
	cat >"$cfg" <<YML
results: results
baselines: baselines
defaults:
  warmup: 0
  repeat: 5
  # busy runs are kept and said so, never rerun: the test's time stays bounded
  max_contention: 0.5
  contention_retries: 0
  # inconclusive cells get up to 15 more rounds (adaptive repeats) within 90 s per benchmark
  max_repeat: 20
  adaptive_seconds: 90s
  env: {OMP_WAIT_POLICY: passive}
benchmarks:
YML
	local b
	for b; do
		case $b in
		jacobi) printf '%s\n' '  - name: jacobi' \
			"    command: ./run.sh $SG_BUILD/examples/jacobi {threads} 700 100" \
				'    threads: [1, 2]' ;;
		halo) printf '%s\n' '  - name: halo' \
			"    command: ./run.sh $SG_BUILD/examples/mpi_halo 1000000 20" \
				'    ranks: [1, 2]' ;;
		*) fail "config: no benchmark '$b'" ;;
		esac
	done >>"$cfg"
	# A run replaces the results of the benchmarks it runs only: the other one's, from an
	# earlier case, would be judged again (and, in stored mode, without its baseline).
	rm -rf "$T/head/results"
}
knob() { echo "$1" >"$T/head/knob.env"; }

# Stored baseline: recorded from the clean head just before each stored-mode case, so that the load
# of this shared machine (which moves by tens of percent within minutes) is the sitting's, not the
# test's whole duration; --force: the test keeps busy runs (above), and says so.
record_baseline() {
	knob ""
	expect_exit 0 "$SCALEGATE" run -c "$cfg"
	expect_exit 0 "$SCALEGATE" baseline update -c "$cfg" --force
}

gate() {
	local mode=$1
	code=0
	if [ "$mode" = ab ]; then
		out=$("$SCALEGATE" ci -c "$cfg" --against-dir "$T/base" --no-post 2>&1) || code=$?
	else
		local k
		k=$(cat "$T/head/knob.env")
		record_baseline
		knob "$k"
		out=$("$SCALEGATE" ci -c "$cfg" --no-post 2>&1) || code=$?
	fi
}

# expect_caught MODE BENCH KNOB REGEX-OF-THE-FAIL-LINE REGEX-OF-THE-CAUSE
# Against a stored baseline a head measured mostly on a busy machine may be undecided
# (docs/check.md): without the run-queue delay by the busy rule; with it, when the noise left after
# removing the Interference still allows only larger changes (the summary counts them inconclusive).
# That and only that may stand in for the failure, said so.
expect_caught() {
	local mode=$1 bench=$2
	config "$bench"
	knob "$3"
	gate "$mode"
	if [ $mode = stored ] && [ $code = 0 ] &&
		{ grep -q 'inconclusive: most runs were measured on a busy machine' <<<"$out" ||
		  { grep -q 'runs were measured on a busy machine' <<<"$out" &&
		    grep -Eq '^INCONCLUSIVE [0-9]+ checks' <<<"$out"; }; }; then
		echo "note: $mode, $3: the machine was busy: undecided against the stored" \
			"baseline, as documented" >&2
		return
	fi
	[ $code = 1 ] && pass || { printf '%s\n' "$out" >&2; fail \
		"$mode, $3: exit $code, expected 1"; }
	expect_match "$(checks_of "$out")" "^FAIL $bench $4" "$mode, $3: the regression"
	expect_match "$out" "cause: .*$5" "$mode, $3: its cause"
	expect_match "$out" 'whole-run false-alarm level 1 %' "$mode, $3: the level is stated"
}

# Waiting moves with the machine's load: on a saturated 2-core machine the clean base already waits
# half its time, and a lock cannot be told from a barrier; halo's +27 % at 2 ranks sat below a
# minimum detectable change of ~34 % even after 20 rounds under load. On a quiet machine both are
# caught in both modes (the README's figures). Caught, or never a silent pass: the gate says it
# could not decide and what it could have detected. (The busy-machine warning is not required:
# contention now counts only the cores a run leaves free, and load that the interleaving shares
# between base and head is noise, not contention.)
expect_caught_or_undecided() {
	local mode=$1 bench=$2
	config "$bench"
	knob "$3"
	gate "$mode"
	if [ $code = 1 ]; then
		expect_match "$(checks_of "$out")" "^FAIL $bench $4" "$mode, $3: the regression"
		expect_match "$out" "cause: .*$5" "$mode, $3: its cause"
	else
		# not caught: said to be undecided, and when every time check of the benchmark is,
		# the gate could not decide (exit 3), never a pass
		pass_or_undecided $code "$out" "$mode, $3"
		expect_match "$out" '^INCONCLUSIVE [0-9]+ checks' \
			"$mode, $3: not caught, and not said to be undecided"
		expect_match "$out" '(\(|, )([1-9][0-9]* inconclusive|two looks)' \
			"$mode, $3: the summary counts the undecided checks"
		echo "note: $mode, $3 not caught: the noise here allowed only larger changes" \
			"to be detected" >&2
	fi
}

case_serial() {
	local fail_re='program/solve 1 rank × 2 threads '
	fail_re+='tolerance\.(insufficient_parallelism|speedup|time)'
	expect_caught "$1" jacobi SG_KNOB_SERIAL_MS=60 "$fail_re" \
		'Insufficient_parallelism \(serial code\) grew'
}

case_no_parallel() {
	local fail_re cause_re
	fail_re='program/solve.* '
	fail_re+='(capture\.lost|tolerance\.insufficient_parallelism|tolerance\.speedup)'
	cause_re='(the parallel region is gone: OpenMP is no longer captured'
	cause_re+='|Insufficient_parallelism \(serial code\) grew)'
	expect_caught "$1" jacobi SG_KNOB_NO_PARALLEL=1 "$fail_re" "$cause_re"
}

# The critical section: waiting at 2 threads, or (a lock nobody waits for is work) its cost at 1
# thread.
case_critical() {
	local fail_re='program/solve/sweep 1 rank × [12] threads? '
	fail_re+='tolerance\.(synchronization|speedup|time)'
	expect_caught_or_undecided "$1" jacobi SG_KNOB_CRITICAL=1 "$fail_re" \
		'(Synchronization \(OpenMP|the useful work itself grew)'
}

case_halo() {
	expect_caught_or_undecided "$1" halo SG_KNOB_EXTRA_RANK1_PCT=30 \
		'program/iteration.* 2 ranks × 1 thread tolerance\.' \
		'(Idle|Synchronization|Load_imbalance).* grew'
}

# case_aa MODE [BENCH]: A/A, the same code on both sides, passes. Against a stored baseline, jacobi
# only: an MPI rank's compute time on a machine whose cores other tests share moves by tens of
# percent between two sittings minutes apart, and nothing removes it yet (the team phases'
# correction has no MPI analogue; README "Measured"): halo's stored A/A failed in 2 of 3
# clean-clone CI runs on 26 Nov (compute at 2 ranks, Productive_time +39 %). A/B keeps both, one
# test each (BENCH): the two in one run took over 10 % of the suite's time.
case_aa() {
	local mode=$1 bench=${2:-jacobi}
	config "$bench"
	knob ""
	gate "$mode"
	# on a busy machine every time check may stay inconclusive: 'could not decide' (exit 3),
	# never a FAIL
	pass_or_undecided $code "$out" "$mode: A/A${2:+ of $2}"
}
