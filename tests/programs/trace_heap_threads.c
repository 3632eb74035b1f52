// link: -lpthread
// Heap tracing from many threads: 16 threads each allocate 2000 blocks, leak 3 of 24 bytes from
// thread_leak and hand 100 blocks of 48 bytes to main, which frees them after the joins. Writes
// the number of threads to argv[1] ("threads N").
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 16
static void* g_handed[THREADS][100];
void* volatile g_leaked[THREADS][3];

__attribute__((noinline)) static void thread_leak(int t) {
  for (int i = 0; i < 3; ++i) g_leaked[t][i] = malloc(24);
}

__attribute__((noinline)) static void hand_over(int t) {
  for (int i = 0; i < 100; ++i) g_handed[t][i] = malloc(48);
}

static void* worker(void* arg) {
  int t = (int)(long)arg;
  void* p[64] = {0};
  for (int i = 0; i < 2000; ++i) {
    free(p[i & 63]);
    p[i & 63] = malloc(16 + (i & 255));
  }
  for (int i = 0; i < 64; ++i) free(p[i]);
  thread_leak(t);
  hand_over(t);
  return NULL;
}

int main(int argc, char** argv) {
  pthread_t th[THREADS];
  for (long i = 0; i < THREADS; ++i)
    if (pthread_create(&th[i], NULL, worker, (void*)i) != 0) return 1;
  for (int i = 0; i < THREADS; ++i) pthread_join(th[i], NULL);
  for (int t = 0; t < THREADS; ++t)
    for (int i = 0; i < 100; ++i) free(g_handed[t][i]);
  if (argc > 1) {
    FILE* f = fopen(argv[1], "w");
    if (!f) return 1;
    fprintf(f, "threads %d\n", THREADS);
    fclose(f);
  }
  return 0;
}
