// sources: parts/static_twins_b.c
/* Two static functions named work() in one executable: this file's and the one in
   parts/static_twins_b.c. They must stay two functions (seed-spec §6.13, non-unique names),
   each with its own source. This file's work() does twice the work of the other (the same
   dependent divide chain, 2n against n iterations). Usage: static_twins [scale] */
#include <stdlib.h>

double run_b(long n);
volatile double sink;

static __attribute__((noinline, noclone)) double work(long n) {
  double x = 1.0;
  for (long i = 0; i < n; i++) x = x / 1.0000001 + 0.5; /* TWIN-A */
  return x;
}

int main(int argc, char** argv) {
  long scale = argc > 1 ? atol(argv[1]) : 1;
  sink = work(40000000L * scale);
  sink += run_b(20000000L * scale);
  return 0;
}
