/* Issue 16 bench: a process with many mostly idle threads (as a JVM: ~25 threads, a few waking
   every 50 ms, the rest asleep) and one thread working. Runs argv[1] seconds (default 3) with
   argv[2] idle threads (default 24); the main thread burns CPU meanwhile. Prints the process CPU
   time in microseconds (getrusage RUSAGE_SELF, every thread). Under collect the sampler's cost
   is in the log (`sampler where=collect ... cpu_ns=`): collect looks at every thread each
   period, so its cost grows with the threads, not with the work. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int done;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void* idle(void* arg) {
  long wake_ms = (long)arg; /* 0: until the end */
  pthread_mutex_lock(&mu);
  while (!done) {
    if (!wake_ms) {
      pthread_cond_wait(&cv, &mu);
      continue;
    }
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += wake_ms * 1000000L;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&cv, &mu, &t);
  }
  pthread_mutex_unlock(&mu);
  return NULL;
}

int main(int argc, char** argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 3.0;
  int n = argc > 2 ? atoi(argv[2]) : 24;
  pthread_t* t = calloc((size_t)n, sizeof *t);
  for (int i = 0; i < n; ++i) pthread_create(&t[i], NULL, idle, (void*)(long)(i % 6 == 0 ? 50 : 0));
  volatile double x = 0;
  for (double end = now() + seconds; now() < end;)
    for (int i = 0; i < 100000; ++i) x = x + 1.0 / (i + 1);
  pthread_mutex_lock(&mu);
  done = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
  for (int i = 0; i < n; ++i) pthread_join(t[i], NULL);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  long long us = (long long)ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec +
                 (long long)ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec;
  printf("process_cpu_us=%lld\n", us);
  return 0;
}
