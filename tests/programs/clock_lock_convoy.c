/* A lock convoy: four threads take one mutex in turn and sleep while holding it, so each
   spends most of its life asleep in pthread_mutex_lock (convoy_lock). Truth: value lock_ns,
   the total time the threads spent asleep in convoy_lock (wall time of each call minus the
   thread's CPU time and run-queue delay during it), and value hold_ns, the total time asleep
   while holding the lock. argv: truth-file [iterations] */
#include "clock_truth.h"

#include <stdlib.h>

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static long g_iters = 25;
static long long g_lock_ns, g_hold_ns;

static long long delay_ns(void) {
  struct truth_record r;
  truth_thread_raw(&r, 0);
  return r.delay_ns;
}

__attribute__((noinline)) void convoy_lock(void) {
  pthread_mutex_lock(&g_mutex);
  NO_TAIL();
}

__attribute__((noinline)) void convoy_hold(void) {
  struct timespec ts = {0, 4 * 1000000L};
  nanosleep(&ts, NULL);
  NO_TAIL();
}

static void* worker(void* arg) {
  long long lock_ns = 0, hold_ns = 0;
  for (long i = 0; i < g_iters; i++) {
    long long w0 = now_ns(), c0 = thread_cpu_ns(), d0 = delay_ns();
    convoy_lock();
    long long w1 = now_ns(), c1 = thread_cpu_ns(), d1 = delay_ns();
    convoy_hold();
    long long w2 = now_ns(), c2 = thread_cpu_ns(), d2 = delay_ns();
    pthread_mutex_unlock(&g_mutex);
    lock_ns += (w1 - w0) - (c1 - c0) - (d1 - d0);
    hold_ns += (w2 - w1) - (c2 - c1) - (d2 - d1);
    burn_cpu_ms(1);
  }
  __atomic_add_fetch(&g_lock_ns, lock_ns, __ATOMIC_RELAXED);
  __atomic_add_fetch(&g_hold_ns, hold_ns, __ATOMIC_RELAXED);
  return arg;
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  if (argc > 2) g_iters = atol(argv[2]);
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  truth_value("lock_ns", (double)g_lock_ns);
  truth_value("hold_ns", (double)g_hold_ns);
  truth_close();
  return 0;
}
