/* Off-CPU time that is neither a lock nor a CPU wait: main sleeps in nanosleep (sleep_main),
   a second thread blocks in read() on a pipe until main writes to it (wait_pipe). Truth: the
   time each spent asleep, i.e. the wall time of its blocking calls minus its CPU time and
   run-queue delay during them (value sleep_main_ns, value wait_pipe_ns). argv: truth-file */
#include "clock_truth.h"

static int g_pipe[2];

static long long sched_delay_ns(void) {
  struct truth_record r;
  truth_thread_raw(&r, 0);
  return r.delay_ns;
}

/* Wall time minus CPU and run-queue delay over [before, after]. */
struct span {
  long long wall, cpu, delay;
};
static struct span span_now(void) {
  struct span s = {now_ns(), thread_cpu_ns(), sched_delay_ns()};
  return s;
}
static long long asleep_ns(struct span a, struct span b) {
  return (b.wall - a.wall) - (b.cpu - a.cpu) - (b.delay - a.delay);
}

__attribute__((noinline)) long long sleep_main(void) {
  struct span a = span_now();
  for (int i = 0; i < 20; i++) {
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
  }
  return asleep_ns(a, span_now());
}

__attribute__((noinline)) long long wait_pipe(void) {
  struct span a = span_now();
  char c;
  if (read(g_pipe[0], &c, 1) != 1) return -1;
  return asleep_ns(a, span_now());
}

static void* reader(void* arg) {
  truth_value("wait_pipe_ns", (double)wait_pipe());
  return arg;
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  if (pipe(g_pipe) != 0) return 2;
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  truth_value("sleep_main_ns", (double)sleep_main());
  if (write(g_pipe[1], "x", 1) != 1) return 3;
  pthread_join(t, NULL);
  truth_close();
  return 0;
}
