! The Fortran interface's overhead: ns per sg_begin/sg_end pair by name (use scalegate), beside
! the C API's pair by handle and an empty loop, interleaved run by run in one process.
program overhead_f
  use, intrinsic :: iso_c_binding, only: c_int, c_char, c_null_char
  use scalegate
  implicit none
  interface
    function c_region(name, file, line) result(r) bind(C, name='sg_region')
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*), file(*)
      integer(c_int), value :: line
      integer(c_int) :: r
    end function
    subroutine c_begin(region) bind(C, name='sg_begin')
      import :: c_int
      integer(c_int), value :: region
    end subroutine
    subroutine c_end(region) bind(C, name='sg_end')
      import :: c_int
      integer(c_int), value :: region
    end subroutine
  end interface
  integer, parameter :: runs = 7, pairs = 2000000
  double precision :: by_name(runs), by_handle(runs), empty(runs)
  integer(c_int) :: h
  integer :: r, i
  integer(8) :: t0, t1, rate
  integer, volatile :: sink

  h = c_region('pair_handle' // c_null_char, __FILE__ // c_null_char, __LINE__)
  call system_clock(count_rate=rate)
  do r = 1, runs
    call system_clock(t0)
    do i = 1, pairs
      call sg_begin('pair')
      call sg_end('pair')
    end do
    call system_clock(t1)
    by_name(r) = dble(t1 - t0) / rate / pairs * 1d9

    call system_clock(t0)
    do i = 1, pairs
      call c_begin(h)
      call c_end(h)
    end do
    call system_clock(t1)
    by_handle(r) = dble(t1 - t0) / rate / pairs * 1d9

    call system_clock(t0)
    do i = 1, pairs
      sink = i
    end do
    call system_clock(t1)
    empty(r) = dble(t1 - t0) / rate / pairs * 1d9
  end do
  call report('Fortran pair by name (use scalegate)', by_name)
  call report('Fortran pair by handle (C API, bind(C))', by_handle)
  call report('Fortran empty loop iteration', empty)

contains

  ! One line in the format of the C benchmarks: median, min, max over the runs.
  subroutine report(what, v)
    character(len=*), intent(in) :: what
    double precision, intent(inout) :: v(:)
    double precision :: t
    character(len=44) :: label
    integer :: a, b

    do a = 2, size(v) ! insertion sort
      t = v(a)
      b = a - 1
      do while (b >= 1)
        if (v(b) <= t) exit
        v(b + 1) = v(b)
        b = b - 1
      end do
      v(b + 1) = t
    end do
    label = what
    write (*, '(a, " median ", f8.2, " ns   min ", f8.2, "   max ", f8.2, "   (", i0, " runs)")') &
      label, v(size(v) / 2 + 1), v(1), v(size(v)), size(v)
  end subroutine
end program overhead_f
