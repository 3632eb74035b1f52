/* A library a program dlopens, that starts its own thread to burn CPU (its pthread_create
   reference is this library's), and that the program then dlcloses. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;
static long g_ms;
static long long g_cpu_ns;

static long long cpu_ns(void) {
  struct timespec t;
  syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

__attribute__((noinline)) void dl_worker_spin(long ms) {
  long long end = cpu_ns() + ms * 1000000LL;
  double x = 0;
  do {
    for (int i = 0; i < 100000; i++) x += (double)i * 0.5;
    __asm__ volatile("" : "+x"(x));
  } while (cpu_ns() < end);
  sink = x;
}

static void* worker(void* arg) {
  dl_worker_spin(g_ms);
  g_cpu_ns = cpu_ns();
  __asm__ volatile("" ::: "memory");
  return arg;
}

/* Runs the worker thread to its end; returns its CPU time in ns. */
long long dl_worker_run(long ms) {
  g_ms = ms;
  pthread_t t;
  if (pthread_create(&t, NULL, worker, NULL) != 0) return -1;
  pthread_join(t, NULL);
  return g_cpu_ns;
}
