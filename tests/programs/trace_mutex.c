// link: -lpthread
// Sync-wait ground truth: `holder` locks a mutex and keeps it 200 ms, five times; each time
// `waiter` is already blocked in pthread_mutex_lock, so it waits ~200 ms: 5 waits, ~1.0 s. The
// program measures each wait itself and writes "waits N total_ns T" to argv[1]. argv[2], if
// given, replaces the 200 ms (the hold lasts 20 ms more: the time the waiter takes to block).
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t g_locked, g_done;
static long long g_measured_ns;
static int g_hold_ms = 200;

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

__attribute__((noinline)) static void wait_for_lock(void) {
  long long t0 = now_ns();
  pthread_mutex_lock(&g_lock);
  g_measured_ns += now_ns() - t0;
  pthread_mutex_unlock(&g_lock);
}

static void* waiter(void* arg) {
  (void)arg;
  for (int i = 0; i < 5; ++i) {
    sem_wait(&g_locked);
    sleep_ms(20);  // the holder is sleeping with the lock: block on it from here
    wait_for_lock();
    sem_post(&g_done);
  }
  return NULL;
}

__attribute__((noinline)) static void hold_lock(void) {
  pthread_mutex_lock(&g_lock);
  sem_post(&g_locked);
  sleep_ms(g_hold_ms + 20);
  pthread_mutex_unlock(&g_lock);
}

int main(int argc, char** argv) {
  if (argc > 2) g_hold_ms = atoi(argv[2]);
  sem_init(&g_locked, 0, 0);
  sem_init(&g_done, 0, 0);
  pthread_t t;
  if (pthread_create(&t, NULL, waiter, NULL) != 0) return 1;
  for (int i = 0; i < 5; ++i) {
    hold_lock();
    sem_wait(&g_done);
  }
  pthread_join(t, NULL);
  if (argc > 1) {
    FILE* f = fopen(argv[1], "w");
    if (!f) return 1;
    fprintf(f, "waits 5 total_ns %lld\n", g_measured_ns);
    fclose(f);
  }
  return 0;
}
