/* Four worker threads, each burning CPU in its own function, plus the main thread in its own.
   At exit the program writes the kernel's CPU accounting (per thread and for the process)
   to the file named by argv[1], for comparison with the profile:
     thread <name> <tid> <user_ns> <system_ns>
     process <user_ns> <system_ns>
   argv[2] sets the work (iterations of hot_a). With argv[3], the thread CPU time each hot
   function itself took (CLOCK_THREAD_CPUTIME_ID around the call) goes to that file as
   "<function> <ns>" lines: a thread's total also holds its start (under qemu-user the main
   thread's includes the emulator's start-up), the hot function's own time does not.       */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long g_iters = 150000000L;
static volatile double sink;
static FILE* g_out;
static FILE* g_hot;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static long long tv_ns(struct timeval tv) { return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL; }

static void report_thread(const char* name) {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  pthread_mutex_lock(&g_lock);
  if (g_out)
    fprintf(g_out, "thread %s %ld %lld %lld\n", name, (long)syscall(SYS_gettid), tv_ns(ru.ru_utime),
            tv_ns(ru.ru_stime));
  pthread_mutex_unlock(&g_lock);
}

#define HOT(NAME, FACTOR)                                          \
  __attribute__((noinline)) void NAME(void) {                      \
    double x = 0;                                                  \
    for (long i = 0; i < g_iters * FACTOR; i++) x += (double)i * 0.25; \
    sink = x;                                                      \
    __asm__ volatile("" ::: "memory");                             \
  }
HOT(hot_a, 1)
HOT(hot_b, 1)
HOT(hot_c, 2)
HOT(hot_d, 2)
HOT(hot_main, 1)

static long long thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void run_hot(void (*fn)(void), const char* name) {
  long long t0 = thread_cpu_ns();
  fn();
  long long t1 = thread_cpu_ns();
  pthread_mutex_lock(&g_lock);
  if (g_hot) fprintf(g_hot, "%s %lld\n", name, t1 - t0);
  pthread_mutex_unlock(&g_lock);
}

static void* worker(void* arg) {
  void (*fn)(void) = (void (*)(void))arg;
  const char* name = fn == hot_a ? "hot_a" : fn == hot_b ? "hot_b" : fn == hot_c ? "hot_c" : "hot_d";
  run_hot(fn, name);
  report_thread(name);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc > 1) g_out = fopen(argv[1], "w");
  if (argc > 2) g_iters = atol(argv[2]);
  if (argc > 3) g_hot = fopen(argv[3], "w");
  pthread_t t[4];
  void (*fns[4])(void) = {hot_a, hot_b, hot_c, hot_d};
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, (void*)fns[i]);
  run_hot(hot_main, "hot_main");
  report_thread("main");
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  if (g_out) {
    fprintf(g_out, "process %lld %lld\n", tv_ns(ru.ru_utime), tv_ns(ru.ru_stime));
    fclose(g_out);
  }
  if (g_hot) fclose(g_hot);
  return 0;
}
