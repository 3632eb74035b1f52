/* The special lines of annotated source and disassembly (seed-spec §10.7) that GCC code has
   on Linux: a function split into a hot part and an outlined `.cold` part, a compiler clone
   (`.constprop` / `.isra`) of a static function, and, stripped, `<static>@0x...` functions.
   Built by the tests with gcc -O2 -g (tests/e2e/source_special_test.cc).
   Usage: src_special [scale] */
#include <stdio.h>
#include <stdlib.h>

volatile double sink;
double limit = -1e300; /* never reached: the cold path below is never taken */
extern void bad_value(long i, double x) __attribute__((cold));

struct params {
  double divisor, offset;
  long pad[8];
};

__attribute__((noinline)) double guarded(long n) {
  double x = 1.0;
  for (long i = 0; i < n; i++) {
    if (x < limit) { /* COLD-PATH: calls a cold function; GCC moves it into guarded.cold */
      bad_value(i, x);
      exit(2);
    }
    x = x / 1.0000001 + 0.5; /* GUARDED-HOT */
  }
  return x;
}

/* Always called with the same k: GCC specialises it (scaled.constprop.0). */
static __attribute__((noinline)) double scaled(long n, double k) {
  double x = 1.0;
  for (long i = 0; i < n; i++) x = x / k + 0.5; /* CLONE-HOT */
  return x;
}

/* Only one field used through the pointer: GCC passes it by value (from_params.isra.0). */
static __attribute__((noinline)) double from_params(const struct params* p, long n) {
  double x = 1.0;
  double d = p->divisor;
  for (long i = 0; i < n; i++) x = x / d + 0.5; /* ISRA-HOT */
  return x;
}

void bad_value(long i, double x) { fprintf(stderr, "bad value %g at %ld\n", x, i); }

int main(int argc, char** argv) {
  long scale = argc > 1 ? atol(argv[1]) : 1;
  struct params p = {1.0000003, 0.0, {0}}, q = {1.0000004, 0.0, {0}};
  sink = guarded(20000000L * scale);
  sink += scaled(20000000L * scale, 1.0000002);
  sink += from_params(&p, 10000000L * scale);
  sink += from_params(&q, 10000000L * scale);
  return 0;
}
