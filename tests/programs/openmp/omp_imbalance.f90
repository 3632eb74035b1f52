! The imbalance scenario of omp_imbalance.c in Fortran (gfortran -fopenmp): in each of COUNT
! parallel regions thread 0 runs work(3*UNIT), every other thread work(UNIT).
! Usage: omp_imbalance_f90 UNIT COUNT
module omp_work
  implicit none
  real(8) :: sink = 0
contains
  subroutine work(n)
    integer(8), intent(in) :: n
    integer(8) :: i
    real(8) :: x
    x = 0
    do i = 0, n - 1
      x = x + real(i, 8) * 1d-9
    end do
    sink = sink + x
  end subroutine work

  subroutine imbalance(unit, regions)
    use omp_lib
    integer(8), intent(in) :: unit
    integer, intent(in) :: regions
    integer :: r
    do r = 1, regions
      !$omp parallel
      if (omp_get_thread_num() == 0) then
        call work(3 * unit)
      else
        call work(unit)
      end if
      !$omp end parallel
    end do
  end subroutine imbalance
end module omp_work

program omp_imbalance_f90
  use omp_work
  implicit none
  character(len=32) :: arg
  integer(8) :: unit
  integer :: count
  call get_command_argument(1, arg)
  read (arg, *) unit
  call get_command_argument(2, arg)
  read (arg, *) count
  call imbalance(unit, count)
  print '(a,f4.1)', 'sink>0: ', merge(1d0, 0d0, sink > 0)
end program omp_imbalance_f90
