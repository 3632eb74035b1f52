! Fortran MPI program for collect -m on (tests/e2e/trace_mpi_test.cc): the Fortran bindings
! (mpi_send_ ...) are traced by their own wrappers. 3 messages of 100 doubles around the ring,
! an Allreduce of 4 doubles, a Barrier.
program fring
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, next, prev, i
  integer :: status(MPI_STATUS_SIZE)
  double precision :: buf(100), a(4), b(4)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  buf = rank
  do i = 1, 3
    if (mod(rank, 2) == 0) then
      call MPI_Send(buf, 100, MPI_DOUBLE_PRECISION, next, 5, MPI_COMM_WORLD, ierr)
      call MPI_Recv(buf, 100, MPI_DOUBLE_PRECISION, prev, 5, MPI_COMM_WORLD, status, ierr)
    else
      call MPI_Recv(buf, 100, MPI_DOUBLE_PRECISION, prev, 5, MPI_COMM_WORLD, status, ierr)
      call MPI_Send(buf, 100, MPI_DOUBLE_PRECISION, next, 5, MPI_COMM_WORLD, ierr)
    end if
  end do
  a = rank
  call MPI_Allreduce(a, b, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program
