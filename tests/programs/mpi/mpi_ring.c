/* MPI test program for collect -m on (tests/e2e/trace_mpi_test.cc).
 *
 *   mpi_ring K B A WORK_MS SLOW [TRUTH_DIR]
 *
 * Every rank: MPI_Barrier; computes for WORK_MS of wall time (the SLOW rank 3x as long; -1:
 * none; wall time, so that on a loaded machine the slow rank still finishes last);
 * sends K messages of B bytes around the ring (MPI_Send to rank+1, MPI_Recv from rank-1; even
 * ranks send first); MPI_Allreduce of A doubles. With TRUTH_DIR, each rank writes
 * TRUTH_DIR/truth.<rank>: "rank size t0 t1 t3", CLOCK_MONOTONIC nanoseconds (one clock for every
 * rank of one machine) at the start and end of its compute phase and after its Allreduce. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long ns_of(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Computes for `ms` milliseconds of wall time. */
__attribute__((noinline)) double compute(long ms) {
  long long end = ns_of(CLOCK_MONOTONIC) + ms * 1000000LL;
  volatile double x = 1.0;
  while (ns_of(CLOCK_MONOTONIC) < end)
    for (int i = 0; i < 20000; ++i) x = x * 1.0000001 + 1e-9;
  return x;
}

__attribute__((noinline)) void ring(int k, int b, int rank, int size) {
  char* buf = calloc(b > 0 ? b : 1, 1);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int i = 0; i < k; ++i) {
    if (rank % 2 == 0) {
      MPI_Send(buf, b, MPI_BYTE, next, 7, MPI_COMM_WORLD);
      MPI_Recv(buf, b, MPI_BYTE, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, b, MPI_BYTE, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, b, MPI_BYTE, next, 7, MPI_COMM_WORLD);
    }
  }
  free(buf);
}

int main(int argc, char** argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: mpi_ring K B A WORK_MS SLOW [TRUTH_DIR]\n");
    return 2;
  }
  int k = atoi(argv[1]), b = atoi(argv[2]), a = atoi(argv[3]), slow = atoi(argv[5]);
  long work = atol(argv[4]);
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = ns_of(CLOCK_MONOTONIC);
  compute(rank == slow ? 3 * work : work);
  long long t1 = ns_of(CLOCK_MONOTONIC);
  ring(k, b, rank, size);
  double* in = calloc(a > 0 ? a : 1, sizeof(double));
  double* out = calloc(a > 0 ? a : 1, sizeof(double));
  for (int i = 0; i < a; ++i) in[i] = rank + i;
  MPI_Allreduce(in, out, a, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  long long t3 = ns_of(CLOCK_MONOTONIC);
  if (argc > 6) {
    char path[4096];
    snprintf(path, sizeof path, "%s/truth.%d", argv[6], rank);
    FILE* f = fopen(path, "w");
    if (f) {
      fprintf(f, "%d %d %lld %lld %lld\n", rank, size, t0, t1, t3);
      fclose(f);
    }
  }
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
