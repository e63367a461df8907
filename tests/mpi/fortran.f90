! Known MPI calls from Fortran ('use mpi', the mpif.h-style bindings), for tests/cli/mpi-fortran.sh.
program fortran
  use mpi
  implicit none
  integer :: ierr, rank, ranks, left, right, k
  integer :: req(2), status(MPI_STATUS_SIZE)
  double precision :: d(100), dr(100), x(4), y(4)
  double precision, allocatable :: all(:)
  integer :: ibuf(1000)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  right = mod(rank + 1, ranks)
  left = mod(rank + ranks - 1, ranks)
  allocate(all(4 * ranks))
  d = rank
  x = 1.0d0

  ! irecv 800 + isend 800 bytes, one waitall
  call MPI_Irecv(dr, 100, MPI_DOUBLE_PRECISION, left, 0, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(d, 100, MPI_DOUBLE_PRECISION, right, 0, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  ! sendrecv: 80 + 80 bytes
  call MPI_Sendrecv(d, 10, MPI_DOUBLE_PRECISION, right, 1, dr, 10, MPI_DOUBLE_PRECISION, left, 1, &
                    MPI_COMM_WORLD, status, ierr)
  ! send 400 bytes, recv 400 bytes (irecv first, so one rank works too), wait
  call MPI_Irecv(ibuf, 100, MPI_INTEGER, left, 2, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Send(ibuf(101), 100, MPI_INTEGER, right, 2, MPI_COMM_WORLD, ierr)
  call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Bcast(ibuf, 1000, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)          ! root sends 4000
  call MPI_Reduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  do k = 1, 5
    call MPI_Allreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Allgather(x, 4, MPI_DOUBLE_PRECISION, all, 4, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, &
                     ierr)
  ! the root's block is in place: it counts as 32 bytes sent, 32 x ranks received
  if (rank == 0) then
    call MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 4, MPI_DOUBLE_PRECISION, 0, &
                    MPI_COMM_WORLD, ierr)
  else
    call MPI_Gather(x, 4, MPI_DOUBLE_PRECISION, all, 4, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, &
                    ierr)
  end if

  ! paused: not counted
  call MPI_Pcontrol(0)
  call MPI_Allreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Pcontrol(1)

  if (rank == 0) print '(a, f6.1)', 'fortran: allreduce ', y(1)
  call MPI_Finalize(ierr)
end program fortran
