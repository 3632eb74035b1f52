/* Ping-pong of N small messages between ranks 0 and 1 (bench/mpi_trace_cost.sh): the cost of
 * tracing an MPI call is the difference of its run time with and without collect -m on.
 *
 *   mpi_pingpong N BYTES          ranks 0 and 1 exchange N messages each way
 *   mpi_pingpong N BYTES iprobe   every rank calls MPI_Iprobe N times (no partner, no waiting:
 *                                 the tracer's own cost without the scheduler's noise)
 *
 * Rank 0 prints "calls=<MPI calls of the loop> seconds=<wall time of the loop>
 * cpu_seconds=<the process's CPU time in the loop>" (on a shared machine the CPU time is the
 * stable measure: the wall time includes waiting for a CPU). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  int bytes = argc > 2 ? atoi(argv[2]) : 8;
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char buf[1024] = {0};
  if (bytes > (int)sizeof buf) bytes = sizeof buf;
  MPI_Barrier(MPI_COMM_WORLD);
  struct timespec a, b, ca, cb;
  clock_gettime(CLOCK_MONOTONIC, &a);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
  int iprobe = argc > 3 && argv[3][0] == 'i';
  for (long i = 0; i < n && iprobe; ++i) {
    int flag;
    MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  }
  for (long i = 0; i < n && !iprobe; ++i) {
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  }
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
  clock_gettime(CLOCK_MONOTONIC, &b);
  if (rank == 0)
    printf("calls=%ld seconds=%.6f cpu_seconds=%.6f\n", iprobe ? n : 2 * n,
           (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
           (cb.tv_sec - ca.tv_sec) + (cb.tv_nsec - ca.tv_nsec) / 1e9);
  MPI_Finalize();
  return 0;
}
