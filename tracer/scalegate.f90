! scalegate.f90: the Fortran interface of the scalegate tracer ('use scalegate'), on the C API
! through bind(C).
!
! A region is its name, trailing blanks ignored. A Fortran string is no static pointer, so each call
! looks the name up in a per-thread cache (no lock); only a thread's first call with a name
! registers it, with the optional file and line (pass __FILE__, __LINE__ from a .F90).
! Compiled into libscalegate; the .mod file is for the gfortran that built it.
module scalegate
  use, intrinsic :: iso_c_binding, only: c_char, c_int, c_long, c_size_t, c_null_char
  implicit none
  private
  public :: sg_begin, sg_begin_tag, sg_end, sg_enabled, sg_write_profile

  interface sg_begin_tag
    module procedure sg_begin_tag_int, sg_begin_tag_long
  end interface

  interface
    function c_region_cached(name, len) result(r) bind(C, name='sg_region_cached')
      import :: c_char, c_int, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_size_t), value :: len
      integer(c_int) :: r
    end function
    function c_region_named(name, len, file, line) result(r) bind(C, name='sg_region_named')
      import :: c_char, c_int, c_size_t
      character(kind=c_char), intent(in) :: name(*), file(*)
      integer(c_size_t), value :: len
      integer(c_int), value :: line
      integer(c_int) :: r
    end function
    subroutine c_begin_tag(region, tag) bind(C, name='sg_begin_tag')
      import :: c_int, c_long
      integer(c_int), value :: region
      integer(c_long), value :: tag
    end subroutine
    subroutine c_begin(region) bind(C, name='sg_begin')
      import :: c_int
      integer(c_int), value :: region
    end subroutine
    subroutine c_end(region) bind(C, name='sg_end')
      import :: c_int
      integer(c_int), value :: region
    end subroutine
    function c_enabled() result(r) bind(C, name='sg_enabled')
      import :: c_int
      integer(c_int) :: r
    end function
    subroutine c_write_profile() bind(C, name='sg_write_profile')
    end subroutine
  end interface

contains

  ! The handle of region 'name': this thread's cache, else registration (a lock, once per thread).
  integer(c_int) function region_of(name, file, line)
    character(len=*), intent(in) :: name
    character(len=*), intent(in), optional :: file
    integer, intent(in), optional :: line
    integer(c_size_t) :: n

    n = name_len(name)
    region_of = c_region_cached(name, n)
    if (region_of == 0) region_of = region_register(name, n, file, line)
  end function

  ! The length of 'name' without trailing blanks, which Fortran does not count in a comparison
  ! (a loop, not len_trim: no call into the Fortran runtime).
  integer(c_size_t) function name_len(name)
    character(len=*), intent(in) :: name

    name_len = len(name, kind=c_size_t)
    do while (name_len > 0)
      if (ichar(name(name_len:name_len)) /= 32) exit
      name_len = name_len - 1
    end do
  end function

  integer(c_int) function region_register(name, n, file, line)
    character(len=*), intent(in) :: name
    integer(c_size_t), intent(in) :: n
    character(len=*), intent(in), optional :: file
    integer, intent(in), optional :: line
    character(kind=c_char, len=1024) :: cfile ! a C string; a longer path is cut
    integer :: k, cline

    cfile(1:2) = '?' // c_null_char
    if (present(file)) then
      k = min(len(file), len(cfile) - 1)
      cfile(1:k) = file(1:k)
      cfile(k + 1:k + 1) = c_null_char
    end if
    cline = 0
    if (present(line)) cline = line
    region_register = c_region_named(name, n, cfile, int(cline, c_int))
  end function

  ! Enters region 'name' on the calling thread.
  subroutine sg_begin(name, file, line)
    character(len=*), intent(in) :: name
    character(len=*), intent(in), optional :: file
    integer, intent(in), optional :: line

    call c_begin(region_of(name, file, line))
  end subroutine

  ! Enters the instance 'tag' of region 'name' (an iteration, a parameter value).
  subroutine sg_begin_tag_int(name, tag, file, line)
    character(len=*), intent(in) :: name
    integer, intent(in) :: tag
    character(len=*), intent(in), optional :: file
    integer, intent(in), optional :: line

    call c_begin_tag(region_of(name, file, line), int(tag, c_long))
  end subroutine

  subroutine sg_begin_tag_long(name, tag, file, line)
    character(len=*), intent(in) :: name
    integer(c_long), intent(in) :: tag
    character(len=*), intent(in), optional :: file
    integer, intent(in), optional :: line

    call c_begin_tag(region_of(name, file, line), tag)
  end subroutine

  ! Leaves region 'name', the innermost open one (a mismatch is reported and recovered from).
  subroutine sg_end(name)
    character(len=*), intent(in) :: name

    call c_end(region_of(name))
  end subroutine

  ! .true. when this process is measuring (SCALEGATE_OUT was set).
  logical function sg_enabled()
    sg_enabled = c_enabled() /= 0
  end function

  ! Writes the profile now instead of at exit (for programs that never return).
  subroutine sg_write_profile()
    call c_write_profile()
  end subroutine

end module scalegate
