# The in-job reduction when ranks do not finalize (tracer/MPI.md, "Ranks that never finalize, or
# die"): every rank returning without MPI_Finalize reduces at exit, with a note; a rank that exits
# alone waits SCALEGATE_REDUCE_TIMEOUT for the others, then writes its own profile with a note and
# exits; a rank killed ends the job. None of them hangs ('timeout' would say 124). A rank's
# annotation mistake makes every rank write its own profile, whose error records name the site.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"
case "${SG_SAN_FLAGS:-} $(basename "$SG_BUILD")" in
*address* | *thread*) echo "skipped: sanitizer build (Open MPI's leaks)"; exit 77 ;;
esac
export SCALEGATE_PER_RANK= SCALEGATE_REDUCE_TIMEOUT=1

note() { awk -F'\t' '$1 == "meta" && $2 == "note" { print $3 }' "$@"; }

# every rank at exit: the job's one profile, which says so, and which the gate reads
rc=0
ranks 4 "$T/noexit" "$SG_BUILD/tests/mpi/trees" 3 noexit >/dev/null 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "noexit: the job hung"
[ "$(find "$T/noexit" -name '*.sgprof' | wc -l)" -eq 1 ] ||
	fail "noexit: expected the job's one profile"
expect_match "$(note "$T/noexit"/job.*.sgprof)" \
	'^reduced at exit: a rank never called MPI_Finalize' "noexit: the note"
expect_exit 0 "$SCALEGATE" analyze "$T/noexit"
expect_match "$out" 'program/solve/ring' "noexit: the analysis of the job's profile"

# rank 1 exits alone while the others work on: it gives up after the timeout, writes its own profile
rc=0
ranks 4 "$T/early" "$SG_BUILD/tests/mpi/trees" 3 early >/dev/null 2>"$T/early.err" || rc=$?
[ "$rc" -ne 124 ] || fail "early: the job hung"
p=$(rank_profile "$T/early" 1)
expect_match "$(note "$p")" '^this rank.s own profile: the in-job reduction did not complete' \
	"early: rank 1's note"
[ "$(grep -c 'were not reduced into one' "$T/early.err")" -eq 1 ] ||
	fail "early: one warning, got: $(cat "$T/early.err")"
# the run is refused, not judged with one rank
expect_exit 2 "$SCALEGATE" analyze "$T/early"
expect_match "$out" '1 profiles for 4 ranks' "early: the gate names the missing ranks"

# rank 1 killed before MPI_Finalize: the launcher ends the job, no profile is left half-written
rc=0
ranks 4 "$T/kill" "$SG_BUILD/tests/mpi/trees" 3 kill >/dev/null 2>&1 || rc=$?
[ "$rc" -ne 124 ] && [ "$rc" -ne 0 ] || fail "kill: exit $rc (124: hung)"
[ -z "$(find "$T/kill" -name '*.tmp' 2>/dev/null)" ] || fail "kill: a half-written profile"

# rank 2 leaves an interval open: the ranks' own profiles, rank 2's naming the site, which the gate
# reads
ranks 4 "$T/mistake" "$SG_BUILD/tests/mpi/trees" 3 mistake >/dev/null 2>&1 ||
	fail "mistake: the job failed"
expect_profiles "$T/mistake" 4
expect_match "$(note "$(rank_profile "$T/mistake" 0)")" 'a rank made an annotation mistake' \
	"mistake: the note"
expect_match "$(cat "$(rank_profile "$T/mistake" 2)")" $'^error\tunclosed\t' \
	"mistake: rank 2's error record"
expect_exit 0 "$SCALEGATE" analyze "$T/mistake"
