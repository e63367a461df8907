! heat: an OpenMP Fortran solver for the heat equation on an N x N grid, annotated with 'use scalegate'.
!
!   usage: heat THREADS N [STEPS]
!   knob:  SG_KNOB_SERIAL=1 computes the norm of the change in a serial loop
!          (the regression "the solver now has a serial section").
! Built from a .F90 file, so the preprocessor gives each region its __FILE__ and __LINE__.
program heat
  use omp_lib
  use scalegate
  implicit none
  integer :: threads, n, steps, it, i, j
  logical :: serial
  double precision, allocatable :: u(:, :), v(:, :)
  double precision :: change
  character(len=32) :: arg

  if (command_argument_count() < 2) then
    write (0, '(a)') 'usage: heat THREADS N [STEPS]'
    stop 2
  end if
  call get_command_argument(1, arg)
  read (arg, *) threads
  call get_command_argument(2, arg)
  read (arg, *) n
  steps = 50
  if (command_argument_count() > 2) then
    call get_command_argument(3, arg)
    read (arg, *) steps
  end if
  if (threads < 1 .or. n < 3 .or. steps < 1) then
    write (0, '(a)') 'heat: THREADS >= 1, N >= 3, STEPS >= 1'
    stop 2
  end if
  call get_environment_variable('SG_KNOB_SERIAL', arg)
  serial = trim(arg) == '1'
  call omp_set_num_threads(threads)

  allocate (u(n, n), v(n, n))
  u = 0
  u(:, 1) = 1 ! a hot edge
  v = u

  call sg_begin('solve', __FILE__, __LINE__)
  do it = 1, steps
    call sg_begin('sweep', __FILE__, __LINE__)
    !$omp parallel do private(i)
    do j = 2, n - 1
      do i = 2, n - 1
        v(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
    !$omp end parallel do
    call sg_end('sweep')

    call sg_begin('norm', __FILE__, __LINE__)
    change = 0
    if (serial) then
      do j = 2, n - 1
        do i = 2, n - 1
          change = max(change, abs(v(i, j) - u(i, j)))
        end do
      end do
    else
      !$omp parallel do private(i) reduction(max:change)
      do j = 2, n - 1
        do i = 2, n - 1
          change = max(change, abs(v(i, j) - u(i, j)))
        end do
      end do
      !$omp end parallel do
    end if
    call sg_end('norm')

    call sg_begin('copy', __FILE__, __LINE__)
    !$omp parallel do private(i)
    do j = 2, n - 1
      do i = 2, n - 1
        u(i, j) = v(i, j)
      end do
    end do
    !$omp end parallel do
    call sg_end('copy')
  end do
  call sg_end('solve')

  write (*, '(a, i0, a, es10.3)') 'heat: ', steps, ' steps, last change ', change
end program heat
