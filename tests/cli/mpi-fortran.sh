# Fortran programs are captured: 'use mpi' linked with the static library or preloaded, mpi_f08
# linked with the shared library or preloaded (tests/mpi/fortran*.f90).
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

msg="the Fortran test programs were not built (gfortran and the MPI Fortran library needed)"
[ -x "$SG_BUILD/tests/mpi/fortran" ] && pass ||
	fail "$msg"

# check KIND COUNT SENT RECV (all at level 0: Fortran has no interval API)
check() {
	expect_eq "$what rank $r: $1 count" "$(mpi_value "$p" program "$1" count)" "$2"
	expect_eq "$what rank $r: $1 bytes sent" "$(mpi_value "$p" program "$1" bytes_sent)" "$3"
	expect_eq "$what rank $r: $1 bytes received" "$(mpi_value "$p" program "$1" bytes_recv)" \
		"$4"
}

ranks 2 "$T/static" "$SG_BUILD/tests/mpi/fortran" >/dev/null
ranks 2 "$T/preload" -x LD_PRELOAD="$preload" "$SG_BUILD/tests/mpi/fortran-plain" >/dev/null
for what in static preload; do
	expect_profiles "$T/$what" 2
	for r in 0 1; do
		p=$(rank_profile "$T/$what" $r)
		root=$((r == 0))
		check send 1 400 0
		check isend 1 800 0
		check irecv 2 0 1200
		check sendrecv 1 80 80
		check wait 2 0 0
		check barrier 1 0 0
		check bcast 1 $((4000 * root)) $((4000 * (1 - root)))
		check reduce 1 32 $((32 * root))
		check allreduce 6 192 192 \
			# 5 + 1 with MPI_IN_PLACE; the one between MPI_Pcontrol(0) and (1) is not
			# counted
		check allgather 1 32 64
		check gather 1 32 $((64 * root))
	done
done

ranks 2 "$T/f08" "$SG_BUILD/tests/mpi/fortran08" >/dev/null
ranks 2 "$T/f08-preload" -x LD_PRELOAD="$preload" "$SG_BUILD/tests/mpi/fortran08-plain" >/dev/null
for what in f08 f08-preload; do
	expect_profiles "$T/$what" 2
	for r in 0 1; do
		p=$(rank_profile "$T/$what" $r)
		check barrier 1 0 0
		check allreduce 3 96 96
		check icollective 1 32 32
		check wait 1 0 0
	done
done

# Exact mode from Fortran: the barrier before each collective is timed as waiting.
SCALEGATE_MPI_WAIT=exact ranks 2 "$T/exact" "$SG_BUILD/tests/mpi/fortran" >/dev/null
p=$(rank_profile "$T/exact" 0) r=0 what=exact
check allreduce 6 192 192
[ "$(mpi_value "$p" program allreduce wait)" != - ] && pass ||
	fail "exact mode: allreduce wait not captured from Fortran"
