# Fortran against an installed prefix: 'use scalegate' with gfortran and pkg-config; a region is its
# name (a reused string buffer makes two regions; trailing blanks do not count), tags of either
# integer kind, file and line from the preprocessor.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"
. "$(dirname "$0")/lang.bash"

[ -f "$P/include/scalegate.mod" ] && pass || fail "make install did not install scalegate.mod"
# The module is in the C library, yet C programs need no Fortran runtime.
if nm -D "$P/lib/libscalegate.so" | grep -q ' U _gfortran'; then fail \
	"libscalegate.so needs libgfortran"; fi
cat >"$T/prog.F90" <<'F90'
program prog
  use scalegate
  implicit none
  character(len=16) :: name
  integer :: i
  integer(8) :: big
  double precision :: x

  if (.not. sg_enabled()) stop 3
  x = 0
  call sg_begin('solve', __FILE__, __LINE__)
  do i = 1, 4
    call sg_begin_tag('step', mod(i, 2), __FILE__, __LINE__)
    !$omp parallel do reduction(+:x)
    do big = 1, 200000
      x = x + 1d-9 * big
    end do
    !$omp end parallel do
    call sg_end('step')
  end do
  call sg_end('solve')
  ! The same buffer holding two names: two regions, each entered twice; trailing blanks do not
  ! count.
  do i = 1, 4
    name = merge('alpha', 'beta ', mod(i, 2) == 1)
    call sg_begin(name)
    call sg_end(trim(name))
  end do
  big = 5000000000_8
  call sg_begin_tag('wide', big)
  !$omp parallel
  call sg_begin('team')   ! every thread of the team, each from its own cache
  call sg_end('team')
  !$omp end parallel
  call sg_end('wide')
  if (x <= 0) stop 1
end program prog
F90
gfortran -Wall -fopenmp $SAN "$T/prog.F90" $(pkg-config --cflags --libs scalegate) -o "$T/prog" && \
	pass ||
	fail "a Fortran program with 'use scalegate' did not build against the installed prefix"
SCALEGATE_OUT="$T/out" OMP_NUM_THREADS=2 "$T/prog" && pass || fail "the Fortran program failed"
t=$("$P/bin/scalegate" profile --tsv "$(one_profile "$T/out")")
[ "$(col "$t" program/solve 0 count)" = 1 ] && pass || fail "solve: $t"
[ "$(col "$t" 'program/solve/step[1]' 0 count)" = 2 ] && pass || fail "step, tag 1: $t"
[ "$(col "$t" 'program/solve/step[0]' 0 count)" = 2 ] && pass || fail "step, tag 0: $t"
[ "$(col "$t" program/alpha 0 count)" = 2 ] && pass || fail "alpha from a reused buffer: $t"
[ "$(col "$t" program/beta 0 count)" = 2 ] && pass || fail "beta from a reused buffer: $t"
[ "$(col "$t" 'program/wide[5000000000]/team' 0 count)" = 1 ] && pass ||
	fail "a 64-bit tag, a team's region: $t"
[ "$(col "$t" 'program/wide[5000000000]/team' 1 count)" = 1 ] && pass ||
	fail "the team's second thread: $t"
expect_exit 0 "$P/bin/scalegate" profile "$(one_profile "$T/out")"
expect_match "$out" '^  program/solve +[^ ]*prog.F90:11 ' "the file and line of a region"
expect_no_match "$out" 'warning' "annotation errors"
analyzed "$T/out" "the Fortran intervals" 'program/solve ' 'program/solve/step\[0\] ' \
	'program/beta '

# Without SCALEGATE_OUT, sg_enabled() is false (the program stops with 3).
expect_exit 3 env -u SCALEGATE_OUT "$T/prog"

# MPI Fortran: 'use mpi' and 'use scalegate' with mpif90 and scalegate-mpi; the allreduce lands in
# the interval.
cat >"$T/mpiprog.f90" <<'F90'
program mpiprog
  use mpi
  use scalegate
  implicit none
  integer :: ierr
  double precision :: x, y
  call MPI_Init(ierr)
  x = 1
  call sg_begin('sum')
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call sg_end('sum')
  call MPI_Finalize(ierr)
  if (y < 2) stop 1
end program mpiprog
F90
mpif90 -Wall $SAN "$T/mpiprog.f90" $(pkg-config --cflags --libs scalegate-mpi) -o "$T/mpiprog" && \
	pass ||
	fail "an MPI Fortran program with 'use scalegate' did not build with scalegate-mpi"
ranks 2 "$T/mpiout" "$T/mpiprog" && pass || fail "the MPI Fortran program failed"
t=$("$P/bin/scalegate" profile --tsv "$(rank_profile "$T/mpiout" 1)")
[ "$(col "$t" program/sum 0 count)" = 1 ] && pass || fail "rank 1's interval: $t"
expect_match "$t" 'program/sum.*allreduce' "the allreduce inside the Fortran interval"
