// Heap tracing ground truth: exactly 37 leaks of 100 bytes from leak_small, 5 of 1000 bytes from
// leak_big; every other block (every allocation function, realloc chains) is freed. No stdio
// (its buffers are never freed) and no threads (their TLS vectors are never freed).
// Usage: trace_leaks
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

void* volatile g_keep[64];

__attribute__((noinline)) void leak_small(int i) { g_keep[i] = malloc(100); }
__attribute__((noinline)) void leak_big(int i) { g_keep[40 + i] = malloc(1000); }

// 1000 blocks of 64 bytes, all freed: allocs shows them at this stack, leaks does not.
__attribute__((noinline)) void churn(void) {
  void* p[1000];
  for (int i = 0; i < 1000; ++i) p[i] = malloc(64);
  for (int i = 0; i < 1000; ++i) free(p[i]);
}

// Every allocation function once, every block released.
__attribute__((noinline)) void every_function(void) {
  void* a = calloc(10, 30);
  void* b = realloc(NULL, 50);
  b = realloc(b, 5000);
  b = realloc(b, 20);
  void* c = reallocarray(NULL, 4, 25);
  void* d = memalign(64, 128);
  void* e = aligned_alloc(256, 512);
  void* f = NULL;
  if (posix_memalign(&f, 32, 96) != 0) abort();
  void* g = valloc(300);
  void* h = pvalloc(400);
  char* s = strdup("twelve bytes");  // libc's strdup allocates through malloc
  free(a);
  free(b);
  free(c);
  free(d);
  free(e);
  free(f);
  free(g);
  free(h);
  free(s);
  free(NULL);
  void* z = malloc(10);
  z = realloc(z, 0);  // frees z
  free(z);
}

// Volatile bounds keep each loop one call site (an unrolled loop would give five stacks).
volatile int g_small = 37, g_big = 5;

int main(void) {
  for (int i = 0; i < g_small; ++i) leak_small(i);
  for (int i = 0; i < g_big; ++i) leak_big(i);
  churn();
  every_function();
  return 0;
}
