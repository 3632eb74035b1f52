/* Four CPU-bound threads (more runnable threads than this machine's 2 CPUs), each burning a
   fixed amount of its own CPU time in its own function (contend_0..3), each reporting the
   kernel's accounting of itself (clock_truth.h): user/system time, run-queue delay, lifetime
   from its creation. argv: truth-file [ms-per-thread] */
#include "clock_truth.h"

#include <stdlib.h>

static long g_ms = 250;
static long long g_created[4];

#define CONTEND(N)                                                   \
  __attribute__((noinline)) void contend_##N(void) {                 \
    burn_cpu_ms(g_ms + 50 * N);                                      \
    NO_TAIL();                                                       \
  }                                                                  \
  static void* run_##N(void* arg) {                                  \
    contend_##N();                                                   \
    truth_thread("contend_" #N, g_created[N]);                       \
    return arg;                                                      \
  }
CONTEND(0)
CONTEND(1)
CONTEND(2)
CONTEND(3)

int main(int argc, char** argv) {
  truth_open(argc, argv);
  if (argc > 2) g_ms = atol(argv[2]);
  long long start = now_ns();
  void* (*runs[4])(void*) = {run_0, run_1, run_2, run_3};
  pthread_t t[4];
  for (int i = 0; i < 4; i++) {
    g_created[i] = now_ns();
    pthread_create(&t[i], NULL, runs[i], NULL);
  }
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  truth_thread("main", start);
  truth_close();
  return 0;
}
