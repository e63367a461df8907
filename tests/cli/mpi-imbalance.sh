# 30 ms of extra work on rank 1 before each of 10 allreduces shows as about 0.3 s of allreduce time
# on the other ranks; exact mode (SCALEGATE_MPI_WAIT=exact) puts that waiting into 'wait'. The extra
# work is 30 ms on a CPU: on a busy machine (and with 4 ranks spinning in MPI on 2 cores) it takes
# longer on the wall clock, so the upper bounds of the times below are loose; the waiting's lower
# bound is the point.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

allreduce() { # allreduce DIR RANK COLUMN
	mpi_value "$(rank_profile "$1" "$2")" program/iteration/allreduce allreduce "$3"
}

ranks 2 "$T/off" "$SG_BUILD/examples/mpi_halo" 10000 10 >/dev/null
ranks 2 "$T/on" "$SG_BUILD/examples/mpi_halo" 10000 10 --extra-rank1-ms 30 >/dev/null
expect_profiles "$T/on" 2
expect_between "knob off: rank 0 allreduce time" "$(allreduce "$T/off" 0 time)" 0 0.1
expect_between "knob on: rank 0 allreduce time (10 x 30 ms)" "$(allreduce "$T/on" 0 time)" 0.2 5
expect_between "knob on: rank 1 allreduce time" "$(allreduce "$T/on" 1 time)" 0 0.1
expect_eq "estimate mode: wait" "$(allreduce "$T/on" 0 wait)" -
# the extra work is rank 1's compute time
expect_between "knob on: rank 1 compute time" "$(stat_value "$(rank_profile "$T/on" 1)" \
	program/iteration/compute time)" 0.28 5

# The knob also works as an environment variable, and on 4 ranks every rank but 1 waits.
SG_KNOB_EXTRA_RANK1_MS=30 ranks 4 "$T/on4" "$SG_BUILD/examples/mpi_halo" 10000 10 >/dev/null
expect_profiles "$T/on4" 4
for r in 0 2 3; do
	expect_between "4 ranks: rank $r allreduce time" "$(allreduce "$T/on4" $r time)" 0.2 5
done
expect_between "4 ranks: rank 1 allreduce time" "$(allreduce "$T/on4" 1 time)" 0 0.1

SCALEGATE_MPI_WAIT=exact ranks 2 "$T/exact" "$SG_BUILD/examples/mpi_halo" 10000 10 \
	--extra-rank1-ms 30 >/dev/null
expect_profiles "$T/exact" 2
wait0=$(allreduce "$T/exact" 0 wait) time0=$(allreduce "$T/exact" 0 time)
expect_between "exact mode: rank 0 allreduce wait" "$wait0" 0.2 5
expect_between "exact mode: rank 0 wait within time" "$wait0" 0 "$time0"
expect_between "exact mode: rank 1 allreduce wait" "$(allreduce "$T/exact" 1 wait)" 0 0.1
expect_eq "exact mode: allreduce calls" "$(allreduce "$T/exact" 0 count)" 10
# A sendrecv's wait for its message is measured in any mode (tracer/MPI.md), within its time.
p0=$(rank_profile "$T/exact" 0)
expect_between "sendrecv wait within its time" \
	"$(mpi_value "$p0" program/iteration/halo sendrecv wait)" 0 \
	"$(mpi_value "$p0" program/iteration/halo sendrecv time)"

# The analyzer: rank 1's lateness is Synchronization of the whole iteration, also for a program
# whose OpenMP waiting cannot apply (one thread per rank): never "not captured" (issue 12).
for d in on exact; do
	"$SCALEGATE" analyze --json "$T/$d" >"$T/$d.json" && pass || fail "analyze $d"
	python3 - "$T/$d.json" <<'PY' && pass || fail "$d: Synchronization of program/iteration"
import json, sys
doc = json.load(open(sys.argv[1]))
ch = next(s for s in doc["intervals"]
          if s["interval"] == "program/iteration")["configurations"][0]["characteristics"]
assert ch["Synchronization"] is not None, ch
assert ch["Synchronization"]["median"] >= 0.2, ch["Synchronization"]
PY
done
