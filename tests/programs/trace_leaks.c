// Heap tracing ground truth: exactly 37 leaks of 100 bytes from leak_small, 5 of 1000 bytes from
// leak_big; every other block (every allocation function, realloc chains) is freed. No stdio
// (its buffers are never freed) and no threads (their TLS vectors are never freed).
// Usage: trace_leaks
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

void* volatile g_keep[64];
void* volatile g_sink;
static void* keep(void* p) {
  g_sink = p;
  return g_sink;
}

__attribute__((noinline)) void leak_small(int i) { g_keep[i] = malloc(100); }
__attribute__((noinline)) void leak_big(int i) { g_keep[40 + i] = malloc(1000); }

// 1000 blocks of 64 bytes, all freed: allocs shows them at this stack, leaks does not.
__attribute__((noinline)) void churn(void) {
  void* p[1000];
  for (int i = 0; i < 1000; ++i) p[i] = keep(malloc(64));
  for (int i = 0; i < 1000; ++i) free(p[i]);
}

// Every allocation function once, every block released. Each block goes through a volatile
// sink first, or the compiler would drop an allocation that is only freed (or fold
// realloc(NULL, n) into malloc).
__attribute__((noinline)) void every_function(void) {
  void* a = keep(calloc(10, 30));
  void* b = keep(realloc(keep(NULL), 50));
  b = keep(realloc(b, 5000));
  b = keep(realloc(b, 20));
  void* c = keep(reallocarray(keep(NULL), 4, 25));
  void* d = keep(memalign(64, 128));
  void* e = keep(aligned_alloc(256, 512));
  void* f = NULL;
  if (posix_memalign(&f, 32, 96) != 0) abort();
  keep(f);
  void* g = keep(valloc(300));
  void* h = keep(pvalloc(400));
  char* s = keep(strdup("twelve bytes"));  // libc's strdup allocates through malloc
  free(a);
  free(b);
  free(c);
  free(d);
  free(e);
  free(f);
  free(g);
  free(h);
  free(s);
  free(keep(NULL));
  void* z = keep(malloc(10));
  z = keep(realloc(z, 0));  // frees z
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
