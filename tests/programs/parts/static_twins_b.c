/* The second static work() of static_twins (../static_twins.c): half the iterations of the
   first. Only its exported caller run_b is visible outside this file. */
static __attribute__((noinline, noclone)) double work(long n) {
  double x = 2.0;
  for (long i = 0; i < n; i++) x = x / 1.0000002 + 0.25; /* TWIN-B */
  return x;
}

__attribute__((noinline)) double run_b(long n) { return work(n) + 1.0; }
