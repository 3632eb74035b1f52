/* For er_kernel -T: a worker thread reports its id, spins until the file named by argv[2]
   exists (so it is never asleep before), then runs 1 s of CPU time and sleeps 1 s, and
   reports how long the sleep took:
     value pid <pid>, value tid <tid> (flushed at once), value slept_ns <ns>,
     value cpu_ns <the thread's CPU time at its end>
   argv: truth-file go-file [run-ms] [sleep-ms] */
#include "clock_truth.h"

#include <stdlib.h>

static const char* g_go;
static long g_run_ms = 1000, g_sleep_ms = 1000;

__attribute__((noinline)) void sleep_phase(void) {
  struct timespec t = {g_sleep_ms / 1000, (g_sleep_ms % 1000) * 1000000L};
  long long start = now_ns();
  while (nanosleep(&t, &t) != 0) {
  }
  truth_value("slept_ns", (double)(now_ns() - start));
  NO_TAIL();
}

static void* worker(void* arg) {
  truth_value("tid", (double)syscall(SYS_gettid));
  fflush(g_truth);
  while (access(g_go, F_OK) != 0) burn_cpu_ms(1);
  burn_cpu_ms(g_run_ms);
  sleep_phase();
  truth_value("cpu_ns", (double)thread_cpu_ns());
  return arg;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  truth_open(argc, argv);
  g_go = argv[2];
  if (argc > 3) g_run_ms = atol(argv[3]);
  if (argc > 4) g_sleep_ms = atol(argv[4]);
  truth_value("pid", getpid());
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  truth_close();
  return 0;
}
