# LD_PRELOAD of libscalegate-mpi.so into MPI binaries built without the tracer: level 0 and every
# MPI call.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

# -x: only the ranks get the library, not mpirun itself (it would write a profile of its own).
ranks 2 "$T/halo" -x LD_PRELOAD="$preload" "$SG_BUILD/examples/mpi_halo-plain" 10000 15 >/dev/null
expect_profiles "$T/halo" 2
for r in 0 1; do
	p=$(rank_profile "$T/halo" $r)
	expect_eq "rank $r: level 0 entered once" "$(stat_value "$p" program count)" 1
	expect_between "rank $r: level 0 time" "$(stat_value "$p" program time)" 1e-6 60
	expect_eq "rank $r: allreduces at level 0" "$(mpi_value "$p" program allreduce count)" 15
	expect_eq "rank $r: sendrecvs at level 0" "$(mpi_value "$p" program sendrecv count)" 30
	expect_eq "rank $r: sendrecv bytes" "$(mpi_value "$p" program sendrecv bytes_sent)" \
		$((8 * 15))
	expect_eq "rank $r: no intervals" "$(grep -c '^node' "$p")" 1
done

# The hybrid example, unmodified: its MPI calls and (with OpenMP capture) its parallel regions.
OMP_PROC_BIND=false ranks 2 "$T/hybrid" -x LD_PRELOAD="$preload" "$SG_BUILD/examples/hybrid-plain" \
	2 200 10 >/dev/null
expect_profiles "$T/hybrid" 2
for r in 0 1; do
	p=$(rank_profile "$T/hybrid" $r)
	expect_eq "hybrid rank $r: allreduces" "$(mpi_value "$p" program allreduce count)" 10
	expect_eq "hybrid rank $r: halo bytes (one row of 200 doubles per iteration)" \
		"$(mpi_value "$p" program sendrecv bytes_sent)" $((200 * 8 * 10))
	[ "$(meta "$p" omp)" != none ] && pass ||
		fail "hybrid rank $r: OpenMP regions not captured under LD_PRELOAD"
done

# Without SCALEGATE_OUT the preloaded library does nothing and writes nothing.
mkdir "$T/cwd"
(cd "$T/cwd" && env -u SCALEGATE_OUT timeout 300 mpirun --oversubscribe --bind-to none -np 2 \
	-x LD_PRELOAD="$preload" "$SG_BUILD/examples/mpi_halo-plain" 1000 5) >"$T/plain.out"
expect_match "$(cat "$T/plain.out")" '^mpi_halo: 2 ranks' "the program runs as without the tracer"
[ -z "$(ls -A "$T/cwd")" ] && pass ||
	fail "files were written without SCALEGATE_OUT: $(ls -A "$T/cwd")"

# One rank without a launcher (Open MPI's singleton start forks orted, which inherits the
# environment), behind a wrapper that inherits LD_PRELOAD too: only the rank writes a profile (issue
# 12).
SCALEGATE_OUT="$T/single" LD_PRELOAD="$preload" timeout 300 "$SG_BUILD/examples/mpi_halo-plain" \
	1000 5 >/dev/null
expect_profiles "$T/single" 1
expect_exit 0 "$SCALEGATE" analyze "$T/single"
expect_match "$out" 'Processors +1($|[^0-9])' "one rank, one processor"
# A process that loads the MPI capture and never initializes MPI is no rank.
SCALEGATE_OUT="$T/norank" LD_PRELOAD="$preload" /bin/true
[ ! -e "$T/norank" ] && pass || fail "a process that is no MPI rank wrote: $(ls "$T/norank")"
# The launchers' helpers are never measured, whichever tracer they load.
cp /bin/true "$T/orted"
SCALEGATE_OUT="$T/helper" LD_PRELOAD="$SG_BUILD/lib/libscalegate.so" "$T/orted"
[ ! -e "$T/helper" ] && pass || fail "orted wrote: $(ls "$T/helper")"
