/* er_src on a relocatable object (issue 15 item 8; in parts/, so never linked as a program):
   tests/e2e/er_src_reloc_test.cc compiles
   this file with `gcc -g -O2 -c` (twice: with and without -ffunction-sections) and compares
   er_src's functions, lines and disassembly of the .o with nm, objdump and the markers below.
   Not linked: vec_report is undefined, so its call stays a relocation. */
#include <stddef.h>

extern void vec_report(const char* what, double value);

__attribute__((noinline)) double vec_dot(const double* a, const double* b, size_t n) {
  double s = 0.0;                                  /* DOT_INIT */
  for (size_t i = 0; i < n; i++) s += a[i] * b[i]; /* DOT_LOOP */
  return s;                                        /* DOT_RETURN */
}

void vec_scale(double* a, double k, size_t n) {
  for (size_t i = 0; i < n; i++) a[i] *= k; /* SCALE_LOOP */
}

static double vec_norm2(const double* a, size_t n) { return vec_dot(a, a, n); /* NORM_CALL */ }

double vec_report_norm(const double* a, size_t n) {
  double r = vec_norm2(a, n); /* REPORT_NORM */
  vec_report("norm2", r);     /* REPORT_CALL */
  return r;
}

int main(void) { return 0; /* MAIN_RETURN */ }
