! Known MPI calls through the mpi_f08 module, for tests/cli/mpi-fortran.sh.
program fortran08
  use mpi_f08
  implicit none
  integer :: rank, ranks, k
  double precision :: x(4), y(4)
  type(MPI_Request) :: req

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks)
  x = 1.0d0
  call MPI_Barrier(MPI_COMM_WORLD)
  do k = 1, 3
    call MPI_Allreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)   ! 32 bytes each way
  end do
  call MPI_Iallreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (rank == 0) print '(a, f6.1)', 'fortran08: allreduce ', y(1)
  call MPI_Finalize()
end program fortran08
