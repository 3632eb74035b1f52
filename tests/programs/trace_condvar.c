// link: -lpthread
// Condition-variable waits: `consumer` waits on a condition variable three times while the
// producer sleeps 100 ms before each signal (3 waits, ~0.3 s), then `timed_out` waits twice with
// a 50 ms timeout that expires (2 waits, ~0.1 s). Writes "layout compat|new" to argv[1]: which
// implementation the calls reached, read from the condition variable itself (the compat one
// keeps a pointer to an allocated new-style condition variable in its first word), and the wall
// time the program itself measured around each function's waits ("consumer_ns", "timed_ns"):
// the ground truth for the traced wait times on a loaded machine, where a wait overshoots.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef TRACE_COMPAT_CONDVAR
// Bind the GLIBC_2.2.5 (pre-NPTL-rewrite) condition variable ABI, as old binaries do.
__asm__(".symver pthread_cond_wait, pthread_cond_wait@GLIBC_2.2.5");
__asm__(".symver pthread_cond_timedwait, pthread_cond_timedwait@GLIBC_2.2.5");
__asm__(".symver pthread_cond_signal, pthread_cond_signal@GLIBC_2.2.5");
__asm__(".symver pthread_cond_init, pthread_cond_init@GLIBC_2.2.5");
__asm__(".symver pthread_cond_destroy, pthread_cond_destroy@GLIBC_2.2.5");
#endif

static pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_c;
static int g_ready;
static long long g_consumer_ns, g_timed_ns;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

static void* producer(void* arg) {
  (void)arg;
  for (int i = 0; i < 3; ++i) {
    sleep_ms(100);
    pthread_mutex_lock(&g_m);
    g_ready++;
    pthread_cond_signal(&g_c);
    pthread_mutex_unlock(&g_m);
  }
  return NULL;
}

__attribute__((noinline)) static void consumer(void) {
  for (int taken = 0; taken < 3; ++taken) {
    pthread_mutex_lock(&g_m);
    while (g_ready == 0) {
      long long start = now_ns();
      pthread_cond_wait(&g_c, &g_m);
      g_consumer_ns += now_ns() - start;
    }
    g_ready--;
    pthread_mutex_unlock(&g_m);
  }
}

__attribute__((noinline)) static int timed_out(void) {
  int timeouts = 0;
  for (int i = 0; i < 2; ++i) {
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_nsec += 50 * 1000000L;
    if (at.tv_nsec >= 1000000000L) at.tv_sec++, at.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&g_m);
    long long start = now_ns();
    if (pthread_cond_timedwait(&g_c, &g_m, &at) != 0) timeouts++;
    g_timed_ns += now_ns() - start;
    pthread_mutex_unlock(&g_m);
  }
  return timeouts;
}

int main(int argc, char** argv) {
  pthread_cond_init(&g_c, NULL);
  pthread_t t;
  if (pthread_create(&t, NULL, producer, NULL) != 0) return 1;
  consumer();
  pthread_join(t, NULL);
  int timeouts = timed_out();
  uintptr_t first;
  memcpy(&first, &g_c, sizeof first);
  if (argc > 1) {
    FILE* f = fopen(argv[1], "w");
    if (!f) return 1;
    fprintf(f, "layout %s\ntimeouts %d\nconsumer_ns %lld\ntimed_ns %lld\n", first > 65536 ? "compat" : "new",
            timeouts, g_consumer_ns, g_timed_ns);
    fclose(f);
  }
  pthread_cond_destroy(&g_c);
  return 0;
}
