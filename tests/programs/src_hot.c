/* Source/disassembly tests: a hot loop whose body line dominates (a chain of dependent
   divisions), a helper inlined from src_hot_helper.h, and a loop compilers vectorise.
   Built by the tests with gcc and clang at -O0 and -O2. Usage: src_hot [scale] */
#include <stdlib.h>

#include "src_hot_helper.h"

volatile double sink_d;
volatile unsigned long sink_u;
float va[1024], vb[1024];

__attribute__((noinline)) double hot_loop(long n) {
  double x = 1.0;
  /* One line: sampling skid moves time between the instructions of a loop, not out of it. */
  for (long i = 0; i < n; i++) x = x / 1.0000001 + 0.5; /* HOT: the divide chain */
  return x;
}

__attribute__((noinline)) unsigned long mix(long n) {
  unsigned long s = 0;
  for (long i = 0; i < n; i++) s += scramble((unsigned long)i); /* CALLS-INLINE */
  return s;
}

__attribute__((noinline)) void vec_loop(void) {
  for (int i = 0; i < 1024; i++) /* VECTOR-LOOP */
    va[i] = vb[i] * 2.0f + 1.0f;
}

int main(int argc, char** argv) {
  long scale = argc > 1 ? atol(argv[1]) : 1;
  sink_d = hot_loop(30000000L * scale);
  sink_u = mix(20000000L * scale);
  for (int r = 0; r < 2000; r++) vec_loop();
  sink_d += va[7];
  return 0;
}
