// Test program for symbols_test: an inline chain, a constprop clone, a PLT call.
// The test finds lines by the LINE: markers, so edits here need no test changes.
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) int square(int a) {
  return a * a + (a >> 3);  // LINE:square_body
}

static inline __attribute__((always_inline)) int add_sq(int a, int b) {
  int s = square(a + b);  // LINE:add_sq_calls_square
  return s ^ b;
}

__attribute__((noinline)) int compute(int x, int y) {
  int r = add_sq(x, y);  // LINE:compute_calls_add_sq
  return r * 7 + y;
}

// Called only with k == 3, so IPA-CP makes scale.constprop.0.
static __attribute__((noinline)) int scale(int x, int k) {
  int t = 0;
  for (int i = 0; i < x; ++i) t += (i * k) ^ (t >> 2);  // LINE:scale_loop
  return t;
}

int main(int argc, char** argv) {
  int x = argc > 1 ? atoi(argv[1]) : 5;
  int v = compute(x, argc) + scale(x, 3) + scale(x + 1, 3);
  puts("inline test");
  return v == 12345;
}
