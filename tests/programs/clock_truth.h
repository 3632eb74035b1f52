/* Ground truth for the clock-profiling end-to-end tests: the kernel's own accounting of each
   thread, written by the thread itself, one line per thread, to the file named on the command
   line:
     thread <name> <tid> <user_ns> <system_ns> <cpu_ns> <run_delay_ns> <lifetime_ns>
   user/system: getrusage(RUSAGE_THREAD); cpu: CLOCK_THREAD_CPUTIME_ID (exact); run_delay:
   /proc/thread-self/schedstat (time runnable but not running); lifetime: CLOCK_MONOTONIC from
   the thread's start mark to the report. Also "value <name> <number>" lines for anything else
   a test compares with (measured wait times, counts). Only raw system calls in
   truth_thread_raw(), for clone()d threads without their own TLS. */
#ifndef CLOCK_TRUTH_H
#define CLOCK_TRUTH_H
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static FILE* g_truth;
static pthread_mutex_t g_truth_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile double g_sink;

static long long ts_ns(struct timespec t) { return t.tv_sec * 1000000000LL + t.tv_nsec; }
static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return ts_ns(t);
}
static long long thread_cpu_ns(void) {
  struct timespec t;
  syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &t);
  return ts_ns(t);
}

/* After a call that must keep its caller's frame on the stack (no tail call). */
#define NO_TAIL() __asm__ volatile("" ::: "memory")

/* Burns `ms` milliseconds of this thread's CPU time (checked every ~0.1 ms of work). */
__attribute__((noinline)) static void burn_cpu_ms(long ms) {
  long long end = thread_cpu_ns() + ms * 1000000LL;
  double x = 0;
  do {
    for (int i = 0; i < 100000; i++) x += (double)i * 0.5;
    __asm__ volatile("" : "+x"(x));
  } while (thread_cpu_ns() < end);
  g_sink = x;
}

struct truth_record {
  long tid;
  long long user_ns, system_ns, cpu_ns, delay_ns, lifetime_ns;
};

/* Fills r for the calling thread with raw system calls only. */
static void truth_thread_raw(struct truth_record* r, long long start_ns) {
  struct rusage ru;
  syscall(SYS_getrusage, RUSAGE_THREAD, &ru);
  r->tid = syscall(SYS_gettid);
  r->user_ns = ru.ru_utime.tv_sec * 1000000000LL + ru.ru_utime.tv_usec * 1000LL;
  r->system_ns = ru.ru_stime.tv_sec * 1000000000LL + ru.ru_stime.tv_usec * 1000LL;
  r->cpu_ns = thread_cpu_ns();
  r->delay_ns = 0;
  char path[64] = "/proc/thread-self/schedstat", buf[128];
  int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
  if (fd >= 0) {
    long n = syscall(SYS_read, fd, buf, sizeof buf - 1);
    syscall(SYS_close, fd);
    if (n > 0) {
      buf[n] = 0;
      char* p = buf;
      while (*p && *p != ' ') p++;
      long long d = 0;
      while (*p == ' ') p++;
      while (*p >= '0' && *p <= '9') d = d * 10 + (*p++ - '0');
      r->delay_ns = d;
    }
  }
  struct timespec t;
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
  r->lifetime_ns = ts_ns(t) - start_ns;
}

static void truth_write(const char* name, const struct truth_record* r) {
  pthread_mutex_lock(&g_truth_lock);
  if (g_truth)
    fprintf(g_truth, "thread %s %ld %lld %lld %lld %lld %lld\n", name, r->tid, r->user_ns, r->system_ns,
            r->cpu_ns, r->delay_ns, r->lifetime_ns);
  pthread_mutex_unlock(&g_truth_lock);
}

static void truth_thread(const char* name, long long start_ns) {
  struct truth_record r;
  truth_thread_raw(&r, start_ns);
  truth_write(name, &r);
}

static void truth_value(const char* name, double v) {
  pthread_mutex_lock(&g_truth_lock);
  if (g_truth) fprintf(g_truth, "value %s %.0f\n", name, v);
  pthread_mutex_unlock(&g_truth_lock);
}

static void truth_open(int argc, char** argv) {
  if (argc > 1) g_truth = fopen(argv[1], "w");
}
static void truth_close(void) {
  if (g_truth) fclose(g_truth);
  g_truth = NULL;
}
#endif
