// Heap tracing from the first allocation of the process: a .preinit_array function (run by the
// dynamic linker before any library's constructor, the collector's included) leaks 3 blocks of
// 77 bytes, a constructor leaks 2 of 55, main leaks 1 of 33. No stdio, no threads.
#include <stdlib.h>

void* volatile g_early[6];

__attribute__((noinline)) static void before_everything(void) {
  for (int i = 0; i < 3; ++i) g_early[i] = malloc(77);
}
__attribute__((section(".preinit_array"), used)) static void (*const g_preinit)(void) = before_everything;

__attribute__((constructor, noinline)) static void in_constructor(void) {
  for (int i = 0; i < 2; ++i) g_early[3 + i] = malloc(55);
}

__attribute__((noinline)) static void in_main(void) { g_early[5] = malloc(33); }

int main(void) {
  in_main();
  void* p = malloc(1000);  // freed: not a leak
  free(p);
  return 0;
}
